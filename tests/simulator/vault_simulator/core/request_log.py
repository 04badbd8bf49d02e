"""The record of vault requests served, read through the admin endpoint."""

import threading


class RequestLog:
    def __init__(self):
        self._lock = threading.Lock()
        self._entries = []

    def add(self, method, path, operation, status):
        with self._lock:
            self._entries.append({"method": method, "path": path, "operation": operation, "status": status})

    def entries(self):
        with self._lock:
            return list(self._entries)

    def clear(self):
        with self._lock:
            self._entries.clear()
