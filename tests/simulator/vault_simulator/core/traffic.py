"""What the HTTPS server has carried since start: connections accepted and requests received,
read through ``GET /__simulator/stats`` (a client that keeps its connection alive opens one
connection for many requests)."""

import threading


class Traffic:
    def __init__(self):
        self._lock = threading.Lock()
        self._connections = 0
        self._requests = 0

    def connection_accepted(self):
        with self._lock:
            self._connections += 1

    def request_received(self):
        with self._lock:
            self._requests += 1

    def counts(self):
        """``{"connections": n, "requests": m}``; both stay 0 without the server (Flask's test client)."""
        with self._lock:
            return {"connections": self._connections, "requests": self._requests}
