"""Endpoints for tests, outside the vault's paths; they need the admin AUTHTOKEN.

GET /__simulator/requests lists every vault request served since start or the
last DELETE /__simulator/requests, as {method, path, operation, status}.
"""
import hmac

from flask import Blueprint, jsonify, request

from vault_simulator.simulator import current_simulator

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
