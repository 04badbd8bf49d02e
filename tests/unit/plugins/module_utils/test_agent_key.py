# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Agent keys: fetch is a read, generate a write (nothing sent in check mode), gates and bad input refused before any
request, ISO end times, and no key in any message or diff."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _agent_key
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultInputError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

KEY = "5e1d0c9b8a7f6e5d4c3b2a1908f7e6d5"
ANSWER = {"agentKey": KEY, "agentKeyEndTime": "30/11/2026 09:05:01"}


def agent_key(client, generate=False, validity_hours=None, check_mode=False):
    """``(tracker, values)`` of ``vault_agent_key`` with these options, run as the module runs it."""
    options = {"generate": generate, "validity_hours": validity_hours, "dest": None}
    return run_entry(_agent_key.converge, client, options, check_mode)


def test_fetching_sends_no_input_and_is_no_change():
    client = ScriptedClient({"get_agent_key": ANSWER}, edition="A", build=12450)
    tracker, values = agent_key(client)
    assert not tracker.changed and not tracker.recorded
    assert values == {
        "generated": False,
        "agent_key": KEY,
        "agent_key_end_time": "30/11/2026 09:05:01",
        "expires_at": "2026-11-30T09:05:01",
    }
    assert client.calls == [("get_agent_key", None, None, None)]


def test_fetching_is_sent_in_check_mode_too():
    client = ScriptedClient({"get_agent_key": ANSWER})
    assert agent_key(client, check_mode=True)[1]["agent_key"] == KEY and len(client.calls) == 1


def test_generating_sends_the_flag_and_validity_and_is_a_change():
    client = ScriptedClient({"get_agent_key": ANSWER}, edition="B", build=6000)
    tracker, found = agent_key(client, generate=True, validity_hours=168)
    assert tracker.changed and found["generated"] is True and found["agent_key"] == KEY
    assert not tracker.recorded  # as before the contract: a generation shows no diff
    assert client.calls == [("get_agent_key", None, {"generateAgentKey": "true", "validityPeriod": 168}, None)]


def test_generating_without_validity_sends_only_the_flag():
    client = ScriptedClient({"get_agent_key": ANSWER})
    agent_key(client, generate=True)
    assert client.calls[0][2] == {"generateAgentKey": "true"}


def test_generating_in_check_mode_sends_nothing_and_holds_no_key():
    client = ScriptedClient({"get_agent_key": ANSWER})
    tracker, values = agent_key(client, generate=True, validity_hours=2, check_mode=True)
    assert tracker.changed and not tracker.recorded and values == {"generated": True}
    assert client.calls == []


@pytest.mark.parametrize("generate, check_mode", [(False, False), (True, True)])
def test_an_old_build_is_refused_before_sending(generate, check_mode):
    client = ScriptedClient({"get_agent_key": ANSWER}, edition="A", build=12000)
    with pytest.raises(VaultUnsupportedError, match="needs edition A from build 12230 or edition B from build 6000"):
        agent_key(client, generate=generate, check_mode=check_mode)
    assert client.calls == []


@pytest.mark.parametrize(
    "generate, hours, message",
    [
        (False, 24, "validity_hours is given only with generate: true"),
        (True, 0, "validity_hours must be a whole number of hours, 1 or more, not 0"),
        (True, -3, "validity_hours must be a whole number of hours, 1 or more, not -3"),
    ],
)
def test_bad_validity_is_refused_before_sending(generate, hours, message):
    client = ScriptedClient({"get_agent_key": ANSWER})
    with pytest.raises(VaultInputError, match=message):
        agent_key(client, generate=generate, validity_hours=hours)
    assert client.calls == []


@pytest.mark.parametrize("answer", [{}, {"agentKey": ""}, {"agentKey": 12}, None, []])
def test_a_success_without_a_key_fails(answer):
    client = ScriptedClient({"get_agent_key": answer})
    with pytest.raises(VaultResponseError, match="without an agent key"):
        agent_key(client)


@pytest.mark.parametrize(
    "text, iso",
    [
        ("30/11/2026 09:05:01", "2026-11-30T09:05:01"),
        ("01/02/2027 00:00:00", "2027-02-01T00:00:00"),
        ("31/02/2027 00:00:00", None),
        ("2026-11-30 09:05:01", None),
        ("", None),
        (None, None),
    ],
)
def test_the_end_time_becomes_iso_8601_day_first(text, iso):
    assert _agent_key.iso_end_time(text) == iso


def test_an_unreadable_end_time_keeps_the_key():
    client = ScriptedClient({"get_agent_key": {"agentKey": KEY, "agentKeyEndTime": "soon"}})
    dummy_tracker, found = agent_key(client)
    assert found["agent_key"] == KEY and found["agent_key_end_time"] == "soon" and found["expires_at"] is None
