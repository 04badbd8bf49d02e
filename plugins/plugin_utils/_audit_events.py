# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""New audit records as events, and the cursor that remembers which were given: the event source's logic.

The API gives the trail newest first, a page at a time (``GET_AUDIT``: ``AUDITTYPE``, ``STARTINDEX``, ``LIMIT``,
``DURATION``), with no "since" parameter and no promise about its ids or its order beyond that. So a poll reads
pages from the newest record back and keeps each record it has not given before, known by its ``AUDITID``. How far
back it reads, the trail's ``totalRows`` (kept in the cursor from one poll to the next) decides:

- when the first page holds a record given before and as many records not given before as the trail grew by since
  the last poll, the poll stops there: a poll with nothing new, or a few new records, sends one request per audit
  type, however many records lie within the window (``WINDOW`` before the newest record given), as after a burst;
- otherwise the poll reads on until a page reaches past the window, as every poll does on a vault that gives no
  totalRows (at most ``MAX_PAGES``): a record the vault writes late, with a time a little before one already
  given, sinks below newer records; the count includes it, so a first page without it is not enough, and the
  window is read for it;
- records leave the bottom of the trail (it gives the last 7 days) as time passes, so the count can under-state
  the new records. When that shows (the trail holds fewer records than at the last poll, or the first page holds
  more new records than it grew by), the window is read. It does not show when as many records left the bottom
  since the last poll as came late below the first page: then those late records are not given. Re-reading the
  whole window on every poll to see that case made each poll's cost grow with the window (after a burst of
  10,000 records, 102 requests a poll, until a record came two minutes after the burst); and a vault whose
  LAST_7_DAYS is calendar days (as TODAY and YESTERDAY are) drops records only when its day changes, a whole day
  at once, which makes the count go down;
- the vault's clock alone never decides what is new, as it may go back (a vault writing local time that leaves
  daylight saving time, an NTP step) and then writes records older than the window, which sink below records
  already given: while a poll has found fewer new records than the trail grew by, it reads on past the window,
  for as long as its pages hold records it gave (the ids of the last ``KEEP_IDS`` records given are kept whatever
  their time). A gap it cannot bridge (the records it knows end before the new ones are found) is a warning
  naming the count;
