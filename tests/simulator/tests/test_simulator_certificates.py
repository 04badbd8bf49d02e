"""SSL certificates: create, add, list, details, downloads, passphrase, delete."""

import datetime
import hashlib
import io
import struct

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs7, pkcs12
from cryptography.x509.oid import NameOID

from conformance.scenarios.certificates import (
    PKI_ROOT,
    create_certificate,
    download,
    pki,
    pki_failed,
    self_signed,
)

WEB = "www.example.com"


def certificate_of(vault, common_name=WEB, **details):
    """The certificate the vault hands out (PEM), parsed."""
    return x509.load_pem_x509_certificate(download(vault, "/getCertificate", common_name=common_name, **details).data)


def listed(vault, token=None, **filters):
    kwargs = {"details": filters} if filters else {}
    if token:
        kwargs["token"] = token
    return pki(vault, "GET", "/getAllSSLCertificates", **kwargs)["details"]


def serial_of(vault, common_name=WEB):
    (item,) = [i for i in listed(vault) if i["Common Name"] == common_name]
    return item["serialNumber"]


def add_file(vault, data, file_type="CERTFILE", filename="upload.pem", **fields):
    status, body = vault.call(
        "POST",
        "/addCertificate",
        root=PKI_ROOT,
        details={"fileType": file_type, **fields},
        files={"File": (io.BytesIO(data), filename)},
    )
    assert status == 200
    return body


def test_create_issues_a_real_self_signed_certificate(vault):
    create_certificate(
        vault,
        ALT_NAMES="www2.example.com, 10.0.0.5",
        ORGUNIT="Ops",
        ORG="Example",
        LOCATION="Berlin",
        STATE="Berlin",
        COUNTRY="de",
        VALIDITY="12",
        VALIDITY_TYPE="hours",
        SIGALG="SHA384",
        LEN="2048",
    )
    certificate = certificate_of(vault)
    subject = {attribute.oid: attribute.value for attribute in certificate.subject}
    assert subject == {
        NameOID.COMMON_NAME: WEB,
        NameOID.ORGANIZATIONAL_UNIT_NAME: "Ops",
        NameOID.ORGANIZATION_NAME: "Example",
        NameOID.LOCALITY_NAME: "Berlin",
        NameOID.STATE_OR_PROVINCE_NAME: "Berlin",
        NameOID.COUNTRY_NAME: "DE",
    }
    assert certificate.issuer == certificate.subject
    certificate.verify_directly_issued_by(certificate)
    assert certificate.not_valid_after_utc - certificate.not_valid_before_utc == datetime.timedelta(hours=12)
    assert isinstance(certificate.signature_hash_algorithm, hashes.SHA384)
    assert certificate.public_key().key_size == 2048
    sans = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert [str(name.value) for name in sans] == ["www2.example.com", "10.0.0.5"]


def test_create_ec_certificate_and_minutes(vault):
    create_certificate(vault, ALG="EC", LEN="384", SIGALG="SHA512withECDSA", VALIDITY="90", VALIDITY_TYPE="minutes")
    certificate = certificate_of(vault)
    assert isinstance(certificate.public_key(), ec.EllipticCurvePublicKey)
    assert certificate.public_key().curve.key_size == 384
    assert certificate.not_valid_after_utc - certificate.not_valid_before_utc == datetime.timedelta(minutes=90)
    (item,) = listed(vault)
    assert (item["KeyStrength"], item["SignatureAlgorithm"]) == ("384", "SHA512withECDSA")


def test_create_answers_the_serial_number(vault):
    message = create_certificate(vault)["result"]["message"]
    serial = format(certificate_of(vault).serial_number, "x")
    assert message == f"Certificate {WEB} (serial number {serial}) created successfully"


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("CNAME", "", "CNAME is required"),
        ("COUNTRY", "Germany", "COUNTRY must be a two-letter country code"),
        ("ALG", "DSA", "ALG must be RSA or EC"),
        ("LEN", "512", "LEN must be one of 1024, 2048, 3072, 4096 for RSA keys"),
        ("SIGALG", "MD5", "SIGALG must be one of SHA224, SHA256, SHA384, SHA512"),
        ("VALIDITY", "-3", "VALIDITY must be a positive whole number"),
        ("VALIDITY", "40000", "VALIDITY may be at most 36500 days"),
        ("VALIDITY_TYPE", "weeks", "VALIDITY_TYPE must be days, hours or minutes"),
        ("StoreType", "PEM", "StoreType must be PKCS12 or JKS"),
        ("ALT_NAMES", "good.example.com,bad name", "ALT_NAMES: bad name is neither a DNS name nor an IP address"),
    ],
)
def test_create_refuses_bad_input(vault, field, value, message):
    pki_failed(vault, "POST", "/createCertificate", message, details={"CNAME": WEB, "LEN": "1024", field: value})
    assert listed(vault) == []


