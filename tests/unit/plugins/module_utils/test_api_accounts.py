# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The account rows of the gateway (``_api/accounts``): what they send, what they read, and how they translate the
answers every caller reads alike (a missing name, a vault or an account without TOTP, an answer without its key)."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import accounts as accounts_api
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

NOT_SERVED = VaultAPIError("FETCH_CURRENT_TOTP failed (HTTP 404): Not Found", http_status=404)


# GET_RESOURCEACCOUNTID


def test_the_ids_of_an_account_are_read_by_names():
    client = ScriptedClient({"get_resource_account_ids": {"RESOURCEID": 7, "ACCOUNTID": 3}})
    assert accounts_api.get_resource_account_ids(client, "web", "root") == ("7", "3")
    assert client.calls == [("get_resource_account_ids", None, None, {"RESOURCENAME": "web", "ACCOUNTNAME": "root"})]


def test_a_failed_id_lookup_is_not_found_with_the_vault_words():
    failure = VaultAPIError(
        "GET_RESOURCEACCOUNTID failed: Account nobody not found",
        operation="GET_RESOURCEACCOUNTID",
        http_status=200,
        vault_message="Account nobody not found",
    )
    client = ScriptedClient({"get_resource_account_ids": failure})
    with pytest.raises(VaultNotFoundError) as raised:
        accounts_api.get_resource_account_ids(client, "web", "nobody")
    assert raised.value.vault_message == "Account nobody not found"
    assert raised.value.http_status == 200 and "Account nobody not found" in str(raised.value)


def test_an_answer_without_both_ids_is_not_found_without_vault_words():
    client = ScriptedClient({"get_resource_account_ids": {"RESOURCEID": "7"}})
    with pytest.raises(VaultNotFoundError) as raised:
        accounts_api.get_resource_account_ids(client, "web", "nobody")
    assert raised.value.vault_message is None


def test_a_refused_id_lookup_is_raised_as_it_is_never_taken_for_a_missing_name():
    refusal = VaultAPIError(
        "GET_RESOURCEACCOUNTID failed: You are not authorized to access resource web",
        http_status=200,
        vault_message="You are not authorized to access resource web",
    )
    client = ScriptedClient({"get_resource_account_ids": refusal})
    with pytest.raises(VaultAPIError) as raised:
        accounts_api.get_resource_account_ids(client, "web", "root")
    assert raised.value is refusal


# GET PASSWORD


def test_the_password_is_read_with_the_authorization_given():
    client = ScriptedClient({"get_password": {"PASSWORD": 1234}})
    details = {"REASON": "deploy", "TICKETID": "T-1"}
    assert accounts_api.get_password(client, "7", "3", "web/root", details) == "1234"
    assert client.calls == [("get_password", {"resource_id": "7", "account_id": "3"}, details, None)]


def test_an_answer_without_a_password_is_a_failure_naming_the_account():
    client = ScriptedClient({"get_password": {}})
    with pytest.raises(VaultAPIError, match="GET PASSWORD for web/root returned no PASSWORD"):
        accounts_api.get_password(client, "7", "3", "web/root")


# ADD ACCOUNTS


def test_accounts_are_added_as_one_account_list_and_the_item_statuses_returned():
    statuses = [{"root": {"STATUS": "Account added successfully"}}]
    client = ScriptedClient({"add_accounts": statuses})
    items = [{"ACCOUNTNAME": "root", "PASSWORD": "Pw-1!"}]
    assert accounts_api.add_accounts(client, "7", items) == statuses
    assert client.calls == [("add_accounts", {"resource_id": "7"}, {"ACCOUNTLIST": items}, None)]


def test_a_gated_account_field_is_refused_before_anything_is_sent():
    client = ScriptedClient({"add_accounts": []}, edition="B", build=6320)
    with pytest.raises(VaultUnsupportedError, match="TOTP_SECRET"):
        accounts_api.add_accounts(client, "7", [{"ACCOUNTNAME": "root", "TOTP_SECRET": "JBSWY3DPEHPK3PXP"}])
    assert client.calls == []


# FETCH_CURRENT_TOTP


def test_the_current_code_is_read_as_text():
    client = ScriptedClient({"get_totp": {"TOTP": 123456}})
    assert accounts_api.get_totp(client, "3", "web/root") == "123456"
    assert client.calls == [("get_totp", {"account_id": "3"}, None, None)]


def test_a_vault_whose_build_lacks_totp_says_so_before_sending():
    client = ScriptedClient({"get_totp": {"TOTP": "123456"}}, edition="B", build=6320)
    with pytest.raises(VaultUnsupportedError) as raised:
        accounts_api.get_totp(client, "3", "web/root")
    assert str(raised.value).startswith(accounts_api.NO_TOTP + ": ")
    assert "edition A from build 12430" in str(raised.value) and client.calls == []


@pytest.mark.parametrize(
    "unserved",
    [
        NOT_SERVED,
        VaultResponseError("FETCH_CURRENT_TOTP: the vault answered HTTP 404 with an empty body", http_status=404),
    ],
)
def test_a_vault_that_does_not_serve_totp_has_none_at_all(unserved):
    client = ScriptedClient({"get_totp": unserved})
    with pytest.raises(VaultUnsupportedError) as raised:
        accounts_api.get_totp(client, "3", "web/root")
    assert str(raised.value) == "%s: the vault does not serve it: %s" % (accounts_api.NO_TOTP, unserved)
    assert raised.value.http_status == 404


def test_a_failed_answer_in_http_2xx_is_an_account_without_totp():
    failure = VaultAPIError(
        "FETCH_CURRENT_TOTP failed: TOTP is not configured for account root",
        operation="FETCH_CURRENT_TOTP",
        http_status=200,
        vault_message="TOTP is not configured for account root",
    )
    client = ScriptedClient({"get_totp": failure})
    with pytest.raises(accounts_api.AccountWithoutTotp) as raised:
        accounts_api.get_totp(client, "3", "web/root")
    assert str(raised.value) == "the vault has no TOTP for web/root: %s" % failure
    assert raised.value.vault_message == "TOTP is not configured for account root"


@pytest.mark.parametrize(
    "failure",
    [
        VaultAPIError(
            "FETCH_CURRENT_TOTP failed: You are not authorized to view account root",
            http_status=200,
            vault_message="You are not authorized to view account root",
        ),
        VaultAPIError("FETCH_CURRENT_TOTP failed (HTTP 403): denied", http_status=403),
        VaultAPIError("FETCH_CURRENT_TOTP failed (HTTP 500): boom", http_status=500),
        VaultAPIError("FETCH_CURRENT_TOTP failed: ?"),
    ],
    ids=["refusal-in-200", "403", "500", "no-status"],
)
def test_a_refusal_or_another_failure_is_neither_no_totp_nor_an_account_without_one(failure):
    client = ScriptedClient({"get_totp": failure})
    with pytest.raises(VaultAPIError) as raised:
        accounts_api.get_totp(client, "3", "web/root")
    assert raised.value is failure


def test_an_answer_without_a_code_is_a_failure_naming_the_account():
    client = ScriptedClient({"get_totp": {}})
    with pytest.raises(VaultAPIError, match="FETCH_CURRENT_TOTP for web/root returned no TOTP") as raised:
        accounts_api.get_totp(client, "3", "web/root")
    assert not isinstance(raised.value, accounts_api.AccountWithoutTotp)
