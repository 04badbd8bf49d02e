"""Serving the application over HTTPS with cheroot: HTTP/1.1 connections kept alive between
requests, a pool of worker threads, a log that keeps secrets out, and the traffic counters.

cheroot (rather than werkzeug's development server, which closes every connection) reads
whatever body a request left unread before the next request on the connection, and closes
a kept-alive connection idle for ``IDLE_TIMEOUT_SECONDS``; idle connections hold no thread.

Each request is logged to stderr as client, method, path and status: never the
query string (INPUT_DATA may carry passwords) nor any header (AUTHTOKEN).
"""

import logging
import socket
import sys
import threading

from cheroot.server import HTTPConnection
from cheroot.ssl.builtin import BuiltinSSLAdapter
from cheroot.wsgi import Gateway_10, Server

from vault_simulator.core.faults import DROP_CONNECTION
from vault_simulator.core.simulator import simulator_of

IDLE_TIMEOUT_SECONDS = 5
WORKER_THREADS = 64
LISTEN_BACKLOG = 128
# cheroot keeps only 10 idle connections alive by default; parallel test runs hold more.
KEPT_ALIVE_CONNECTIONS = 256


class _Gateway(Gateway_10):
    """cheroot's WSGI 1.0 gateway, plus the request counter, the request log and ``DROP_CONNECTION``."""

    def __init__(self, req):
        self._dropped = False
        super().__init__(req)

    def get_environ(self):
        environ = super().get_environ()
        environ[DROP_CONNECTION] = self._drop_connection
        return environ

    def respond(self):
        self.req.server.traffic.request_received()
        if self.req.chunked_read:
            # cheroot drains only a body of known length that the application left unread:
            # a chunked one ends its connection instead.
            self.req.close_connection = True
        super().respond()

    def start_response(self, status, headers, exc_info=None):
        code = "dropped" if self._dropped else status.split(" ", 1)[0]
        sys.stderr.write(f'{self.env["REMOTE_ADDR"]} "{self.env["REQUEST_METHOD"]} {self.env["PATH_INFO"]}" {code}\n')
        if self._dropped:
            return self._discard
        return super().start_response(status, headers, exc_info)

    def _discard(self, chunk):
        """The WSGI ``write`` of a dropped connection."""

    def _drop_connection(self):
        """End the connection without an answer: nothing more is sent (cheroot takes the headers
        for sent), and cheroot closes it."""
        self._dropped = True
        self.req.sent_headers = True
        self.req.close_connection = True
        try:
            self.req.conn.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _Connection(HTTPConnection):
    """cheroot's connection, whose writer is emptied and closed with it. A client that closes its end before the
    answer is written (its timeout ran out, a fault dropped it) makes the write fail with the bytes still in
    cheroot's buffered writer (``_write_buf``), which cheroot never closes: collected later, it flushed them into the
    closed socket, an OSError nobody could catch (pytest's PytestUnraisableExceptionWarning, "Bad file descriptor")."""

    def close(self):
        pending = getattr(self.wfile, "_write_buf", None)
        if pending is not None:
            del pending[:]
        try:
            self.wfile.close()
        except OSError:
            pass  # its socket is gone already
        super().close()


class _CountingTLSAdapter(BuiltinSSLAdapter):
    """TLS with the simulator's own context; every accepted connection is counted before its handshake. With
    ``require_client_cert``, a client without a certificate signed by the test CA fails the handshake: cheroot
    closes that connection and goes on; its message (level INFO) is not written (``_SimulatorServer.error_log``)."""

    def __init__(self, tls_files, traffic, require_client_cert=False):
        super().__init__(tls_files.cert_path, tls_files.key_path)
        self.context = tls_files.server_context(require_client_cert=require_client_cert)
        self._traffic = traffic

    def wrap(self, sock):
        self._traffic.connection_accepted()
        return super().wrap(sock)


class _SimulatorServer(Server):
    """cheroot's server of ``app`` over TLS with ``tls_files``; with ``require_client_cert``, only clients showing
    a certificate of the test CA (``tls_files.client_cert_path``) get through the handshake."""

    def __init__(self, app, host, port, tls_files, require_client_cert=False):
        super().__init__(
            (host, port),
            app,
            numthreads=WORKER_THREADS,
            request_queue_size=LISTEN_BACKLOG,
            timeout=IDLE_TIMEOUT_SECONDS,
        )
        self.gateway = _Gateway
        self.ConnectionClass = _Connection
        self.keep_alive_conn_limit = KEPT_ALIVE_CONNECTIONS
        self.traffic = simulator_of(app).traffic
        self.ssl_adapter = _CountingTLSAdapter(tls_files, self.traffic, require_client_cert)

    def error_log(self, msg="", level=logging.INFO, traceback=False):
        # cheroot's messages can quote what a client sent (an exception's repr, a traceback):
        # only the kind of error is logged, and nothing below a warning.
        if level >= logging.WARNING:
            error = sys.exc_info()[1]
            sys.stderr.write(f"server error: {type(error).__name__ if error else 'unknown'}\n")


def serve(app, host, port, tls_files, on_ready, require_client_cert=False):
    """Listen on ``host``:``port`` (0 picks a free port), call ``on_ready(port)``,
    then serve until interrupted (KeyboardInterrupt); with ``require_client_cert``, demand a client certificate
    of the test CA."""
    server = _SimulatorServer(app, host, port, tls_files, require_client_cert)
    server.prepare()
    # The serve loop runs in a thread of its own: the KeyboardInterrupt of a signal then
    # comes while this thread only waits, never half-way through cheroot's queues and locks.
    serving = threading.Thread(target=server.serve, name="serve")
    serving.start()
    try:
        on_ready(server.bind_addr[1])
        serving.join()
    finally:
        server.stop()
        serving.join()
