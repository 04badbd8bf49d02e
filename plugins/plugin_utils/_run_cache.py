# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The run cache (option ``run_cache``): one audited retrieval per secret per ``ansible-playbook`` run.

A lookup runs in the worker process of its task and host, which ends with the task; what one worker fetched is
gone for the next. The run cache keeps it in a broker process (``_run_cache_broker.py``, whose docstring says what
it guarantees) that the first lookup of the run starts and every later one finds by name: a Linux abstract socket
named after the user, the run's main process and that process's start time. The main process is the parent of a
worker (``multiprocessing.parent_process``), or the process itself when a lookup runs in it.

``RunCache.serve(items, fetch)`` gives each item's cached value, or fetches it: the items no other process of the run
is fetching with this process's ``fetch`` (each with a lease, put back when fetched), then the items others were
fetching once they are done (only those whose fetch failed there are fetched here). Only text values are kept: an
error (missing, refused) is fetched again by the next lookup. A key holds the kind of secret, the vault's URL and
organization, an HMAC of the token under the run's random key (never the token), the names, and the reason and
ticket (another reason is another, audited, retrieval). ``drop_written`` is called by the actions of the modules
that write secrets (``_run_cache_action``).

Anything that goes wrong with the cache (not Linux, the broker cannot start or answers wrongly) falls back to
fetching, with one warning per lookup call.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import multiprocessing
import os
import select
import socket
import subprocess
import sys

from ansible_collections.credvault.vault.plugins.plugin_utils import _run_cache_broker as broker

BROKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_run_cache_broker.py")
# The kinds of secret a key names (its first part); a drop names one.
PASSWORD, SSH_KEY, DEFAULT_POLICY = "password", "ssh_key", "default_policy"
IO_TIMEOUT = 15.0
# How long a lookup waits for another process of the run to fetch a secret it is fetching: its client's retries
# with backoff may take that long; a process that dies mid-fetch releases at once.
WAIT_TIMEOUT = 300.0
START_TIMEOUT = 10.0
# What a broker answering wrongly raises here (a message that is not the protocol's), and with a broker gone too.
BROKEN = (ValueError, KeyError, TypeError, AttributeError)
BROKEN_OR_GONE = (OSError, ValueError, KeyError, TypeError, AttributeError)


class RunCacheUnavailable(Exception):
    """The cache cannot be used; the message says why (it is shown in the fallback's warning)."""


def run_identity():
    """``(socket name, main pid, main start time)`` of this process's run; ``RunCacheUnavailable`` off Linux."""
    if not sys.platform.startswith("linux"):
        raise RunCacheUnavailable("it needs Linux (abstract sockets, SO_PEERCRED, pidfd)")
    parent = multiprocessing.parent_process()
    main_pid = os.getpid() if parent is None else parent.pid
    start = broker.process_start(main_pid)
    if start is None:
        raise RunCacheUnavailable("the run's main process (%d) cannot be read in /proc" % main_pid)
    return "credvault-run-cache/%d/%d/%s" % (os.getuid(), main_pid, start), main_pid, start


def _connect(name):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(IO_TIMEOUT)
    try:
        connection.connect("\0" + name)
    except OSError:
        connection.close()
        raise
    return connection


