"""Serving the application over HTTPS with werkzeug, with a log that keeps secrets out.

Each request is logged to stderr as client, method, path and status: never the
query string (INPUT_DATA may carry passwords) nor any header (AUTHTOKEN).
"""

import sys
from urllib.parse import urlsplit

from werkzeug.serving import WSGIRequestHandler, make_server


class _SecretKeepingRequestHandler(WSGIRequestHandler):
    def log_request(self, code="-", size="-"):
        path = urlsplit(self.path).path
        status = getattr(code, "value", code)
        sys.stderr.write(f'{self.address_string()} "{self.command} {path}" {status}\n')

    def log_error(self, format, *args):
        # The arguments can quote the raw request line, query string included.
        sys.stderr.write(f"{self.address_string()} malformed request refused\n")


def serve(app, host, port, tls_files, on_ready):
    """Listen on ``host``:``port`` (0 picks a free port), call ``on_ready(port)``,
    then serve until interrupted (KeyboardInterrupt)."""
    server = make_server(
        host,
        port,
        app,
        threaded=True,
        ssl_context=tls_files.server_context(),
        request_handler=_SecretKeepingRequestHandler,
    )
    on_ready(server.server_port)
    server.serve_forever()
