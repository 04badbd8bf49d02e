"""The admin endpoint that appends many audit records at once (``POST /__simulator/audit-records``), for tests
and the benchmark: a burst of N records in one transaction, instead of N operations through the API.

The records are the admin's, as if it had run ``operation`` N times within the current millisecond: they all have
the current time, so the trail (by time, then AUDITID, newest first) holds them above every record before them, in
the order they were added.
"""

from flask import jsonify, request

from vault_simulator.areas.audit.trail import AUDIT_TYPES, NO_ID, NOT_APPLICABLE, RESOURCE_AUDIT, add_record
from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.authentication import ADMIN_NAME
from vault_simulator.core.finders import user_by_name
from vault_simulator.core.simulator import current_simulator
from vault_simulator.core.timefmt import now_iso

MAX_RECORDS = 1_000_000
_DEFAULT_OPERATION = "GET PASSWORD"
_USAGE = (
    f'expected {{"count": 1 to {MAX_RECORDS}, "auditType": {" or ".join(AUDIT_TYPES)} (default {RESOURCE_AUDIT}), '
    f'"operation": text (default {_DEFAULT_OPERATION})}}'
)


@admin_blueprint.post("/audit-records")
def add_audit_records():
    """Append ``count`` records to the ``auditType`` trail; answers their first and last AUDITID (201)."""
    document = request.get_json(silent=True)
    if not isinstance(document, dict):
        return jsonify({"error": _USAGE}), 400
    count = document.get("count")
    audit_type = document.get("auditType", RESOURCE_AUDIT)
    operation = document.get("operation", _DEFAULT_OPERATION)
    if (
        isinstance(count, bool)
        or not isinstance(count, int)
        or not 1 <= count <= MAX_RECORDS
        or audit_type not in AUDIT_TYPES
        or not isinstance(operation, str)
        or not operation.strip()
    ):
        return jsonify({"error": _USAGE}), 400
    store = current_simulator().store
    admin = user_by_name(store, ADMIN_NAME)
    fields = {
        "type": audit_type,
        "time": now_iso(),
        "status": "Success",
        "resource": NOT_APPLICABLE,
        "account": NOT_APPLICABLE,
        "operation": operation.strip(),
        "operated_by": admin["name"],
        "ip_address": request.remote_addr or "127.0.0.1",
        "username": admin["name"],
        "reason": NOT_APPLICABLE,
        "name": admin["full_name"] or admin["name"],
        "resource_id": NO_ID,
        "account_id": NO_ID,
        "ticket": "",
    }
    with store.transaction():
        ids = [add_record(store, fields) for dummy in range(count)]
    return jsonify({"first": ids[0], "last": ids[-1]}), 201