def _start(name, main_pid, main_start):
    """Start the run's broker (or find that another process of the run just did)."""
    try:
        process = subprocess.Popen(  # pylint: disable=consider-using-with  # it outlives this process on purpose
            [sys.executable, BROKER, name, str(main_pid), main_start],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError as exc:
        raise RunCacheUnavailable("the broker process could not start: %s" % (exc.strerror or exc)) from None
    try:
        started = select.select([process.stdout], [], [], START_TIMEOUT)[0]
        line = process.stdout.readline().strip() if started else b""
    finally:
        process.stdout.close()
    if line not in (b"ready", b"taken"):
        process.kill()
        raise RunCacheUnavailable("the broker process did not start within %g s" % START_TIMEOUT)


class RunCache:
    """The connection of one lookup call (or one action) to its run's broker."""

    def __init__(self, connection):
        self._connection = connection
        self._reader = connection.makefile("rb")
        self.salt = self._ask({"op": "hello"})["salt"].encode("ascii")

    @classmethod
    def open(cls, start=True):
        """The run's cache, starting its broker when ``start`` and there is none yet; None when not ``start`` and
        there is none. Raises ``RunCacheUnavailable``."""
        name, main_pid, main_start = run_identity()
        try:
            return cls(_connect(name))
        except OSError:
            if not start:
                return None
        except BROKEN as exc:
            raise RunCacheUnavailable("the broker process answers wrongly: %s" % exc) from None
        _start(name, main_pid, main_start)
        try:
            return cls(_connect(name))
        except BROKEN_OR_GONE as exc:
            raise RunCacheUnavailable("the broker process does not answer: %s" % exc) from None

    def close(self):
        self._reader.close()
        self._connection.close()

    def key(self, kind, connection_option, resource, account="", reason="", ticket=""):
        """The cache key of a secret: never the token, but its HMAC under the run's key."""
        token = connection_option("auth_token") or ""
        identity = hmac.new(self.salt, token.encode("utf-8"), hashlib.sha256).hexdigest()
        parts = [kind, connection_option("url"), connection_option("org_name"), identity]
        return [str(part or "") for part in parts + [resource, account, reason, ticket]]

    def serve(self, items, key_parts, fetch):
        """``{item: outcome}`` for ``items``: cached values, else ``fetch(items) -> {item: outcome}``; outcomes that
        are text are cached. ``key_parts(cache, item)`` gives an item's key (with ``cache.key``)."""
        keys = {item: key_parts(self, item) for item in items}
        answer = self._ask({"op": "acquire", "keys": list(keys.values())})
        outcomes, leased, busy = {}, [], []
        for item, result in zip(items, _results(answer, len(items), dict)):
            if "value" in result:
                outcomes[item] = result["value"]
            else:
                (leased if result.get("lease") else busy).append(item)
        outcomes.update(self._fetch_and_put(leased, keys, fetch, answer["epoch"]))
        if busy:
            request = {"op": "wait", "keys": [keys[item] for item in busy], "timeout": WAIT_TIMEOUT}
            waited = self._ask(request, WAIT_TIMEOUT + IO_TIMEOUT)
            values = _results(waited, len(busy), (str, type(None)))
            still = [item for item, value in zip(busy, values) if value is None]
            outcomes.update((item, value) for item, value in zip(busy, values) if value is not None)
            outcomes.update(self._fetch_and_put(still, keys, fetch, waited["epoch"]))
        return outcomes

    def _fetch_and_put(self, items, keys, fetch, epoch):
        if not items:
            return {}
        outcomes = fetch(items)
        entries = [[keys[item], value] for item, value in outcomes.items() if isinstance(value, str)]
        failed = [keys[item] for item in items if not isinstance(outcomes.get(item), str)]
        self._ask({"op": "put", "entries": entries, "epoch": epoch})
        if failed:
            self._ask({"op": "release", "keys": failed})
        return outcomes

    def drop(self, kind, resource, account=None):
        self._ask({"op": "drop", "kind": kind, "resource": resource, "account": account})

    def _ask(self, request, timeout=IO_TIMEOUT):
        self._connection.settimeout(timeout)
        self._connection.sendall(json.dumps(request).encode("utf-8") + b"\n")
        line = self._reader.readline()
        if not line:
            raise OSError("the broker closed the connection")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise ValueError("not an answer")
        return answer


def _results(answer, count, kinds):
    """The ``results`` of a broker's answer, ``count`` of them, each of ``kinds``; else ``ValueError``."""
    results = answer.get("results")
    if not isinstance(results, list) or len(results) != count or not all(isinstance(r, kinds) for r in results):
        raise ValueError("the broker's answer is not one result per key")
    return results


def serve_cached(warn, items, key_parts, fetch):
    """``fetch(items)`` through the run cache: ``key_parts(cache, item)`` gives an item's key. When the cache fails,
    the items it has not served are fetched, with one warning (``warn``)."""
    try:
        cache = RunCache.open()
    except RunCacheUnavailable as exc:
        warn("run_cache: not used, fetching from the vault: %s" % exc)
        return fetch(items)
    served = {}

    def fetch_and_keep(part):
        outcomes = fetch(part)
        served.update(outcomes)
        return outcomes

    try:
        return cache.serve(items, key_parts, fetch_and_keep)
    except BROKEN_OR_GONE as exc:
        warn("run_cache: the broker failed, fetching from the vault: %s" % exc)
        rest = [item for item in items if item not in served]
        served.update(fetch(rest) if rest else {})
        return served
    finally:
        cache.close()


def drop_written(writes):
    """Forget what the run cached of ``writes`` (``(kind, resource, account or None)``); nothing when the run has
    no cache. Raises ``RunCacheUnavailable`` when the run's broker could not be told."""
    if not writes:
        return
    try:
        cache = RunCache.open(start=False)
    except RunCacheUnavailable:
        return
    if cache is None:
        return
    try:
        for kind, resource, account in writes:
            cache.drop(kind, resource, account)
    except BROKEN_OR_GONE as exc:
        raise RunCacheUnavailable("the broker failed: %s" % exc) from None
    finally:
        cache.close()
