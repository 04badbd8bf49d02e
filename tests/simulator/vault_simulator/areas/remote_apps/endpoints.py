"""The remote apps associated with a resource (edition B), and the admin endpoint that adds a
remote app; see ``records``."""

from flask import jsonify, request

from vault_simulator.areas.remote_apps.records import add_remote_app, remote_app_item, remote_apps_of
from vault_simulator.core.access import VIEW, require_access
from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.finders import resource_by_id
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import success
from vault_simulator.core.simulator import current_simulator


@endpoint(
    "GET",
    "/resources/<resource_id>/associated-remote-apps",
    op="GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE",
    builds={"B": 6320},
)
def associated_remote_apps(ctx, resource_id):
    """Details is the list of {name, id}; whoever can view the resource may list them."""
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, VIEW, f"view resource {resource['name']}")
    items = [remote_app_item(app) for app in remote_apps_of(ctx.store, resource)]
    return success("Remote apps fetched successfully", items, totalRows=len(items))


@admin_blueprint.post("/remote-apps")
def create_remote_app():
    """{"name": ..., "resourceIds": [...]} adds a remote app associated with those resources and
    answers {name, id}."""
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
