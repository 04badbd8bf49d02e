# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The run cache's broker: one process per ``ansible-playbook`` run that keeps the secrets the run fetched.

``_run_cache.py`` starts it (``python _run_cache_broker.py NAME MAIN_PID MAIN_START``) from the first lookup of a run
that has ``run_cache`` on; it uses the standard library only, as it runs by its path. What it guarantees:

- Memory only: it listens on a Linux abstract socket (``NAME``, no file anywhere), keeps the values in a dict, has
  no core dumps and is not dumpable (``prctl(PR_SET_DUMPABLE, 0)``: no ptrace, no ``/proc/PID/mem`` for its own
  user), and writes nothing.
- The run's processes only: a connection is served when the peer (``SO_PEERCRED``) has the broker's user id and is
  the run's main process (``MAIN_PID``) or descends from it; any other is closed unanswered.
- It ends with the run: it waits on a pidfd of the main process (checked against its start time, ``MAIN_START``, so
  a reused pid is not taken for it) and exits when that process ends, however it ends, its memory gone with it.

The protocol is one JSON object per line, each answered by one line. A key is a list of text (kind, URL,
organization, keyed hash of the token, names, reason, ticket), composed by the client.

- ``hello``: ``{"salt"}``, the run's random HMAC key for the token's identity.
- ``acquire`` ``keys``: per key ``{"value"}`` (cached), ``{"lease": true}`` (fetch it and ``put`` it: the others
  asking meanwhile are told ``busy``) or ``{"busy": true}``; plus ``epoch``.
- ``put`` ``entries`` ``[[key, value]]`` ``epoch``: stores them (unless a ``drop`` came after ``epoch``: they may be
  older than the write) and ends this connection's leases on them; ``release`` ``keys`` ends leases only.
- ``wait`` ``keys`` ``timeout``: per key the value once it is no longer leased, or null (fetch it yourself); plus
  ``epoch``. A client waits holding no lease, so two waiting clients cannot wait on each other.
- ``drop`` ``kind`` ``resource`` ``account``: forgets the entries of that kind, resource and account (null: any) of
  every vault, token and reason: a module of the run wrote to them.

A connection's leases end when it closes, so a lookup that dies mid-fetch lets a waiting one fetch.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import secrets
import select
import socket
import socketserver
import struct
import sys
import threading

# The parts of a key (``_run_cache.RunCache.key``) that ``drop`` matches on.
KIND, RESOURCE, ACCOUNT = 0, 4, 5
PR_SET_DUMPABLE = 4
MAX_LINE = 16 * 1024 * 1024