def test_ec_key_lengths_are_curves(vault):
    pki_failed(
        vault,
        "POST",
        "/createCertificate",
        "LEN must be one of 256, 384, 521 for EC keys",
        details={"CNAME": WEB, "ALG": "EC", "LEN": "1024"},
    )


def test_list_item_comes_from_the_certificate(vault):
    create_certificate(vault, VALIDITY="30")
    certificate = certificate_of(vault)
    (item,) = listed(vault)
    expiry = certificate.not_valid_after_utc
    assert item == {
        "CertID": 1,
        "DNS Name/FQDN": WEB,
        "Port": 0,
        "Common Name": WEB,
        "Issuer": WEB,
        "FromDate": f"{certificate.not_valid_before_utc:%b} {certificate.not_valid_before_utc.day}, "
        f"{certificate.not_valid_before_utc.year}",
        "ExpiryDate": f"{expiry:%b} {expiry.day}, {expiry.year}",
        "KeyStrength": "1024",
        "SignatureAlgorithm": "SHA256withRSA",
        "serialNumber": format(certificate.serial_number, "x"),
    }
    assert pki(vault, "GET", "/getAllSSLCertificates")["totalRows"] == 1


def test_list_filters(vault):
    create_certificate(vault, "short.example.com", VALIDITY="5")
    create_certificate(vault, "long.example.com", VALIDITY="400", LEN="2048", SIGALG="SHA512")

    def names(**filters):
        return sorted(item["Common Name"] for item in listed(vault, **filters))

    assert names(withExpiryDaysLessThan="30") == ["short.example.com"]
    assert names(withExpiryDaysLessThan=500) == ["long.example.com", "short.example.com"]
    assert names(withKeyLength="2048") == ["long.example.com"]
    assert names(withSignatureAlgorithm="sha512withrsa") == ["long.example.com"]
    assert names(withSignatureAlgorithm="SHA256") == ["short.example.com"]
    assert names(withKeyLength="1024", withExpiryDaysLessThan="3") == []
    pki_failed(
        vault, "GET", "/getAllSSLCertificates", "withKeyLength must be a whole number", details={"withKeyLength": "big"}
    )


@pytest.mark.parametrize(
    "edition, keys", [("A", {"Common Name", "ExpiryDate", "serialNumber"}), ("B", {"Common Name", "ExpiryDate"})]
)
def test_expiry_listing_by_edition(make_vault, edition, keys):
    vault = make_vault(edition=edition)
    create_certificate(vault, VALIDITY="10")
    body = pki(vault, "GET", "/getAllSSLCertsExpiryDate")
    assert body["totalRows"] == 1 and set(body["details"][0]) == keys
    assert body["details"][0]["ExpiryDate"] == listed(vault)[0]["ExpiryDate"]


def test_details_of_a_certificate(vault):
    create_certificate(vault, ALT_NAMES="a.example.com,b.example.com", ORG="Example", ORGUNIT="Ops")
    certificate = certificate_of(vault)
    (detail,) = pki(vault, "GET", "/getCertificateDetails", details={"common_name": WEB})["details"]
    sha1 = certificate.fingerprint(hashes.SHA1()).hex(":").upper()
    assert detail["certtype"] == "Self-Signed" and detail["CertificateId"] == "1"
    assert detail["isCertInstalledMulipleServers"] is False and detail["intermediate"] == {}
    assert detail["issuer"] == detail["issuedto"] == {"cname": WEB, "org": "Example", "orgunit": "Ops"}
    assert detail["endpoint"] == {
        "hostName": WEB,
        "port": "0",
        "expiry_date": certificate.not_valid_after_utc.strftime("%Y-%m-%d %H:%M:%S.0"),
        "from_date": certificate.not_valid_before_utc.strftime("%Y-%m-%d %H:%M:%S.0"),
        "certSignAlg": "SHA256withRSA",
        "Sans": "a.example.com,b.example.com",
        "serial": format(certificate.serial_number, "x"),
        "fingerPrint": sha1,
        "keyalg": "RSA",
        "PublicKeyLength": 1024,
        "PrivateKey": True,
        "isAWS": False,
    }


