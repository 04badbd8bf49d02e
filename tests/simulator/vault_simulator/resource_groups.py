"""Resource groups (kind ``resource_group``) and their member resources."""
from vault_simulator.lookups import RESOURCE_GROUP, resource_group_by_name
from vault_simulator.replies import Failure
from vault_simulator.timefmt import now_iso

STATIC = "static"


def join_static_group(store, resource, group_name, owner):
    """Add ``resource`` to the static group ``group_name``, creating the group if needed."""
    group = resource_group_by_name(store, group_name)
    if group is None:
        group = {
            "id": store.next_id(RESOURCE_GROUP),
            "name": group_name,
            "description": "",
            "type": STATIC,
            "owner_id": owner["id"],
            "parent_id": "",
            "created": now_iso(),
            "resource_ids": [],
        }
    elif group["type"] != STATIC:
        raise Failure(f"Resource group {group_name} is not a static group")
    group["resource_ids"].append(resource["id"])
    store.put(RESOURCE_GROUP, group["id"], group)


def leave_all_groups(store, resource):
    for group in store.all(RESOURCE_GROUP):
        if resource["id"] in group["resource_ids"]:
            group["resource_ids"].remove(resource["id"])
            store.put(RESOURCE_GROUP, group["id"], group)
