"""The organizations of the vault (edition B), and the admin endpoint that adds one; the header
``orgName`` selects one of them (``core.tenancy``)."""

from flask import jsonify, request

from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.records import ORGANIZATION
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import success
from vault_simulator.core.simulator import current_simulator
from vault_simulator.core.tenancy import add_organization


@endpoint("GET", "/organizations", op="GET_ORGANIZATIONS", builds={"B": 6320})
def list_organizations(ctx):
    """Every organization as {name, id, displayName} (strings), whatever the caller's role:
    a caller needs the display names to send ``orgName``."""
    items = [{"name": o["name"], "id": o["id"], "displayName": o["displayName"]} for o in ctx.store.all(ORGANIZATION)]
    return success("Organizations fetched successfully", items, totalRows=len(items))


@admin_blueprint.post("/organizations")
def create_organization():
    """{"displayName": ...} adds an organization (the spec has no endpoint for it) and answers it."""
    document = request.get_json(silent=True)
    name = document.get("displayName") if isinstance(document, dict) else None
    if not isinstance(name, str) or not name.strip():
        return jsonify({"error": 'expected {"displayName": "<name>"}'}), 400
    store = current_simulator().store
    with store.transaction():
        return jsonify(add_organization(store, name)), 201