def test_same_common_name_is_told_apart_by_serial_number(vault):
    create_certificate(vault)
    create_certificate(vault)
    first, second = (item["serialNumber"] for item in listed(vault))
    details = pki(vault, "GET", "/getCertificateDetails", details={"common_name": WEB.upper()})["details"]
    assert [d["endpoint"]["serial"] for d in details] == [first, second]
    pki_failed(
        vault,
        "GET",
        "/getCertificatePassphrase",
        f"2 certificates have the common name {WEB}: give serial_number to select one of {first}, {second}",
        details={"common_name": WEB},
    )
    spaced = ":".join(second[i : i + 2] for i in range(0, len(second), 2)).upper()
    assert certificate_of(vault, serial_number=spaced).serial_number == int(second, 16)
    pki(vault, "DELETE", "/deleteCertificate", details={"common_name": WEB, "serial_number": first})
    assert [item["serialNumber"] for item in listed(vault)] == [second]


def test_unknown_certificate(vault):
    pki_failed(
        vault,
        "GET",
        "/getCertificateDetails",
        "Certificate nothing.example.com does not exist",
        details={"common_name": "nothing.example.com"},
    )
    create_certificate(vault)
    pki_failed(
        vault,
        "DELETE",
        "/deleteCertificate",
        f"Certificate {WEB} with serial number 12ab does not exist",
        details={"common_name": WEB, "serial_number": "12ab"},
    )
    pki_failed(vault, "GET", "/getCertificateDetails", "common_name is required")


def test_passphrase_is_the_password_or_made_up(vault):
    create_certificate(vault, PASSWORD="Store-Pass-1")
    create_certificate(vault, "other.example.com")
    assert (
        pki(vault, "GET", "/getCertificatePassphrase", details={"common_name": WEB})["result"]["message"]
        == "Store-Pass-1"
    )
    made_up = pki(vault, "GET", "/getCertificatePassphrase", details={"common_name": "other.example.com"})["result"][
        "message"
    ]
    assert len(made_up) == 16 and made_up.isalnum()


def test_keystore_is_pkcs12_protected_by_the_passphrase(vault):
    create_certificate(vault, PASSWORD="Store-Pass-1")
    response = download(vault, "/getCertificateKeyStore", common_name=WEB)
    assert response.headers["Content-Disposition"] == f'attachment; filename="{WEB}.p12"'
    key, certificate, _others = pkcs12.load_key_and_certificates(response.data, b"Store-Pass-1")
    assert certificate.subject.rfc4514_string() == f"CN={WEB}"
    assert key.public_key().public_numbers() == certificate.public_key().public_numbers()
    with pytest.raises(ValueError):
        pkcs12.load_key_and_certificates(response.data, b"wrong")


def test_jks_store_type_keystore(vault):
    create_certificate(vault, PASSWORD="changeit", StoreType="JKS")
    response = download(vault, "/getCertificateKeyStore", common_name=WEB)
    assert response.headers["Content-Disposition"] == f'attachment; filename="{WEB}.jks"'
    assert_java_keystore(response.data, "changeit", WEB, certificate_of(vault))


def assert_java_keystore(data, password, alias, certificate):
    """The JKS layout: magic, version 2, one private-key entry with the certificate, the SHA-1 seal."""
    body, seal = data[:-20], data[-20:]
    assert struct.unpack(">III", body[:12]) == (0xFEEDFEED, 2, 1)
    assert hashlib.sha1(password.encode("utf-16-be") + b"Mighty Aphrodite" + body).digest() == seal
    (tag, alias_length), offset = struct.unpack(">IH", body[12:18]), 18
    assert tag == 1 and body[offset : offset + alias_length].decode() == alias
    offset += alias_length + 8
    (key_length,) = struct.unpack(">I", body[offset : offset + 4])
    offset += 4 + key_length
    (chain_length,) = struct.unpack(">I", body[offset : offset + 4])
    der = certificate.public_bytes(serialization.Encoding.DER)
    assert chain_length == 1 and body.endswith(struct.pack(">I", len(der)) + der)


