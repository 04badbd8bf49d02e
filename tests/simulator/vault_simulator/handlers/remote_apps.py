"""The remote apps associated with a resource (edition B); see ``remote_app_records``."""
from vault_simulator.access import VIEW, require_access
from vault_simulator.lookups import resource_by_id
from vault_simulator.registry import endpoint
from vault_simulator.remote_app_records import remote_app_item, remote_apps_of
from vault_simulator.replies import success


@endpoint("GET", "/resources/<resource_id>/associated-remote-apps", op="GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE",
          builds={"B": 6320})
def associated_remote_apps(ctx, resource_id):
    """Details is the list of {name, id}; whoever can view the resource may list them."""
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, VIEW, f"view resource {resource['name']}")
    items = [remote_app_item(app) for app in remote_apps_of(ctx.store, resource)]
    return success("Remote apps fetched successfully", items, totalRows=len(items))
