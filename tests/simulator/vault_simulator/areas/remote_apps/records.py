"""Remote apps (kind ``remote_app``, edition B) and the resources they are associated with.

No endpoint of the spec creates a remote app or associates one with a
resource: the admin endpoint ``POST /__simulator/remote-apps`` does both.
GET /resources/{resource_id}/associated-remote-apps lists them, and a
``remoteapponly`` account share names them. A removed resource leaves every
remote app.
"""

from vault_simulator.core.records import REMOTE_APP, RESOURCE
from vault_simulator.core.removals import when_removed


def add_remote_app(store, name, resource_ids):
    """Store a remote app called ``name`` associated with ``resource_ids``; return it.

    ``ValueError`` for an empty name or a resource that does not exist.
    """
    name = name.strip()
    if not name:
        raise ValueError("a remote app needs a name")
    missing = [rid for rid in resource_ids if store.get(RESOURCE, rid) is None]
    if missing:
        raise ValueError(f"no resource with ID {', '.join(missing)}")
    app = {"id": store.next_id(REMOTE_APP), "name": name, "resource_ids": list(resource_ids)}
    store.put(REMOTE_APP, app["id"], app)
    return app


def remote_apps_of(store, resource):
    """The remote apps associated with ``resource``, oldest first."""
    return [app for app in store.all(REMOTE_APP) if resource["id"] in app["resource_ids"]]


@when_removed(RESOURCE)
def leave_remote_apps(store, resource):
    for app in remote_apps_of(store, resource):
        app["resource_ids"].remove(resource["id"])
        store.put(REMOTE_APP, app["id"], app)


def remote_app_item(app):
    """A remote app as the spec's record: name and id, both strings."""
    return {"name": app["name"], "id": app["id"]}
