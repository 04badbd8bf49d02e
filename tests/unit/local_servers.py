# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Real local servers for client tests: a scripted HTTPS vault and a plain TCP listener that records
whether anything reached it (where a followed redirect would go).

The scripted vault answers a whole body, or streams one piece by piece (never-ending, dripping or huge
bodies), and it can show a certificate for another name than the address it listens on."""

from __future__ import annotations

import datetime
import ipaddress
import queue
import socketserver
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def write_tls_files(directory, name="127.0.0.1"):
    """A CA (``ca.pem``) and a server certificate for ``name`` (an IP address or a DNS name) it signed;
    returns (ca, cert, key) paths."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "unit test CA")])

    def builder(subject, public_key):
        return (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(ca_name)
            .public_key(public_key)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
        )

    ca_cert = (
        builder(ca_name, ca_key.public_key())
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    try:
        alternative_name = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        alternative_name = x509.DNSName(name)
    cert = (
        builder(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]), key.public_key())
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName([alternative_name]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = tuple(str(directory / name) for name in ("ca.pem", "server.pem", "server-key.pem"))
    for path, data in zip(
        paths,
        (
            ca_cert.public_bytes(serialization.Encoding.PEM),
            cert.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ),
        ),
    ):
        with open(path, "wb") as handle:
            handle.write(data)
    return paths


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _serve(self):
        # The queue of this request's test: a request still streaming when the next test calls ``answer`` must
        # not report into the new queue.
        streamed = self.server.streamed
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.received.append(
            {
                "method": self.command,
                "path": self.path,
                "headers": dict(self.headers),
                "body": body,
                "peer_port": self.client_address[1],  # the same for requests sent over one kept-alive connection
            }
        )
        answer = self.server.script(self)
        if answer is None:  # drop the connection without an answer
            self.close_connection = True
            return
        status, headers, content = answer
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if isinstance(content, bytes):
            if "Content-Length" not in headers:
                self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)
        else:
            self.end_headers()
            self._stream(content, headers.get("Transfer-Encoding") == "chunked", streamed)

    def _stream(self, pieces, chunked, streamed):
        """Writes each piece as it comes (as an HTTP chunk when ``chunked``) until they end or the client
        hangs up; then records in ``streamed`` how many body bytes were written and whether all were."""
        written, complete = 0, False
        try:
            for piece in pieces:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                written += len(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
            complete = True
        except OSError:
            self.close_connection = True
        finally:
            streamed.put((written, complete))

    do_GET = do_POST = do_PUT = do_DELETE = _serve

    def log_message(self, *args):  # pylint: disable=arguments-differ
        pass


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A client that hangs up or times out mid-request (what the hostile tests' clients do on purpose) is
        not a fault of the server: only other errors print their traceback."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class ScriptedVault:
    """An HTTPS server on 127.0.0.1 with a certificate for ``name``; ``script(handler)`` gives (status,
    headers, body) or None to drop. A body that is not ``bytes`` is an iterable of pieces, streamed: no
    Content-Length is added, and ``streamed`` gets (bytes written, all written) when it ends."""

    def __init__(self, tmp_path, name="127.0.0.1"):
        self.ca_path, cert, key = write_tls_files(tmp_path, name)
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.server.received = []
        self.server.streamed = queue.Queue()
        self.server.script = lambda handler: (200, {}, b"")
        self.url = "https://127.0.0.1:%d" % self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def received(self):
        return self.server.received

    @property
    def streamed(self):
        return self.server.streamed

    def answer(self, script):
        self.server.script = script
        self.server.received.clear()
        self.server.streamed = queue.Queue()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Listener:
    """A plain TCP listener on 127.0.0.1 that records every connection made to it, and answers nothing."""

    def __init__(self):
        self.connections = []
        listener = self

        class Record(socketserver.BaseRequestHandler):
            def handle(self):
                self.request.settimeout(1)
                try:
                    listener.connections.append(self.request.recv(65536))
                except OSError:
                    listener.connections.append(b"")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Record)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def nothing_arrived(self, wait=0.05):
        time.sleep(wait)
        return self.connections == []

    def close(self):
        self.server.shutdown()
        self.server.server_close()
