# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 15, access: a name lookup the vault refuses to this token is raised as that refusal, never taken for a
missing name; a failure that says the name is unknown still is."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account, _resource, _resource_group, _ssh_key
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultNotFoundError,
    is_denial,
    is_refusal,
)
from ansible_collections.credvault.vault.plugins.module_utils._user import find_user_id
from ansible_collections.credvault.vault.tests.unit.corpus_vault import corpus, is_refusal_body
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry


def refusal(operation, message, http_status=200):
    return VaultAPIError(
        "%s failed: %s" % (operation, message), operation=operation, http_status=http_status, vault_message=message
    )


NOT_AUTHORIZED = "You are not authorized to view resource db"
LOCKED = "Authentication failed: the user of this AUTHTOKEN is locked"
REFUSALS = [
    pytest.param(NOT_AUTHORIZED, 200, id="not-authorized"),
    pytest.param(LOCKED, 401, id="locked"),
    pytest.param("no message the collection knows", 403, id="http-403"),
]


def keys(client):
    return [key for key, *dummy in client.calls]


@pytest.mark.parametrize(
    ("message", "http_status", "expected"),
    [
        (NOT_AUTHORIZED, 200, True),
        (LOCKED, 401, True),
        ("Authentication failed", 401, True),
        ("anything", 403, True),
        ("Resource db does not exist", 200, False),
        ("Account app does not exist in resource db", 200, False),
        ("Resource group rg of the user with ID 2 does not exist", 200, False),
    ],
)
def test_is_refusal(message, http_status, expected):
    assert is_refusal(refusal("OP", message, http_status)) is expected


@pytest.mark.parametrize(
    ("operation", "message", "http_status", "expected"),
    [
        ("GET PASSWORD", NOT_AUTHORIZED, 200, True),
        ("GET PASSWORD", "Permission denied", 200, True),
        ("GET PASSWORD", "anything", 403, True),
        ("GET PASSWORD", "Password access control is on: request the password of db/app", 200, True),
        # The token itself: every object would be refused alike, so a lookup never leaves one term out for it.
        ("GET PASSWORD", LOCKED, 200, False),
        ("GET PASSWORD", "Authentication failed", 401, False),
        ("GET PASSWORD", "anything", 401, False),
        ("Authentication", "API key received is not associated to any user. Authentication failed.", 200, False),
        ("Authentication", "User is not allowed to access from this host", 200, False),
        # What the call sent: the user can fix it, nothing is refused to the token.
        ("GET PASSWORD", "A reason is required to retrieve this password", 200, False),
        ("GET PASSWORD", "Account app does not exist in resource db", 200, False),
    ],
)
def test_is_denial(operation, message, http_status, expected):
    assert is_denial(refusal(operation, message, http_status)) is expected


def test_no_recorded_refusal_of_a_real_server_is_a_denial():
    """The refusals recorded from real servers (tests/real_answers) are all of the token itself."""
    recorded = [entry for name, entry in corpus() if is_refusal_body(entry)]
    assert recorded
    for entry in recorded:
        operation = entry["body"].get("operation", entry["body"])
        error = refusal(operation["name"], operation["result"]["message"], entry.get("http_status") or 200)
        assert is_refusal(error) and not is_denial(error)


def test_only_an_answer_of_the_vault_is_a_refusal():
    assert is_refusal(VaultConnectionError("GET RESOURCES: TLS verification of https://v failed")) is False


@pytest.mark.parametrize(("message", "http_status"), REFUSALS)
def test_find_resource_id_raises_a_refusal_without_reading_the_list(message, http_status):
    client = ScriptedClient({"get_resource_id": refusal("GET_RESOURCEID", message, http_status), "get_resources": []})
    with pytest.raises(VaultAPIError) as caught:
        _resource.find_resource_id(client, "db")
    assert caught.value.vault_message == message
    assert keys(client) == ["get_resource_id"]


