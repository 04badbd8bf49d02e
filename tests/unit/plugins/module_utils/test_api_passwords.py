# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The "Password workflow and policies" rows of the gateway (``_api/passwords``): the input each builds from its
parameters, the keys it reads, and what it makes of an answer without them or of a vault without the row."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import passwords as passwords_api
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultUnsupportedError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient


class AnsweringClient(ScriptedClient):
    """A ``ScriptedClient`` whose answers say ``message`` in ``result.message`` (the scripted ones say nothing)."""

    def __init__(self, answers, message):
        super().__init__(answers)
        self.message = message

    def call(self, key, path=None, details=None, query=None, files=None):
        return replace(super().call(key, path=path, details=details, query=query, files=files), message=self.message)


# The workflow


@pytest.mark.parametrize(
    "reason, details", [("deploy", {"REASON": "deploy"}), (None, None), ("", None)], ids=["reason", "none", "empty"]
)
@pytest.mark.parametrize("function", [passwords_api.request_password, passwords_api.checkout_password])
def test_a_request_and_a_checkout_send_the_reason_only_when_given(function, reason, details):
    key = function.endpoint.key
    client = ScriptedClient({key: None})
    function(client, "3", reason)
    assert client.calls == [(key, {"account_id": "3"}, details, None)]


@pytest.mark.parametrize("function", [passwords_api.reject_request, passwords_api.checkin_password])
def test_a_reject_and_a_checkin_name_the_password_and_the_requester(function):
    key = function.endpoint.key
    client = ScriptedClient({key: None})
    function(client, "3", "12", "30")
    assert client.calls == [
        (key, {"account_id": "3", "requester_id": "12"}, {"PASSWDID": "30", "REQUESTEDID": "12"}, None)
    ]


def test_an_approval_sends_no_input():
    client = ScriptedClient({"approve_request": None})
    passwords_api.approve_request(client, "3", "12")
    assert client.calls == [("approve_request", {"account_id": "3", "requester_id": "12"}, None, None)]


@pytest.mark.parametrize("requester_id, details", [("12", {"REQUESTEDID": "12"}), (None, None)])
def test_the_requests_are_listed_with_their_requester(requester_id, details):
    listing = {
        "REQUESTER USERID": "12",
        "PASSWORDREQUESTLIST": [{"ACCOUNT ID": "3", "STATUS": "APPROVED"}, "not an item"],
    }
    client = ScriptedClient({"get_password_requests": listing})
    found, items = passwords_api.get_password_requests(client, requester_id)
    assert found["REQUESTER USERID"] == "12" and items == [{"ACCOUNT ID": "3", "STATUS": "APPROVED"}]
    assert client.calls == [("get_password_requests", None, details, None)]


# Policies


def test_the_policies_are_read_with_their_organization():
    policies = {"ORGANIZATION": "Default", "POLICIES": [{"POLICYNAME": "Strong", "POLICYID": "3"}]}
    client = ScriptedClient({"get_password_policies": policies})
    assert passwords_api.get_password_policies(client) == ("Default", [{"POLICYNAME": "Strong", "POLICYID": "3"}])


def test_a_password_is_generated_by_the_named_policy():
    client = ScriptedClient({"generate_password": {"PASSWORD": "Xy7!secret"}})
    assert passwords_api.generate_password(client, "Strong") == "Xy7!secret"
    assert client.calls == [("generate_password", None, {"POLICY": "Strong"}, None)]


@pytest.mark.parametrize("answer", [{}, {"PASSWORD": ""}, {"PASSWORD": 1234}], ids=["none", "empty", "not-text"])
def test_an_answer_without_a_generated_password_is_a_failure_naming_the_policy(answer):
    client = ScriptedClient({"generate_password": answer})
    with pytest.raises(VaultAPIError, match="GENERATE PASSWORD answered without a password for password policy Strong"):
        passwords_api.generate_password(client, "Strong")


@pytest.mark.parametrize(
    "policy_name, policy_id, details",
    [
        ("Strong", None, {"password": "Pw-1!", "passwordPolicy": "Strong"}),
        (None, 3, {"password": "Pw-1!", "passwordPolicyId": "3"}),
    ],
    ids=["by-name", "by-id"],
)
def test_a_password_is_validated_against_a_policy_by_name_or_id(policy_name, policy_id, details):
    client = AnsweringClient({"validate_password": None}, "Valid")
    assert passwords_api.validate_password(client, "Pw-1!", policy_name, policy_id) == "Valid"
    assert client.calls == [("validate_password", None, details, None)]


def test_a_vault_that_does_not_serve_validation_lacks_it():
    client = ScriptedClient(
        {"validate_password": VaultAPIError("UNSUPPORTED failed (HTTP 404): nope", http_status=404)}
    )
    with pytest.raises(VaultUnsupportedError, match="the vault does not serve it: UNSUPPORTED failed"):
        passwords_api.validate_password(client, "Pw-1!", "Strong")


def test_an_invalid_password_is_the_vault_failure_as_it_is():
    invalid = VaultAPIError("VALIDATE_PASSWORD failed: too short", http_status=200, vault_message="too short")
    client = ScriptedClient({"validate_password": invalid})
    with pytest.raises(VaultAPIError) as raised:
        passwords_api.validate_password(client, "Pw-1!", "Strong")
    assert raised.value is invalid


def test_a_build_without_validation_is_refused_before_sending():
    client = ScriptedClient({"validate_password": None}, edition="A", build=12000)
    with pytest.raises(VaultUnsupportedError, match="A from build 12230"):
        passwords_api.validate_password(client, "Pw-1!", "Strong")
    assert client.calls == []
