"""A throw-away certificate authority, a server certificate and a client certificate it signs.

The server certificate names ``localhost`` (DNS) and ``127.0.0.1`` (IP), so
clients can verify it with ``ca.pem`` under either name. The client
certificate (``client.pem``, ``client-key.pem``) is what a client shows to a
server that demands one (``server_context(require_client_cert=True)``).
"""

import datetime
import ipaddress
import os
import ssl
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

_VALIDITY = datetime.timedelta(days=30)


@dataclass(frozen=True)
class TlsFiles:
    ca_path: str
    cert_path: str
    key_path: str
    client_cert_path: str
    client_key_path: str

    def server_context(self, require_client_cert=False):
        """The server's context; with ``require_client_cert``, the handshake fails unless the client shows a
        certificate signed by the test CA (``ca.pem``)."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert_path, self.key_path)
        if require_client_cert:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(cafile=self.ca_path)
        return context


def create_tls_files(directory):
    """Write ``ca.pem``, ``server.pem``, ``server-key.pem``, ``client.pem`` and ``client-key.pem`` into
    ``directory`` (the keys readable by their owner only)."""
    os.makedirs(directory, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "vault simulator test CA")])
    ca_cert = (
        _builder(ca_name, ca_name, ca_key.public_key(), ca_key.public_key())
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(cert_sign=True), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    server_cert = (
        _builder(server_name, ca_name, server_key.public_key(), ca_key.public_key())
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(cert_sign=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    client_key = ec.generate_private_key(ec.SECP256R1())
    client_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "vault simulator test client")])
    client_cert = (
        _builder(client_name, ca_name, client_key.public_key(), ca_key.public_key())
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(cert_sign=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    files = TlsFiles(
        *(
            os.path.abspath(os.path.join(directory, name))
            for name in ("ca.pem", "server.pem", "server-key.pem", "client.pem", "client-key.pem")
        )
    )
    _write(files.ca_path, ca_cert.public_bytes(serialization.Encoding.PEM), 0o644)
    _write(files.cert_path, server_cert.public_bytes(serialization.Encoding.PEM), 0o644)
    _write(files.key_path, _private_pem(server_key), 0o600)
    _write(files.client_cert_path, client_cert.public_bytes(serialization.Encoding.PEM), 0o644)
    _write(files.client_key_path, _private_pem(client_key), 0o600)
    return files


def _private_pem(key):
    """``key`` as unencrypted PKCS8 PEM."""
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _builder(subject, issuer, public_key, issuer_public_key):
    now = datetime.datetime.now(datetime.timezone.utc)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + _VALIDITY)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_public_key), critical=False)
    )


def _key_usage(cert_sign):
    return x509.KeyUsage(
        digital_signature=not cert_sign,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=cert_sign,
        crl_sign=cert_sign,
        encipher_only=False,
        decipher_only=False,
    )


def _write(path, data, mode):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), "wb") as handle:
        handle.write(data)
