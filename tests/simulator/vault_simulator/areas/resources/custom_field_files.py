"""Files held by additional (custom) fields, for downloadfile with ISCUSTOMFIELD ``true``.

The spec shows no way to put a file into an additional field, so the
simulator offers one outside the vault's paths, for tests: the admin endpoint
``POST /__simulator/custom-field-files`` {"resourceId", "accountId"?, "label",
"fileName", "contentBase64"} puts a file into a RESOURCE field of the resource,
or with ``accountId`` into an ACCOUNT field of that account. The field is
stored like any additional field (its CUSTOMFIELDVALUE is the file name, a
later CUSTOMVALUE edit keeps the file) with the file beside its value.
"""

import base64
import binascii

from flask import jsonify, request

from vault_simulator.areas.resources.custom_fields import ACCOUNT_LEVEL, RESOURCE_LEVEL, merge_custom_fields
from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.records import ACCOUNT, RESOURCE
from vault_simulator.core.simulator import current_simulator


def field_file(record, label):
    """``(file name, content bytes)`` of ``record``'s additional field ``label``:
    ``None`` when there is no such field, ``(None, None)`` when it holds no file."""
    field = next((f for f in record["custom_fields"] if f["label"] == label), None)
    if field is None:
        return None
    held = field.get("file")
    return (held["name"], base64.b64decode(held["content_base64"])) if held else (None, None)


def attach_file(store, level, record, label, upload):
    """Make ``record``'s additional field ``label`` hold the file ``upload``, a
    ``(file name, content bytes)`` pair (``record`` not stored yet)."""
    file_name, content = upload
    record["custom_fields"] = merge_custom_fields(store, level, record["custom_fields"], [(label, file_name)])
    field = next(f for f in record["custom_fields"] if f["label"] == label)
    field["file"] = {"name": file_name, "content_base64": base64.b64encode(content).decode("ascii")}


@admin_blueprint.post("/custom-field-files")
def add_custom_field_file():
    """Put a file into an additional field of a resource or, with ``accountId``, of an account."""
    document = request.get_json(silent=True)
    if not isinstance(document, dict):
        return jsonify({"error": "expected a JSON object"}), 400
    strings = {
        key: str(document.get(key) or "").strip()
        for key in ("resourceId", "accountId", "label", "fileName", "contentBase64")
    }
    missing = [key for key in ("resourceId", "label", "fileName", "contentBase64") if not strings[key]]
    if missing:
        return jsonify({"error": f"missing {', '.join(missing)}"}), 400
    try:
        content = base64.b64decode(strings["contentBase64"], validate=True)
    except binascii.Error:
        return jsonify({"error": "contentBase64 is not base64"}), 400
    store = current_simulator().store
    with store.transaction():
        resource = store.get(RESOURCE, strings["resourceId"])
        if resource is None:
            return jsonify({"error": f"resource {strings['resourceId']} does not exist"}), 404
        kind, level, record = RESOURCE, RESOURCE_LEVEL, resource
        if strings["accountId"]:
            kind, level, record = ACCOUNT, ACCOUNT_LEVEL, store.get(ACCOUNT, strings["accountId"])
            if record is None or record["resource_id"] != resource["id"]:
                message = f"account {strings['accountId']} does not exist in resource {resource['name']}"
                return jsonify({"error": message}), 404
        attach_file(store, level, record, strings["label"], (strings["fileName"], content))
        store.put(kind, record["id"], record)
    return jsonify(
        {"level": level, "label": strings["label"], "fileName": strings["fileName"], "size": len(content)}
    ), 201
