# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Changing and rotating account passwords: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account_password
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultInputError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

IDS = {"RESOURCEID": "7", "ACCOUNTID": "3"}
PATH = {"resource_id": "7", "account_id": "3"}
REFUSED = VaultAPIError(
    "CHANGE PASSWORD failed: The new password does not conform to the password policy Strong: "
    "it must be at least 10 characters long",
    operation="CHANGE PASSWORD",
    http_status=200,
)


def password_client(stored="Old-passw0rd!", **extra):
    return ScriptedClient(
        dict(
            {
                "get_resource_account_ids": IDS,
                "get_password": {"PASSWORD": stored},
                "change_password": None,
                "generate_password": {"PASSWORD": "Gen-Erated-9x!"},
            },
            **extra,
        )
    )


def sent(client, key):
    return [details for called, dummy_path, details, dummy_query in client.calls if called == key]


def keys(client):
    return [called for called, *dummy in client.calls]


def desired_password(**options):
    return dict({"resource": "web", "account": "root", "reset_type": "LOCAL"}, **options)


def test_a_password_already_stored_is_read_and_not_sent():
    client = password_client()
    tracker, values = run_entry(
        _account_password.converge, client, desired_password(password="Old-passw0rd!", return_password=True), False
    )
    assert not tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_account_ids", "get_password"]
    assert values == {"resource_id": "7", "account_id": "3", "password": "Old-passw0rd!"}
    assert tracker.diff() == {"before": {"password": "<hidden>"}, "after": {"password": "<hidden>"}}


def test_a_different_password_is_read_with_reason_and_ticket_then_changed_with_them():
    client = password_client()
    desired = desired_password(password="New-passw0rd!", reason="Review", ticket_id="CHG-1", reset_type="REMOTE")
    tracker, values = run_entry(_account_password.converge, client, desired, False)
    assert tracker.changed and client.writes() == ["change_password"]
    assert values == {"resource_id": "7", "account_id": "3"}
    assert sent(client, "get_password") == [{"REASON": "Review", "TICKETID": "CHG-1"}]
    assert sent(client, "change_password") == [
        {"NEWPASSWORD": "New-passw0rd!", "RESETTYPE": "REMOTE", "REASON": "Review", "TICKETID": "CHG-1"}
    ]
    assert client.calls[-1][:2] == ("change_password", PATH)
    assert "passw0rd" not in str(tracker.diff())
    assert tracker.diff()["after"] == {"password": "<hidden, changed>"}


def test_check_mode_compares_but_writes_nothing():
    client = password_client()
    tracker, dummy = run_entry(_account_password.converge, client, desired_password(password="New-pw1!"), True)
    assert tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_account_ids", "get_password"]


def test_rotation_generates_with_the_policy_and_changes_without_reading():
    client = password_client()
    tracker, values = run_entry(
        _account_password.converge, client, desired_password(rotate_with_policy="Strong", return_password=True), False
    )
    assert tracker.changed and values["password"] == "Gen-Erated-9x!"
    assert keys(client) == ["get_resource_account_ids", "generate_password", "change_password"]
    assert sent(client, "generate_password") == [{"POLICY": "Strong"}]
    assert sent(client, "change_password") == [{"NEWPASSWORD": "Gen-Erated-9x!", "RESETTYPE": "LOCAL"}]
    assert "Gen-Erated" not in str(tracker.diff())


def test_rotation_in_check_mode_neither_generates_nor_writes():
    client = password_client()
    tracker, values = run_entry(
        _account_password.converge, client, desired_password(rotate_with_policy="Strong", return_password=True), True
    )
    assert tracker.changed and values == {"resource_id": "7", "account_id": "3"}
    assert keys(client) == ["get_resource_account_ids"]


def test_the_vaults_policy_refusal_is_the_failure():
    client = password_client(change_password=REFUSED)
    with pytest.raises(VaultAPIError, match="at least 10 characters"):
        run_entry(_account_password.converge, client, desired_password(password="short"), False)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"password": ""}, "password must not be empty"),
        ({"rotate_with_policy": ""}, "rotate_with_policy must not be empty"),
    ],
)
def test_empty_input_fails_before_any_request(options, message):
    client = password_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_account_password.converge, client, desired_password(**options), False)
    assert client.calls == []


def test_the_password_is_returned_only_when_asked_for():
    client = password_client()
    tracker, values = run_entry(
        _account_password.converge, client, desired_password(rotate_with_policy="Strong"), False
    )
    assert tracker.changed and "password" not in values and "Gen-Erated" not in str(values)
