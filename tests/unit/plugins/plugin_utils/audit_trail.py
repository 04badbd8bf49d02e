# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A vault's audit trail for the event source's tests: ``GET_AUDIT`` answered newest first, a page at a time, as
the simulator and the spec's query describe it, with hooks for what a real vault may do between two pages."""

from __future__ import annotations

import datetime

BASE_TIME = datetime.datetime(2026, 11, 27, 9, 0, 0)


class Page:
    def __init__(self, records, total_rows):
        self.records = records
        self.total_rows = total_rows

    def details_list(self):
        return [record for record in self.records if isinstance(record, dict)]


class Trail:
    """``call("get_audit", query=...)`` like a ``VaultClient``; ``queries`` records each query;
    ``between_pages(trail, query)`` runs after each answer (records arriving while pages are read); while
    ``failures`` holds an error, every call raises it."""

    base_url = "https://vault.example:7272"

    def __init__(self):
        self.records = {"Resource": [], "User": []}
        self.queries = []
        self.between_pages = None
        self.failures = []
        self.next_id = 1
        self.clock = BASE_TIME

    def add(self, operation="CHANGE PASSWORD", resource="web01", account="root", kind="Resource", at=None, **extra):
        """Append a record (its time: ``at``, else one second after the last) and return its AUDITID."""
        self.clock = at or self.clock + datetime.timedelta(seconds=1)
        audit_id = str(self.next_id)
        self.next_id += 1
        record = {
            "AUDITID": audit_id,
            "RESOURCENAME": resource,
            "ACCOUNTNAME": account,
            "OPERATIONTYPE": operation,
            "OPERATEDBY": "admin",
            "IPADDRESS": "10.0.0.5",
            "USERNAME": "admin",
            "REASON": "N/A",
            "NAME": "Administrator",
            "CLIENT": "REST API",
            "LASTACCESSEDTIME": self.clock.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (self.clock.microsecond // 1000),
        }
        record.update(extra)
        self.records[kind].append(record)
        return audit_id

    def call(self, key, query=None, **kwargs):
        assert key == "get_audit" and not any(kwargs.values())
        self.queries.append(dict(query))
        if self.failures:
            raise self.failures[0]
        newest_first = sorted(
            self.records[query["AUDITTYPE"]], key=lambda r: (r["LASTACCESSEDTIME"], int(r["AUDITID"])), reverse=True
        )
        start, limit = query["STARTINDEX"], query["LIMIT"]
        page = Page(newest_first[start : start + limit], len(newest_first))
        if self.between_pages:
            self.between_pages(self, query)
        return page
