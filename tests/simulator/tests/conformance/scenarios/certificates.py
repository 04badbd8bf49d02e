"""Scenarios of the rows under "SSL certificates, CSRs and groups", plus the helpers the
certificate tests share: a self-signed certificate made here, and a TLS server on the
loopback interface that presents it (SSL discovery really connects)."""

import datetime
import io
import os
import socket
import ssl
import tempfile
import threading
from contextlib import contextmanager

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from conformance.harness import scenario

PKI_ROOT = "/api/pki/restapi"
SSL_CERTIFICATE = "SSL certificate (list item)"
CERTIFICATE_DETAIL = "Certificate detail (item of `details`)"
WEB = "www.example.com"
DISCOVERED = "tls.example.test"


def self_signed(common_name, days=30):
    """``(certificate PEM, unencrypted key PEM)`` of a fresh EC self-signed certificate."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=days))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


@contextmanager
def tls_server(certificate_pem, key_pem, password=None, host="127.0.0.1"):
    """A TLS server on ``host`` presenting ``certificate_pem``; yields its port."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    with tempfile.TemporaryDirectory() as directory:
        certificate_path, key_path = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        for path, data in ((certificate_path, certificate_pem), (key_path, key_pem)):
            with open(path, "wb") as handle:
                handle.write(data)
        context.load_cert_chain(certificate_path, key_path, password=password)
    listener = socket.create_server((host, 0))
    listener.settimeout(0.1)
    stop = threading.Event()
    thread = threading.Thread(target=_serve, args=(listener, context, stop), daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        listener.close()


def _serve(listener, context, stop):
    while not stop.is_set():
        try:
            connection, _address = listener.accept()
        except TimeoutError:
            continue
        connection.settimeout(5)
        try:
            with context.wrap_socket(connection, server_side=True):
                pass
        except OSError:
            connection.close()


def pki(vault, method, path, **kwargs):
    """A successful PKI call: its JSON body."""
    status, body = vault.call(method, path, root=PKI_ROOT, **kwargs)
    assert status == 200 and body["result"]["status"] == "Success", body
    return body


def pki_failed(vault, method, path, message, **kwargs):
    """A PKI call that fails with ``message``: its JSON body."""
    status, body = vault.call(method, path, root=PKI_ROOT, **kwargs)
    assert status == 200 and body["result"] == {"status": "Failed", "message": message}, body
    return body


def download(vault, path, token=None, **details):
    """The file a PKI download answers (HTTP 200, an attachment); the admin's unless ``token``."""
    kwargs = {"token": token} if token else {}
    response = vault.send("GET", path, root=PKI_ROOT, details=details, **kwargs)
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"], response.data
    return response


def exchange(vault, method, path, **kwargs):
    return vault.exchange(method, path, root=PKI_ROOT, **kwargs)


def create_certificate(vault, common_name=WEB, **fields):
    """Create a self-signed certificate in the vault (RSA 1024 unless LEN says otherwise)."""
    return pki(vault, "POST", "/createCertificate", details={"CNAME": common_name, "LEN": "1024", **fields})


def discover(vault, port, host="127.0.0.1"):
    return pki(vault, "POST", "/sslCertSingleDiscovery", details={"HOST": host, "PORT": str(port), "TIMEOUT": "5"})


def api_user(vault, name, role="Password User"):
    """Create an API user: ``(AUTHTOKEN, user id)``."""
    token = vault.create_api_user(name, role)
    return token, vault.ok("GET", "/user/getUserId", query={"USERNAME": name})["Details"]["USERID"]


def user_id(vault, name):
    return api_user(vault, name)[1]


def user_group_id(vault, name):
    response = vault.client.post(
        "/__simulator/user-groups", json={"userGroupName": name}, headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["userGroupId"])


def create_group(vault, name="web", ssl_details="1"):
    return pki(
        vault,
        "POST",
        "/createCertificateGroup",
        details={
            "group_name": name,
            "group_description": "web servers",
            "group_mail": "pki@example.com",
            "ssl_details": ssl_details,
        },
    )


@scenario("GET /getCertificate")
def get_certificate(vault):
    create_certificate(vault)
    return exchange(vault, "GET", "/getCertificate", details={"common_name": WEB})


@scenario("GET /getAllSSLCertificates")
def list_certificates(vault):
    create_certificate(vault)
    create_certificate(vault, "api.example.com", ALG="EC", LEN="256", SIGALG="SHA384")
    answer = exchange(vault, "GET", "/getAllSSLCertificates")
    return answer.expect(SSL_CERTIFICATE, *answer.details)


@scenario("GET /getAllSSLCertsExpiryDate")
def list_expiry_dates(vault):
    create_certificate(vault)
    answer = exchange(vault, "GET", "/getAllSSLCertsExpiryDate")
    # "Expiry-date listing items: `Common Name`, `ExpiryDate`, and `serialNumber` in edition A."
    keys = {"Common Name", "ExpiryDate"} | ({"serialNumber"} if vault.simulator.config.edition == "A" else set())
    assert [set(item) for item in answer.details] == [keys]
    assert all(isinstance(value, str) for value in answer.details[0].values())
    return answer


@scenario("GET /getCertificateDetails")
def certificate_details(vault):
    create_certificate(vault, ALT_NAMES="alt.example.com")
    answer = exchange(vault, "GET", "/getCertificateDetails", details={"common_name": WEB})
    return answer.expect(CERTIFICATE_DETAIL, *answer.details)


@scenario("GET /getCertificateKeyStore")
def get_keystore(vault):
    create_certificate(vault, PASSWORD="store-pass")
    return exchange(vault, "GET", "/getCertificateKeyStore", details={"common_name": WEB})


@scenario("GET /getCertificatePassphrase")
def get_passphrase(vault):
    create_certificate(vault, PASSWORD="store-pass")
    answer = exchange(vault, "GET", "/getCertificatePassphrase", details={"common_name": WEB})
    assert answer.body["result"]["message"] == "store-pass"
    return answer


@scenario("POST /addCertificate")
def add_certificate(vault):
    certificate_pem, _key_pem = self_signed(WEB)
    return exchange(
        vault,
        "POST",
        "/addCertificate",
        details={"fileType": "CERTFILE"},
        files={"File": (io.BytesIO(certificate_pem), "www.pem")},
    )


@scenario("DELETE /deleteCertificate")
def delete_certificate(vault):
    create_certificate(vault)
    return exchange(vault, "DELETE", "/deleteCertificate", details={"common_name": WEB})


@scenario("POST /sslCertSingleDiscovery")
def discover_host(vault):
    with tls_server(*self_signed(DISCOVERED)) as port:
        answer = exchange(
            vault, "POST", "/sslCertSingleDiscovery", details={"HOST": "127.0.0.1", "PORT": str(port), "TIMEOUT": "5"}
        )
    assert answer.details["127.0.0.1"][0] == "SUCCESS", answer.details
    return answer


@scenario("POST /sslCertRangeDiscovery")
def discover_range(vault):
    with tls_server(*self_signed(DISCOVERED)) as port:
        answer = exchange(
            vault,
            "POST",
            "/sslCertRangeDiscovery",
            details={"StartIpAddress": "127.0.0.1", "EndIpAddress": "127.0.0.2", "PORT": str(port), "TIMEOUT": "3"},
        )
    assert answer.body["name"] == "Get SSL Discovery"
    assert set(answer.details) == {"127.0.0.1", "127.0.0.2"} and answer.details["127.0.0.1"][0] == "SUCCESS"
    return answer


@scenario("POST /createCSR")
def create_csr(vault):
    answer = exchange(
        vault,
        "POST",
        "/createCSR",
        details={
            "CNAME": WEB,
            "ORG": "Example",
            "COUNTRY": "DE",
            "LEN": "1024",
            "SIGALG": "SHA256",
            "StoreType": "PKCS12",
        },
    )
    assert answer.details == [{"CSR_ID": 1}]
    return answer


@scenario("GET /getCSRList")
def list_csrs(vault):
    pki(vault, "POST", "/createCSR", details={"CNAME": WEB, "LEN": "1024", "PASSWORD": "pw", "StoreType": "JKS"})
    answer = exchange(vault, "GET", "/getCSRList")
    return answer.expect("CSR (list item)", *answer.details)


@scenario("POST /signCSR")
def sign_csr(vault):
    pki(vault, "POST", "/createCSR", details={"CNAME": WEB, "LEN": "1024"})
    return exchange(
        vault,
        "POST",
        "/signCSR",
        details={"serverName": "ca.example.com", "caName": "Example CA", "templateName": "WebServer", "CSR_ID": "1"},
    )


@scenario("POST /createCertificate")
def create_certificate_row(vault):
    return exchange(
        vault,
        "POST",
        "/createCertificate",
        details={
            "CNAME": WEB,
            "ALT_NAMES": "www2.example.com",
            "ORGUNIT": "Ops",
            "ORG": "Example",
            "LOCATION": "Berlin",
            "STATE": "Berlin",
            "COUNTRY": "DE",
            "PASSWORD": "store-pass",
            "VALIDITY": "30",
            "VALIDITY_TYPE": "days",
            "ALG": "RSA",
            "LEN": "1024",
            "SIGALG": "SHA256",
            "StoreType": "PKCS12",
        },
    )


@scenario("POST /deployCertificate")
def deploy_certificate(vault):
    create_certificate(vault)
    with tls_server(*self_signed(DISCOVERED)) as port:
        discover(vault, port)
    answer = exchange(vault, "POST", "/deployCertificate", details={"common_name": WEB, "serverName": "127.0.0.1"})
    assert [item["status"] for item in answer.body["deployStatus"]] == ["Success"]
    return answer


@scenario("POST /shareCertificateToUser")
def share_certificate_with_user(vault):
    create_certificate(vault)
    return exchange(
        vault, "POST", "/shareCertificateToUser", details={"common_name": WEB, "userId": user_id(vault, "pat")}
    )


@scenario("POST /shareCertificateToUserGroup")
def share_certificate_with_user_group(vault):
    create_certificate(vault)
    return exchange(
        vault,
        "POST",
        "/shareCertificateToUserGroup",
        details={"common_name": WEB, "userGroupId": user_group_id(vault, "ops")},
    )


@scenario("POST /shareCertificateGroupToUser")
def share_group_with_user(vault):
    create_certificate(vault)
    create_group(vault)
    return exchange(
        vault,
        "POST",
        "/shareCertificateGroupToUser",
        details={"certificate_group_name": "web", "userId": user_id(vault, "pat")},
    )


@scenario("POST /shareCertificateGroupToUserGroup")
def share_group_with_user_group(vault):
    create_certificate(vault)
    create_group(vault)
    return exchange(
        vault,
        "POST",
        "/shareCertificateGroupToUserGroup",
        details={"certificate_group_name": "web", "userGroupId": user_group_id(vault, "ops")},
    )


@scenario("POST /revokeCertificateFromUser")
def revoke_certificate_from_user(vault):
    create_certificate(vault)
    details = {"common_name": WEB, "userId": user_id(vault, "pat")}
    pki(vault, "POST", "/shareCertificateToUser", details=details)
    return exchange(vault, "POST", "/revokeCertificateFromUser", details=details)


@scenario("POST /revokeCertificateFromUserGroup")
def revoke_certificate_from_user_group(vault):
    create_certificate(vault)
    details = {"common_name": WEB, "userGroupId": user_group_id(vault, "ops")}
    pki(vault, "POST", "/shareCertificateToUserGroup", details=details)
    return exchange(vault, "POST", "/revokeCertificateFromUserGroup", details=details)


@scenario("POST /revokeCertificateGroupFromUser")
def revoke_group_from_user(vault):
    create_certificate(vault)
    create_group(vault)
    details = {"certificate_group_name": "web", "userId": user_id(vault, "pat")}
    pki(vault, "POST", "/shareCertificateGroupToUser", details=details)
    return exchange(vault, "POST", "/revokeCertificateGroupFromUser", details=details)


@scenario("POST /revokeCertificateGroupFromUserGroup")
def revoke_group_from_user_group(vault):
    create_certificate(vault)
    create_group(vault)
    details = {"certificate_group_name": "web", "userGroupId": user_group_id(vault, "ops")}
    pki(vault, "POST", "/shareCertificateGroupToUserGroup", details=details)
    return exchange(vault, "POST", "/revokeCertificateGroupFromUserGroup", details=details)


@scenario("POST /createCertificateGroup")
def create_certificate_group(vault):
    create_certificate(vault)
    create_certificate(vault, "api.example.com")
    answer = exchange(
        vault,
        "POST",
        "/createCertificateGroup",
        details={
            "group_name": "web",
            "group_description": "web servers",
            "group_mail": "pki@example.com",
            "ssl_details": "1,2",
        },
    )
    return answer.expect("Certificate group", *answer.details)


@scenario("POST /editCertificateGroup")
def edit_certificate_group(vault):
    create_certificate(vault)
    create_group(vault)
    answer = exchange(
        vault,
        "POST",
        "/editCertificateGroup",
        details={
            "old_group_name": "web",
            "group_name": "frontends",
            "group_description": "front ends",
            "group_mail": "web@example.com",
            "ssl_details": "1",
        },
    )
    return answer.expect("Certificate group", *answer.details)


@scenario("DELETE /deleteCertificateGroup")
def delete_certificate_group(vault):
    create_certificate(vault)
    create_group(vault)
    return exchange(vault, "DELETE", "/deleteCertificateGroup", details={"group_name": "web"})
