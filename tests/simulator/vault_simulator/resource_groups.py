"""Resource groups (kind ``resource_group``) and their member resources.

A group record is ``{"id", "org_id", "name", "description", "type", "owner_id",
"parent_id", "created", "resources", "policy", "no_helpdesk_retrieval",
"criteria"}``. ``type`` is ``static`` or ``dynamic`` (as the list item's
resourceGroupType spells it). A static group's members are the resource ids
in ``resources``; a dynamic group keeps ``resources`` empty and its members
are the resources of its organization that meet its ``criteria`` at the time
they are asked for: always read members through ``members_of``.

Group names are unique within an organization. Deleting a group deletes its
subgroups too (a subgroup cannot outlive the tree it hangs from), drops the
group from accounts' ACCOUNT_RESOURCE_GROUP_IDS and tells every listener
registered with ``when_group_deleted`` (sharing drops the group's shares),
but never deletes a resource.
"""
from vault_simulator.group_criteria import meets
from vault_simulator.lookups import ACCOUNT, RESOURCE, RESOURCE_GROUP, in_organization
from vault_simulator.replies import Failure
from vault_simulator.timefmt import now_iso

STATIC, DYNAMIC = "static", "dynamic"
_DELETION_LISTENERS = []


def new_group(store, name, owner, org_id, group_type=STATIC, **settings):
    """Store a group named ``name`` owned by ``owner``; ``settings``: description,
    parent_id, policy, no_helpdesk_retrieval, criteria (dynamic groups)."""
    group = {
        "id": store.next_id(RESOURCE_GROUP),
        "org_id": org_id,
        "name": name,
        "description": settings.get("description", ""),
        "type": group_type,
        "owner_id": owner["id"],
        "parent_id": settings.get("parent_id", ""),
        "created": now_iso(),
        "resources": [],
        "policy": settings.get("policy", ""),
        "no_helpdesk_retrieval": settings.get("no_helpdesk_retrieval", False),
        "criteria": settings.get("criteria"),
    }
    store.put(RESOURCE_GROUP, group["id"], group)
    return group


def group_by_name(store, name, org):
    """The group called ``name`` in organization ``org``, or ``None``."""
    return next((g for g in store.all(RESOURCE_GROUP) if g["name"] == name and in_organization(g, org)), None)


def group_by_id(store, group_id, org):
    """The group ``group_id`` of organization ``org``; fails when there is none."""
    group = store.get(RESOURCE_GROUP, group_id)
    if group is None or not in_organization(group, org):
        raise Failure(f"Resource group with ID {group_id} does not exist")
    return group


def organization_of(record):
    """The organization (as ``in_organization`` needs it) a resource or group belongs to."""
    return {"id": record.get("org_id", "1")}


def groups_of_organization(store, org):
    return [g for g in store.all(RESOURCE_GROUP) if in_organization(g, org)]


def members_of(store, group):
    """The ids of the group's member resources (static: as associated; dynamic: by its criteria)."""
    if group["type"] == STATIC:
        return list(group["resources"])
    return [r["id"] for r in store.all(RESOURCE)
            if in_organization(r, organization_of(group)) and meets(store, r, group["criteria"])]


def groups_containing(store, resource):
    """The groups of the resource's organization that have ``resource`` as a member."""
    return [g for g in groups_of_organization(store, organization_of(resource))
            if resource["id"] in members_of(store, g)]


def join_static_group(store, resource, group_name, owner):
    """Add ``resource`` to the static group ``group_name`` of its organization, creating the group if needed
    (create-resource input RESOURCEGROUPNAME)."""
    organization = organization_of(resource)
    group = group_by_name(store, group_name, organization) or new_group(store, group_name, owner, organization["id"])
    if group["type"] != STATIC:
        raise Failure(f"Resource group {group_name} is not a static group")
    add_member(store, group, resource)


def add_member(store, group, resource):
    if resource["id"] not in group["resources"]:
        group["resources"].append(resource["id"])
        store.put(RESOURCE_GROUP, group["id"], group)


def remove_member(store, group, resource_id):
    if resource_id in group["resources"]:
        group["resources"].remove(resource_id)
        store.put(RESOURCE_GROUP, group["id"], group)


def leave_all_groups(store, resource):
    """Take a resource being deleted out of every static group."""
    for group in store.all(RESOURCE_GROUP):
        remove_member(store, group, resource["id"])


def subgroups_of(store, group):
    """The group's subgroups, at every depth."""
    children = [g for g in store.all(RESOURCE_GROUP) if g["parent_id"] == group["id"]]
    return children + [deeper for child in children for deeper in subgroups_of(store, child)]


def when_group_deleted(listener):
    """Register ``listener(store, group)``, called for each group ``delete_group`` removes."""
    _DELETION_LISTENERS.append(listener)
    return listener


def delete_group(store, group):
    """Delete ``group`` and its subgroups; return the deleted groups, ``group`` first."""
    deleted = [group] + subgroups_of(store, group)
    deleted_ids = {g["id"] for g in deleted}
    for account in store.all(ACCOUNT):
        kept = [i for i in account.get("resource_group_ids", []) if i not in deleted_ids]
        if kept != account.get("resource_group_ids", []):
            account["resource_group_ids"] = kept
            store.put(ACCOUNT, account["id"], account)
    for each in deleted:
        store.delete(RESOURCE_GROUP, each["id"])
        for listener in _DELETION_LISTENERS:
            listener(store, each)
    return deleted