- records that arrive while the pages are read push the older ones down a page: they are read twice and given
  once; the new ones come with the next poll (the count kept is the first page's, which did not hold them);
- the cursor (per audit type: the newest record's time, the ids given within the window and the trail's count) is
  what ``cursor_file`` keeps across restarts. Each record noted is appended to a journal beside the file
  (``JOURNAL_SUFFIX``), and the file is written whole after each poll, the journal then removed: a restart repeats
  at most the one event being handed over when it stopped, and loses none, and handing over a burst of N records
  appends N lines instead of writing a cursor of N ids N times.

Only the spec's fields of a record go into an event; ``N/A`` and ``Not Applicable`` become null.
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import os
import tempfile

from ansible_collections.credvault.vault.plugins.module_utils._answers import is_placeholder
from ansible_collections.credvault.vault.plugins.module_utils._api import service as service_api
from ansible_collections.credvault.vault.plugins.module_utils._audit import AUDIT_TYPES, iso_time, record_marker
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError

WINDOW = datetime.timedelta(minutes=2)
# Pages one poll reads at most: a vault that ignores STARTINDEX or totalRows does not keep the source reading.
MAX_PAGES = 1000
# Ids kept whatever their time (the last given): the records a poll reading past the window knows as given.
KEEP_IDS = 10000
CURSOR_VERSION = 1
# The journal beside the cursor file: the records noted since the file was last written, one line each.
JOURNAL_SUFFIX = ".journal"
START_AT = {"now": None, "today": "TODAY", "last_7_days": "LAST_7_DAYS"}
# The DURATION of every poll but a first one with start_at today or last_7_days.
LATER_DURATION = "LAST_7_DAYS"
EVENT_FIELDS = {
    "audit_id": "AUDITID",
    "operation": "OPERATIONTYPE",
    "resource": "RESOURCENAME",
    "account": "ACCOUNTNAME",
    "user": "USERNAME",
    "operated_by": "OPERATEDBY",
    "name": "NAME",
    "ip_address": "IPADDRESS",
    "client": "CLIENT",
    "reason": "REASON",
}


def _text(value):
    """A field's value as text, or None for a missing, unprintable or not-applicable one."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    return None if is_placeholder(value) else str(value).strip()


def _moment(text):
    iso = iso_time(text)
    return datetime.datetime.fromisoformat(iso) if iso else None


def record_id(record):
    """The record's ``AUDITID`` as text; None when it has none (such a record cannot be given exactly once)."""
    return _text(record.get("AUDITID"))


def to_event(audit_type, record, url):
    """The event of one record: ``{"vault_audit": {...}}`` with the spec's fields only."""
    fields = {name: _text(record.get(key)) for name, key in EVENT_FIELDS.items()}
    vault_time = _text(record.get("LASTACCESSEDTIME"))
    fields.update(audit_type=audit_type, time=iso_time(vault_time), vault_time=vault_time, url=url)
    return {"vault_audit": fields}


class Filters:
    """Shell-style patterns, case-insensitive: ``operations`` and ``exclude_operations`` on OPERATIONTYPE,
    ``resources`` on RESOURCENAME, ``accounts`` on ACCOUNTNAME. An empty list lets everything through."""

    def __init__(self, operations=(), exclude_operations=(), resources=(), accounts=()):
        self.rules = [
            ("OPERATIONTYPE", [p.lower() for p in operations], True),
            ("OPERATIONTYPE", [p.lower() for p in exclude_operations], False),
            ("RESOURCENAME", [p.lower() for p in resources], True),
            ("ACCOUNTNAME", [p.lower() for p in accounts], True),
        ]

    def admit(self, record):
        for key, patterns, wanted in self.rules:
            if not patterns:
                continue
            value = str(_text(record.get(key)) or "").lower()
            if any(fnmatch.fnmatchcase(value, pattern) for pattern in patterns) != wanted:
                return False
        return True


class TrailPosition:
    """Where one audit type's trail was left: ``newest`` (the newest time given, or None before the first poll),
    ``seen`` ({AUDITID: ISO time or None}, in the order given: the ids given within the window, and the last
    ``KEEP_IDS``) and ``total`` (the trail's totalRows at the last poll, None when the vault gave none)."""

    def __init__(self, newest=None, seen=None, total=None):
        self.newest = newest
        self.seen = dict(seen or {})
        self.total = total

    @property
    def started(self):
        return self.newest is not None or bool(self.seen)

    def window_start(self):
        return self.newest - WINDOW if self.newest else None

    def give(self, audit_id, moment):
        """Note a record as given (or passed over by the filters)."""
        if audit_id is not None:
            self.seen.pop(audit_id, None)  # to the end: the order given
            self.seen[audit_id] = moment.isoformat() if moment else None
        if moment and (self.newest is None or moment > self.newest):
            self.newest = moment

    def forget_old(self):
        """Drop the ids of the records older than the window (or without a time) but the last ``KEEP_IDS`` given."""
        start = self.window_start()
        for key, iso in list(self.seen.items())[: max(0, len(self.seen) - KEEP_IDS)]:
            if iso is None or (start and datetime.datetime.fromisoformat(iso) < start):
                del self.seen[key]

    def to_json(self):
        return {"newest": self.newest.isoformat() if self.newest else None, "seen": self.seen, "total": self.total}

    @classmethod
    def from_json(cls, data):
        if not isinstance(data, dict) or not isinstance(data.get("seen", {}), dict):
            raise ValueError("not a trail position")
        newest, seen, total = data.get("newest"), data.get("seen", {}), data.get("total")
        for iso in seen.values():
            if iso is not None:
                datetime.datetime.fromisoformat(iso)
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise ValueError("total")
        return cls(datetime.datetime.fromisoformat(newest) if newest else None, seen, total)


class Cursor:
    """The positions of the audit types read from one vault (``url``), kept in ``path`` when one is given, with the
    journal of the records noted since it was last written beside it (``path`` + ``JOURNAL_SUFFIX``)."""

    def __init__(self, url, path=None):
        self.url = url
        self.path = path
        self.journal = path + JOURNAL_SUFFIX if path else None
        self.journal_started = False
        self.positions = {}

    def position(self, audit_type):
        return self.positions.setdefault(audit_type, TrailPosition())

    @classmethod
    def load(cls, url, path):
        """The cursor kept in ``path`` (a new one when the file does not exist), with its journal's records noted.

        Raises ``VaultInputError`` for a file that is not a cursor, or is the cursor of another vault: reading
        from its position would lose or repeat events."""
        cursor = cls(url, path)
        if path and os.path.exists(path):
            cursor.read(path, cursor.restore)
        if path and os.path.exists(cursor.journal):
            cursor.read(cursor.journal, cursor.replay)
            cursor.journal_started = True
        return cursor

    def read(self, path, apply):
        """Apply the file ``path`` (the cursor's or its journal) with ``apply(text)``, which returns the file's
        header (``version`` and ``url``), or None when it has none (an empty journal)."""
        try:
            with open(path, encoding="utf-8") as handle:
                header = apply(handle.read())
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            raise VaultInputError(
                "cursor_file %s is not a cursor this source wrote: remove it, or give another path" % path
            ) from None
        if header is not None and header.get("url") != self.url:
            raise VaultInputError(
                "cursor_file %s holds the position in the audit trail of another vault (%s): give a cursor_file "
                "per vault" % (path, header.get("url"))
            )

    def restore(self, text):
        """Take the positions of a cursor file's ``text``; its header is all of it."""
        data = _versioned(json.loads(text))
        self.positions = {kind: TrailPosition.from_json(value) for kind, value in data["positions"].items()}
        return data

    def replay(self, text):
        """Note the records of a journal's ``text``: a header, then one line per record, ``[audit_type, id, ISO time]``;
        what follows the last line break is a line whose writing was cut short, and is left out."""
        lines = [json.loads(line) for line in text.split("\n")[:-1]]
        if not lines:
            return None
        header = _versioned(lines[0])
        for audit_type, audit_id, iso in lines[1:]:
            if not isinstance(audit_type, str) or not isinstance(audit_id, (str, type(None))):
                raise ValueError("journal line")
            self.position(audit_type).give(audit_id, datetime.datetime.fromisoformat(iso) if iso else None)
        return header

    def note(self, audit_type, audit_id, moment):
        """Mark a record given (or passed over by the filters) and, with a file, append it to the journal."""
        self.position(audit_type).give(audit_id, moment)
        if not self.journal:
            return
        lines = [] if self.journal_started else [{"version": CURSOR_VERSION, "url": self.url}]
        lines.append([audit_type, audit_id, moment.isoformat() if moment else None])
        # O_NOFOLLOW: a symbolic link put in the journal's place is not followed.
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        flags |= 0 if self.journal_started else os.O_TRUNC
        handle = os.open(self.journal, flags, 0o600)
        try:
            os.write(handle, "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8"))
        finally:
            os.close(handle)
        self.journal_started = True

    def save(self):
        """Write the cursor to its file (readable by its owner only), replacing it whole or not at all; then remove
        the journal, which it holds."""
        if not self.path:
            return
        data = {
            "version": CURSOR_VERSION,
            "url": self.url,
            "positions": {kind: position.to_json() for kind, position in self.positions.items()},
        }
        directory = os.path.dirname(os.path.abspath(self.path))
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".vault_audit-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(data, stream, indent=1, sort_keys=True)
            os.replace(temporary, self.path)
        except BaseException:
            os.unlink(temporary)
            raise
        if self.journal_started:
            os.unlink(self.journal)
            self.journal_started = False


