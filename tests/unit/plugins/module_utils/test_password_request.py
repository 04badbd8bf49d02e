# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The password access workflow against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _password_request, _password_workflow
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultResponseError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

IDS = {"RESOURCEID": "7", "ACCOUNTID": "3"}
BOB = {"USERID": "12"}


def listing(status=None, requester="12", account_id="3"):
    """A GET_PASSWORDREQUEST Details: ``status`` None lists no request."""
    items = (
        []
        if status is None
        else [
            {
                "ACCOUNT ID": account_id,
                "ACCOUNT NAME": "root",
                "RESOURCE ID": "7",
                "RESOURCE NAME": "web",
                "PASSWD ID": account_id,
                "STATUS": status,
                "REQUESTED TIME": "Nov 22, 2026 8:48 AM",
                "REASON": "deploy",
            }
        ]
    )
    return {
        "REQUESTER USERID": requester,
        "REQUESTED BY": "bob",
        "REQUESTED BY FULLNAME": "Bob B",
        "PASSWORDREQUESTLIST": items,
    }


def scripted_client(status=None, **answers):
    table = {
        "get_resource_account_ids": IDS,
        "get_user_id": BOB,
        "get_password_requests": listing(status),
        "request_password": {"STATUS": "WAITING FOR APPROVAL / CHECKOUT"},
        "checkout_password": {"STATUS": "***** [checkIn]"},
        "approve_request": None,
        "reject_request": None,
        "checkin_password": None,
    }
    table.update(answers)
    return ScriptedClient(table)


def desired(state, **options):
    return dict({"resource": "web", "account": "root", "state": state, "requester": None, "reason": None}, **options)


def keys(client):
    return [key for key, *dummy in client.calls]


def sent(client, key):
    return [(path, details) for name, path, details, dummy in client.calls if name == key]


@pytest.mark.parametrize(
    "status, state",
    [
        ("WAITING FOR APPROVAL", "requested"),
        ("", "requested"),
        ("WAITING FOR APPROVAL / CHECKOUT", "requested"),
        ("APPROVED", "approved"),
        ("CHECKED OUT", "checked_out"),
        ("***** [checkIn]", "checked_out"),
        ("something new", "unknown"),
    ],
)
def test_status_texts_map_to_states(status, state):
    assert _password_workflow.state_of_status(status) == state


def test_request_sends_the_reason_once_and_nothing_else():
    client = scripted_client()
    tracker, result = run_entry(_password_request.converge, client, desired("requested", reason="deploy"), False)
    assert tracker.changed and result == {"state": "requested", "request": {}}
    assert keys(client) == ["get_resource_account_ids", "get_password_requests", "request_password"]
    assert sent(client, "request_password") == [({"account_id": "3"}, {"REASON": "deploy"})]
    assert sent(client, "get_password_requests") == [(None, None)]
    assert tracker.diff() == {"before": {"state": "none"}, "after": {"state": "requested"}}


def test_request_without_reason_sends_no_input():
    client = scripted_client()
    run_entry(_password_request.converge, client, desired("requested"), False)
    assert sent(client, "request_password") == [({"account_id": "3"}, None)]


@pytest.mark.parametrize("status", ["WAITING FOR APPROVAL", "APPROVED", "CHECKED OUT", "something new"])
def test_an_open_request_is_left_alone_with_two_reads(status):
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, desired("requested", reason="deploy"), False)
    assert not tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_account_ids", "get_password_requests"]
    assert result["request"]["account_id"] == "3" and result["request"]["status"] == status


def test_a_request_for_another_account_does_not_count():
    client = scripted_client(get_password_requests=listing("APPROVED", account_id="99"))
    tracker, dummy = run_entry(_password_request.converge, client, desired("requested"), False)
    assert tracker.changed and client.writes() == ["request_password"]


def test_approve_lists_the_named_requester_and_approves_without_input():
    client = scripted_client("WAITING FOR APPROVAL")
    tracker, result = run_entry(_password_request.converge, client, desired("approved", requester="bob"), False)
    assert tracker.changed and result["state"] == "approved"
    assert keys(client) == ["get_resource_account_ids", "get_user_id", "get_password_requests", "approve_request"]
    assert ("get_user_id", None, None, {"USERNAME": "bob"}) in client.calls
    assert sent(client, "get_password_requests") == [(None, {"REQUESTEDID": "12"})]
    assert sent(client, "approve_request") == [({"account_id": "3", "requester_id": "12"}, None)]


@pytest.mark.parametrize(
    "state, status",
    [
        ("approved", "APPROVED"),
        ("approved", "CHECKED OUT"),
        ("checked_out", "CHECKED OUT"),
        ("rejected", None),
        ("checked_in", None),
    ],
)
def test_converged_states_send_only_reads(state, status):
    requester = None if state == "checked_out" else "bob"
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, desired(state, requester=requester), False)
    assert not tracker.changed and client.writes() == []
    assert result["state"] == (status and _password_workflow.state_of_status(status) or "none")


