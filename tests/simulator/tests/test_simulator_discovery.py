"""SSL discovery against real TLS servers on the loopback interface, and deploying certificates."""

import socket
import threading
import time
from contextlib import ExitStack, closing

import pytest
from cryptography import x509

from conformance.scenarios.certificates import (
    api_user,
    create_certificate,
    discover,
    download,
    pki,
    pki_failed,
    self_signed,
    tls_server,
)

FOUND = "tls.example.test"
WEB = "www.example.com"


def free_port():
    """A port nothing listens on (bound once, then released)."""
    with closing(socket.create_server(("127.0.0.1", 0))) as probe:
        return probe.getsockname()[1]


def silent_listener(host, port=0):
    """A TCP listener that never answers a TLS handshake."""
    return closing(socket.create_server((host, port)))


def certificates(vault, token=None):
    kwargs = {"token": token} if token else {}
    return pki(vault, "GET", "/getAllSSLCertificates", **kwargs)["details"]


def test_single_discovery_stores_the_certificate_found(vault):
    certificate_pem, key_pem = self_signed(FOUND)
    with tls_server(certificate_pem, key_pem) as port:
        body = discover(vault, port)
    serial = format(x509.load_pem_x509_certificate(certificate_pem).serial_number, "x")
    assert body["name"] == "Get SSL Discovery" and body["totalRows"] == 1
    assert body["details"] == {
        "127.0.0.1": [
            "SUCCESS",
            f"Certificate {FOUND} (serial number {serial}) found at port {port} and added to the vault",
        ]
    }
    (item,) = certificates(vault)
    assert (item["DNS Name/FQDN"], item["Port"], item["Common Name"], item["serialNumber"]) == (
        "127.0.0.1",
        port,
        FOUND,
        serial,
    )
    assert download(vault, "/getCertificate", common_name=FOUND).data == certificate_pem
    (detail,) = pki(vault, "GET", "/getCertificateDetails", details={"common_name": FOUND})["details"]
    assert (detail["ipaddress"], detail["endpoint"]["hostName"], detail["endpoint"]["port"]) == (
        "127.0.0.1",
        "127.0.0.1",
        str(port),
    )
    assert detail["endpoint"]["PrivateKey"] is False


def test_the_same_certificate_on_two_hosts_is_one_certificate(vault):
    with tls_server(*self_signed(FOUND)) as port:
        discover(vault, port, "127.0.0.1")
        again = discover(vault, port, "127.0.0.1")
        assert again["details"]["127.0.0.1"][1].endswith("the vault already has it")
        discover(vault, port, "localhost")
    (item,) = certificates(vault)
    details = pki(vault, "GET", "/getCertificateDetails", details={"common_name": FOUND})["details"]
    assert [d["endpoint"]["hostName"] for d in details] == ["127.0.0.1", "localhost"]
    assert all(d["isCertInstalledMulipleServers"] is True for d in details)
    assert item["DNS Name/FQDN"] == "127.0.0.1"


def test_discovering_a_certificate_the_vault_created(make_vault):
    vault = make_vault(edition="B")
    create_certificate(vault, PASSWORD="Pass-1", ALG="EC", LEN="256")
    certificate_pem = download(vault, "/getCertificate", common_name=WEB, fileType="PEM").data
    encrypted_key_pem = download(vault, "/getCertificate", common_name=WEB, fileType="KEY").data
    with tls_server(certificate_pem, encrypted_key_pem, password="Pass-1") as port:
        discover(vault, port)
    (item,) = certificates(vault)
    assert (item["DNS Name/FQDN"], item["Port"]) == ("127.0.0.1", port)
    (detail,) = pki(vault, "GET", "/getCertificateDetails", details={"common_name": WEB})["details"]
    assert detail["endpoint"]["PrivateKey"] is True and detail["ipaddress"] == "127.0.0.1"


def test_connection_refused(vault):
    port = free_port()
    body = pki(vault, "POST", "/sslCertSingleDiscovery", details={"HOST": "127.0.0.1", "PORT": port, "TIMEOUT": 2})
    assert body["details"] == {
        "127.0.0.1": ["FAILURE", f"Connection failed: connection refused, no certificate found at port {port}"]
    }
    assert (
        body["totalRows"] == 1
        and body["result"]["message"] == "SSL discovery finished: certificates found at 0 of 1 hosts"
    )
    assert certificates(vault) == []


