# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A setting the vault drops without a word when it creates an object is found by reading back: the task fails
saying what was created and what was not applied (accounts, many accounts, resources)."""

from __future__ import annotations

import time

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account, _accounts, _resource
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultNotAppliedError,
    VaultResponseError,
)
from ansible_collections.credvault.vault.plugins.module_utils._totp import code_at, decode_secret
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

SECRET = "JBSWY3DPEHPK3PXP"
PASSWORD = "Pw-new-1!"
NOT_SERVED = VaultAPIError("UNSUPPORTED failed (HTTP 404): not served", http_status=404)
NO_TOTP_HERE = VaultAPIError("FETCH_CURRENT_TOTP failed: TOTP is not configured", http_status=200)


def current_code(secret=SECRET):
    """A ``get_totp`` answer: the code of ``secret`` when asked (SHA1, 6 digits, 30 seconds)."""
    return lambda path, details, query: {"TOTP": code_at(decode_secret(secret), int(time.time() // 30), "SHA1", 6)}


def new_account(detail=None, totp=None):
    """A vault where account web/root does not exist until ADD ACCOUNTS; its detail and TOTP as given."""
    state = {"added": False}

    def ids(path, details, query):
        return {"RESOURCEID": "7", "ACCOUNTID": "3"} if state["added"] else {}

    def add(path, details, query):
        state["added"] = True
        return [{"root": {"STATUS": "Account added successfully"}}]

    return ScriptedClient(
        {
            "get_resource_account_ids": ids,
            "get_resource_id": {"RESOURCEID": "7"},
            "get_account_list": {"RESOURCE ID": "7", "ACCOUNT LIST": []},
            "add_accounts": add,
            "get_account_details": detail or {"DESCRIPTION": "", "CUSTOM FIELD": []},
            "get_totp": totp if totp is not None else current_code(),
        }
    )


def desired(**options):
    return dict({"resource": "web", "name": "root", "password": PASSWORD, "update_password": "always"}, **options)


@pytest.mark.parametrize(
    "totp, why",
    [
        pytest.param(NOT_SERVED, "this vault has no TOTP", id="edition-b-unversioned"),
        pytest.param(
            VaultResponseError("FETCH_CURRENT_TOTP: the vault answered HTTP 404 with an empty body", http_status=404),
            "this vault has no TOTP",
            id="old-a-empty-404",
        ),
        pytest.param(NO_TOTP_HERE, "FETCH_CURRENT_TOTP shows no TOTP", id="dropped-on-a-vault-with-totp"),
        pytest.param(current_code("GEZDGNBVGY3TQOJQ"), "FETCH_CURRENT_TOTP shows no TOTP, or another one", id="other"),
    ],
)
def test_a_new_account_whose_totp_was_dropped_fails_saying_it_was_created(totp, why):
    client = new_account(totp=totp)
    with pytest.raises(VaultNotAppliedError) as error:
        run_entry(_account.converge, client, desired(totp_secret=SECRET), False)
    message = str(error.value)
    assert message.startswith("account web/root was created, but the vault did not apply totp_secret (")
    assert why in message
    assert SECRET not in message and PASSWORD not in message
    assert client.writes() == ["add_accounts"]


def test_a_new_account_whose_totp_was_applied_is_created_without_a_word():
    client = new_account()
    tracker, after = run_entry(_account.converge, client, desired(totp_secret=SECRET), False)
    assert tracker.changed and tracker.warnings == []
    assert [key for key, *dummy in client.calls].count("get_totp") == 1


def test_dropped_notes_and_custom_fields_of_a_new_account_are_named():
    client = new_account(detail={"DESCRIPTION": "", "CUSTOM FIELD": []})
    with pytest.raises(VaultNotAppliedError, match="did not apply notes; custom_fields$"):
        run_entry(_account.converge, client, desired(notes="db admin", custom_fields={"Env": "prod"}), False)


def test_notes_and_custom_fields_the_vault_shows_are_applied():
    field = {"CUSTOMFIELDLABEL": "Env", "CUSTOMFIELDVALUE": "prod", "CUSTOMFIELDTYPE": "Character"}
    client = new_account(detail={"DESCRIPTION": "db admin", "CUSTOM FIELD": [field]})
    tracker, dummy = run_entry(
        _account.converge, client, desired(notes="db admin", custom_fields={"Env": "prod"}), False
    )
    assert tracker.changed


def test_a_new_account_without_totp_asks_nothing_of_totp():
    client = new_account(totp=NOT_SERVED)
    run_entry(_account.converge, client, desired(), False)
    assert "get_totp" not in [key for key, *dummy in client.calls]


# ---- many accounts ---------------------------------------------------------------------------


def accounts_vault(totp):
    pending = [[], ["a", "b"]]

    def account_list(path, details, query):
        names = pending.pop(0) if pending else ["a", "b"]
        return {
            "RESOURCE ID": "7",
            "ACCOUNT LIST": [{"ACCOUNT ID": str(10 + i), "ACCOUNT NAME": n} for i, n in enumerate(names)],
        }

    return ScriptedClient(
        {
            "get_resource_id": {"RESOURCEID": "7"},
            "get_account_list": account_list,
            "add_accounts": [{"a": {"STATUS": "added"}, "b": {"STATUS": "added"}}],
            "get_totp": totp,
        }
    )


def test_many_new_accounts_whose_totp_was_dropped_fail_naming_them_and_what_was_added():
    client = accounts_vault(NOT_SERVED)
    params = {
        "resource": "web",
        "state": "present",
        "update_password": "on_create",
        "accounts": [{"name": "a", "password": "Pw-a-1!", "totp_secret": SECRET}, {"name": "b", "password": "Pw-b"}],
    }
    with pytest.raises(VaultNotAppliedError) as error:
        run_entry(_accounts.converge, client, params, False)
    message = str(error.value)
    assert message.startswith("the vault did not apply, to the accounts this task added, a: totp_secret (")
    assert "this vault has no TOTP" in message and "b:" not in message
    assert message.endswith("already written in this task: a (added), b (added)") and error.value.names_its_writes
    assert SECRET not in message and "Pw-a-1!" not in message
    assert client.writes() == ["add_accounts"]


def test_many_new_accounts_whose_totp_was_applied_pass():
    client = accounts_vault(current_code())
    params = {
        "resource": "web",
        "state": "present",
        "update_password": "on_create",
        "accounts": [{"name": "a", "password": "Pw-a-1!", "totp_secret": SECRET}],
    }
    tracker, dummy = run_entry(_accounts.converge, client, params, False)
    assert tracker.changed


# ---- resources -------------------------------------------------------------------------------


def resource_vault(detail):
    created = []

    def resource_id(path, details, query):
        return {"RESOURCEID": "9"} if created else VaultAPIError("GET_RESOURCEID failed: no such resource")

    return ScriptedClient(
        {
            "get_resource_id": resource_id,
            "get_resources": [],
            "create_resource": lambda path, details, query: created.append(details),
            "edit_resource": None,
            "get_account_list": detail,
        }
    )


RESOURCE = {
    "RESOURCE ID": "9",
    "RESOURCE NAME": "web",
    "RESOURCE TYPE": "Linux",
    "RESOURCE DESCRIPTION": "front",
    "DEPARTMENT": "",
    "LOCATION": "Paris",
    "CUSTOM FIELD": [],
    "ACCOUNT LIST": [{"ACCOUNT ID": "3", "ACCOUNT NAME": "root"}],
}
RESOURCE_TASK = {
    "name": "web",
    "type": "Linux",
    "description": "front",
    "department": "Ops",
    "location": "Paris",
    "custom_fields": {"Env": "prod"},
    "owner": "admin",
    "first_account": {"name": "root", "password": "Pw-root-1!"},
}


def test_a_new_resource_that_dropped_settings_fails_saying_it_was_created():
    client = resource_vault(RESOURCE)
    with pytest.raises(VaultNotAppliedError) as error:
        run_entry(_resource.converge, client, dict(RESOURCE_TASK), False)
    assert str(error.value) == (
        "resource web was created, but not completed: the vault did not apply department, custom_fields"
    )
    assert client.writes() == ["create_resource", "edit_resource"]


def test_a_new_resource_with_every_setting_applied_passes():
    field = {"CUSTOMFIELDLABEL": "Env", "CUSTOMFIELDVALUE": "prod", "CUSTOMFIELDTYPE": "Character"}
    client = resource_vault(dict(RESOURCE, DEPARTMENT="Ops", **{"CUSTOM FIELD": [field]}))
    tracker, dummy = run_entry(_resource.converge, client, dict(RESOURCE_TASK), False)
    assert tracker.changed
