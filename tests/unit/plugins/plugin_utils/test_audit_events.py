# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The event source's logic: each record given once across polls, pages, records arriving mid-read, late records
and restarts (the cursor file and its journal); the requests a poll sends after a burst; the first start; filters;
what an event holds; answers that cannot be trusted."""

from __future__ import annotations

import datetime
import json
import os
import stat

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError
from ansible_collections.credvault.vault.plugins.plugin_utils import _audit_events
from ansible_collections.credvault.vault.plugins.plugin_utils._audit_events import (
    MAX_PAGES,
    WINDOW,
    AuditEvents,
    Cursor,
    Filters,
)
from ansible_collections.credvault.vault.tests.unit.plugins.plugin_utils.audit_trail import Page, Trail


def source(trail, cursor_path=None, audit_types=("resource",), filters=None, start_at="now", page_size=100):
    cursor = Cursor.load(trail.base_url, cursor_path)
    return AuditEvents(trail, cursor, list(audit_types), filters or Filters(), start_at, page_size)


def given(events):
    """One poll handled as the source does: every record noted; the ids of the events, in their order."""
    ids = []
    for event, audit_type, audit_id, moment in events.poll():
        events.note(audit_type, audit_id, moment)
        if event is not None:
            ids.append(event["vault_audit"]["audit_id"])
    events.cursor.save()
    return ids


def test_the_first_start_gives_only_what_comes_after_it():
    trail = Trail()
    for _number in range(5):
        trail.add()
    events = source(trail)
    assert given(events) == []
    new = [trail.add(), trail.add()]
    assert given(events) == new
    assert given(events) == []


def test_the_first_start_on_a_large_trail_reads_only_its_newest_window():
    trail = Trail()
    for _number in range(1000):
        trail.add()
    events = source(trail, page_size=10)
    assert given(events) == []
    # Records a second apart: the window of 2 minutes is 121 records, 13 pages of 10, not the 100 of the trail.
    assert len(trail.queries) == 13


@pytest.mark.parametrize(("start_at", "duration"), [("today", "TODAY"), ("last_7_days", "LAST_7_DAYS")])
def test_start_at_gives_the_trail_of_its_duration_once_oldest_first(start_at, duration):
    trail = Trail()
    ids = [trail.add() for _number in range(250)]
    events = source(trail, start_at=start_at, page_size=100)
    assert given(events) == ids
    assert [query["DURATION"] for query in trail.queries] == [duration] * 3
    assert [query["STARTINDEX"] for query in trail.queries] == [0, 100, 200]
    assert given(events) == []
    assert trail.queries[-1]["DURATION"] == "LAST_7_DAYS"


def test_records_arriving_while_pages_are_read_come_once_and_none_is_lost():
    trail = Trail()
    events = source(trail, start_at="last_7_days", page_size=10)
    old = [trail.add() for _number in range(35)]
    arriving = []

    def three_more(trail, query):
        if len(arriving) < 9:
            arriving.extend(trail.add() for _number in range(3))

    trail.between_pages = three_more
    first = given(events)
    trail.between_pages = None
    second = given(events)
    assert sorted(first + second, key=int) == old + arriving
    assert len(set(first + second)) == len(first + second)
    assert first[: len(old)] == old


def test_a_late_record_within_the_window_still_comes_once():
    trail = Trail()
    events = source(trail)
    given(events)
    on_time = trail.add()
    assert given(events) == [on_time]
    late = trail.add(at=trail.clock - datetime.timedelta(seconds=30))
    assert given(events) == [late]
    assert given(events) == []


def test_a_restart_with_the_cursor_file_gives_what_came_while_stopped_and_nothing_twice(tmp_path):
    path = str(tmp_path / "audit.cursor")
    trail = Trail()
    trail.add()
    events = source(trail, path)
    given(events)
    before_stop = trail.add()
    assert given(events) == [before_stop]
    while_stopped = [trail.add() for _number in range(3)]
    restarted = source(trail, path)
    assert given(restarted) == while_stopped
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    without_cursor = source(trail)
    assert given(without_cursor) == []


def test_each_trail_keeps_its_own_position(tmp_path):
    path = str(tmp_path / "audit.cursor")
    trail = Trail()
    events = source(trail, path, audit_types=("resource", "user"))
    given(events)
    user_record = trail.add(operation="CREATE_USER", resource="N/A", account="N/A", kind="User")
    resource_record = trail.add()
    assert sorted(given(events)) == sorted([user_record, resource_record])
    kinds = [query["AUDITTYPE"] for query in trail.queries[-2:]]
    assert kinds == ["Resource", "User"]
    assert given(source(trail, path, audit_types=("resource", "user"))) == []


def test_a_cursor_of_another_vault_or_not_a_cursor_is_refused(tmp_path):
    path = tmp_path / "audit.cursor"
    trail = Trail()
    trail.add()
    events = source(trail, str(path))
    given(events)
    trail.add()
    given(events)
    with pytest.raises(VaultInputError, match="another vault"):
        Cursor.load("https://other.example", str(path))
    path.write_text("{not json")
    with pytest.raises(VaultInputError, match="not a cursor"):
        Cursor.load(trail.base_url, str(path))
    path.write_text(json.dumps({"version": 1, "url": trail.base_url, "positions": {"resource": {"seen": []}}}))
    with pytest.raises(VaultInputError, match="not a cursor"):
        Cursor.load(trail.base_url, str(path))


def test_filters_match_patterns_without_case_and_what_they_pass_over_is_not_given_later():
    trail = Trail()
    filters = Filters(
        operations=["*change*password*"], exclude_operations=["*failed*"], resources=["WEB*"], accounts=["root"]
    )
    events = source(trail, filters=filters)
    given(events)
    wanted = trail.add(operation="Change Password", resource="web01", account="ROOT")
    trail.add(operation="CHANGE PASSWORD (Failed)", resource="web01")
    trail.add(operation="GET PASSWORD", resource="web01")
    trail.add(operation="CHANGE PASSWORD", resource="db01")
    trail.add(operation="CHANGE PASSWORD", resource="web02", account="admin")
    assert given(events) == [wanted]
    assert given(source(trail, filters=Filters(), start_at="today")) != []
    assert given(events) == []


def test_an_event_holds_the_spec_fields_only_and_not_applicable_is_null():
    trail = Trail()
    events = source(trail)
    given(events)
    trail.add(REASON="Not Applicable", PASSWORD="Hunter2-Secret", NEWPASSWORD="Other-Secret")
    (event, _kind, _id, _moment) = events.poll()[0]
    assert event == {
        "vault_audit": {
            "audit_type": "resource",
            "audit_id": "1",
            "operation": "CHANGE PASSWORD",
            "resource": "web01",
            "account": "root",
            "user": "admin",
            "operated_by": "admin",
            "name": "Administrator",
            "ip_address": "10.0.0.5",
            "client": "REST API",
            "reason": None,
            "time": "2026-11-27T09:00:01.000",
            "vault_time": "2026-11-27 09:00:01.000",
            "url": "https://vault.example:7272",
        }
    }
    assert "Secret" not in json.dumps(event)


def test_a_vault_that_ignores_startindex_is_read_once_per_poll():
    trail = Trail()
    ids = [trail.add() for _number in range(10)]
    original = trail.call

    def always_the_first_page(key, query=None, **kwargs):
        return original(key, query=dict(query, STARTINDEX=0), **kwargs)

    trail.call = always_the_first_page
    events = source(trail, start_at="last_7_days", page_size=5)
    assert given(events) == ids[5:]
    assert len(trail.queries) == 2


def test_answers_that_cannot_be_trusted_neither_loop_nor_break_the_poll():
    trail = Trail()
    events = source(trail, start_at="last_7_days", page_size=2)
    trail.records["Resource"] = [
        {"AUDITID": "1", "LASTACCESSEDTIME": "yesterday-ish", "OPERATIONTYPE": ["not", "text"]},
        {"AUDITID": True, "LASTACCESSEDTIME": None},
        "not a record",
        {"AUDITID": "2", "LASTACCESSEDTIME": "2026-11-27 09:00:00.5"},
    ]

    def unsorted_pages(key, query=None, **kwargs):
        trail.queries.append(dict(query))
        records = trail.records["Resource"][query["STARTINDEX"] : query["STARTINDEX"] + query["LIMIT"]]
        return Page(records, None)

    trail.call = unsorted_pages
    found = events.poll()
    assert len(found) == 3
    assert len(trail.queries) <= MAX_PAGES
    assert {event["vault_audit"]["operation"] for event, *_rest in found} == {None}


def test_the_cursor_forgets_ids_older_than_the_window_beyond_the_last_given(tmp_path, monkeypatch):
    monkeypatch.setattr(_audit_events, "KEEP_IDS", 1)
    path = str(tmp_path / "audit.cursor")
    trail = Trail()
    events = source(trail, path)
    given(events)
    first = trail.add()
    given(events)
    trail.add(at=trail.clock + WINDOW + datetime.timedelta(seconds=5))
    given(events)
    given(events)
    seen = json.loads(open(path, encoding="utf-8").read())["positions"]["resource"]["seen"]
    assert first not in seen and len(seen) == 1


def test_a_trail_that_no_longer_reaches_back_to_the_cursor_is_a_warning():
    trail = Trail()
    events = source(trail)
    given(events)
    trail.add()
    trail.add()
    given(events)
    given(events)
    assert events.warnings == []
    trail.records["Resource"].clear()
    after_the_gap = trail.add(at=trail.clock + datetime.timedelta(days=8))
    assert given(events) == [after_the_gap]
    assert len(events.warnings) == 1
    assert "no longer reaches back to 2026-11-27 09:00:02" in events.warnings[0]


def poll_until_quiet(events, polls=3):
    """The ids given over ``polls`` polls."""
    return [audit_id for _poll in range(polls) for audit_id in given(events)]


@pytest.mark.parametrize("step", [datetime.timedelta(minutes=10), datetime.timedelta(hours=1)], ids=["ntp", "dst"])
def test_records_after_the_vault_s_clock_goes_back_come_once_and_none_is_lost(step):
    trail = Trail()
    events = source(trail, page_size=20)
    given(events)
    # An hour of records 5 s apart, all given: after the step, the new ones sink below them (the trail is by time).
    before = [trail.add(at=trail.clock + datetime.timedelta(seconds=5)) for _number in range(720)]
    assert sorted(poll_until_quiet(events), key=int) == before
    trail.clock -= step
    after = [trail.add() for _number in range(3)]
    assert poll_until_quiet(events) == after
    more = [trail.add(), trail.add()]
    assert poll_until_quiet(events) == more
    assert events.warnings == []


def test_a_step_forward_then_back_loses_nothing_and_repeats_nothing():
    trail = Trail()
    events = source(trail)
    given(events)
    ahead = [trail.add(at=trail.clock + datetime.timedelta(minutes=30)), trail.add()]
    assert given(events) == ahead
    trail.clock -= datetime.timedelta(minutes=30)
    corrected = [trail.add() for _number in range(4)]
    assert poll_until_quiet(events) == corrected
    assert events.warnings == []


def test_a_restart_after_the_clock_went_back_gives_what_came_while_stopped(tmp_path):
    path = str(tmp_path / "audit.cursor")
    trail = Trail()
    events = source(trail, path, page_size=10)
    given(events)
    [trail.add() for _number in range(50)]
    poll_until_quiet(events)
    trail.clock -= datetime.timedelta(minutes=20)
    while_stopped = [trail.add() for _number in range(3)]
    restarted = source(trail, path, page_size=10)
    assert poll_until_quiet(restarted) == while_stopped


def test_a_gap_beyond_the_records_it_remembers_is_a_warning_naming_the_count(monkeypatch):
    monkeypatch.setattr(_audit_events, "KEEP_IDS", 5)
    trail = Trail()
    events = source(trail, page_size=5)
    given(events)
    [trail.add(at=trail.clock + datetime.timedelta(minutes=1)) for _number in range(30)]
    poll_until_quiet(events)
    trail.clock -= datetime.timedelta(hours=1)
    lost = [trail.add(), trail.add()]
    assert not set(given(events)) & set(lost)
    assert len(events.warnings) == 1
    assert "holds 2 records more than at the last poll, and only 0 new ones were found" in events.warnings[0]


def test_a_cursor_written_before_it_kept_the_trail_s_count_still_loads(tmp_path):
    path = tmp_path / "audit.cursor"
    trail = Trail()
    old = trail.add(at=datetime.datetime(2026, 11, 27, 9, 0, 0))
    position = {"newest": "2026-11-27T09:00:00", "seen": {old: "2026-11-27T09:00:00"}}
    path.write_text(json.dumps({"version": 1, "url": trail.base_url, "positions": {"resource": position}}))
    new = trail.add()
    assert given(source(trail, str(path))) == [new]


def a_burst(trail, count, step=datetime.timedelta(0)):
    """``count`` records, ``step`` apart from one second after the last (all at once without a step); their ids."""
    first = trail.clock + datetime.timedelta(seconds=1)
    return [trail.add(at=first + step * number) for number in range(count)]


def queries_of(events):
    """One poll handled as the source does; the audit types of the requests it sent, in their order."""
    events.client.queries.clear()
    given(events)
    return [query["AUDITTYPE"] for query in events.client.queries]


def test_a_burst_is_read_once_and_a_poll_with_nothing_new_reads_one_page_per_audit_type():
    trail = Trail()
    trail.add()
    events = source(trail, audit_types=("resource", "user"), page_size=10)
    given(events)
    burst = a_burst(trail, 1000)
    trail.queries.clear()
    assert given(events) == burst
    # The 100 pages of the burst, the page of the record before it; the empty user trail.
    assert [query["AUDITTYPE"] for query in trail.queries] == ["Resource"] * 101 + ["User"]
    for _poll in range(3):
        assert queries_of(events) == ["Resource", "User"]
    steady = [trail.add(), trail.add(operation="CREATE_USER", kind="User"), trail.add()]
    trail.queries.clear()
    assert sorted(given(events)) == sorted(steady)
    assert len(trail.queries) == 2


def test_a_late_record_below_the_first_page_after_a_burst_comes_once():
    trail = Trail()
    trail.add()
    events = source(trail, page_size=10)
    given(events)
    start = trail.clock
    a_burst(trail, 500, datetime.timedelta(milliseconds=1))
    given(events)
    late = trail.add(at=start + datetime.timedelta(seconds=1, milliseconds=249))  # below 250 records of the burst
    assert given(events) == [late]
    assert queries_of(events) == ["Resource"]


def given_a_burst_of_100():
    """A trail of 3 records, then a burst of 100 a millisecond apart, both given (pages of 10); the trail, the source
    and the time before the burst."""
    trail = Trail()
    [trail.add() for _number in range(3)]
    events = source(trail, page_size=10)
    given(events)
    start = trail.clock
    a_burst(trail, 100, datetime.timedelta(milliseconds=1))
    given(events)
    return trail, events, start


def test_records_leaving_the_bottom_of_the_trail_make_the_poll_read_the_window():
    trail, events, start = given_a_burst_of_100()
    del trail.records["Resource"][:2]  # the oldest two are more than 7 days old now
    late = trail.add(at=start + datetime.timedelta(seconds=1, milliseconds=49))
    trail.queries.clear()
    assert given(events) == [late]
    assert len(trail.queries) == 11
    assert queries_of(events) == ["Resource"]


def test_the_count_cannot_see_as_many_late_records_below_the_first_page_as_left_the_bottom():
    """The one case the module's docstring says is not given: the first page looks complete."""
    trail, events, start = given_a_burst_of_100()
    del trail.records["Resource"][:1]
    trail.add(at=start + datetime.timedelta(seconds=1, milliseconds=49))
    new = trail.add(at=start + datetime.timedelta(seconds=2))
    assert given(events) == [new]
    assert events.warnings == []