@pytest.mark.parametrize(
    "file_type, check",
    [
        ("PEM", lambda data, cert: x509.load_pem_x509_certificate(data) == cert),
        ("CRT", lambda data, cert: x509.load_pem_x509_certificate(data) == cert),
        ("CER", lambda data, cert: x509.load_pem_x509_certificate(data) == cert),
        ("DER", lambda data, cert: x509.load_der_x509_certificate(data) == cert),
        ("P7B", lambda data, cert: pkcs7.load_pem_pkcs7_certificates(data) == [cert]),
        ("PKCS", lambda data, cert: pkcs12.load_key_and_certificates(data, b"Pass-1")[1] == cert),
        (
            "KEY",
            lambda data, cert: (
                serialization.load_pem_private_key(data, b"Pass-1").public_key().public_numbers()
                == cert.public_key().public_numbers()
            ),
        ),
    ],
)
def test_file_types_of_edition_b(make_vault, file_type, check):
    vault = make_vault(edition="B", build=6200)
    create_certificate(vault, PASSWORD="Pass-1")
    certificate = certificate_of(vault)
    response = download(vault, "/getCertificate", common_name=WEB, fileType=file_type.lower())
    assert check(response.data, certificate)
    extension = {"PKCS": "p12"}.get(file_type, file_type.lower())
    assert response.headers["Content-Disposition"] == f'attachment; filename="{WEB}.{extension}"'


def test_jks_file_type(make_vault):
    vault = make_vault(edition="B")
    create_certificate(vault, PASSWORD="Pass-1")
    data = download(vault, "/getCertificate", common_name=WEB, fileType="JKS").data
    assert_java_keystore(data, "Pass-1", WEB, certificate_of(vault))


def test_key_is_encrypted_and_needs_a_private_key(make_vault):
    vault = make_vault(edition="B")
    certificate_pem, _key_pem = self_signed(WEB)
    assert add_file(vault, certificate_pem)["result"]["Status"] == "Success"
    data = download(vault, "/getCertificate", common_name=WEB, fileType="CER").data
    assert data == certificate_pem
    for file_type in ("KEY", "PKCS", "JKS"):
        pki_failed(
            vault,
            "GET",
            "/getCertificate",
            f"The vault has no private key for certificate {WEB} (serial number {serial_of(vault)}): "
            f"fileType {file_type} needs it",
            details={"common_name": WEB, "fileType": file_type},
        )
    pki_failed(
        vault,
        "GET",
        "/getCertificate",
        "fileType must be one of CER, CRT, DER, P7B, PKCS, JKS, PEM, KEY",
        details={"common_name": WEB, "fileType": "ZIP"},
    )


@pytest.mark.parametrize("settings", [{"edition": "A"}, {"edition": "B", "build": 6199}])
def test_file_type_is_refused_before_b_6200(make_vault, settings):
    vault = make_vault(**settings)
    create_certificate(vault)
    status, body = vault.call("GET", "/getCertificate", root=PKI_ROOT, details={"common_name": WEB, "fileType": "PEM"})
    assert status == 404 and body["operation"]["name"] == "UNSUPPORTED"
    assert x509.load_pem_x509_certificate(download(vault, "/getCertificate", common_name=WEB).data)


def test_add_pem_with_chain_and_der(vault):
    leaf_pem, _key = self_signed(WEB)
    issuer_pem, _issuer_key = self_signed("Issuing CA")
    body = add_file(vault, leaf_pem + issuer_pem)
    serial = format(x509.load_pem_x509_certificate(leaf_pem).serial_number, "x")
    assert body == {
        "name": "AddCertificate",
        "result": {"Status": "Success", "Message": f"Certificate {WEB} (serial number {serial}) added successfully"},
    }
    other_pem, _other_key = self_signed("der.example.com")
    der = x509.load_pem_x509_certificate(other_pem).public_bytes(serialization.Encoding.DER)
    add_file(vault, der, filename="other.der")
    items = listed(vault)
    assert [(i["Common Name"], i["Issuer"], i["KeyStrength"], i["SignatureAlgorithm"]) for i in items] == [
        (WEB, WEB, "256", "SHA256withECDSA"),
        ("der.example.com", "der.example.com", "256", "SHA256withECDSA"),
    ]
    (detail,) = pki(vault, "GET", "/getCertificateDetails", details={"common_name": WEB})["details"]
    assert detail["endpoint"]["PrivateKey"] is False
    assert download(vault, "/getCertificate", common_name=WEB).data == leaf_pem


