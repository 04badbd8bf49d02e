"""The client certificate: ``create_tls_files`` writes one the test CA signed, and a server started with
``require_client_cert`` (``--require-client-cert``) lets only a client showing it through the TLS handshake; the
others fail the handshake, and the server goes on serving."""

import json
import os
import signal
import ssl
import stat
import subprocess
import threading
from pathlib import Path

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from test_simulator_cli import SIMULATOR_DIR, command, first_line

from vault_simulator.core.app import create_app
from vault_simulator.core.config import SimulatorConfig
from vault_simulator.core.server import _SimulatorServer
from vault_simulator.core.simulator import simulator_of
from vault_simulator.core.tls import create_tls_files

RESOURCES = "/restapi/json/v1/resources"


def test_the_client_certificate_is_signed_by_the_test_ca_for_client_authentication(tmp_path):
    files = create_tls_files(tmp_path)
    assert (files.client_cert_path, files.client_key_path) == (
        str(tmp_path / "client.pem"),
        str(tmp_path / "client-key.pem"),
    )
    ca = x509.load_pem_x509_certificate((tmp_path / "ca.pem").read_bytes())
    client = x509.load_pem_x509_certificate((tmp_path / "client.pem").read_bytes())
    client.verify_directly_issued_by(ca)
    assert client.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "vault simulator test client"
    usages = client.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usages) == [ExtendedKeyUsageOID.CLIENT_AUTH]
    assert not client.extensions.get_extension_for_class(x509.BasicConstraints).value.ca

    key_pem = (tmp_path / "client-key.pem").read_bytes()
    assert key_pem.startswith(b"-----BEGIN PRIVATE KEY-----")  # PKCS8, unencrypted
    key = serialization.load_pem_private_key(key_pem, password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name == "secp256r1"
    assert key.public_key() == client.public_key()
    assert stat.S_IMODE(os.stat(files.client_key_path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(files.key_path).st_mode) == 0o600


def test_the_server_context_demands_a_certificate_only_when_asked(tmp_path):
    files = create_tls_files(tmp_path)
    assert files.server_context().verify_mode == ssl.CERT_NONE
    demanding = files.server_context(require_client_cert=True)
    assert demanding.verify_mode == ssl.CERT_REQUIRED
    assert [ca["subject"] for ca in demanding.get_ca_certs()] == [((("commonName", "vault simulator test CA"),),)]


class Running:
    """A simulator served over HTTPS in threads of this process."""

    def __init__(self, directory, require_client_cert, maximum_version=None):
        self.tls = create_tls_files(directory)
        self.app = create_app(SimulatorConfig())
        self.token = simulator_of(self.app).admin_token
        self.server = _SimulatorServer(self.app, "127.0.0.1", 0, self.tls, require_client_cert=require_client_cert)
        if maximum_version:
            self.server.ssl_adapter.context.maximum_version = maximum_version
        self.server.prepare()
        self.thread = threading.Thread(target=self.server.serve, daemon=True)
        self.thread.start()
        self.url = "https://127.0.0.1:%d" % self.server.bind_addr[1]

    @property
    def client_cert(self):
        return (self.tls.client_cert_path, self.tls.client_key_path)

    def get(self, cert=None):
        """GET RESOURCES on a connection of its own."""
        with requests.Session() as session:
            session.trust_env = False
            response = session.get(
                self.url + RESOURCES, headers={"AUTHTOKEN": self.token}, verify=self.tls.ca_path, cert=cert, timeout=10
            )
        assert response.status_code == 200, response.text
        return response.json()["operation"]["result"]["status"]

    def stop(self):
        self.server.stop()
        self.thread.join(10)
        simulator_of(self.app).store.close()


@pytest.fixture(scope="module")
def other_ca_client_cert(tmp_path_factory):
    """A client certificate of another test CA."""
    files = create_tls_files(tmp_path_factory.mktemp("other-ca"))
    return (files.client_cert_path, files.client_key_path)


@pytest.fixture(params=["TLS 1.3", "TLS 1.2"])
def demanding(request, tmp_path):
    """A simulator demanding a client certificate, speaking TLS 1.3 (the default) or at most TLS 1.2."""
    maximum = ssl.TLSVersion.TLSv1_2 if request.param == "TLS 1.2" else None
    running = Running(tmp_path, require_client_cert=True, maximum_version=maximum)
    yield running
    running.stop()


def test_a_client_showing_the_certificate_is_served(demanding):
    assert demanding.get(cert=demanding.client_cert) == "Success"
    # The key may be in the certificate file as well (requests' one-file form).
    both = Path(demanding.tls.client_cert_path).with_name("client-both.pem")
    both.write_bytes(
        Path(demanding.tls.client_cert_path).read_bytes() + Path(demanding.tls.client_key_path).read_bytes()
    )
    assert demanding.get(cert=str(both)) == "Success"


def test_a_client_without_a_certificate_fails_the_handshake_and_the_server_goes_on(demanding, capfd):
    for attempt in range(3):
        with pytest.raises(requests.exceptions.SSLError) as caught:
            demanding.get()
        # TLS 1.3: the server's alert comes when the client reads the answer; TLS 1.2: during the handshake.
        assert "TLSV13_ALERT_CERTIFICATE_REQUIRED" in str(caught.value) or "SSLV3_ALERT_HANDSHAKE_FAILURE" in str(
            caught.value
        ), caught.value
        assert demanding.get(cert=demanding.client_cert) == "Success"
    assert "Traceback" not in capfd.readouterr().err


def test_a_certificate_of_another_ca_fails_the_handshake_and_the_server_goes_on(demanding, other_ca_client_cert):
    for attempt in range(3):
        with pytest.raises(requests.exceptions.SSLError, match="TLSV1_ALERT_UNKNOWN_CA"):
            demanding.get(cert=other_ca_client_cert)
        assert demanding.get(cert=demanding.client_cert) == "Success"


def test_without_the_demand_a_client_needs_no_certificate(tmp_path, other_ca_client_cert):
    running = Running(tmp_path, require_client_cert=False)
    try:
        assert running.get() == "Success"
        assert running.get(cert=running.client_cert) == "Success"
        assert running.get(cert=other_ca_client_cert) == "Success"  # not asked for, not checked
    finally:
        running.stop()


def test_cli_require_client_cert(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        command() + ["--tls-dir", str(tmp_path), "--require-client-cert"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        ready = json.loads(first_line(process.stdout))
        assert (ready["client_cert"], ready["client_key"]) == (
            str(tmp_path / "client.pem"),
            str(tmp_path / "client-key.pem"),
        )
        options = {"headers": {"AUTHTOKEN": ready["token"]}, "verify": ready["ca_path"], "timeout": 10}
        with pytest.raises(requests.exceptions.SSLError):
            requests.get(ready["url"] + RESOURCES, **options)
        answer = requests.get(ready["url"] + RESOURCES, cert=(ready["client_cert"], ready["client_key"]), **options)
        assert answer.json()["operation"]["result"]["status"] == "Success"
    finally:
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "Traceback" not in stderr and ready["token"] not in stderr