def _versioned(header):
    """``header``, a cursor's or its journal's, when this version of the source wrote it; else ValueError."""
    if header.get("version") != CURSOR_VERSION:
        raise ValueError("version")
    return header


def read_new(client, audit_type, position, duration, page_size, quiet=False):
    """What one poll of ``audit_type`` found: a ``Reading``.

    Pages are read newest first from STARTINDEX 0. The first page is enough when it holds a record given before and
    as many new records as the trail grew by since the last poll (``position.total``). Else pages are read until
    one reaches past the position's window, or the trail ends. Past the window, reading goes on while fewer new
    records were found than the trail grew by and the page holds a record given before; a record there not given
    before is new only when a record given before lies below it (else it may be one given so long ago that its id
    is forgotten), or the trail ends with no record of it forgotten. Before the first poll there is no window: the
    whole ``duration`` is read, unless ``quiet`` (the first poll of ``start_at: now``, whose records are noted, not
    given): then the window ends the newest record's."""
    reading = Reading()
    start, window_start, previous_ids, below_window = 0, position.window_start(), None, []
    for page_number in range(MAX_PAGES):
        response = service_api.get_audit(client, AUDIT_TYPES[audit_type], start, page_size, duration)
        page = response.details_list()
        if start == 0 and isinstance(response.total_rows, int) and not isinstance(response.total_rows, bool):
            reading.total = response.total_rows
        moments = [_moment(record.get("LASTACCESSEDTIME")) for record in page]
        if window_start is None and quiet and any(moments):
            window_start = max(moment for moment in moments if moment) - WINDOW
        ids = [record_id(record) for record in page]
        reading.reached = reading.reached or any(
            moment and position.newest and moment <= position.newest for moment in moments
        )
        past_window = knows_page = False
        for record, audit_id, moment in zip(page, ids, moments):
            known = audit_id is not None and audit_id in position.seen
            knows_page = knows_page or known
            if window_start and moment and moment < window_start:
                past_window = True
                if known:
                    reading.add(below_window)  # a record given before lies below them: they are new
                    below_window = []
                elif reading.wanting(position):
                    below_window.append((record, audit_id, moment))
            elif not known:
                reading.add([(record, audit_id, moment)])
        start += len(page)
        ended = not page or (len(page) < page_size and (reading.total is None or start >= reading.total))
        if (
            ended
            and reading.total is not None
            and reading.total <= len(position.seen) + len(reading.found) + len(below_window)
        ):
            reading.add(below_window)  # the whole trail is known or found: nothing of it was forgotten
        if (
            ended
            or ids == previous_ids
            or (page_number == 0 and knows_page and reading.accounted(position))
            or (past_window and not (reading.wanting(position) and knows_page))
        ):
            break
        previous_ids = ids
    return reading


