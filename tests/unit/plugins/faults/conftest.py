# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault suite's vaults (simulators in this process) and the client's backoff not slept."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.tests.unit.plugins.conftest import install_collection_loader
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import InProcessVault


@pytest.fixture(scope="session")
def fault_vaults(tmp_path_factory):
    """``default`` (edition A build 12450), ``edition_b`` (build 6320) and ``access_control`` (A, with password
    access control, for the workflow)."""
    install_collection_loader()
    vaults = {
        "default": InProcessVault(tmp_path_factory.mktemp("fault-vault")),
        "edition_b": InProcessVault(tmp_path_factory.mktemp("fault-vault-b"), edition="B", build=6320),
        "access_control": InProcessVault(tmp_path_factory.mktemp("fault-vault-ac"), access_control=True),
    }
    yield vaults
    for vault in vaults.values():
        vault.close()


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    """Attempts follow each other at once: the suite tests what the client says, not how long it waits."""
    monkeypatch.setattr(VaultClient, "_backoff", lambda self, attempt, retry_after=None: None)
