# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Secrets fetched by the ``vault_password`` lookup and by plain ``requests`` clients, timed and counted.

The lookup runs in this process through Ansible's plugin loader, as a play
would run it, without the seconds ``ansible-playbook`` itself takes to start.
The reference clients do what a minimal client of this API does for each
secret: ``GET_RESOURCEACCOUNTID``, then ``GET PASSWORD``, one after another.
"""

from __future__ import annotations

import time
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

    @property
    def requests_per_term(self):
        return self.requests / self.terms


def measure(simulator, name, pairs, fetch):
    """Run ``fetch(pairs)``, check every secret it returned, and count what it cost."""
    simulator.clear_requests()
    connections_before = simulator.connections()
    start = time.perf_counter()
    values = fetch(pairs)
    seconds = time.perf_counter() - start
    expected = [password_of(resource, account) for resource, account in pairs]
    if values != expected:
        raise AssertionError("%s returned wrong secrets" % name)
    connections_after = simulator.connections()
    connections = None if connections_before is None else connections_after - connections_before
    return Run(name, len(pairs), seconds, simulator.request_count(), connections)


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
