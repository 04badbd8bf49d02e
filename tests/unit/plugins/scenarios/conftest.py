# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Module scenarios beyond the integration contract (other editions and builds, refusals, odd cases), run here
against simulators in this process: a module run costs milliseconds instead of a module process.

``vaults[profile]`` starts the profile's simulator on first use and keeps it for the session; the profiles are
those of the integration suite (tests/utils/with_simulators.py's ``PROFILES``). A scenario names what it makes
after its own test (``unique``), so scenarios sharing a simulator never meet.
"""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.tests.unit.plugins.conftest import install_collection_loader
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import InProcessVault

# with_simulators.py's PROFILES as InProcessVault's arguments.
PROFILES = {
    "default": {},
    "strict": {"require_reason": True, "require_ticket": True},
    "edition_b": {"edition": "B", "build": 6320},
    "old_a": {"build": 12000},
    "access_control": {"access_control": True},
    "real": {"dialect": "real"},
    # The TLS handshake demands a client certificate (the vault's ``client_cert`` and ``client_key``).
    "client_cert": {"require_client_cert": True},
}


class Vaults:
    """The simulators of the session, one per profile, each started when a scenario first asks for it."""

    def __init__(self, tmp_path_factory):
        self._tmp_path_factory = tmp_path_factory
        self._started = {}

    def __getitem__(self, profile):
        if profile not in self._started:
            directory = self._tmp_path_factory.mktemp("scenario-vault-%s" % profile)
            self._started[profile] = InProcessVault(directory, **PROFILES[profile])
        return self._started[profile]

    def close(self):
        for vault in self._started.values():
            vault.close()


@pytest.fixture(scope="session")
def vaults(tmp_path_factory):
    install_collection_loader()
    started = Vaults(tmp_path_factory)
    yield started
    started.close()


@pytest.fixture
def unique(request):
    """A name prefix of this test alone (its node name, shortened), for the objects it makes."""
    name = request.node.name.replace("[", "-").replace("]", "").replace("_", "-")
    return "ut-%s" % name[-40:]


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    """Retries follow each other at once: the scenarios test what the modules do, not how long they wait."""
    monkeypatch.setattr(VaultClient, "_backoff", lambda self, attempt, retry_after=None: None)
