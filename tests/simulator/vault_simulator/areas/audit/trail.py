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
"""

from vault_simulator.core.records import ACCOUNT, AUDIT, RESOURCE
from vault_simulator.core.registry import after_each_operation
from vault_simulator.core.timefmt import millis_time, now_iso

USER_AUDIT, RESOURCE_AUDIT = "User", "Resource"
AUDIT_TYPES = (RESOURCE_AUDIT, USER_AUDIT)
NOT_APPLICABLE = "N/A"
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
    record = {
        "id": ctx.store.next_id(AUDIT),
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
    }
    ctx.store.put(AUDIT, record["id"], record)


def audit_output(record):
    """An audit record as the spec's table spells it."""
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
    }


def _name_of(store, kind, object_id):
    if object_id is None:
        return None
    found = store.get(kind, object_id)
    return found["name"] if found else None


def _detail(ctx, key):
    value = ctx.details.get(key, ctx.query.get(key))
    return str(value).strip() if isinstance(value, (str, int)) and str(value).strip() else None
