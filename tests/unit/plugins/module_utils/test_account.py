# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Accounts: refused input, missing parents, races, TOTP support and the order of writes."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account, _account_password
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._task import Task
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

IDS = {"RESOURCEID": "7", "ACCOUNTID": "3"}
ACCOUNT = {"DESCRIPTION": "notes", "PASSWDID": "3", "PASSWORD STATUS": "*****", "CUSTOM FIELD": []}
RESOURCE = {"RESOURCE ID": "7", "RESOURCE NAME": "web", "ACCOUNT LIST": [{"ACCOUNT ID": "3", "ACCOUNT NAME": "root"}]}
NO_IDS = VaultAPIError(
    "GET_RESOURCEACCOUNTID failed: Resource web is not present",
    http_status=200,
    vault_message="GET_RESOURCEACCOUNTID failed: Resource web is not present",
)
NO_RESOURCE = VaultAPIError("GET_RESOURCEID failed: Resource web does not exist", http_status=200)
SECRET = "JBSWY3DPEHPK3PXP"


def present(**extra):
    return ScriptedClient(
        dict(
            {
                "get_resource_account_ids": IDS,
                "get_account_details": ACCOUNT,
                "get_password": {"PASSWORD": "Old-pw-1!"},
                "edit_account": None,
                "change_password": None,
            },
            **extra,
        )
    )


def missing_resource():
    return ScriptedClient({"get_resource_account_ids": NO_IDS, "get_resource_id": NO_RESOURCE, "get_resources": []})


def desired(**extra):
    return dict({"resource": "web", "name": "root", "update_password": "always"}, **extra)


def keys(client):
    return [key for key, *dummy in client.calls]


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("resource", " web", "resource ' web' has leading or trailing spaces"),
        ("name", "", "name must not be empty"),
        ("name", "svc ", "name 'svc ' has leading or trailing spaces"),
        ("password_policy", " Strong", "password_policy"),
        ("password", "", "password must not be empty"),
        ("custom_fields", {"Env ": "prod"}, "custom_fields label"),
        ("custom_fields", {"Env": None}, "the value of Env is null"),
        ("custom_fields", {"Env": True}, "the value of Env is bool"),
        ("totp_validity", 0, "totp_validity must be between 1 and 86400 seconds, not 0"),
        ("totp_validity", -30, "totp_validity must be between 1 and 86400 seconds, not -30"),
        ("totp_validity", 86401, "not 86401"),
        ("totp_secret", "not base32!", "totp_secret is not a base32 string"),
    ],
)
def test_input_the_vault_would_refuse_fails_before_any_request_in_check_mode_too(option, value, message):
    for check_mode in (True, False):
        client = present()
        with pytest.raises(VaultInputError, match=message.replace("(", r"\(")):
            run_entry(_account.converge, client, dict(desired(password="Pw-1!"), **{option: value}), check_mode)
        assert client.calls == []


def test_absent_account_of_a_missing_resource_is_ok():
    client = missing_resource()
    tracker, dummy = run_entry(_account.converge, client, {"resource": "web", "name": "root", "state": "absent"}, False)
    assert not tracker.changed and client.writes() == []
    assert tracker.diff() == {"before": {"state": "absent"}, "after": {"state": "absent"}}


def test_in_check_mode_an_account_of_a_missing_resource_would_be_created():
    client = missing_resource()
    tracker, values = run_entry(_account.converge, client, desired(password="Pw-1!"), True)
    assert tracker.changed and values == {"account": {}} and client.writes() == []
    assert "resource web does not exist" in tracker.warnings[0] and "would be created" in tracker.warnings[0]


def test_in_check_mode_a_missing_resource_still_needs_the_password_to_create():
    with pytest.raises(VaultInputError, match="password is required"):
        run_entry(_account.converge, missing_resource(), desired(), True)


def test_outside_check_mode_a_missing_resource_fails():
    with pytest.raises(VaultNotFoundError, match="resource web does not exist"):
        run_entry(_account.converge, missing_resource(), desired(password="Pw-1!"), False)


def absent_account(add_accounts, added_meanwhile=False):
    state = {"added": False}

    def ids(path, details, query):
        return IDS if state["added"] else NO_IDS

    def add(path, details, query):
        state["added"] = added_meanwhile
        return add_accounts

    return ScriptedClient(
        {
            "get_resource_account_ids": ids,
            "get_resource_id": {"RESOURCEID": "7"},
            "get_account_list": {"RESOURCE ID": "7", "ACCOUNT LIST": []},
            "add_accounts": add,
            "get_account_details": ACCOUNT,
            "get_password": {"PASSWORD": "Pw-1!"},
            "edit_account": None,
            "change_password": None,
        }
    )


