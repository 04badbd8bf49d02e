"""Audit records: one per vault operation (an observer of every operation the core runs),
read back through GET /audit; reading the trail is not itself audited, so that it can be
read back unchanged.

A record has the spec's fields (AUDITID, RESOURCENAME, ACCOUNTNAME,
OPERATIONTYPE, OPERATEDBY, IPADDRESS, USERNAME, REASON, NAME, CLIENT,
LASTACCESSEDTIME); what does not apply reads ``N/A``. Operations on users,
user groups and organizations are of AUDITTYPE ``User``, all others
``Resource``. A handler adds what only it knows through ``ctx.audit``:
``resource``, ``account``, ``username`` (the user acted on), ``operation``
(a wording for OPERATIONTYPE instead of the operation name). A failed
operation is recorded too; its OPERATIONTYPE ends with `` (Failed)``.

The record output is the *wide* view of ``core.dialect``: the spec's keys plus the keys only
real servers write (``Resource ID``, ``User Account ID``: ``0`` where none applies, as they
write it; ``Ticket ID``: the TICKETID given, ``""`` without one; ``TIME``: epoch milliseconds).
"""

from datetime import datetime

from vault_simulator.core.finders import account_by_name, resource_by_name
from vault_simulator.core.records import ACCOUNT, AUDIT, RESOURCE
from vault_simulator.core.registry import after_each_operation
from vault_simulator.core.timefmt import millis_time, now_iso

USER_AUDIT, RESOURCE_AUDIT = "User", "Resource"
AUDIT_TYPES = (RESOURCE_AUDIT, USER_AUDIT)
NOT_APPLICABLE = "N/A"
NO_ID = "0"
CLIENT = "REST API"
_USER_PATHS = ("/user", "/userGroup", "/organizations")
_UNAUDITED_OPERATIONS = ("GET_AUDIT",)


def audit_type_of(path):
    """``User`` for the users, user groups and organizations paths, else ``Resource``."""
    return USER_AUDIT if path.startswith(_USER_PATHS) else RESOURCE_AUDIT


@after_each_operation
def write_audit(ctx, op, path, arguments, status):
    """Append the audit record of operation ``op`` on ``path`` (status Success/Failed)."""
    if op in _UNAUDITED_OPERATIONS:
        return
    notes = ctx.audit
    resource_name = (
        notes.get("resource")
        or _name_of(ctx.store, RESOURCE, arguments.get("resource_id"))
        or _detail(ctx, "RESOURCENAME")
    )
    account_name = (
        notes.get("account") or _name_of(ctx.store, ACCOUNT, arguments.get("account_id")) or _detail(ctx, "ACCOUNTNAME")
    )
    resource_id, account_id = _ids(ctx, arguments, resource_name, account_name)
    add_record(
        ctx.store,
        {
            "type": audit_type_of(path),
            "time": now_iso(),
            "status": status,
            "resource": resource_name or NOT_APPLICABLE,
            "account": account_name or NOT_APPLICABLE,
            "operation": notes.get("operation") or op,
            "operated_by": ctx.user["name"],
            "ip_address": ctx.remote_addr,
            "username": notes.get("username") or _detail(ctx, "USERNAME") or ctx.user["name"],
            "reason": _detail(ctx, "REASON") or NOT_APPLICABLE,
            "name": ctx.user.get("full_name") or ctx.user["name"],
            "resource_id": resource_id,
            "account_id": account_id,
            "ticket": _detail(ctx, "TICKETID") or "",
        },
    )


def add_record(store, fields):
    """Store an audit record of ``fields`` (every key but ``id``) under the trail's next AUDITID; return that."""
    record_id = store.next_id(AUDIT)
    store.put(AUDIT, record_id, {"id": record_id, **fields})
    return record_id


def audit_output(record):
    """An audit record as the spec's table spells it (wide: with the real servers' keys)."""
    return {
        "AUDITID": record["id"],
        "RESOURCENAME": record["resource"],
        "ACCOUNTNAME": record["account"],
        "OPERATIONTYPE": record["operation"]
        if record["status"].lower() == "success"
        else f"{record['operation']} (Failed)",
        "OPERATEDBY": record["operated_by"],
        "IPADDRESS": record["ip_address"],
        "USERNAME": record["username"],
        "REASON": record["reason"],
        "NAME": record["name"],
        "CLIENT": CLIENT,
        "LASTACCESSEDTIME": millis_time(record["time"]),
        "Resource ID": record.get("resource_id", NO_ID),
        "User Account ID": record.get("account_id", NO_ID),
        "Ticket ID": record.get("ticket", ""),
        "TIME": str(round(datetime.fromisoformat(record["time"]).timestamp() * 1000)),
    }


def _ids(ctx, arguments, resource_name, account_name):
    """The ids of the resource and the account the operation was on: those of the path when they named
    one (a deleted one is named in the notes), else those of the names it gave; ``0`` for none."""
    notes = ctx.audit
    resource_id, account_id = arguments.get("resource_id"), arguments.get("account_id")
    if not (resource_id and (notes.get("resource") or _name_of(ctx.store, RESOURCE, resource_id))):
        resource = resource_by_name(ctx.store, resource_name, ctx.org) if resource_name else None
        resource_id = resource["id"] if resource else NO_ID
    if not (account_id and (notes.get("account") or _name_of(ctx.store, ACCOUNT, account_id))):
        resource = ctx.store.get(RESOURCE, resource_id) if resource_id != NO_ID else None
        account = account_by_name(ctx.store, resource, account_name) if resource and account_name else None
        account_id = account["id"] if account else NO_ID
    return resource_id, account_id


def _name_of(store, kind, object_id):
    if object_id is None:
        return None
    found = store.get(kind, object_id)
    return found["name"] if found else None


def _detail(ctx, key):
    value = ctx.details.get(key, ctx.query.get(key))
    return str(value).strip() if isinstance(value, (str, int)) and str(value).strip() else None
