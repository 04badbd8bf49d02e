# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The event source after a burst of audit records: its polls counted and timed.

The source's logic runs in this process, without ansible-rulebook: ``AuditEvents.poll`` with the collection's
client, built from the source's arguments by ``_event_source.audit_events`` as the source builds them (defaults:
both audit types, 100 records a page, an interval of 30 s), with a ``cursor_file``. Each poll's records are handed
over as the source's ``main`` does: each noted in the cursor (its journal), the cursor written after the poll. The
source starts on a trail of a few records (its first poll, ``start_at: now``, gives none of them); then the
resource trail gains ``burst`` records within a millisecond (the simulator's admin endpoint ``audit-records``) and
the source polls: the poll that hands the burst over, the polls right after it with nothing new, and a steady poll
after a few new records. What each poll gives is checked: the burst once and in order, nothing twice.

Beside them, the simulator's own time to answer one ``GET_AUDIT`` page at the top of the trail and near its end,
without injected latency.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from lookup_bench import use_collections
from simulator import REST

STEADY_RECORDS = 5
QUIET_POLLS = 3
PAGE_SAMPLES = 5
PAGE_SIZE = 100


@dataclass
class Poll:
    """One poll: what it is, the records it gave, the GET_AUDIT requests it sent, the seconds the poll took and
    the seconds handing its records over took (noting each in the cursor, writing the cursor)."""

    name: str
    given: int
    requests: int
    seconds: float
    handover_seconds: float


@dataclass
class PageTime:
    """The simulator's median seconds to answer a GET_AUDIT page starting at ``start`` of a trail of ``total``."""

    start: int
    total: int
    seconds: float


def measure(simulator, collections, work_dir, burst, latency_seconds):
    """The polls around a burst of ``burst`` records, with ``latency_seconds`` injected into each request, and the
    GET_AUDIT page times; returns ``(polls, pages, interval)``."""
    use_collections(collections)
    from ansible_collections.credvault.vault.plugins.plugin_utils import (  # pylint: disable=import-outside-toplevel
        _event_source,
    )

    info = simulator.info
    arguments = {key: info[key] for key in ("url", "ca_path", "edition", "build")}
    arguments.update(auth_token=info["token"], cursor_file=os.path.join(work_dir, "audit.cursor"))
    settings = _event_source.source_settings(arguments)
    events = _event_source.audit_events(settings)
    simulator.add_audit_records(STEADY_RECORDS)
    simulator.set_latency(latency_seconds)
    try:
        polls = [poll(simulator, events, "first poll (start_at: now)", [])]
        polls.append(poll(simulator, events, "the poll that hands the burst over", simulator.add_audit_records(burst)))
        polls += [poll(simulator, events, "nothing new, right after the burst", []) for dummy in range(QUIET_POLLS)]
        steady = simulator.add_audit_records(STEADY_RECORDS)
        polls.append(poll(simulator, events, "steady: %d new records" % STEADY_RECORDS, steady))
    finally:
        simulator.set_latency(0)
    total = 2 * STEADY_RECORDS + burst
    pages = [page_time(simulator, start, total) for start in (0, max(0, total - PAGE_SIZE))]
    return polls, pages, settings["interval"]


def poll(simulator, events, name, expected):
    """One poll and its handing over, as the source's ``main`` does them; the records given must be ``expected``
    (their AUDITIDs, oldest first)."""
    simulator.clear_requests()
    start = time.perf_counter()
    found = events.poll()
    seconds = time.perf_counter() - start
    requests = simulator.operations().count("GET_AUDIT")
    start = time.perf_counter()
    given = []
    for event, audit_type, audit_id, moment in found:
        if event is not None:
            given.append(audit_id)
        events.note(audit_type, audit_id, moment)
    events.cursor.save()
    handover_seconds = time.perf_counter() - start
    if given != expected:
        raise AssertionError("%s gave %d records, not the %d expected in order" % (name, len(given), len(expected)))
    return Poll(name, len(given), requests, seconds, handover_seconds)


def page_time(simulator, start, total):
    """The median seconds of ``PAGE_SAMPLES`` GET_AUDIT pages at ``start``, over the benchmark's plain session."""
    query = {"AUDITTYPE": "Resource", "STARTINDEX": start, "LIMIT": PAGE_SIZE, "DURATION": "LAST_7_DAYS"}
    times = []
    for dummy in range(PAGE_SAMPLES):
        begin = time.perf_counter()
        answer = simulator.session.get(
            simulator.info["url"] + REST + "/audit", params=query, timeout=60, verify=simulator.info["ca_path"]
        )
        times.append(time.perf_counter() - begin)
        counted = answer.json()["operation"]["totalRows"]
        if counted != total:
            raise AssertionError("GET_AUDIT counted %s records, not %d" % (counted, total))
    return PageTime(start, total, sorted(times)[len(times) // 2])
