"""Reading the audit trail (GET /audit).

The spec gives the query AUDITTYPE (``Resource`` or ``User``), STARTINDEX,
LIMIT and DURATION (``TODAY``, ``YESTERDAY`` or ``LAST_7_DAYS``) and nothing
about their defaults; the simulator's choices:

- AUDITTYPE is required (it selects the trail, see ``trail.audit_type_of``);
- STARTINDEX is the 0-based position of the first record returned, default 0;
- LIMIT is the largest number of records returned, default 100 (the spec's
  default list size elsewhere);
- DURATION is by calendar day of the vault's clock: ``TODAY``, ``YESTERDAY``,
  or ``LAST_7_DAYS`` (today and the six days before); without it every record
  of the type is returned.

Records come newest first; totalRows counts the records that match before
paging. The trail is vault-wide (not per organization). A Password User may
not read it; the other roles may. The store selects, counts and pages the
records (``Store.newest_first``): a page decodes only its own records, however
long the trail.
"""

from datetime import date, timedelta

from vault_simulator.areas.audit.trail import AUDIT_TYPES, audit_output
from vault_simulator.core.inputs import text
from vault_simulator.core.records import AUDIT
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, success

DEFAULT_LIMIT = 100
DURATIONS = ("TODAY", "YESTERDAY", "LAST_7_DAYS")
# First and last day of each DURATION, counted back from today.
_DAYS_BACK = {"TODAY": (0, 0), "YESTERDAY": (1, 1), "LAST_7_DAYS": (6, 0)}
_NOT_AUDITORS = ("Password User",)


@endpoint("GET", "/audit", op="GET_AUDIT", builds=ANY_BUILD)
def read_audit(ctx):
    if ctx.user["role"] in _NOT_AUDITORS:
        raise Failure("You are not authorized to view the audit trail")
    audit_type = text(ctx.query, "AUDITTYPE").strip()
    if audit_type not in AUDIT_TYPES:
        raise Failure(f"AUDITTYPE must be {' or '.join(AUDIT_TYPES)}")
    start = _whole_number(ctx.query, "STARTINDEX", 0, minimum=0)
    limit = _whole_number(ctx.query, "LIMIT", DEFAULT_LIMIT, minimum=1)
    since, until = _duration_bounds(text(ctx.query, "DURATION").strip())
    records, total = ctx.store.newest_first(AUDIT, start, limit, since, until, type=audit_type)
    return success("Audit records fetched successfully", [audit_output(r) for r in records], totalRows=total)


def _whole_number(query, key, default, minimum):
    value = text(query, key).strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or int(value) < minimum:
        raise Failure(f"{key} must be a whole number of at least {minimum}")
    return int(value)


def _duration_bounds(duration):
    """The ISO times of DURATION as ``(since, until)``: its first day's date, and the date of the day after its last
    (an ISO time of a day sorts at or after its date and before the next day's); ``(None, None)`` without one."""
    if not duration:
        return None, None
    if duration not in DURATIONS:
        raise Failure(f"DURATION must be one of {', '.join(DURATIONS)}")
    first_back, last_back = _DAYS_BACK[duration]
    today = date.today()
    return (today - timedelta(days=first_back)).isoformat(), (today - timedelta(days=last_back - 1)).isoformat()
