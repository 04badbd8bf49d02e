# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Real local servers for client tests: a scripted HTTPS vault, a plain TCP listener that records
whether anything reached it (where a followed redirect would go), and an HTTP proxy that opens CONNECT tunnels.

The scripted vault answers a whole body, or streams one piece by piece (never-ending, dripping or huge
bodies), and it can show a certificate for another name than the address it listens on."""

from __future__ import annotations

import base64
import datetime
import ipaddress
import os
import queue
import socket
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


def _serve_until_closed(server):
    """``close()`` waits until the server's loop sees it: a twentieth of a second, where socketserver's own poll
    interval would make every test module that starts a server wait half a second for it."""
    server.serve_forever(poll_interval=0.05)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Each write goes out at once: with Nagle's algorithm the body waits for the client's delayed acknowledgement of
    # the headers (about 40 ms on every answer of a local server).
    disable_nagle_algorithm = True

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
    refused_handshakes = None

    def handle_error(self, request, client_address):
        """A client that hangs up or times out mid-request (what the hostile tests' clients do on purpose) is
        not a fault of the server: only other errors print their traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ssl.SSLError) and self.refused_handshakes is not None:
            self.refused_handshakes.add(request)
        if not isinstance(error, OSError):
            super().handle_error(request, client_address)

    def shutdown_request(self, request):
        """A connection whose handshake this server refused (a client certificate missing: TLS 1.3 refuses it after
        the client has sent its request) is drained before it is closed: closed with the request unread, the kernel
        would answer with a reset, which can reach the client before the alert that says why, and the client would
        see a broken connection instead of the refusal (as a real server's lingering close avoids)."""
        if self.refused_handshakes is not None and request in self.refused_handshakes:
            self.refused_handshakes.discard(request)
            raw = socket.socket(fileno=os.dup(request.fileno()))
            try:
                raw.settimeout(2)
                raw.shutdown(socket.SHUT_WR)
                while raw.recv(65536):
                    pass
            except OSError:
                pass
            finally:
                raw.close()
        super().shutdown_request(request)


