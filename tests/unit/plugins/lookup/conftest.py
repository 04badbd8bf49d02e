# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fixture the vault_password tests share; a test file needing another vault defines its own ``lookup``."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.lookup.scripted_vault import ANSWERS, CONNECTION


@pytest.fixture
def lookup(lookup_plugin, vault):
    """``lookup(*terms, **kwargs)``: vault_password's run() against a vault holding ``scripted_vault.ACCOUNTS``."""
    vault.answers.update(ANSWERS)

    def run(*terms, **kwargs):
        return lookup_plugin("vault_password").run(list(terms), variables={}, **dict(CONNECTION, **kwargs))

    return run
