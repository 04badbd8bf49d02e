"""Endpoints for tests, outside the vault's paths (``/__simulator``); they need the admin AUTHTOKEN.

- GET /__simulator/requests lists every vault request served since start or
  the last DELETE /__simulator/requests, as {method, path, operation, status}.
- GET /__simulator/stats counts what the HTTPS server carried since start:
  {"connections": accepted, "requests": received}.
- GET /__simulator/faults lists the fault rules (with what remains of their
  counts); PUT replaces them with a JSON list of rules (see ``faults``);
  DELETE removes them all.

Areas add their own to ``admin_blueprint`` (``@admin_blueprint.post("/organizations")``),
for what the spec has no endpoint for: organizations, user groups, remote apps,
custom field types, custom field files and bursts of audit records (see tests/simulator/README.md); so does
``core.authentication``, for the addresses a user's tokens are restricted to
(``/__simulator/users/<name>/allowed-hosts``).
"""

import hmac

from flask import Blueprint, jsonify, request

from vault_simulator.core.faults import FaultRule
from vault_simulator.core.simulator import current_simulator

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


@admin_blueprint.get("/stats")
def traffic_stats():
    return jsonify(current_simulator().traffic.counts())


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