class ScriptedVault:
    """An HTTPS server on 127.0.0.1 with a certificate for ``name``; ``script(handler)`` gives (status,
    headers, body) or None to drop. A body that is not ``bytes`` is an iterable of pieces, streamed: no
    Content-Length is added, and ``streamed`` gets (bytes written, all written) when it ends. With ``client_ca``
    (a CA file) it demands a client certificate that CA signed."""

    def __init__(self, tmp_path, name="127.0.0.1", client_ca=None):
        self.ca_path, cert, key = write_tls_files(tmp_path, name)
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        if client_ca:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(cafile=client_ca)
            self.server.refused_handshakes = set()
        # The handshake happens in the handler's thread, where a refused one can be closed cleanly (shutdown_request).
        self.server.socket = context.wrap_socket(
            self.server.socket, server_side=True, do_handshake_on_connect=client_ca is None
        )
        self.server.received = []
        self.server.streamed = queue.Queue()
        self.server.script = lambda handler: (200, {}, b"")
        self.url = "https://127.0.0.1:%d" % self.server.server_address[1]
        self._thread = threading.Thread(target=_serve_until_closed, args=(self.server,), daemon=True)
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
        threading.Thread(target=_serve_until_closed, args=(self.server,), daemon=True).start()

    def nothing_arrived(self, wait=0.05):
        time.sleep(wait)
        return self.connections == []

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class ConnectProxy:
    """An HTTP proxy on 127.0.0.1 (``url``) that serves CONNECT only: a TCP tunnel to the ``host:port`` asked,
    its bytes relayed both ways until either end closes. ``tunnels`` lists the ``host:port`` of every tunnel opened,
    ``received`` every CONNECT request as ``{"target", "headers"}`` (its header names in lower case).

    - ``credentials=(user, password)``: a CONNECT without ``Proxy-Authorization: Basic`` of them is answered 407
      with ``Proxy-Authenticate: Basic realm="test"``, and no tunnel;
    - ``refuse=STATUS`` (403, 502...): every CONNECT is answered ``STATUS``, and no tunnel;
    - another method than CONNECT is answered 405; a target it cannot reach, 502.

    A context manager; ``stop()`` (or ``close()``) closes the listener and every open connection and tunnel. Its
    threads are daemons: none of them keeps the test process alive."""

    REASONS = {403: "Forbidden", 405: "Method Not Allowed", 407: "Proxy Authentication Required", 502: "Bad Gateway"}
    HEAD_LIMIT = 65536
    TIMEOUT = 5

    def __init__(self, credentials=None, refuse=None):
        self.credentials = credentials
        self.refuse = refuse
        self._lock = threading.Lock()
        self._tunnels = []
        self._received = []
        self._sockets = set()
        self._stopped = False
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self._thread = threading.Thread(target=self._accept, name="connect-proxy", daemon=True)
        self._thread.start()

    @property
    def tunnels(self):
        with self._lock:
            return list(self._tunnels)

    @property
    def received(self):
        with self._lock:
            return list(self._received)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.stop()

    def stop(self):
        """Close the listener and every connection and tunnel; wait (briefly) for the accepting thread to end."""
        with self._lock:
            self._stopped = True
            sockets, self._sockets = self._sockets, set()
        for sock in [self._listener, *sockets]:
            _close(sock)
        self._thread.join(self.TIMEOUT)

    close = stop

    @property
    def stopped(self):
        return self._stopped

    def _keep(self, sock):
        """Track ``sock`` to close it on stop; False (and ``sock`` closed) when stopped already."""
        with self._lock:
            if not self._stopped:
                self._sockets.add(sock)
                return True
        _close(sock)
        return False

    def _forget(self, *sockets):
        with self._lock:
            self._sockets.difference_update(sockets)
        for sock in sockets:
            _close(sock)

    def _accept(self):
        while True:
            try:
                client, dummy = self._listener.accept()
            except OSError:  # the listener was closed: stopped
                return
            if not self._keep(client):
                return
            threading.Thread(target=self._serve, args=(client,), name="connect-proxy-client", daemon=True).start()

    def _serve(self, client):
        upstream = None
        try:
            client.settimeout(self.TIMEOUT)
            head, rest = self._read_head(client)
            if head is None:
                return
            lines = head.decode("iso-8859-1").split("\r\n")
            method, target = (lines[0].split(" ") + ["", ""])[:2]
            headers = {}
            for line in lines[1:]:
                name, dummy, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            if method != "CONNECT":
                self._answer(client, 405)
                return
            with self._lock:
                self._received.append({"target": target, "headers": headers})
            if self.refuse:
                self._answer(client, self.refuse)
                return
            if self.credentials and headers.get("proxy-authorization") != _basic(*self.credentials):
                self._answer(client, 407, {"Proxy-Authenticate": 'Basic realm="test"'})
                return
            host, dummy, port = target.rpartition(":")
            try:
                upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=self.TIMEOUT)
            except (OSError, ValueError):
                self._answer(client, 502)
                return
            if not self._keep(upstream):
                return
            with self._lock:
                self._tunnels.append(target)
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            client.settimeout(None)
            upstream.settimeout(None)
            if rest:
                upstream.sendall(rest)
            back = threading.Thread(target=_relay, args=(upstream, client), name="connect-proxy-tunnel", daemon=True)
            back.start()
            _relay(client, upstream)
            back.join()
        except OSError:
            pass
        finally:
            self._forget(*(sock for sock in (client, upstream) if sock is not None))

    def _read_head(self, client):
        """The request's head (up to the blank line) and the bytes read after it; (None, b"") if the client went
        away or sent too much."""
        data = b""
        while b"\r\n\r\n" not in data:
            if len(data) > self.HEAD_LIMIT:
                return None, b""
            piece = client.recv(4096)
            if not piece:
                return None, b""
            data += piece
        head, dummy, rest = data.partition(b"\r\n\r\n")
        return head, rest

    def _answer(self, client, status, headers=None):
        lines = ["HTTP/1.1 %d %s" % (status, self.REASONS.get(status, "Refused"))]
        lines += ["%s: %s" % item for item in dict(headers or {}, **{"Content-Length": "0"}).items()]
        lines.append("Connection: close")
        client.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("iso-8859-1"))


def _basic(user, password):
    return "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()


def _relay(source, destination):
    """Copy ``source`` to ``destination`` until ``source`` ends (or either breaks); then end ``destination``'s
    sending side, so its peer sees the end too."""
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            destination.sendall(data)
    except OSError:
        pass
    try:
        destination.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _close(sock):
    """Shut ``sock`` down (which wakes a thread blocked on it) and close it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