def test_a_refused_add_reports_the_vault_reason_for_the_item_and_never_the_password():
    refusal = VaultAPIError(
        "ADD ACCOUNTS failed: No account was added to resource web",
        operation="ADD ACCOUNTS",
        http_status=200,
        details=[{"root": {"STATUS": "Pw-1! does not conform to policy Strong"}}],
    )
    client = absent_account(refusal)
    with pytest.raises(VaultAPIError) as raised:
        run_entry(_account.converge, client, desired(password="Pw-1!"), False)
    assert str(raised.value) == "ADD ACCOUNTS refused account web/root: ******** does not conform to policy Strong"


def test_a_refused_add_without_item_status_reports_the_call_message():
    refusal = VaultAPIError("ADD ACCOUNTS failed: denied", http_status=200, vault_message="denied")
    with pytest.raises(VaultAPIError, match="refused account web/root: denied"):
        run_entry(_account.converge, absent_account(refusal), desired(password="Pw-1!"), False)


def test_an_account_added_meanwhile_by_another_run_is_converged_not_failed():
    refusal = VaultAPIError(
        "ADD ACCOUNTS failed: No account was added",
        http_status=200,
        details=[{"root": {"STATUS": "Account root already exists in resource web"}}],
    )
    client = absent_account(refusal, added_meanwhile=True)
    tracker, values = run_entry(_account.converge, client, desired(password="Pw-1!"), False)
    assert not tracker.changed and values["account"]["ACCOUNT ID"] == "3"
    assert client.writes() == ["add_accounts"]


def test_the_search_returns_a_missing_account_with_its_resource_and_keeps_nothing():
    account = _account.Account(Task(absent_account(None), desired(password="Pw-1!"), False))
    before = dict(vars(account))
    handle = account.find()
    assert vars(account) == before
    assert not account.exists(handle) and (handle.resource_id, handle.account_id) == ("7", None)
    assert account.exists(_account.AccountRef("web", "root", "7", "3")) and not account.exists(None)


def test_a_missing_account_is_added_to_the_resource_its_search_found_without_asking_again():
    client = absent_account([{"root": {"STATUS": "Account added successfully"}}], added_meanwhile=True)
    tracker, values = run_entry(_account.converge, client, desired(password="Pw-1!"), False)
    assert tracker.changed and values["account"]["ACCOUNT ID"] == "3"
    assert keys(client) == [
        "get_resource_account_ids",
        "get_resource_id",
        "get_account_list",
        "add_accounts",
        "get_resource_account_ids",
        "get_account_details",
    ]
    assert client.calls[3][1] == {"resource_id": "7"}


@pytest.mark.parametrize(
    "failure",
    [
        VaultUnsupportedError(
            "FETCH_CURRENT_TOTP (GET /accounts/{account_id}/totp) needs edition A from build 12430; "
            "the vault is edition B build 6320"
        ),
        VaultAPIError("UNSUPPORTED failed (HTTP 404): not served", http_status=404),
        VaultResponseError(
            "FETCH_CURRENT_TOTP: the vault answered HTTP 404 with a body that is not a JSON object", http_status=404
        ),
    ],
)
@pytest.mark.parametrize("secret", [SECRET, ""])
def test_totp_on_a_vault_without_totp_fails_clearly_before_any_write(failure, secret):
    client = present(get_totp=failure)
    with pytest.raises(VaultUnsupportedError, match="this vault has no TOTP .*edition A from build 12430"):
        run_entry(_account.converge, client, desired(totp_secret=secret, notes="changed"), False)
    assert client.writes() == []


@pytest.mark.parametrize(
    "failure",
    [
        VaultAPIError("FETCH_CURRENT_TOTP failed (HTTP 403): denied", http_status=403),
        VaultAPIError("FETCH_CURRENT_TOTP failed: ?"),
    ],
)
def test_a_totp_read_failure_that_is_not_a_refusal_is_not_taken_for_no_totp(failure):
    client = present(get_totp=failure)
    with pytest.raises(VaultAPIError):
        run_entry(_account.converge, client, desired(totp_secret=SECRET), False)
    assert client.writes() == []