def process_start(pid):
    """Field 22 of ``/proc/PID/stat`` (the start time in clock ticks), or None when the process is gone."""
    try:
        with open("/proc/%d/stat" % pid, encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[19]


def parent_of(pid):
    """The parent process id of ``pid`` (field 4 of ``/proc/PID/stat``), or None when the process is gone."""
    try:
        with open("/proc/%d/stat" % pid, encoding="ascii") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descends_from(pid, ancestor, parent=parent_of):
    """Whether ``pid`` is ``ancestor`` or one of its descendants."""
    for _depth in range(64):
        if pid == ancestor:
            return True
        if pid is None or pid <= 1:
            return False
        pid = parent(pid)
    return False


def peer_allowed(connection, main_pid, uid, parent=parent_of):
    """Whether the process at the other end of ``connection`` may use the cache: ``SO_PEERCRED`` gives its pid and
    user id as the kernel saw them when it connected."""
    pid, peer_uid, _gid = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
    return peer_uid == uid and descends_from(pid, main_pid, parent)


class Entries:
    """The cached values, the leases being fetched and the epoch of the last drop, under one condition."""

    def __init__(self):
        self.values = {}
        self.leases = {}  # key -> the connection fetching it
        self.epoch = 0
        self.changed = threading.Condition()

    def acquire(self, keys, owner):
        answers = []
        with self.changed:
            for key in keys:
                if key in self.values:
                    answers.append({"value": self.values[key]})
                elif key in self.leases:
                    answers.append({"busy": True})
                else:
                    self.leases[key] = owner
                    answers.append({"lease": True})
            return {"results": answers, "epoch": self.epoch}

    def put(self, entries, epoch, owner):
        with self.changed:
            for key, value in entries:
                if epoch == self.epoch and isinstance(value, str):
                    self.values[key] = value
                if self.leases.get(key) is owner:
                    del self.leases[key]
            self.changed.notify_all()
        return {"ok": True}

    def release(self, keys, owner):
        with self.changed:
            for key in keys:
                if self.leases.get(key) is owner:
                    del self.leases[key]
            self.changed.notify_all()
        return {"ok": True}

    def release_all(self, owner):
        self.release([key for key, holder in list(self.leases.items()) if holder is owner], owner)

    def wait(self, keys, timeout):
        with self.changed:
            self.changed.wait_for(lambda: not any(key in self.leases for key in keys), timeout)
            return {"results": [self.values.get(key) for key in keys], "epoch": self.epoch}

    def drop(self, kind, resource_name, account):
        def matches(key):
            return key[KIND] == kind and resource_name in (None, key[RESOURCE]) and account in (None, key[ACCOUNT])

        with self.changed:
            dropped = [key for key in self.values if matches(key)]
            for key in dropped:
                del self.values[key]
            self.epoch += 1
            return {"dropped": len(dropped)}


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        server = self.server
        if not peer_allowed(self.connection, server.main_pid, server.uid):
            return
        try:
            for line in iter(lambda: self.rfile.readline(MAX_LINE), b""):
                self.wfile.write(json.dumps(self.answer(json.loads(line))).encode("utf-8") + b"\n")
        except (ValueError, TypeError, KeyError, OSError):
            pass  # a client that speaks wrongly or goes away: its connection ends, its leases with it
        finally:
            server.entries.release_all(self)

    def answer(self, request):
        entries, op = self.server.entries, request["op"]
        if op == "hello":
            return {"salt": self.server.salt}
        if op == "drop":
            return entries.drop(request["kind"], request["resource"], request.get("account"))
        if op == "put":
            return entries.put([(tuple(key), value) for key, value in request["entries"]], request["epoch"], self)
        keys = [tuple(key) for key in request["keys"]]
        if op == "acquire":
            return entries.acquire(keys, self)
        if op == "release":
            return entries.release(keys, self)
        if op == "wait":
            return entries.wait(keys, float(request["timeout"]))
        raise ValueError(op)


class Broker(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def __init__(self, name, main_pid, uid=None):
        self.main_pid = main_pid
        self.uid = os.getuid() if uid is None else uid
        self.salt = secrets.token_hex(32)
        self.entries = Entries()
        super().__init__("\0" + name, Handler)


def harden():
    """No core file, and not dumpable: the values stay out of reach of the user's other processes."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # a libc without prctl: core files are still off


def watch(main_pid, main_start):
    """Return when the run's main process ends (at once if it already has, or its pid is another process's)."""
    try:
        pidfd = os.pidfd_open(main_pid)
    except (OSError, AttributeError):
        return
    if process_start(main_pid) == main_start:
        select.select([pidfd], [], [])


def main(argv):
    name, main_pid, main_start = argv[1], int(argv[2]), argv[3]
    harden()
    try:
        broker = Broker(name, main_pid)
    except OSError:
        print("taken", flush=True)  # another process of the run started it first
        return
    threading.Thread(target=broker.serve_forever, daemon=True).start()
    print("ready", flush=True)
    devnull = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(devnull, stream)
    watch(main_pid, main_start)
    os._exit(0)  # pylint: disable=protected-access  # no cleanup to run: the values go with the process


if __name__ == "__main__":
    main(sys.argv)