class Reading:
    """One poll of one trail: ``found`` ({marker: (record, id, moment)} in the trail's order, newest first),
    ``total`` (the first page's totalRows, or None), ``reached`` (whether the trail still reaches back to the
    position's newest record; when it does not, records may have left it unread)."""

    def __init__(self):
        self.found = {}
        self.total = None
        self.reached = False

    def add(self, records):
        """Count ``records`` (``(record, id, moment)``) as found, each once."""
        for record, audit_id, moment in records:
            self.found.setdefault(record_marker(record), (record, audit_id, moment))

    def grown_by(self, position):
        """How many records the trail holds more than at the last poll, or None when either count is unknown."""
        if self.total is None or position.total is None:
            return None
        return self.total - position.total

    def wanting(self, position):
        """Whether fewer new records were found than the trail grew by (read on past the window for them)."""
        grown = self.grown_by(position)
        return grown is not None and len(self.found) < grown

    def accounted(self, position):
        """Whether exactly as many new records were found as the trail grew by: none is left to find below (unless
        as many records left the trail's bottom as are left below: the module's docstring says why that is
        accepted)."""
        return self.grown_by(position) == len(self.found)

    def records(self):
        """The records found, oldest first, each as ``(record, id, moment)``."""
        return list(reversed(list(self.found.values())))


class AuditEvents:
    """The polls of one source: ``poll()`` returns what is new in every audit type, ``note()`` marks one record
    as given in the cursor, ``cursor.save()`` keeps that; ``warnings`` collects what the source should log."""

    def __init__(self, client, cursor, audit_types, filters, start_at="now", page_size=100):
        self.warnings = []
        self.client = client
        self.url = client.base_url
        self.cursor = cursor
        self.audit_types = audit_types
        self.filters = filters
        self.start_at = start_at
        self.page_size = page_size

    def poll(self):
        """``[(event, audit_type, id, moment)]``, oldest first within each audit type; the event is None for a
        record the filters pass over, or that came before the source's first poll with ``start_at: now``."""
        found = []
        for audit_type in self.audit_types:
            position = self.cursor.position(audit_type)
            position.forget_old()
            first = not position.started
            quiet = first and self.start_at == "now"
            duration = START_AT[self.start_at] if first and not quiet else LATER_DURATION
            reading = read_new(self.client, audit_type, position, duration, self.page_size, quiet)
            if not (first or reading.reached or position.newest == EMPTY_TRAIL):
                self.warnings.append(
                    "the %s audit trail no longer reaches back to %s, where this source left it: records of that "
                    "time may have left the trail (it gives the last 7 days) unread" % (audit_type, position.newest)
                )
            elif not first and reading.wanting(position):
                self.warnings.append(
                    "the %s audit trail holds %d records more than at the last poll, and only %d new ones were found "
                    "before the records this source gave end: the others are older than the window by the vault's "
                    "clock (a step of its clock back?) and deeper than the records it remembers, and are not given"
                    % (audit_type, reading.grown_by(position), len(reading.found))
                )
            if duration == LATER_DURATION:
                position.total = reading.total  # counts of the same duration only: a start_at's differs
            records = reading.records()
            for record, audit_id, moment in records:
                admitted = not quiet and self.filters.admit(record)
                event = to_event(audit_type, record, self.url) if admitted else None
                found.append((event, audit_type, audit_id, moment))
            if first and not records:
                position.newest = EMPTY_TRAIL
        return found

    def note(self, audit_type, audit_id, moment):
        self.cursor.note(audit_type, audit_id, moment)


# The position of a trail that was empty at the first poll: every later record is new.
EMPTY_TRAIL = datetime.datetime(1970, 1, 1)