def test_an_account_without_totp_gets_one():
    client = present(get_totp=VaultAPIError("FETCH_CURRENT_TOTP failed: TOTP is not configured", http_status=200))
    tracker, dummy = run_entry(_account.converge, client, desired(totp_secret=SECRET), False)
    assert tracker.changed and client.writes() == ["edit_account"]


def test_the_password_is_changed_before_the_edit_so_a_refusal_writes_nothing():
    refusal = VaultAPIError("CHANGE PASSWORD failed: reused", operation="CHANGE PASSWORD", http_status=200)
    client = present(change_password=refusal)
    with pytest.raises(VaultAPIError, match="reused"):
        run_entry(_account.converge, client, desired(password="New-pw-2!", notes="new notes"), False)
    assert client.writes() == ["change_password"]


def test_an_edit_refused_after_the_password_change_says_the_password_was_changed():
    refusal = VaultAPIError("EDIT ACCOUNT failed: no", operation="EDIT ACCOUNT", http_status=200)
    client = present(edit_account=refusal)
    with pytest.raises(
        VaultAPIError, match="account web/root: its password was changed, but then: EDIT ACCOUNT"
    ) as error:
        run_entry(_account.converge, client, desired(password="New-pw-2!", notes="new notes"), False)
    assert error.value.names_its_writes and error.value.operation == "EDIT ACCOUNT"
    assert client.writes() == ["change_password", "edit_account"]


def test_a_new_policy_is_checked_against_the_new_password_before_any_write():
    refusal = VaultAPIError("VALIDATE_PASSWORD failed: too short", http_status=200, vault_message="too short")
    client = present(
        validate_password=refusal, get_password_policies={"POLICIES": [{"POLICYNAME": "Strong", "POLICYID": "1"}]}
    )
    with pytest.raises(
        VaultInputError, match=r"does not satisfy password policy Strong \(VALIDATE_PASSWORD\), so nothing was changed"
    ):
        run_entry(
            _account.converge, client, desired(password="short", password_policy="Strong", force_settings=True), False
        )
    assert client.writes() == []


def test_a_valid_password_for_a_new_policy_is_written_after_the_policy():
    client = present(validate_password=None)
    tracker, dummy = run_entry(
        _account.converge, client, desired(password="New-pw-2!", password_policy="Strong", force_settings=True), False
    )
    assert tracker.changed and client.writes() == ["edit_account", "change_password"]
    assert keys(client).index("validate_password") < keys(client).index("edit_account")


def test_settings_not_read_back_are_named_in_a_warning_without_force_settings():
    client = present()
    tracker, dummy = run_entry(
        _account.converge, client, desired(password_policy="Strong", record_rdp_sessions=True), False
    )
    assert not tracker.changed and client.writes() == []
    assert tracker.warnings == [
        "account web/root exists: password_policy, record_rdp_sessions were not compared "
        "or applied (the vault does not report them back); set force_settings: true to "
        "apply them"
    ]


def test_in_check_mode_the_password_of_a_missing_account_would_be_set():
    client = missing_resource()
    options = {"resource": "web", "account": "root", "password": "Pw-1!"}
    tracker, values = run_entry(_account_password.converge, client, options, True)
    assert tracker.changed and values == {"resource_id": None, "account_id": None} and client.writes() == []
    assert "would be set" in tracker.warnings[0]
    with pytest.raises(VaultNotFoundError):
        run_entry(_account_password.converge, missing_resource(), options, False)


def test_the_vault_words_are_kept_when_the_resource_is_missing():
    client = missing_resource()
    with pytest.raises(VaultNotFoundError) as raised:
        _account.require_account(client, "web", "root")
    assert str(raised.value) == (
        "resource web does not exist (or is not visible to this token); the vault said: "
        "GET_RESOURCEACCOUNTID failed: Resource web is not present"
    )
    assert raised.value.vault_message == "GET_RESOURCEACCOUNTID failed: Resource web is not present"


def test_the_vault_words_are_kept_when_the_account_is_missing():
    client = ScriptedClient(
        {
            "get_resource_account_ids": VaultAPIError("x", vault_message="Account admin is not present"),
            "get_resource_id": {"RESOURCEID": "7"},
            "get_account_list": RESOURCE,
        }
    )
    with pytest.raises(
        VaultNotFoundError, match="resource web has no account admin .*; the vault said: Account admin is not present"
    ):
        _account.require_account(client, "web", "admin")
