# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The audit trail read whole: the query sent, paging from 0 or 1, where reading stops, max_records, ISO times,
and input refused before any request."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _audit
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import run_entry


def trail(count):
    """``count`` records, newest (highest AUDITID) first."""
    return [
        {
            "AUDITID": str(number),
            "RESOURCENAME": "web-%d" % number,
            "OPERATIONTYPE": "CREATE RESOURCE",
            "LASTACCESSEDTIME": "2026-11-23 07:%02d:00.%03d" % (number % 60, number % 1000),
        }
        for number in range(count, 0, -1)
    ]


class AuditVault:
    """Serves ``records`` as GET /audit would: STARTINDEX counted from ``base`` (0 or 1), at most ``cap`` per page
    whatever LIMIT says, totalRows ``total`` (``len(records)`` unless given, None to leave it out); ``ignore_start``
    serves the first page for every STARTINDEX; ``grow`` adds that many newer records after each page."""

    def __init__(self, records, base=0, cap=None, total="count", ignore_start=False, grow=0):
        self.records = list(records)
        self.base = base
        self.cap = cap
        self.total = total
        self.ignore_start = ignore_start
        self.grow = grow
        self.sent = []

    def call(self, key, path=None, details=None, query=None, files=None):
        assert key == "get_audit" and details is None and path is None and files is None
        self.sent.append(dict(query))
        start = 0 if self.ignore_start else max(int(query["STARTINDEX"]) - self.base, 0)
        size = min(query["LIMIT"], self.cap or query["LIMIT"])
        page = self.records[start : start + size]
        total = len(self.records) if self.total == "count" else self.total
        for dummy in range(self.grow):
            newest = int(self.records[0]["AUDITID"]) + 1
            self.records.insert(0, {"AUDITID": str(newest), "LASTACCESSEDTIME": "2026-11-23 08:00:00.000"})
        return VaultResponse("GET_AUDIT", "Success", "", None, page, total, 200, {})

    def starts(self):
        return [query["STARTINDEX"] for query in self.sent]


def ids(records):
    return [record["AUDITID"] for record in records]


def test_the_query_spells_the_spec_and_one_short_page_ends_the_reading():
    vault = AuditVault(trail(3))
    found = _audit.read_audit(vault, "user", "today")
    assert vault.sent == [{"AUDITTYPE": "User", "STARTINDEX": 0, "LIMIT": 100, "DURATION": "TODAY"}]
    assert ids(found["records"]) == ["3", "2", "1"]
    assert found["total"] == 3 and found["truncated"] is False and found["pages"] == 1


@pytest.mark.parametrize(
    "option, value, sent",
    [
        ("audit_type", "resource", "Resource"),
        ("duration", "yesterday", "YESTERDAY"),
        ("duration", "last_7_days", "LAST_7_DAYS"),
    ],
)
def test_every_choice_maps_to_the_spec_spelling(option, value, sent):
    vault = AuditVault([])
    _audit.read_audit(vault, **{option: value})
    assert sent in vault.sent[0].values()


def test_defaults_are_resource_records_of_the_last_seven_days():
    vault = AuditVault([])
    assert _audit.read_audit(vault) == {"records": [], "total": 0, "truncated": False, "pages": 1}
    assert vault.sent[0]["AUDITTYPE"] == "Resource" and vault.sent[0]["DURATION"] == "LAST_7_DAYS"


def test_pages_follow_one_another_until_totalrows_records_came():
    vault = AuditVault(trail(250))
    found = _audit.read_audit(vault)
    assert ids(found["records"]) == ids(trail(250)) and found["pages"] == 3
    assert vault.starts() == [0, 100, 200]


def test_a_vault_counting_from_one_gives_every_record_once():
    vault = AuditVault(trail(250), base=1)
    found = _audit.read_audit(vault, page_size=100)
    assert ids(found["records"]) == ids(trail(250))


def test_a_trail_that_grows_while_read_repeats_no_record():
    vault = AuditVault(trail(150), grow=5, total=None)
    found = _audit.read_audit(vault)
    assert len(ids(found["records"])) == len(set(ids(found["records"])))
    assert set(ids(trail(150))) <= set(ids(found["records"]))


def test_a_full_last_page_without_totalrows_is_followed_by_an_empty_one():
    vault = AuditVault(trail(200), total=None)
    found = _audit.read_audit(vault)
    assert len(found["records"]) == 200 and vault.starts() == [0, 100, 200] and found["total"] is None


