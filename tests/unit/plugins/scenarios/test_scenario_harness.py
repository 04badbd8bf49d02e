# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scenario vaults are the profiles they are named after."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, writes


@pytest.mark.parametrize(
    "profile, edition, build", [("default", "A", 12450), ("edition_b", "B", 6320), ("old_a", "A", 12000)]
)
def test_each_profile_is_its_edition_and_build(vaults, profile, edition, build):
    result = run(vaults[profile], "vault_server_info")
    assert not result.get("failed"), result
    assert (result["edition"], result["build"]) == (edition, build)


def test_a_write_is_in_the_log(vaults, unique):
    vault = vaults["default"]
    vault.forget_requests()
    account = {"name": "root", "password": "Ut-harness-pw-1!"}
    result = run(vault, "vault_resource", name=unique, type="Linux", owner="admin", first_account=account)
    assert result["changed"], result.get("msg")
    assert ("POST", "CREATE RESOURCE") in writes(vault)