def test_add_pkcs12_keystore_keeps_the_key(vault):
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, WEB)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(77)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=3))
        .sign(key, hashes.SHA512())
    )
    keystore = pkcs12.serialize_key_and_certificates(
        b"web", key, certificate, None, serialization.BestAvailableEncryption(b"ks-pass")
    )
    body = add_file(vault, keystore, "KEYSTORE", "web.p12", PASSWORD="wrong")
    assert body["result"] == {
        "Status": "Failed",
        "Message": "web.p12 could not be opened: not a PKCS#12 keystore, or PASSWORD is wrong",
    }
    assert add_file(vault, keystore, "KEYSTORE", "web.p12", PASSWORD="ks-pass")["result"]["Status"] == "Success"
    (item,) = listed(vault)
    assert (item["serialNumber"], item["SignatureAlgorithm"], item["KeyStrength"]) == ("4d", "SHA512withRSA", "1024")
    assert (
        pki(vault, "GET", "/getCertificatePassphrase", details={"common_name": WEB})["result"]["message"] == "ks-pass"
    )
    restored = pkcs12.load_key_and_certificates(
        download(vault, "/getCertificateKeyStore", common_name=WEB).data, b"ks-pass"
    )
    assert restored[0].private_numbers() == key.private_numbers()


@pytest.mark.parametrize(
    "data, fields, message",
    [
        (b"not a certificate", {}, "upload.pem is not a PEM or DER certificate file"),
        (
            b"\xfe\xed\xfe\xed\x00\x00\x00\x02",
            {"fileType": "KEYSTORE"},
            "upload.pem is a JKS keystore: only PKCS#12 keystores can be added",
        ),
        (b"x", {"fileType": "ZIP"}, "fileType must be CERTFILE or KEYSTORE"),
    ],
)
def test_add_refuses_what_it_cannot_read(vault, data, fields, message):
    body = add_file(vault, data, **fields)
    assert body["result"] == {"Status": "Failed", "Message": message}
    assert listed(vault) == []


def test_add_needs_a_file_and_refuses_duplicates(vault):
    status, body = vault.call("POST", "/addCertificate", root=PKI_ROOT, details={"fileType": "CERTFILE"})
    assert status == 200 and body["result"] == {
        "Status": "Failed",
        "Message": "File is required: send the certificate file or keystore as the multipart part File",
    }
    create_certificate(vault)
    pem = download(vault, "/getCertificate", common_name=WEB).data
    body = add_file(vault, pem)
    assert body["result"]["Message"] == f"Certificate {WEB} (serial number {serial_of(vault)}) is already in the vault"


def test_delete_removes_the_certificate(vault):
    create_certificate(vault)
    create_certificate(vault, "keep.example.com")
    message = pki(vault, "DELETE", "/deleteCertificate", details={"common_name": WEB})["result"]["message"]
    assert message.endswith("deleted successfully")
    assert [item["Common Name"] for item in listed(vault)] == ["keep.example.com"]
    pki_failed(vault, "GET", "/getCertificate", f"Certificate {WEB} does not exist", details={"common_name": WEB})


def test_seed_reproduces_keys_serials_and_passphrases(make_vault):
    def made(seed):
        vault = make_vault(seed=seed)
        create_certificate(vault)
        certificate = certificate_of(vault)
        passphrase = pki(vault, "GET", "/getCertificatePassphrase", details={"common_name": WEB})["result"]["message"]
        return certificate.serial_number, certificate.public_key().public_numbers(), passphrase

    assert made(7) == made(7)
    assert made(7) != made(8)


def test_password_user_sees_only_own_certificates(vault):
    create_certificate(vault, "admin.example.com")
    pat = vault.create_api_user("pat")
    pki(vault, "POST", "/createCertificate", token=pat, details={"CNAME": "pat.example.com", "LEN": "1024"})
    assert [item["Common Name"] for item in listed(vault, token=pat)] == ["pat.example.com"]
    assert len(listed(vault)) == 2
    assert pki(vault, "GET", "/getAllSSLCertsExpiryDate", token=pat)["totalRows"] == 1
    for method, path in (
        ("GET", "/getCertificateDetails"),
        ("GET", "/getCertificatePassphrase"),
        ("GET", "/getCertificate"),
        ("DELETE", "/deleteCertificate"),
    ):
        pki_failed(
            vault,
            method,
            path,
            "You are not authorized to access certificate admin.example.com",
            token=pat,
            details={"common_name": "admin.example.com"},
        )
    pki(vault, "DELETE", "/deleteCertificate", token=pat, details={"common_name": "pat.example.com"})


def test_secrets_are_not_logged(make_vault, capfd):
    vault = make_vault()
    create_certificate(vault, PASSWORD="Very-Secret-Pass")
    pki(vault, "GET", "/getCertificatePassphrase", details={"common_name": WEB})
    download(vault, "/getCertificate", common_name=WEB)
    captured = capfd.readouterr()
    assert "Very-Secret-Pass" not in captured.err + captured.out
    assert "PRIVATE KEY" not in captured.err + captured.out