def test_a_vault_capping_pages_below_limit_is_read_on_by_totalrows():
    vault = AuditVault(trail(120), cap=50)
    found = _audit.read_audit(vault)
    assert len(found["records"]) == 120 and vault.starts() == [0, 50, 100]


def test_a_vault_ignoring_startindex_stops_at_the_page_bringing_nothing_new():
    vault = AuditVault(trail(300), ignore_start=True)
    found = _audit.read_audit(vault)
    assert ids(found["records"]) == ids(trail(300))[:100] and vault.starts() == [0, 100]


def test_max_records_asks_for_no_more_than_it_keeps_and_says_more_exist():
    vault = AuditVault(trail(250))
    found = _audit.read_audit(vault, max_records=130)
    assert ids(found["records"]) == ids(trail(250))[:130]
    assert [query["LIMIT"] for query in vault.sent] == [100, 30]
    assert found["truncated"] is True and found["total"] == 250


def test_max_records_reaching_the_end_is_not_truncated():
    vault = AuditVault(trail(30))
    found = _audit.read_audit(vault, max_records=30, page_size=10)
    assert len(found["records"]) == 30 and found["truncated"] is False and vault.starts() == [0, 10, 20]


def test_records_keep_the_vault_fields_and_gain_an_iso_time():
    record = _audit.read_audit(AuditVault(trail(1)))["records"][0]
    assert record == {
        "AUDITID": "1",
        "RESOURCENAME": "web-1",
        "OPERATIONTYPE": "CREATE RESOURCE",
        "LASTACCESSEDTIME": "2026-11-23 07:01:00.001",
        "accessed_at": "2026-11-23T07:01:00.001",
    }


@pytest.mark.parametrize(
    "text, iso",
    [
        ("2026-11-23 07:38:43.120", "2026-11-23T07:38:43.120"),
        ("2026-11-23 07:38:43", "2026-11-23T07:38:43"),
        (" 2026-01-05 00:00:00.5 ", "2026-01-05T00:00:00.5"),
        ("2026-02-30 07:38:43.120", None),
        ("23/11/2026 07:38:43", None),
        ("2026-11-23 07:38:43.12x", None),
        ("", None),
        (None, None),
        (12, None),
    ],
)
def test_iso_time_accepts_only_the_spec_format(text, iso):
    assert _audit.iso_time(text) == iso


def test_records_without_auditid_are_kept_once_by_content():
    records = [{"OPERATIONTYPE": "A"}, {"OPERATIONTYPE": "B"}]
    found = _audit.read_audit(AuditVault(records))
    assert [record["OPERATIONTYPE"] for record in found["records"]] == ["A", "B"]
    assert found["records"][0]["accessed_at"] is None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"audit_type": "Resource"}, "audit_type must be one of resource, user"),
        ({"duration": "TODAY"}, "duration must be one of last_7_days, today, yesterday"),
        ({"max_records": 0}, "max_records must be 1 or more, not 0"),
        ({"page_size": 0}, "page_size must be from 1 to 1000, not 0"),
        ({"page_size": 1001}, "page_size must be from 1 to 1000, not 1001"),
    ],
)
def test_bad_input_is_refused_before_any_request(kwargs, message):
    vault = AuditVault(trail(3))
    with pytest.raises(VaultInputError, match="^%s$" % message):
        _audit.read_audit(vault, **kwargs)
    assert vault.sent == []


def test_vault_audit_info_reads_with_the_task_options_and_records_nothing():
    vault = AuditVault(trail(3))
    desired = {"audit_type": "user", "duration": "today", "max_records": 2, "page_size": 100}
    tracker, values = run_entry(_audit.describe, vault, desired)
    assert ids(values["records"]) == ["3", "2"] and values["truncated"] is True and values["pages"] == 1
    assert vault.sent == [{"AUDITTYPE": "User", "STARTINDEX": 0, "LIMIT": 2, "DURATION": "TODAY"}]
    assert not tracker.recorded


def test_a_refusal_of_the_vault_is_raised():
    class Refusing:
        def call(self, *args, **kwargs):
            raise VaultAPIError("GET_AUDIT failed: You are not authorized to view the audit trail")

    with pytest.raises(VaultAPIError, match="not authorized"):
        _audit.read_audit(Refusing())