def test_timeout(vault):
    with silent_listener("127.0.0.1") as listener:
        port = listener.getsockname()[1]
        started = time.monotonic()
        body = pki(
            vault, "POST", "/sslCertSingleDiscovery", details={"HOST": "127.0.0.1", "PORT": str(port), "TIMEOUT": "0.5"}
        )
    assert time.monotonic() - started < 3
    assert body["details"]["127.0.0.1"] == [
        "FAILURE",
        f"Connection timed out after 0.5 seconds, no certificate found at port {port}",
    ]


def test_a_server_that_does_not_speak_tls(vault):
    with silent_listener("127.0.0.1") as listener:
        port = listener.getsockname()[1]
        thread = threading.Thread(target=answer_in_plain_text, args=(listener,))
        thread.start()
        body = pki(
            vault, "POST", "/sslCertSingleDiscovery", details={"HOST": "127.0.0.1", "PORT": str(port), "TIMEOUT": "3"}
        )
        thread.join()
    outcome, text = body["details"]["127.0.0.1"]
    assert outcome == "FAILURE" and text.startswith("TLS handshake failed (")
    assert text.endswith(f"no certificate found at port {port}")


def answer_in_plain_text(listener):
    """Accept one connection and answer it like a plain HTTP server would."""
    listener.settimeout(5)
    connection, _address = listener.accept()
    with connection:
        connection.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\nplain text\r\n" * 20)


def test_range_discovery_one_key_per_address(vault):
    with tls_server(*self_signed(FOUND)) as port:
        body = pki(
            vault,
            "POST",
            "/sslCertRangeDiscovery",
            details={"StartIpAddress": "127.0.0.1", "EndIpAddress": "127.0.0.3", "PORT": str(port), "TIMEOUT": "3"},
        )
    assert body["name"] == "Get SSL Discovery" and body["totalRows"] == 3
    assert list(body["details"]) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
    assert body["details"]["127.0.0.1"][0] == "SUCCESS"
    assert body["details"]["127.0.0.2"] == [
        "FAILURE",
        f"Connection failed: connection refused, no certificate found at port {port}",
    ]
    assert [item["Common Name"] for item in certificates(vault)] == [FOUND]


def test_range_is_probed_in_parallel_within_the_timeout(vault):
    with ExitStack() as stack:
        first = stack.enter_context(silent_listener("127.0.0.1"))
        port = first.getsockname()[1]
        for host in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
            stack.enter_context(silent_listener(host, port))
        started = time.monotonic()
        body = pki(
            vault,
            "POST",
            "/sslCertRangeDiscovery",
            details={"StartIpAddress": "127.0.0.1", "EndIpAddress": "127.0.0.4", "PORT": str(port), "TIMEOUT": "1"},
        )
        elapsed = time.monotonic() - started
    assert elapsed < 2.5, f"four probes of 1 s each took {elapsed:.1f} s"
    assert [outcome for outcome, _text in body["details"].values()] == ["FAILURE"] * 4
    assert all("timed out" in text for _outcome, text in body["details"].values())


@pytest.mark.parametrize(
    "details, message",
    [
        (
            {"StartIpAddress": "10.0.0.0", "EndIpAddress": "10.0.1.0"},
            "The range 10.0.0.0 - 10.0.1.0 holds 257 addresses: at most 256 can be discovered in one call",
        ),
        (
            {"StartIpAddress": "10.0.0.9", "EndIpAddress": "10.0.0.1"},
            "EndIpAddress 10.0.0.1 comes before StartIpAddress 10.0.0.9",
        ),
        (
            {"StartIpAddress": "10.0.0.1", "EndIpAddress": "::1"},
            "StartIpAddress and EndIpAddress must both be IPv4 or both IPv6 addresses",
        ),
        ({"StartIpAddress": "web01", "EndIpAddress": "10.0.0.1"}, "StartIpAddress must be an IP address, not web01"),
        (
            {"StartIpAddress": "10.0.0.1", "EndIpAddress": "10.0.0.1", "PORT": "70000"},
            "PORT must be a port number from 1 to 65535",
        ),
        (
            {"StartIpAddress": "10.0.0.1", "EndIpAddress": "10.0.0.1", "TIMEOUT": "soon"},
            "TIMEOUT must be a positive number of seconds",
        ),
    ],
)
def test_range_input_is_checked(vault, details, message):
    pki_failed(vault, "POST", "/sslCertRangeDiscovery", message, details={"PORT": "443", **details})


