# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The user and user group rows of the gateway: what each sends, and how a failure the vault answers for a missing
name, a list it lacks or a call that removed nothing is translated once for every caller."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import users as users_api
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

MISSING = VaultAPIError("lookup failed: no such name", http_status=200, vault_message="No such name")
REFUSED = VaultAPIError(
    "lookup failed: You are not authorized", http_status=200, vault_message="You are not authorized to do this"
)
SERVER_FAILURE = VaultAPIError("lookup failed (HTTP 500): boom", http_status=500, vault_message="boom")
UNSERVED = VaultAPIError("GET_USER(S) failed (HTTP 404): not served", http_status=404)


def pair(user_id, group_id, status, message):
    return {"USERID": user_id, "USERGROUPID": group_id, "status": status, "message": message}


def test_a_user_name_becomes_its_id():
    client = ScriptedClient({"get_user_id": {"USERID": 12}})
    assert users_api.get_user_id(client, "bob") == "12"
    assert client.calls == [("get_user_id", None, None, {"USERNAME": "bob"})]


def test_an_unknown_user_is_not_found_with_the_vaults_words():
    with pytest.raises(VaultNotFoundError) as failure:
        users_api.get_user_id(ScriptedClient({"get_user_id": MISSING}), "bob")
    assert failure.value.vault_message == "No such name"


@pytest.mark.parametrize("error", [REFUSED, SERVER_FAILURE])
def test_a_refusal_or_an_http_error_of_the_user_look_up_is_raised_as_it_is(error):
    with pytest.raises(VaultAPIError) as failure:
        users_api.get_user_id(ScriptedClient({"get_user_id": error}), "bob")
    assert failure.value is error


def test_a_user_group_name_becomes_its_id():
    client = ScriptedClient({"get_user_group_id": {"USERGROUPID": 21}})
    assert users_api.get_user_group_id(client, "DBA") == "21"
    assert client.calls == [("get_user_group_id", None, None, {"USERGROUPNAME": "DBA"})]


def test_an_unknown_user_group_is_not_found_with_the_vaults_words():
    with pytest.raises(VaultNotFoundError) as failure:
        users_api.get_user_group_id(ScriptedClient({"get_user_group_id": MISSING}), "DBA")
    assert failure.value.vault_message == "No such name"
    assert "user group DBA does not exist" in str(failure.value)


def test_an_http_error_of_the_user_group_look_up_is_raised_as_it_is():
    with pytest.raises(VaultAPIError) as failure:
        users_api.get_user_group_id(ScriptedClient({"get_user_group_id": SERVER_FAILURE}), "DBA")
    assert failure.value is SERVER_FAILURE


@pytest.mark.parametrize(
    "function, key, answer",
    [
        (users_api.get_user_id, "get_user_id", {"USERNAME": "bob"}),
        (users_api.get_user_group_id, "get_user_group_id", {"USERGROUPID": ""}),
    ],
)
def test_an_answer_without_the_id_is_a_response_error(function, key, answer):
    with pytest.raises(VaultResponseError, match="returned no"):
        function(ScriptedClient({key: answer}), "bob")


@pytest.mark.parametrize("answer, token", [({"AUTHTOKEN": "tok-1"}, "tok-1"), ({}, None), ({"AUTHTOKEN": 5}, None)])
def test_an_api_user_creation_answers_its_token_or_none(answer, token):
    client = ScriptedClient({"create_api_user": answer})
    assert users_api.create_api_user(client, {"USERNAME": "robot", "ISAPIUSER": "true"}) == token
    assert client.calls == [("create_api_user", None, {"USERNAME": "robot", "ISAPIUSER": "true"}, None)]


def test_a_removal_answers_one_result_per_pair():
    answer = {"RESULT": [pair(7, 21, "Success", "removed"), "noise"]}
    client = ScriptedClient({"remove_user_from_group": answer})
    assert users_api.remove_user_from_group(client, [7], [21]) == [pair(7, 21, "Success", "removed")]
    assert client.calls == [("remove_user_from_group", None, {"USERIDS": [7], "USERGROUPIDS": [21]}, None)]


def test_a_failed_removal_that_carries_its_results_is_read_like_a_success():
    results = [pair(7, 21, "Failed", "User does not exist in the group")]
    failed = VaultAPIError("removal failed", http_status=200, details={"RESULT": results})
    assert users_api.remove_user_from_group(ScriptedClient({"remove_user_from_group": failed}), [7], [21]) == results


def test_a_failed_removal_without_results_is_raised():
    failed = VaultAPIError("removal failed", http_status=200, details={"RESULT": ["noise"]})
    with pytest.raises(VaultAPIError) as failure:
        users_api.remove_user_from_group(ScriptedClient({"remove_user_from_group": failed}), [7], [21])
    assert failure.value is failed


def test_a_group_deletion_sends_numbers_and_answers_the_outcome_of_each_group():
    outcomes = {"21": {"status": "Success", "message": "deleted", "statusCode": 20000}}
    client = ScriptedClient({"delete_user_groups": outcomes})
    assert users_api.delete_user_groups(client, ["21"]) == outcomes
    assert client.calls == [("delete_user_groups", None, {"userGroupIds": [21]}, None)]


def test_a_failed_group_deletion_that_carries_an_outcome_asked_for_is_read_like_a_success():
    outcomes = {"21": {"status": "Failed", "message": "an invalid user group id", "statusCode": 46000}}
    failed = VaultAPIError("deletion failed", http_status=200, details=outcomes)
    assert users_api.delete_user_groups(ScriptedClient({"delete_user_groups": failed}), ["21"]) == outcomes


def test_a_failed_group_deletion_without_an_outcome_asked_for_is_raised():
    failed = VaultAPIError("deletion failed", http_status=200, details={"99": {"status": "Failed"}})
    with pytest.raises(VaultAPIError) as failure:
        users_api.delete_user_groups(ScriptedClient({"delete_user_groups": failed}), ["21"])
    assert failure.value is failed


@pytest.mark.parametrize(
    "function, key", [(users_api.get_users, "get_users"), (users_api.get_user_groups, "get_user_groups")]
)
def test_a_list_an_unconfigured_vault_does_not_serve_is_unsupported(function, key):
    with pytest.raises(
        VaultUnsupportedError, match="the vault does not serve it: GET_USER\\(S\\) failed \\(HTTP 404\\)"
    ):
        function(ScriptedClient({key: UNSERVED}), {"limit": 100, "startIndex": 0})


@pytest.mark.parametrize(
    "function, key", [(users_api.get_users, "get_users"), (users_api.get_user_groups, "get_user_groups")]
)
def test_a_list_the_configured_build_lacks_is_refused_before_sending(function, key):
    client = ScriptedClient({key: []}, edition="B", build=6000)
    with pytest.raises(VaultUnsupportedError, match="needs edition B from build 6320"):
        function(client, {"limit": 100, "startIndex": 0})
    assert client.calls == []


def test_a_list_page_is_the_response_with_its_items_and_total():
    client = ScriptedClient({"get_users": [{"userId": 7, "userName": "bob"}]})
    page = users_api.get_users(client, {"limit": 100, "startIndex": 0})
    assert page.details_list() == [{"userId": 7, "userName": "bob"}]
    assert client.calls == [("get_users", None, {"limit": 100, "startIndex": 0}, None)]