@pytest.mark.parametrize(
    "state, status, key",
    [
        ("rejected", "WAITING FOR APPROVAL", "reject_request"),
        ("rejected", "APPROVED", "reject_request"),
        ("checked_in", "CHECKED OUT", "checkin_password"),
    ],
)
def test_reject_and_check_in_send_passwdid_and_requestedid(state, status, key):
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, desired(state, requester="bob"), False)
    assert tracker.changed and result["state"] == state and client.writes() == [key]
    assert sent(client, key) == [({"account_id": "3", "requester_id": "12"}, {"PASSWDID": "3", "REQUESTEDID": "12"})]


def test_checkout_sends_the_reason():
    client = scripted_client("APPROVED")
    tracker, dummy = run_entry(_password_request.converge, client, desired("checked_out", reason="deploy"), False)
    assert tracker.changed and sent(client, "checkout_password") == [({"account_id": "3"}, {"REASON": "deploy"})]


@pytest.mark.parametrize(
    "state, status, requester",
    [
        ("requested", None, None),
        ("approved", "WAITING FOR APPROVAL", "bob"),
        ("rejected", "APPROVED", "bob"),
        ("checked_out", "APPROVED", None),
        ("checked_in", "CHECKED OUT", "bob"),
        ("approved", "something new", "bob"),
    ],
)
def test_check_mode_predicts_a_change_and_writes_nothing(state, status, requester):
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, desired(state, requester=requester), True)
    assert tracker.changed and result["state"] == state and client.writes() == []


@pytest.mark.parametrize(
    "state, status, requester, why",
    [
        ("approved", None, "bob", "there is no open request"),
        ("checked_out", None, None, "there is no open request"),
        ("checked_out", "WAITING FOR APPROVAL", None, "waiting for approval"),
    ],
)
def test_check_mode_fails_where_the_vault_would_refuse(state, status, requester, why):
    client = scripted_client(status)
    with pytest.raises(VaultInputError, match=why):
        run_entry(_password_request.converge, client, desired(state, requester=requester), True)
    assert client.writes() == []


def test_a_refused_transition_carries_the_vault_message():
    refusal = VaultAPIError(
        "ADMIN_REQUEST_APPROVE failed: User bob has no open request",
        operation="ADMIN_REQUEST_APPROVE",
        http_status=200,
        vault_message="User bob has no open request",
    )
    client = scripted_client(approve_request=refusal)
    with pytest.raises(VaultAPIError) as caught:
        run_entry(_password_request.converge, client, desired("approved", requester="bob"), False)
    assert "cannot approve the request of bob for web/root (state found: none)" in str(caught.value)
    assert caught.value.vault_message == "User bob has no open request"
    assert caught.value.operation == "ADMIN_REQUEST_APPROVE"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"state": "approved"}, "requester .* is required"),
        ({"state": "checked_in", "requester": "bob", "reason": "r"}, "reason is sent only"),
        ({"state": "requested", "requester": "bob"}, "requester is only for"),
        ({"state": "checked_out", "requester": "bob"}, "requester is only for"),
    ],
)
def test_impossible_combinations_fail_before_any_request(options, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_password_request.converge, client, desired(**options), False)
    assert client.calls == []


def test_an_unknown_requester_fails_with_the_vault_message():
    client = scripted_client(get_user_id=VaultAPIError("get_USERID failed: User carol does not exist"))
    with pytest.raises(VaultNotFoundError, match="user carol does not exist: get_USERID failed: User carol does not"):
        run_entry(_password_request.converge, client, desired("approved", requester="carol"), False)
    assert client.writes() == []


def test_a_listing_of_another_requester_is_refused():
    client = scripted_client(get_password_requests=listing("APPROVED", requester="40"))
    with pytest.raises(VaultResponseError, match="requests of user 40 instead of user 12"):
        run_entry(_password_request.converge, client, desired("approved", requester="bob"), False)
    assert client.writes() == []


# Issue 8: state rejected on a checked-out password does what the documentation says - it checks the password in.


def test_rejecting_a_checked_out_password_checks_it_in():
    client = scripted_client("CHECKED OUT")
    tracker, result = run_entry(_password_request.converge, client, desired("rejected", requester="bob"), False)
    assert client.writes() == ["checkin_password"]
    assert sent(client, "checkin_password") == [
        ({"account_id": "3", "requester_id": "12"}, {"PASSWDID": "3", "REQUESTEDID": "12"})
    ]
    assert tracker.changed and result["state"] == "checked_in"
    assert tracker.diff() == {"before": {"state": "checked_out"}, "after": {"state": "checked_in"}}


