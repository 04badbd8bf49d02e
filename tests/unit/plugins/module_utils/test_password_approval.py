# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Waiting for an approval before a checkout, against a scripted client and a fake clock: no test sleeps."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _password_approval as approval
from ansible_collections.credvault.vault.plugins.module_utils import _password_request
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultInputError
from ansible_collections.credvault.vault.tests.unit.fakes import FakeClock, lock_held, run_entry
from ansible_collections.credvault.vault.tests.unit.plugins.module_utils.test_password_request import (
    NO_RESOURCE,
    keys,
    listing,
    scripted_client,
    sent,
)

LOCK = ("password request", ("web", "root", ""))


@pytest.fixture
def fake_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(approval, "clock", clock)
    monkeypatch.setattr(approval, "sleep", clock.sleep)
    return clock


def in_turn(*statuses):
    """GET_PASSWORDREQUEST answers, one per read, the last one repeated: None lists no request."""
    remaining = list(statuses)

    def answer(path, details, query):
        return listing(remaining.pop(0) if len(remaining) > 1 else remaining[0])

    return answer


def waiting(timeout=30, interval=5, **options):
    return dict(
        {
            "resource": "web",
            "account": "root",
            "state": "checked_out",
            "requester": None,
            "reason": "deploy",
            "wait_timeout": timeout,
            "wait_interval": interval,
        },
        **options,
    )


def test_it_requests_waits_two_polls_for_the_approval_then_checks_out(fake_clock):
    client = scripted_client(get_password_requests=in_turn(None, "WAITING FOR APPROVAL", "APPROVED", "APPROVED"))
    tracker, result = run_entry(_password_request.converge, client, waiting(), False)
    assert keys(client) == [
        "get_resource_account_ids",
        "get_password_requests",
        "request_password",
        "get_password_requests",
        "get_password_requests",
        "get_password_requests",
        "checkout_password",
    ]
    assert sent(client, "request_password") == [({"account_id": "3"}, {"REASON": "deploy"})]
    assert sent(client, "checkout_password") == [({"account_id": "3"}, {"REASON": "deploy"})]
    assert fake_clock.sleeps == [5, 5]
    assert tracker.changed and tracker.diff() == {"before": {"state": "none"}, "after": {"state": "checked_out"}}
    assert result == {"state": "checked_out", "request": {}, "requested": True, "waited": 10}


def test_a_waiting_request_is_not_requested_again(fake_clock):
    client = scripted_client(get_password_requests=in_turn("WAITING FOR APPROVAL", "WAITING FOR APPROVAL", "APPROVED"))
    tracker, result = run_entry(_password_request.converge, client, waiting(interval=1), False)
    assert client.writes() == ["checkout_password"]
    assert fake_clock.sleeps == [1, 1]
    assert result["requested"] is False and result["waited"] == 2 and result["request"]["state"] == "requested"
    assert tracker.changed


def test_a_request_rejected_while_waiting_fails_clearly(fake_clock):
    client = scripted_client(get_password_requests=in_turn(None, "WAITING FOR APPROVAL", None))
    with pytest.raises(approval.ApprovalWaitError, match="web/root was rejected \\(or ended\\) by an administrator"):
        run_entry(_password_request.converge, client, waiting(), False)
    assert client.writes() == ["request_password"] and fake_clock.sleeps == [5, 5]


def test_the_time_is_up_and_the_request_is_left_open(fake_clock):
    client = scripted_client(get_password_requests=in_turn(None, "WAITING FOR APPROVAL"))
    with pytest.raises(
        approval.ApprovalWaitError, match="web/root is still waiting for approval after 12 s .*it is left open"
    ):
        run_entry(_password_request.converge, client, waiting(timeout=12, interval=5), False)
    assert fake_clock.sleeps == [5, 5, 2]
    assert client.writes() == ["request_password"]
    assert keys(client).count("get_password_requests") == 4


@pytest.mark.parametrize("status", ["APPROVED", "something new"])
def test_an_approved_request_is_checked_out_without_waiting(fake_clock, status):
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, waiting(), False)
    assert client.writes() == ["checkout_password"] and fake_clock.sleeps == []
    assert tracker.changed and result["requested"] is False and result["waited"] == 0


def test_a_checked_out_password_is_no_change(fake_clock):
    client = scripted_client("CHECKED OUT")
    tracker, result = run_entry(_password_request.converge, client, waiting(), False)
    assert keys(client) == ["get_resource_account_ids", "get_password_requests"]
    assert not tracker.changed and fake_clock.sleeps == []
    assert result["state"] == "checked_out" and result["requested"] is False and result["waited"] == 0