def test_single_discovery_needs_host_and_port(vault):
    pki_failed(vault, "POST", "/sslCertSingleDiscovery", "HOST is required", details={"PORT": "443"})
    pki_failed(vault, "POST", "/sslCertSingleDiscovery", "PORT is required", details={"HOST": "127.0.0.1"})
    pki_failed(
        vault,
        "POST",
        "/sslCertSingleDiscovery",
        "TIMEOUT must be a positive number of seconds",
        details={"HOST": "127.0.0.1", "PORT": "443", "TIMEOUT": "0"},
    )


def discovered_servers(vault, *hosts):
    """Discover a certificate on each loopback host name; the TLS server's port."""
    with tls_server(*self_signed(FOUND)) as port:
        for host in hosts:
            discover(vault, port, host)
    return port


def test_deploy_to_every_stored_server(vault):
    create_certificate(vault, PASSWORD="Pass-1")
    port = discovered_servers(vault, "127.0.0.1", "localhost")
    body = pki(vault, "POST", "/deployCertificate", details={"common_name": WEB})
    serial = [i for i in certificates(vault) if i["Common Name"] == WEB][0]["serialNumber"]
    described = f"Certificate {WEB} (serial number {serial}) deployed to"
    assert body["totalRows"] == 2
    assert body["deployStatus"] == [
        {"server": "127.0.0.1", "message": f"{described} 127.0.0.1 at port {port}", "status": "Success"},
        {"server": "localhost", "message": f"{described} localhost at port {port}", "status": "Success"},
    ]
    details = pki(vault, "GET", "/getCertificateDetails", details={"common_name": WEB})["details"]
    assert [(d["endpoint"]["hostName"], d["isCertInstalledMulipleServers"]) for d in details] == [
        ("127.0.0.1", True),
        ("localhost", True),
    ]


def test_deploy_to_one_server(vault):
    create_certificate(vault)
    discovered_servers(vault, "127.0.0.1", "localhost")
    body = pki(vault, "POST", "/deployCertificate", details={"common_name": WEB, "serverName": "LOCALHOST"})
    assert [item["server"] for item in body["deployStatus"]] == ["localhost"] and body["totalRows"] == 1
    (item,) = [i for i in certificates(vault) if i["Common Name"] == WEB]
    assert item["DNS Name/FQDN"] == "localhost"


def test_deploy_failures(vault):
    create_certificate(vault)
    where = "the vault's servers are the hosts where SSL discovery found a certificate"
    pki_failed(
        vault,
        "POST",
        "/deployCertificate",
        f"The vault knows no server to deploy to: {where}",
        details={"common_name": WEB},
    )
    discovered_servers(vault, "127.0.0.1")
    pki_failed(
        vault,
        "POST",
        "/deployCertificate",
        f"Server web09 is not known to the vault: {where}",
        details={"common_name": WEB, "serverName": "web09"},
    )
    serial = [i for i in certificates(vault) if i["Common Name"] == FOUND][0]["serialNumber"]
    pki_failed(
        vault,
        "POST",
        "/deployCertificate",
        f"The vault has no private key for certificate {FOUND} (serial number {serial}): "
        "a certificate is deployed together with its private key",
        details={"common_name": FOUND},
    )
    pat, pat_id = api_user(vault, "pat")
    pki(vault, "POST", "/shareCertificateToUser", details={"common_name": WEB, "userId": pat_id})
    pki_failed(
        vault,
        "POST",
        "/deployCertificate",
        f"You are not authorized to deploy certificate {WEB}",
        token=pat,
        details={"common_name": WEB},
    )


def test_discovered_certificate_belongs_to_who_discovered_it(vault):
    pat = vault.create_api_user("pat")
    with tls_server(*self_signed(FOUND)) as port:
        pki(
            vault,
            "POST",
            "/sslCertSingleDiscovery",
            token=pat,
            details={"HOST": "127.0.0.1", "PORT": str(port), "TIMEOUT": "5"},
        )
    assert [item["Common Name"] for item in certificates(vault, token=pat)] == [FOUND]
    pki(vault, "DELETE", "/deleteCertificate", token=pat, details={"common_name": FOUND})
    assert certificates(vault) == []