def test_a_restart_gives_what_was_not_noted_when_it_stopped_handing_a_poll_over(tmp_path):
    path = str(tmp_path / "audit.cursor")
    trail = Trail()
    events = source(trail, path)
    given(events)
    new = [trail.add() for _number in range(3)]
    for _event, audit_type, audit_id, moment in events.poll()[:2]:
        events.note(audit_type, audit_id, moment)  # then the source stops: the cursor file is not written again
    assert os.path.exists(path + ".journal")
    assert stat.S_IMODE(os.stat(path + ".journal").st_mode) == 0o600
    with open(path + ".journal", "a", encoding="utf-8") as journal:
        journal.write('["resource", "3", "2026-11')  # a line whose writing the stop cut short
    restarted = source(trail, path)
    assert given(restarted) == new[2:]
    assert not os.path.exists(path + ".journal")
    assert given(source(trail, path)) == []


def test_a_journal_of_another_vault_or_not_a_journal_is_refused(tmp_path):
    path = tmp_path / "audit.cursor"
    journal = tmp_path / "audit.cursor.journal"
    trail = Trail()
    trail.add()
    journal.write_text(json.dumps({"version": 1, "url": "https://other.example"}) + "\n")
    with pytest.raises(VaultInputError, match="another vault"):
        Cursor.load(trail.base_url, str(path))
    journal.write_text(json.dumps({"version": 1, "url": trail.base_url}) + '\n["resource", 7, null]\n')
    with pytest.raises(VaultInputError, match="not a cursor"):
        Cursor.load(trail.base_url, str(path))
