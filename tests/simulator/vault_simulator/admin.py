"""Endpoints for tests, outside the vault's paths; they need the admin AUTHTOKEN.

- GET /__simulator/requests lists every vault request served since start or
  the last DELETE /__simulator/requests, as {method, path, operation, status}.
- GET /__simulator/faults lists the fault rules (with what remains of their
  counts); PUT replaces them with a JSON list of rules (see ``faults``);
  DELETE removes them all.
- POST /__simulator/organizations {"displayName": ...} adds an organization.
- POST /__simulator/user-groups {"userGroupName": ..., "description": ...} adds a user
  group (the spec has no endpoint that creates one) and answers its list item.
- POST /__simulator/remote-apps {"name": ..., "resourceIds": [...]} adds a remote app
  associated with those resources (the spec has no endpoint for that) and answers {name, id}.
"""
import hmac

from flask import Blueprint, jsonify, request

from vault_simulator.faults import FaultRule
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
