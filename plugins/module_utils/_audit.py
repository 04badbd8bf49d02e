# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The audit trail (``GET /audit``), read a page at a time.

What the API offers, and what that means here:

- The query is ``AUDITTYPE`` (``Resource`` or ``User``), ``STARTINDEX``,
  ``LIMIT`` and ``DURATION`` (``TODAY``, ``YESTERDAY`` or ``LAST_7_DAYS``);
  the answer is ``GET_AUDIT`` with ``totalRows`` and a Details list of audit
  records (AUDITID, RESOURCENAME, ..., LASTACCESSEDTIME ``YYYY-MM-DD
  HH:MM:SS.fff``).
- The spec does not say whether STARTINDEX counts from 0 or 1. Reading starts
  at 0 and moves on by the number of records received; records are kept once
  by AUDITID, so a vault that counts from 1 (its second page then repeats one
  record) or whose newest-first trail grows while it is read (records move
  down a page) gives each record once.
- The next page is read while the last one was full, or while ``totalRows``
  says more records exist (a vault that caps a page below LIMIT). Reading
  stops at an empty page, at a page that brings no record not seen before (a
  vault that ignores STARTINDEX), or at ``max_records``: a ``totalRows`` that
  is missing or wrong neither loops forever nor cuts the trail short.
"""

from __future__ import annotations

import datetime

from ._api import service as service_api
from ._errors import VaultInputError

AUDIT_TYPES = {"resource": "Resource", "user": "User"}
DURATIONS = {"today": "TODAY", "yesterday": "YESTERDAY", "last_7_days": "LAST_7_DAYS"}
PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


def iso_time(text):
    """``LASTACCESSEDTIME`` as ISO 8601: ``2026-11-23 07:38:43.120`` -> ``2026-11-23T07:38:43.120``; a time
    without fraction keeps none; anything else -> None (the answer is not trusted)."""
    value = str(text or "").strip()
    whole, dot, fraction = value.partition(".")
    try:
        moment = datetime.datetime.strptime(whole, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None
    if not dot:
        return moment.isoformat()
    if not (fraction.isascii() and fraction.isdigit()) or len(fraction) > 6:
        return None
    return "%s.%s" % (moment.isoformat(), fraction)


def check_input(audit_type, duration, max_records, page_size):
    """Refuse, before any request, what the query cannot carry; returns the query's AUDITTYPE and DURATION."""
    if audit_type not in AUDIT_TYPES:
        raise VaultInputError("audit_type must be one of %s" % ", ".join(sorted(AUDIT_TYPES)))
    if duration not in DURATIONS:
        raise VaultInputError("duration must be one of %s" % ", ".join(sorted(DURATIONS)))
    if max_records is not None and max_records < 1:
        raise VaultInputError("max_records must be 1 or more, not %d" % max_records)
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise VaultInputError("page_size must be from 1 to %d, not %d" % (MAX_PAGE_SIZE, page_size))
    return AUDIT_TYPES[audit_type], DURATIONS[duration]


def with_iso_time(record):
    """The record as the vault gave it, plus ``accessed_at``: its LASTACCESSEDTIME as ISO 8601 (or None)."""
    return dict(record, accessed_at=iso_time(record.get("LASTACCESSEDTIME")))


def record_marker(record):
    """What tells two records apart: their AUDITID, or (a record without one) all of the record."""
    audit_id = record.get("AUDITID")
    if isinstance(audit_id, (str, int)) and not isinstance(audit_id, bool) and str(audit_id).strip():
        return ("id", str(audit_id).strip())
    return ("record", repr(sorted(record.items())))


def describe(task):
    """Entry point of ``vault_audit_info``: ``read_audit`` with the task's options (checked before any request)."""
    desired = task.desired
    return read_audit(
        task.client, desired["audit_type"], desired["duration"], desired["max_records"], desired["page_size"]
    )


def read_audit(client, audit_type="resource", duration="last_7_days", max_records=None, page_size=PAGE_SIZE):
    """The audit records of ``audit_type`` within ``duration``, newest first as the vault answers them.

    Returns ``records`` (each with ``accessed_at``), ``total`` (the last answer's ``totalRows``, None when it
    gave none), ``truncated`` (``max_records`` stopped the reading before the end) and ``pages`` (requests sent).
    """
    kind, period = check_input(audit_type, duration, max_records, page_size)
    records, seen = [], set()
    start, pages, total = 0, 0, None
    while True:
        limit = page_size if max_records is None else min(page_size, max_records - len(records))
        response = service_api.get_audit(client, kind, start, limit, period)
        pages += 1
        page = response.details_list()
        if response.total_rows is not None:
            total = response.total_rows
        new = 0
        for record in page:
            marker = record_marker(record)
            if marker not in seen:
                seen.add(marker)
                records.append(with_iso_time(record))
                new += 1
        start += len(page)
        full = max_records is not None and len(records) >= max_records
        more = len(page) >= limit or (total is not None and start < total)
        done = not new or not more
        if full or done:
            records = records[:max_records] if max_records is not None else records
            truncated = full and not done and (total is None or start < total)
            return {"records": records, "total": total, "truncated": truncated, "pages": pages}