def test_find_resource_id_still_checks_the_list_for_an_unknown_name():
    client = ScriptedClient(
        {"get_resource_id": refusal("GET_RESOURCEID", "Resource db does not exist"), "get_resources": []}
    )
    assert _resource.find_resource_id(client, "db") is None
    assert keys(client) == ["get_resource_id", "get_resources"]


@pytest.mark.parametrize(("message", "http_status"), REFUSALS)
def test_find_account_raises_a_refusal_in_one_request(message, http_status):
    client = ScriptedClient(
        {
            "get_resource_account_ids": refusal("GET_RESOURCEACCOUNTID", message, http_status),
            "get_resource_id": {"RESOURCEID": "1"},
            "get_account_list": {"ACCOUNT LIST": []},
        }
    )
    with pytest.raises(VaultAPIError) as caught:
        _account.find_account(client, "db", "app")
    assert not isinstance(caught.value, VaultNotFoundError)
    assert caught.value.vault_message == message
    assert keys(client) == ["get_resource_account_ids"]


def test_require_account_of_an_unknown_resource_says_both_and_quotes_the_vault():
    client = ScriptedClient(
        {
            "get_resource_account_ids": refusal("GET_RESOURCEACCOUNTID", "Resource db does not exist"),
            "get_resource_id": refusal("GET_RESOURCEID", "Resource db does not exist"),
            "get_resources": [],
        }
    )
    with pytest.raises(VaultNotFoundError) as caught:
        _account.require_account(client, "db", "app")
    assert str(caught.value) == (
        "resource db does not exist (or is not visible to this token); the vault said: Resource db does not exist"
    )


@pytest.mark.parametrize(("message", "http_status"), REFUSALS)
def test_find_group_raises_a_refusal(message, http_status):
    client = ScriptedClient({"get_resource_group_id": refusal("GET RESOURCE GROUP ID", message, http_status)})
    with pytest.raises(VaultAPIError) as caught:
        _resource_group.find_group(client, None, "rg")
    assert caught.value.vault_message == message


def test_find_group_of_an_unknown_name_is_none():
    missing = refusal("GET RESOURCE GROUP ID", "Resource group rg of the user with ID 2 does not exist")
    assert _resource_group.find_group(ScriptedClient({"get_resource_group_id": missing}), None, "rg") is None


@pytest.mark.parametrize(("message", "http_status"), REFUSALS)
def test_find_user_id_raises_a_refusal(message, http_status):
    client = ScriptedClient({"get_user_id": refusal("get_USERID", message, http_status)})
    with pytest.raises(VaultAPIError) as caught:
        find_user_id(client, "reader")
    assert caught.value.vault_message == message


def test_find_user_id_of_an_unknown_name_keeps_the_vault_words():
    client = ScriptedClient({"get_user_id": refusal("get_USERID", "User reader does not exist")})
    assert find_user_id(client, "reader") == (None, "User reader does not exist")


@pytest.mark.parametrize(("message", "http_status"), REFUSALS)
def test_get_ssh_key_raises_a_refusal_without_reading_the_list(message, http_status):
    client = ScriptedClient({"get_ssh_key": refusal("GetSSHKey", message, http_status), "get_all_ssh_keys": []})
    with pytest.raises(VaultAPIError):
        _ssh_key.get_key(client, "deploy")
    assert keys(client) == ["get_ssh_key"]


@pytest.mark.parametrize(("message", "http_status"), REFUSALS)
def test_a_refused_delete_of_a_resource_the_token_cannot_see_fails_as_refused(message, http_status):
    """The lookup after a refused delete would find nothing (the list hides the resource): still no "deleted
    meanwhile", the refusal is the failure."""
    client = ScriptedClient(
        {
            "get_resource_id": {"RESOURCEID": "7"},
            "get_resources": [],
            "delete_resource": refusal("DELETE RESOURCE", message, http_status),
        }
    )
    with pytest.raises(VaultAPIError) as caught:
        run_entry(_resource.converge, client, {"name": "db", "state": "absent"})
    assert caught.value.vault_message == message
    assert keys(client) == ["get_resource_id", "delete_resource"]
