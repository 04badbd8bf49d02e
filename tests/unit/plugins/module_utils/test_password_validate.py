# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_password_validate's entry point: the verdict as values, or with fail_on_invalid an invalid password fails."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _password_validate
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.module_utils._policy import InvalidPasswordError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

SECRET = "Tr0ub4dor&3-secret"
INVALID = VaultAPIError(
    "VALIDATE_PASSWORD failed: Invalid: too short",
    operation="VALIDATE_PASSWORD",
    http_status=200,
    vault_message="Invalid: too short",
)
POLICIES = {"ORGANIZATION": "Default Organization", "POLICIES": [{"POLICYID": "3", "POLICYNAME": "Strong"}]}


def desired(fail_on_invalid, **policy):
    return dict({"password": SECRET, "policy": None, "policy_id": None, "fail_on_invalid": fail_on_invalid}, **policy)


def test_a_valid_password_is_the_verdict_and_no_change():
    client = ScriptedClient({"validate_password": None})
    tracker, values = run_entry(_password_validate.describe, client, desired(True, policy="Strong"))
    assert values == {"valid": True, "message": "Valid"}
    assert not tracker.recorded and tracker.warnings == [] and client.writes() == []


def test_an_invalid_password_is_a_verdict_unless_it_must_fail():
    client = ScriptedClient({"validate_password": INVALID, "get_password_policies": POLICIES})
    dummy, values = run_entry(_password_validate.describe, client, desired(False, policy_id="3"))
    assert values == {"valid": False, "message": "Invalid: too short"}
    with pytest.raises(InvalidPasswordError, match="password policy with id 3") as caught:
        run_entry(_password_validate.describe, client, desired(True, policy_id="3"))
    assert caught.value.to_result()["valid"] is False and SECRET not in str(caught.value)
