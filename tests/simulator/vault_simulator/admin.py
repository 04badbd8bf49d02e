"""Endpoints for tests, outside the vault's paths; they need the admin AUTHTOKEN.

- GET /__simulator/requests lists every vault request served since start or
  the last DELETE /__simulator/requests, as {method, path, operation, status}.
- GET /__simulator/faults lists the fault rules (with what remains of their
  counts); PUT replaces them with a JSON list of rules (see ``faults``);
  DELETE removes them all.
- POST /__simulator/custom-field-files {"resourceId", "accountId"?, "label", "fileName",
  "contentBase64"} puts a file into an additional field (downloadfile with ISCUSTOMFIELD).
- POST /__simulator/organizations {"displayName": ...} adds an organization.
- POST /__simulator/user-groups {"userGroupName": ..., "description": ...} adds a user
  group (the spec has no endpoint that creates one) and answers its list item.
- POST /__simulator/remote-apps {"name": ..., "resourceIds": [...]} adds a remote app
  associated with those resources (the spec has no endpoint for that) and answers {name, id}.
"""
import base64
import binascii
import hmac

from flask import Blueprint, jsonify, request

from vault_simulator.custom_field_files import attach_file
from vault_simulator.custom_fields import ACCOUNT_LEVEL, RESOURCE_LEVEL
from vault_simulator.faults import FaultRule
from vault_simulator.lookups import ACCOUNT, RESOURCE
from vault_simulator.organizations import add_organization
from vault_simulator.remote_app_records import add_remote_app, remote_app_item
from vault_simulator.simulator import current_simulator
from vault_simulator.user_groups import add_user_group, user_group_item

admin_blueprint = Blueprint("simulator_admin", __name__, url_prefix="/__simulator")


@admin_blueprint.before_request
def require_admin_token():
    given = request.headers.get("AUTHTOKEN", "")
    if not hmac.compare_digest(given.encode(), current_simulator().admin_token.encode()):
        return jsonify({"error": "the simulator administrator's AUTHTOKEN is required"}), 401
    return None


@admin_blueprint.get("/requests")
def list_requests():
    return jsonify(current_simulator().request_log.entries())


@admin_blueprint.delete("/requests")
def clear_requests():
    current_simulator().request_log.clear()
    return "", 204


@admin_blueprint.get("/faults")
def list_faults():
    return jsonify(current_simulator().faults.rules())


@admin_blueprint.put("/faults")
def replace_faults():
    document = request.get_json(silent=True)
    if not isinstance(document, list):
        return jsonify({"error": "expected a JSON list of fault rules"}), 400
    try:
        rules = [FaultRule.from_dict(item) for item in document]
    except ValueError as error:
        return jsonify({"error": str(error)}), 400
    current_simulator().faults.replace(rules)
    return jsonify(current_simulator().faults.rules())


@admin_blueprint.delete("/faults")
def clear_faults():
    current_simulator().faults.replace([])
    return "", 204


@admin_blueprint.post("/organizations")
def create_organization():
    document = request.get_json(silent=True)
    name = document.get("displayName") if isinstance(document, dict) else None
    if not isinstance(name, str) or not name.strip():
        return jsonify({"error": 'expected {"displayName": "<name>"}'}), 400
    store = current_simulator().store
    with store.transaction():
        return jsonify(add_organization(store, name)), 201


@admin_blueprint.post("/user-groups")
def create_user_group():
    document = request.get_json(silent=True)
    document = document if isinstance(document, dict) else {}
    name, description = document.get("userGroupName"), document.get("description", "")
    if not isinstance(name, str) or not name.strip() or not isinstance(description, str):
        return jsonify({"error": 'expected {"userGroupName": "<name>", "description": "<text>"}'}), 400
    store = current_simulator().store
    with store.transaction():
        return jsonify(user_group_item(add_user_group(store, name, description))), 201


@admin_blueprint.post("/remote-apps")
def create_remote_app():
    document = request.get_json(silent=True)
    document = document if isinstance(document, dict) else {}
    name, resource_ids = document.get("name"), document.get("resourceIds", [])
    if not isinstance(name, str) or not isinstance(resource_ids, list):
        return jsonify({"error": 'expected {"name": "<name>", "resourceIds": ["<id>", ...]}'}), 400
    store = current_simulator().store
    try:
        with store.transaction():
            return jsonify(remote_app_item(add_remote_app(store, name, [str(i) for i in resource_ids]))), 201
    except ValueError as error:
        return jsonify({"error": str(error)}), 400


@admin_blueprint.post("/custom-field-files")
def add_custom_field_file():
    """Put a file into an additional field: a RESOURCE field of ``resourceId``, or with
    ``accountId`` an ACCOUNT field of that account (see ``custom_field_files``)."""
    document = request.get_json(silent=True)
    if not isinstance(document, dict):
        return jsonify({"error": "expected a JSON object"}), 400
    strings = {key: str(document.get(key) or "").strip()
               for key in ("resourceId", "accountId", "label", "fileName", "contentBase64")}
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
    return jsonify({"level": level, "label": strings["label"], "fileName": strings["fileName"],
                    "size": len(content)}), 201