# Issue 36: the give-back of the documented pattern (checked_in in always:) converges from every state.


@pytest.mark.parametrize("status", ["WAITING FOR APPROVAL", "APPROVED"])
@pytest.mark.parametrize("check_mode", [False, True])
def test_checking_in_a_request_never_checked_out_rejects_it(status, check_mode):
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, desired("checked_in", requester="bob"), check_mode)
    assert tracker.changed and result["state"] == "rejected"
    before = _password_workflow.state_of_status(status)
    assert tracker.diff() == {"before": {"state": before}, "after": {"state": "rejected"}}
    if check_mode:
        assert client.writes() == []
    else:
        assert client.writes() == ["reject_request"]
        assert sent(client, "reject_request") == [
            ({"account_id": "3", "requester_id": "12"}, {"PASSWDID": "3", "REQUESTEDID": "12"})
        ]


def test_rejecting_a_checked_out_password_in_check_mode_predicts_the_check_in():
    client = scripted_client("CHECKED OUT")
    tracker, result = run_entry(_password_request.converge, client, desired("rejected", requester="bob"), True)
    assert tracker.changed and result["state"] == "checked_in" and client.writes() == []


def test_a_refused_check_in_instead_of_a_rejection_says_what_was_tried():
    refusal = VaultAPIError(
        "ADMIN_REQUEST_CHECKIN failed: denied",
        operation="ADMIN_REQUEST_CHECKIN",
        http_status=200,
        vault_message="denied",
    )
    client = scripted_client("CHECKED OUT", checkin_password=refusal)
    with pytest.raises(
        VaultAPIError,
        match="cannot check in the password of bob for web/root \\(state found: "
        "checked_out\\): ADMIN_REQUEST_CHECKIN failed: denied",
    ):
        run_entry(_password_request.converge, client, desired("rejected", requester="bob"), False)


# Issue 8: a missing resource or account holds no request; check mode takes it as created by an earlier task.

NO_IDS = VaultAPIError("GET_RESOURCEACCOUNTID failed: no such account", http_status=200)
NO_RESOURCE = {"get_resource_account_ids": NO_IDS, "get_resource_id": NO_IDS, "get_resources": []}
NO_ACCOUNT = {
    "get_resource_account_ids": NO_IDS,
    "get_resource_id": {"RESOURCEID": "7"},
    "get_account_list": {"ACCOUNT LIST": [{"ACCOUNT ID": "4", "ACCOUNT NAME": "admin"}]},
}


@pytest.mark.parametrize("missing", [NO_RESOURCE, NO_ACCOUNT])
@pytest.mark.parametrize("state", ["rejected", "checked_in"])
@pytest.mark.parametrize("check_mode", [False, True])
def test_rejecting_or_checking_in_on_a_missing_account_is_ok(missing, state, check_mode):
    client = scripted_client(**missing)
    tracker, result = run_entry(_password_request.converge, client, desired(state, requester="bob"), check_mode)
    assert not tracker.changed and client.writes() == [] and tracker.warnings == []
    assert result == {"state": "none", "request": {}}


@pytest.mark.parametrize("missing", [NO_RESOURCE, NO_ACCOUNT])
@pytest.mark.parametrize("state, requester", [("requested", None), ("approved", "bob"), ("checked_out", None)])
def test_check_mode_takes_a_missing_account_as_created_earlier_and_warns(missing, state, requester):
    client = scripted_client(**missing)
    tracker, result = run_entry(_password_request.converge, client, desired(state, requester=requester), True)
    assert tracker.changed and client.writes() == [] and result == {"state": state, "request": {}}
    assert tracker.warnings == [
        "account web/root does not exist yet: check mode takes it as created by an earlier "
        "task, a real run fails unless it exists by then"
    ]


@pytest.mark.parametrize(
    "missing, message", [(NO_RESOURCE, "resource web does not exist"), (NO_ACCOUNT, "resource web has no account root")]
)
def test_a_real_run_still_fails_on_a_missing_account(missing, message):
    with pytest.raises(VaultNotFoundError, match=message):
        run_entry(_password_request.converge, scripted_client(**missing), desired("requested"), False)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"resource": " web"}, "resource ' web' has leading or trailing spaces"),
        ({"account": "root "}, "account 'root ' has leading or trailing spaces"),
        ({"account": ""}, "account must not be empty"),
        ({"state": "approved", "requester": "bob "}, "requester 'bob ' has leading or trailing spaces"),
    ],
)
def test_names_the_vault_would_trim_fail_before_any_request(options, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_password_request.converge, client, desired(**dict({"state": "requested"}, **options)), False)
    assert client.calls == []
