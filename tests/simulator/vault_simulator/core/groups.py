"""Group membership, which access follows: the resources of a resource group and the
user groups of a user. Resource group records are made here too, because creating a
resource may create its group (CREATE RESOURCE's RESOURCEGROUPNAME).

A resource group record (kind ``resource_group``) is ``{"id", "org_id", "name",
"description", "type", "owner_id", "parent_id", "created", "resources", "policy",
"no_helpdesk_retrieval", "criteria"}``. ``type`` is ``static`` or ``dynamic`` (as the
list item's resourceGroupType spells it). A static group's members are the resource
ids in ``resources``; a dynamic group keeps ``resources`` empty and its members are the
resources of its organization that meet its ``criteria`` (``group_criteria``) at the
time they are asked for: always read members through ``members_of``. Group names are
unique within an organization.

A user group record (kind ``user_group``, written by the user groups area) lists its
members' ids in ``member_ids``.
"""

from vault_simulator.core.finders import group_by_name
from vault_simulator.core.group_criteria import meets
from vault_simulator.core.records import RESOURCE, RESOURCE_GROUP, USER_GROUP
from vault_simulator.core.replies import Failure
from vault_simulator.core.tenancy import in_organization, organization_of
from vault_simulator.core.timefmt import now_iso

STATIC, DYNAMIC = "static", "dynamic"


def new_group(store, name, owner, org_id, group_type=STATIC, **settings):
    """Store a resource group named ``name`` owned by ``owner``; ``settings``: description,
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


def members_of(store, group):
    """The ids of the group's member resources (static: as associated; dynamic: by its criteria)."""
    if group["type"] == STATIC:
        return list(group["resources"])
    return [
        r["id"]
        for r in store.all(RESOURCE)
        if in_organization(r, organization_of(group)) and meets(store, r, group["criteria"])
    ]


def add_member(store, group, resource):
    if resource["id"] not in group["resources"]:
        group["resources"].append(resource["id"])
        store.put(RESOURCE_GROUP, group["id"], group)


def join_static_group(store, resource, group_name, owner):
    """Add ``resource`` to the static group ``group_name`` of its organization, creating the group if needed
    (create-resource input RESOURCEGROUPNAME)."""
    organization = organization_of(resource)
    group = group_by_name(store, group_name, organization) or new_group(store, group_name, owner, organization["id"])
    if group["type"] != STATIC:
        raise Failure(f"Resource group {group_name} is not a static group")
    add_member(store, group, resource)


def user_group_ids_of(store, user):
    """The ids of the user groups ``user`` is a member of."""
    return [g["id"] for g in store.all(USER_GROUP) if user["id"] in g["member_ids"]]
