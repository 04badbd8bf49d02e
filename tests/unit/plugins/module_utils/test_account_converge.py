# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Account convergence against a scripted client: what is sent, and only that."""

from __future__ import annotations

import time

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultNotFoundError,
)
from ansible_collections.credvault.vault.plugins.module_utils._totp import code_at, decode_secret
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

RESOURCE = {
    "RESOURCE ID": "7",
    "RESOURCE NAME": "web",
    "RESOURCE TYPE": "Linux",
    "RESOURCE DESCRIPTION": "d",
    "RESOURCE URL": "",
    "DEPARTMENT": "Ops",
    "LOCATION": "Paris",
    "PASSWORD POLICY": "Strong",
    "RESOURCE OWNER": "admin",
    "CUSTOM FIELD": [
        {
            "CUSTOMFIELDLABEL": "Env",
            "CUSTOMFIELDVALUE": "prod",
            "CUSTOMFIELDTYPE": "Character",
            "CUSTOMFIELDCOLUMNNAME": "COLUMN_CHAR1",
        }
    ],
    "ACCOUNT LIST": [{"ACCOUNT ID": "3", "ACCOUNT NAME": "root"}],
}
NOT_FOUND = VaultAPIError("GET_RESOURCEID failed: Resource web does not exist")


ACCOUNT = {"DESCRIPTION": "notes", "PASSWDID": "3", "PASSWORD STATUS": "*****", "CUSTOM FIELD": []}


def present_account(**extra):
    return ScriptedClient(
        dict(
            {
                "get_resource_account_ids": {"RESOURCEID": "7", "ACCOUNTID": "3"},
                "get_account_details": ACCOUNT,
                "get_password": {"PASSWORD": "same"},
                "edit_account": None,
                "change_password": None,
            },
            **extra,
        )
    )


def test_converged_account_reads_the_password_and_writes_nothing():
    client = present_account()
    tracker, values = run_entry(
        _account.converge,
        client,
        {"resource": "web", "name": "root", "password": "same", "update_password": "always", "notes": "notes"},
        False,
    )
    assert not tracker.changed and client.writes() == []
    assert values["account"]["ACCOUNT ID"] == "3" and "PASSWORD" not in values["account"]


def test_password_change_sends_change_password_with_reason_and_ticket():
    client = present_account()
    desired = {
        "resource": "web",
        "name": "root",
        "password": "new",
        "update_password": "always",
        "reason": "r",
        "ticket_id": "T1",
    }
    tracker, dummy = run_entry(_account.converge, client, desired, False)
    assert tracker.changed and client.writes() == ["change_password"]
    change = [details for key, dummy, details, dummy_query in client.calls if key == "change_password"][0]
    assert change == {"NEWPASSWORD": "new", "RESETTYPE": "LOCAL", "REASON": "r", "TICKETID": "T1"}
    assert "new" not in str(tracker.diff())


def test_on_create_does_not_read_the_password():
    client = present_account()
    run_entry(
        _account.converge,
        client,
        {"resource": "web", "name": "root", "password": "new", "update_password": "on_create"},
        False,
    )
    assert "get_password" not in [key for key, *dummy in client.calls]


def test_same_totp_secret_is_not_rewritten():
    secret = "JBSWY3DPEHPK3PXP"
    code = code_at(decode_secret(secret), int(time.time() // 30), "SHA1", 6)
    client = present_account(get_totp={"TOTP": code})
    tracker, dummy = run_entry(
        _account.converge, client, {"resource": "web", "name": "root", "totp_secret": secret}, False
    )
    assert not tracker.changed and client.writes() == []
    client = present_account(get_totp={"TOTP": code})
    desired = {"resource": "web", "name": "root", "totp_secret": "GEZDGNBVGY3TQOJQ"}
    tracker, dummy = run_entry(_account.converge, client, desired, False)
    edit = [details for key, dummy, details, dummy_query in client.calls if key == "edit_account"][0]
    assert tracker.changed and edit == {"TOTP_SECRET": "GEZDGNBVGY3TQOJQ", "ACCOUNTNAME": "root"}


def test_empty_totp_secret_removes_only_an_existing_totp():
    client = present_account(
        get_totp=VaultAPIError("FETCH_CURRENT_TOTP failed: TOTP is not configured", http_status=200)
    )
    tracker, dummy = run_entry(_account.converge, client, {"resource": "web", "name": "root", "totp_secret": ""}, False)
    assert not tracker.changed and client.writes() == []


def test_missing_resource_and_missing_account_are_told_apart():
    client = ScriptedClient(
        {"get_resource_account_ids": VaultAPIError("x"), "get_resource_id": NOT_FOUND, "get_resources": []}
    )
    with pytest.raises(VaultNotFoundError, match="resource web does not exist"):
        _account.require_account(client, "web", "root")
    client = ScriptedClient(
        {
            "get_resource_account_ids": VaultAPIError("x"),
            "get_resource_id": {"RESOURCEID": "7"},
            "get_account_list": RESOURCE,
        }
    )
    with pytest.raises(VaultNotFoundError, match="resource web has no account admin"):
        _account.require_account(client, "web", "admin")


def test_add_accounts_per_item_failure_is_reported():
    client = ScriptedClient(
        {
            "get_resource_account_ids": VaultAPIError("x"),
            "get_resource_id": {"RESOURCEID": "7"},
            "get_account_list": RESOURCE,
            "add_accounts": [{"admin": {"STATUS": "Password does not conform to the policy"}}],
        }
    )
    with pytest.raises(VaultAPIError, match="does not conform"):
        run_entry(_account.converge, client, {"resource": "web", "name": "admin", "password": "x"}, False)