def test_a_checkout_made_by_a_parallel_run_while_waiting_is_no_failure(fake_clock):
    client = scripted_client(get_password_requests=in_turn("WAITING FOR APPROVAL", "CHECKED OUT"))
    tracker, result = run_entry(_password_request.converge, client, waiting(), False)
    assert client.writes() == [] and result["state"] == "checked_out"
    assert not tracker.changed


@pytest.mark.parametrize(
    "status, requested", [(None, True), ("WAITING FOR APPROVAL", False), ("APPROVED", False), ("CHECKED OUT", False)]
)
def test_check_mode_neither_requests_nor_waits(fake_clock, status, requested):
    client = scripted_client(status)
    tracker, result = run_entry(_password_request.converge, client, waiting(), True)
    assert client.writes() == [] and fake_clock.sleeps == []
    assert tracker.changed is (status != "CHECKED OUT")
    assert result["state"] == "checked_out" and result["requested"] is requested and result["waited"] == 0


def test_check_mode_takes_a_missing_account_as_created_and_would_request(fake_clock):
    tracker, result = run_entry(_password_request.converge, scripted_client(**NO_RESOURCE), waiting(), True)
    assert tracker.changed and tracker.warnings and result["requested"] is True


def test_the_lock_is_held_to_request_and_check_out_but_not_while_sleeping(fake_clock, monkeypatch):
    held = []

    def noting(answer):
        def respond(path, details, query):
            held.append((keys(client)[-1], lock_held(client, *LOCK)))
            return answer(path, details, query) if callable(answer) else answer

        return respond

    client = scripted_client(get_password_requests=in_turn(None, "WAITING FOR APPROVAL", "APPROVED", "APPROVED"))
    for key in ("request_password", "checkout_password"):
        client.answers[key] = noting(client.answers[key])
    monkeypatch.setattr(approval, "sleep", lambda seconds: held.append(("sleep", lock_held(client, *LOCK))))
    run_entry(_password_request.converge, client, waiting(), False)
    assert held == [("request_password", True), ("sleep", False), ("sleep", False), ("checkout_password", True)]


def test_a_refused_request_fails_with_the_vault_message_and_does_not_wait(fake_clock):
    refusal = VaultAPIError(
        "REQUEST_PASSWORD failed: A reason is required", operation="REQUEST_PASSWORD", http_status=200
    )
    client = scripted_client(request_password=refusal)
    with pytest.raises(VaultAPIError, match="cannot request the password for web/root"):
        run_entry(_password_request.converge, client, waiting(), False)
    assert fake_clock.sleeps == []


def test_a_request_made_meanwhile_by_another_run_is_waited_for(fake_clock):
    """REQUEST_PASSWORD fails because a run on another controller requested at the same moment: its request is
    waited for and checked out, and this task did not request."""
    failure = VaultAPIError("REQUEST_PASSWORD failed: already requested", operation="REQUEST_PASSWORD", http_status=200)
    client = scripted_client(
        request_password=failure,
        get_password_requests=in_turn(None, "WAITING FOR APPROVAL", "WAITING FOR APPROVAL", "APPROVED", "APPROVED"),
    )
    tracker, result = run_entry(_password_request.converge, client, waiting(), False)
    assert client.writes() == ["request_password", "checkout_password"]
    assert result["state"] == "checked_out" and result["requested"] is False and tracker.changed


def test_without_wait_timeout_an_unapproved_checkout_fails_as_before(fake_clock):
    with pytest.raises(VaultInputError, match="waiting for approval"):
        run_entry(
            _password_request.converge, scripted_client("WAITING FOR APPROVAL"), waiting(timeout=0, interval=None), True
        )
    assert fake_clock.sleeps == []


@pytest.mark.parametrize(
    "options, message",
    [
        ({"state": "requested"}, "only for state checked_out, not requested"),
        ({"wait_interval": 0}, "wait_interval must be at least 1 second, not 0"),
        ({"wait_timeout": -5}, "wait_timeout must be 0 \\(do not wait\\) or a number of seconds, not -5"),
        ({"wait_timeout": 0}, "set wait_timeout too"),
        ({"state": "approved", "requester": "bob", "reason": None}, "only for state checked_out, not approved"),
    ],
)
def test_wait_options_are_refused_before_any_request(fake_clock, options, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_password_request.converge, client, dict(waiting(), **options), False)
    assert client.calls == []
