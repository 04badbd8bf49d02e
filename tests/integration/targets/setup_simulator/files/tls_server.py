# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A TLS server on loopback for SSL discovery, and what the test needs around it. Prints no key material.

tls_server.py make DIR COMMON_NAME
    A new RSA key and a self-signed certificate for COMMON_NAME (made with cryptography), written to DIR/server.pem
    and DIR/server-key.pem (0600); prints {"serial": "<lower-case hex>"}.
tls_server.py serve DIR LIFETIME
    Listens on 127.0.0.1 at a port the system picks, writes the port to DIR/port and the process id to DIR/pid,
    and completes a TLS handshake with DIR/server.pem for every connection, until SIGTERM or LIFETIME seconds.
tls_server.py stop DIR
    Sends SIGTERM to the process id in DIR/pid (the server this script started), if the file is there.
tls_server.py unused-port
    Prints a port of 127.0.0.1 that nothing listens on (just closed).
tls_server.py same DIR FILE
    Prints {"same": true} when the certificate in FILE (PEM or DER, as the vault hands it out) is DIR/server.pem.
"""

from __future__ import annotations

import datetime
import json
import os
import signal
import socket
import ssl
import sys
import time

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

LOOPBACK = "127.0.0.1"


def make(directory, common_name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=7))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(common_name)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_path = os.path.join(directory, "server-key.pem")
    descriptor = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
    with open(os.path.join(directory, "server.pem"), "wb") as handle:
        handle.write(certificate.public_bytes(serialization.Encoding.PEM))
    print(json.dumps({"serial": "%x" % certificate.serial_number}))
    return 0


def serve(directory, lifetime):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(directory, "server.pem"), os.path.join(directory, "server-key.pem"))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind((LOOPBACK, 0))
    listener.listen(16)
    listener.settimeout(1.0)
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit(0))
    with open(os.path.join(directory, "pid"), "w") as handle:
        handle.write(str(os.getpid()))
    with open(os.path.join(directory, "port.tmp"), "w") as handle:
        handle.write(str(listener.getsockname()[1]))
    os.replace(os.path.join(directory, "port.tmp"), os.path.join(directory, "port"))
    deadline = time.monotonic() + float(lifetime)
    while time.monotonic() < deadline:
        try:
            connection, _peer = listener.accept()
        except socket.timeout:
            continue
        connection.settimeout(5.0)
        try:
            with context.wrap_socket(connection, server_side=True) as tls:
                tls.recv(1)
        except (OSError, ssl.SSLError):
            pass
        finally:
            connection.close()
    return 0


def stop(directory):
    try:
        with open(os.path.join(directory, "pid")) as handle:
            pid = int(handle.read().strip())
    except (OSError, ValueError):
        print(json.dumps({"stopped": False}))
        return 0
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.remove(os.path.join(directory, "pid"))
    print(json.dumps({"stopped": True}))
    return 0


def unused_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        print(probe.getsockname()[1])
    return 0


def same(directory, path):
    with open(os.path.join(directory, "server.pem"), "rb") as handle:
        made = x509.load_pem_x509_certificate(handle.read())
    with open(path, "rb") as handle:
        data = handle.read()
    found = x509.load_pem_x509_certificate(data) if b"-----BEGIN" in data else x509.load_der_x509_certificate(data)
    print(json.dumps({"same": found == made, "serial": "%x" % found.serial_number}))
    return 0


if __name__ == "__main__":
    COMMANDS = {"make": make, "serve": serve, "stop": stop, "unused-port": unused_port, "same": same}
    sys.exit(COMMANDS[sys.argv[1]](*sys.argv[2:]))
