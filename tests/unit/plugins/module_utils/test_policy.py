# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Password policies against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _policy
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

SECRET = "Tr0ub4dor&3-secret"
POLICIES = {
    "ORGANIZATION": "Default Organization",
    "POLICIES": [
        {"POLICYID": "1", "POLICYNAME": "Low", "DEFAULTPOLICY": "false", "PASSWORD MIN LENGTH": "4"},
        {"POLICYID": "3", "POLICYNAME": "Strong", "DEFAULTPOLICY": "true", "PASSWORD MIN LENGTH": "10"},
    ],
}
INVALID = VaultAPIError(
    "VALIDATE_PASSWORD failed: Invalid: too short",
    operation="VALIDATE_PASSWORD",
    http_status=200,
    vault_message="Invalid: too short",
)
UNKNOWN = VaultAPIError(
    "VALIDATE_PASSWORD failed: no such policy",
    operation="VALIDATE_PASSWORD",
    http_status=200,
    vault_message="Password policy Nope does not exist",
)


def keys(client):
    return [key for key, *dummy in client.calls]


def test_list_policies_returns_organization_and_items():
    client = ScriptedClient({"get_password_policies": POLICIES})
    organization, policies = _policy.list_policies(client)
    assert organization == "Default Organization" and policies == POLICIES["POLICIES"]
    assert client.calls == [("get_password_policies", None, None, None)]


def test_list_policies_tolerates_an_empty_answer():
    assert _policy.list_policies(ScriptedClient({"get_password_policies": None})) == (None, [])


def test_find_and_default_policy():
    policies = POLICIES["POLICIES"]
    assert _policy.find_policy(policies, name="Strong")["POLICYID"] == "3"
    assert _policy.find_policy(policies, policy_id=1)["POLICYNAME"] == "Low"
    assert _policy.find_policy(policies, name="strong") is None
    assert _policy.default_policy_name(policies) == "Strong"
    assert _policy.default_policy_name(policies[:1]) is None


def test_valid_password_is_one_request_with_lower_case_details_by_name():
    client = ScriptedClient({"validate_password": None})
    verdict = _policy.validate_password(client, SECRET, name="Strong")
    assert verdict == _policy.Verdict(True, "Valid")
    assert client.calls == [("validate_password", None, {"password": SECRET, "passwordPolicy": "Strong"}, None)]


def test_policy_id_is_sent_as_a_string():
    client = ScriptedClient({"validate_password": None})
    _policy.validate_password(client, SECRET, policy_id=3)
    assert client.calls == [("validate_password", None, {"password": SECRET, "passwordPolicyId": "3"}, None)]


def test_invalid_password_is_confirmed_against_the_policy_list():
    client = ScriptedClient({"validate_password": INVALID, "get_password_policies": POLICIES})
    verdict = _policy.validate_password(client, "short", policy_id="3")
    assert verdict == _policy.Verdict(False, "Invalid: too short")
    assert keys(client) == ["validate_password", "get_password_policies"] and client.writes() == []


def test_unknown_policy_is_not_found_and_names_the_known_ones():
    client = ScriptedClient({"validate_password": UNKNOWN, "get_password_policies": POLICIES})
    with pytest.raises(VaultNotFoundError) as caught:
        _policy.validate_password(client, SECRET, name="Nope")
    assert str(caught.value) == "password policy Nope does not exist; the vault has: Low (id 1), Strong (id 3)"
    assert SECRET not in str(caught.value)


def test_a_failure_that_is_not_a_verdict_is_raised_without_reading_the_list():
    unsupported = VaultAPIError("UNSUPPORTED failed (HTTP 404): not supported", http_status=404)
    client = ScriptedClient({"validate_password": unsupported, "get_password_policies": POLICIES})
    with pytest.raises(VaultUnsupportedError, match="the vault does not serve it: .*HTTP 404"):
        _policy.validate_password(client, SECRET, name="Strong")
    assert keys(client) == ["validate_password"]


def test_when_the_list_fails_too_the_first_error_is_raised():
    denied = VaultAPIError("GET PASSWORD POLICIES failed: denied", http_status=200)
    client = ScriptedClient({"validate_password": INVALID, "get_password_policies": denied})
    with pytest.raises(VaultAPIError) as caught:
        _policy.validate_password(client, SECRET, name="Strong")
    assert caught.value is INVALID


@pytest.mark.parametrize(
    "password, name, policy_id, message",
    [
        ("", "Strong", None, "empty"),
        (SECRET, None, None, "exactly one"),
        (SECRET, "Strong", "3", "exactly one"),
    ],
)
def test_bad_input_raises_before_any_request(password, name, policy_id, message):
    client = ScriptedClient({})
    with pytest.raises(VaultInputError, match=message) as caught:
        _policy.validate_password(client, password, name, policy_id)
    assert client.calls == [] and SECRET not in str(caught.value)


def test_require_valid_raises_with_the_verdict_in_the_result():
    _policy.require_valid(_policy.Verdict(True, "Valid"), name="Strong")
    with pytest.raises(_policy.InvalidPasswordError) as caught:
        _policy.require_valid(_policy.Verdict(False, "Invalid: too short"), policy_id="3")
    assert str(caught.value) == (
        "the password does not satisfy password policy with id 3 (VALIDATE_PASSWORD): Invalid: too short"
    )
    assert caught.value.to_result()["valid"] is False
    assert caught.value.to_result()["message"] == "Invalid: too short"


def test_generate_sends_the_policy_name_and_returns_the_password():
    client = ScriptedClient({"generate_password": {"PASSWORD": SECRET}})
    assert _policy.generate_password(client, "Strong") == SECRET
    assert client.calls == [("generate_password", None, {"POLICY": "Strong"}, None)]


def test_generate_for_an_unknown_policy_is_not_found():
    refused = VaultAPIError("GENERATE PASSWORD failed: Password policy Nope does not exist", http_status=200)
    client = ScriptedClient({"generate_password": refused, "get_password_policies": POLICIES})
    with pytest.raises(VaultNotFoundError, match="password policy Nope does not exist; the vault has: Low"):
        _policy.generate_password(client, "Nope")


def test_generate_refused_for_a_known_policy_keeps_the_vault_error():
    refused = VaultAPIError("GENERATE PASSWORD failed: not allowed", http_status=200)
    client = ScriptedClient({"generate_password": refused, "get_password_policies": POLICIES})
    with pytest.raises(VaultAPIError) as caught:
        _policy.generate_password(client, "Strong")
    assert caught.value is refused


def test_generate_without_a_password_in_the_answer_fails():
    client = ScriptedClient({"generate_password": {}})
    with pytest.raises(VaultAPIError, match="without a password"):
        _policy.generate_password(client, "Strong")


def test_default_policy_is_read_from_the_list():
    client = ScriptedClient({"get_password_policies": POLICIES})
    assert _policy.default_policy(client) == "Strong"
    client = ScriptedClient({"get_password_policies": {"POLICIES": POLICIES["POLICIES"][:1]}})
    with pytest.raises(VaultNotFoundError, match="no default password policy"):
        _policy.default_policy(client)
