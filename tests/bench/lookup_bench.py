# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Secrets fetched by the ``vault_password`` lookup and by plain ``requests`` clients, timed and counted.

The lookup runs in this process through Ansible's plugin loader, as a play
would run it, without the seconds ``ansible-playbook`` itself takes to start.
The reference clients of the wall times do what a minimal client of this API
does for each secret: ``GET_RESOURCEACCOUNTID``, then ``GET PASSWORD``, one
after another. The reference of the CPU time (``PasswordOnlyClient``) sends
only ``GET PASSWORD``, over as many keep-alive sessions as the lookup keeps
connections: the least a client can do per secret once it knows the ids.

The CPU time is this process's (``time.process_time``: every thread, the
lookup's workers too); the simulator runs in a process of its own.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import requests
from simulator import REST, password_of

_LOADERS = []  # the collections root Ansible's plugin loader was set up with


def use_collections(collections_root):
    """Set Ansible's plugin loader up with ``collections_root``, once per process (its collection finder is global):
    then ``ansible_collections.credvault.vault`` imports from there."""
    from ansible.plugins.loader import init_plugin_loader  # pylint: disable=import-outside-toplevel

    if not _LOADERS:
        init_plugin_loader([collections_root])
        _LOADERS.append(collections_root)


@dataclass
class Run:
    """One measured fetch of ``terms`` secrets."""

    name: str
    terms: int
    seconds: float
    requests: int
    connections: int | None
    cpu_seconds: float

    @property
    def requests_per_term(self):
        return self.requests / self.terms


def measure(simulator, name, pairs, fetch):
    """Run ``fetch(pairs)``, check every secret it returned, and count what it cost."""
    simulator.clear_requests()
    connections_before = simulator.connections()
    start, cpu_start = time.perf_counter(), time.process_time()
    values = fetch(pairs)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    expected = [password_of(resource, account) for resource, account in pairs]
    if values != expected:
        raise AssertionError("%s returned wrong secrets" % name)
    connections_after = simulator.connections()
    connections = None if connections_before is None else connections_after - connections_before
    return Run(name, len(pairs), seconds, simulator.request_count(), connections, cpu_seconds)


def profile(fetch, pairs, limit):
    """The top ``limit`` functions of ``fetch(pairs)`` by own CPU time, then by cumulative CPU time (waiting for the
    vault costs none), as pstats prints them. cProfile sees only the thread that enables it: profile a client that
    works in this thread (concurrency 1)."""
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    try:
        fetch(pairs)
    finally:
        profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text).strip_dirs()
    stats.sort_stats("tottime").print_stats(limit)
    stats.sort_stats("cumulative").print_stats(limit)
    return text.getvalue()


class PlainClient:
    """The reference: two requests per secret, sequential; with ``keep_alive`` over one ``requests.Session``,
    without it a new connection per request (``requests.get``), as the simplest clients do."""

    def __init__(self, info, keep_alive):
        self.info = info
        self.keep_alive = keep_alive

    def __call__(self, pairs):
        headers = {"AUTHTOKEN": self.info["token"]}
        http = requests.Session() if self.keep_alive else requests
        try:
            return [self._password(http, headers, resource, account) for resource, account in pairs]
        finally:
            if self.keep_alive:
                http.close()

    def _password(self, http, headers, resource, account):
        root = self.info["url"] + REST
        ids = http.get(
            root + "/resources/getResourceIdAccountId",
            params={"RESOURCENAME": resource, "ACCOUNTNAME": account},
            headers=headers,
            verify=self.info["ca_path"],
            timeout=30,
        ).json()["operation"]["Details"]
        answer = http.get(
            root + "/resources/%s/accounts/%s/password" % (ids["RESOURCEID"], ids["ACCOUNTID"]),
            headers=headers,
            verify=self.info["ca_path"],
            timeout=30,
        ).json()
        return answer["operation"]["Details"]["PASSWORD"]


class PasswordOnlyClient:
    """The CPU reference: one ``GET PASSWORD`` per secret and nothing else, over ``sessions`` keep-alive
    ``requests.Session`` objects, one per thread of as many threads. The ids of ``pairs`` are read when the client
    is made (``GET_RESOURCEID`` and ``GET RESOURCE ACCOUNTLIST`` per resource), before anything is measured."""

    def __init__(self, info, pairs, sessions):
        self.info = info
        self.sessions = sessions
        self._local = threading.local()
        self._opened = []
        self.ids = dict(self._all_ids(pairs))

    def __call__(self, pairs):
        return self._on_sessions(lambda pair: self._password(*self.ids[pair]), pairs)

    def _all_ids(self, pairs):
        by_resource = {}
        for resource, account in pairs:
            by_resource.setdefault(resource, []).append(account)
        listed = self._on_sessions(lambda item: self._resource_ids(*item), by_resource.items())
        return [found for resource_ids in listed for found in resource_ids]

    def _on_sessions(self, function, items):
        """``function`` of each item, in order, run by ``sessions`` threads with a session each, closed after."""
        try:
            with ThreadPoolExecutor(max_workers=self.sessions) as executor:
                return list(executor.map(function, items))
        finally:
            for session in self._opened:
                session.close()
            self._opened.clear()

    def _resource_ids(self, resource, accounts):
        root = self.info["url"] + REST
        resource_id = self._get(root + "/resources/resourcename/" + resource)["RESOURCEID"]
        detail = self._get(root + "/resources/%s/accounts" % resource_id)
        account_ids = {item["ACCOUNT NAME"]: item["ACCOUNT ID"] for item in detail["ACCOUNT LIST"]}
        return [((resource, account), (resource_id, account_ids[account])) for account in accounts]

    def _password(self, resource_id, account_id):
        path = "/resources/%s/accounts/%s/password" % (resource_id, account_id)
        return self._get(self.info["url"] + REST + path)["PASSWORD"]

    def _get(self, url):
        return self._session().get(url, verify=self.info["ca_path"], timeout=30).json()["operation"]["Details"]

    def _session(self):
        """This thread's session (``verify`` goes with each request: REQUESTS_CA_BUNDLE overrides Session.verify)."""
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
            session.headers["AUTHTOKEN"] = self.info["token"]
            self._opened.append(session)
        return session


class LookupClient:
    """The collection's ``vault_password`` lookup with ``options`` (e.g. concurrency, id_cache)."""

    def __init__(self, info, collections_root, options):
        # Imported here: Ansible's plugin loader must first learn where the collection is.
        from ansible.parsing.dataloader import DataLoader  # pylint: disable=import-outside-toplevel
        from ansible.plugins.loader import lookup_loader  # pylint: disable=import-outside-toplevel
        from ansible.template import Templar  # pylint: disable=import-outside-toplevel

        use_collections(collections_root)
        loader = DataLoader()
        self.lookup = lookup_loader.get("credvault.vault.vault_password", loader=loader, templar=Templar(loader=loader))
        self.options = dict(options, url=info["url"], auth_token=info["token"], ca_path=info["ca_path"])

    def __call__(self, pairs):
        terms = ["%s/%s" % pair for pair in pairs]
        return [str(value) for value in self.lookup.run(terms, variables={}, **self.options)]
