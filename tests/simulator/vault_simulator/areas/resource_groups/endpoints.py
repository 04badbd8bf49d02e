"""Resource groups: create, list, associate and disassociate resources, delete,
the name-to-id lookup and the groups a resource belongs to.

Who may do what (the spec does not say): any user may create a group (and
owns it); the owner, an Administrator and a Privileged Administrator manage
a group (associate, disassociate, delete, add a subgroup) at ``fullaccess``.
A user the group is shared with (directly or through a user group) sees it
in the list at the shared level but does not manage it. Associating a
resource also needs ``view`` access to that resource.
"""

from vault_simulator.areas.resource_groups.records import (
    delete_group,
    groups_containing,
    groups_of_organization,
    remove_member,
)
from vault_simulator.core.access import FULL_ACCESS, FULL_REACH_ROLES, MODIFY, VIEW, can_access, require_access
from vault_simulator.core.finders import group_by_id, group_by_name, require_policy, resource_by_id
from vault_simulator.core.group_criteria import read_criteria
from vault_simulator.core.groups import DYNAMIC, STATIC, add_member, new_group
from vault_simulator.core.inputs import flag, required_text, text
from vault_simulator.core.records import RESOURCE, RESOURCE_GROUP, USER
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import FAILED, SUCCESS, Failure, success
from vault_simulator.core.shares import shares_of
from vault_simulator.core.tenancy import in_organization
from vault_simulator.core.timefmt import millis_time

MEMBERSHIP_BUILDS = {"A": 12000, "B": 5400}
LIST_BUILDS = {"A": 12230, "B": 6000}
# The spec: "The request sample also shows the alternative names critgroup, critdesc and
# RuleCriteria for the group name, description and policy."
_ALTERNATIVE_NAMES = {"GROUPNAME": "critgroup", "DESCRIPTION": "critdesc", "POLICY": "RuleCriteria"}
_LEVELS = (VIEW, MODIFY, FULL_ACCESS)


@endpoint("POST", "/resourcegroup", op="CREATE RESOURCE GROUP", builds=ANY_BUILD)
def create_group(ctx):
    """Group input: GROUPNAME, DESCRIPTION, PARENTGROUPID (number), GROUPTYPE (STATIC, the
    default, or DYNAMIC), POLICY (password policy name), NoHelpDeskRetrieval; a dynamic
    group adds andor, NoOfCriteria and condition_N, operator_N, valuefield_N (see
    ``core.group_criteria``). critgroup, critdesc and RuleCriteria are accepted for GROUPNAME,
    DESCRIPTION and POLICY. The answer is the result only."""
    name = _field(ctx.details, "GROUPNAME").strip()
    if not name:
        raise Failure("GROUPNAME is required")
    if group_by_name(ctx.store, name, ctx.org) is not None:
        raise Failure(f"Resource group {name} already exists")
    group_type = text(ctx.details, "GROUPTYPE", STATIC).strip().lower() or STATIC
    if group_type not in (STATIC, DYNAMIC):
        raise Failure("GROUPTYPE must be STATIC or DYNAMIC")
    policy = _field(ctx.details, "POLICY").strip()
    new_group(
        ctx.store,
        name,
        ctx.user,
        ctx.org["id"],
        group_type,
        description=_field(ctx.details, "DESCRIPTION"),
        parent_id=_parent_id(ctx),
        policy=require_policy(policy) if policy else "",
        no_helpdesk_retrieval=flag(ctx.details, "NoHelpDeskRetrieval"),
        criteria=read_criteria(ctx.details) if group_type == DYNAMIC else None,
    )
    return success(f"Resource group {name} created successfully")


@endpoint("GET", "/resourcegroup", op="GET_RESOURCE_GROUPS", builds=LIST_BUILDS)
def list_groups(ctx):
    """The groups of the selected organization the caller manages or has been given, oldest first,
    as the spec's "Resource group (list item)": ``ownership`` (``owned`` by the caller, else
    ``managed``) in edition A only, ``accessType`` (the caller's level: ``fullaccess`` for a group
    the caller manages, else the shared level) and ``isOwner`` in edition B only."""
    shared = _shared_levels(ctx)
    items = []
    for group in groups_of_organization(ctx.store, ctx.org):
        level = FULL_ACCESS if _manages(ctx.user, group) else shared.get(group["id"])
        if level:
            items.append(_list_item(ctx, group, level))
    return success("Resource groups fetched successfully", items, totalRows=len(items))


@endpoint("POST", "/resourcegroup/<group_id>/associateResources", op="ASSOCIATE RESOURCES", builds=MEMBERSHIP_BUILDS)
def associate_resources(ctx, group_id):
    """Details.RESOURCEIDS: each resource joins the static group on its own; Details is keyed by
    resource id, each ``{"status": "Success" | "Failed"}``, and the message names the failures. The
    result is Success whenever the group exists and the caller manages it ("In multi-target calls
    the failure is per item"): an unknown resource, or any resource of a dynamic group, fails alone."""
    return _change_members(ctx, group_id, "associated with", add_member)


@endpoint(
    "POST", "/resourcegroup/<group_id>/disassociateResources", op="DISASSOCIATE RESOURCES", builds=MEMBERSHIP_BUILDS
)
def disassociate_resources(ctx, group_id):
    """Details.RESOURCEIDS: each resource leaves the static group on its own; a resource that is
    not a member succeeds (it is not in the group afterwards)."""
    return _change_members(
        ctx, group_id, "disassociated from", lambda store, group, resource: remove_member(store, group, resource["id"])
    )


@endpoint("DELETE", "/resourcegroup", op="DELETE RESOURCE GROUP", builds=MEMBERSHIP_BUILDS)
def delete_resource_group(ctx):
    """RESOURCEGROUPID comes from the query. The group's subgroups go with it; its member
    resources stay."""
    group = group_by_id(ctx.store, _number(ctx.query, "RESOURCEGROUPID"), ctx.org)
    _require_manager(ctx.user, group, "delete")
    deleted = delete_group(ctx.store, group)
    subgroups = ", ".join(g["name"] for g in deleted[1:])
    also = f" together with its subgroups {subgroups}" if subgroups else ""
    return success(f"Resource group {group['name']} deleted successfully{also}")


@endpoint("GET", "/resourcegroup/getResourceGroupId", op="GET RESOURCE GROUP ID", builds=MEMBERSHIP_BUILDS)
def group_id_of_name(ctx):
    """RESOURCEGROUPNAME and USERID (the owner of the group; the caller when absent) come from
    the query. Details.RESOURCEGROUPID is a string like every id of the resource API."""
    name = required_text(ctx.query, "RESOURCEGROUPNAME")
    owner_id = _number(ctx.query, "USERID") if text(ctx.query, "USERID").strip() else ctx.user["id"]
    if ctx.store.get(USER, owner_id) is None:
        raise Failure(f"User with ID {owner_id} does not exist")
    group = group_by_name(ctx.store, name, ctx.org)
    if group is None or group["owner_id"] != owner_id:
        raise Failure(f"Resource group {name} of the user with ID {owner_id} does not exist")
    return success("Resource group ID fetched successfully", {"RESOURCEGROUPID": group["id"]})


@endpoint("GET", "/resources/<resource_id>/associatedGroups", op="GET ASSOCIATED GROUPS", builds=MEMBERSHIP_BUILDS)
def associated_groups(ctx, resource_id):
    """Details[`ASSOCIATED GROUPS`]: every group the resource is in, static by association or
    dynamic by criteria, as {GROUP ID (number), GROUP NAME}."""
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, VIEW, f"view resource {resource['name']}")
    groups = [{"GROUP ID": int(g["id"]), "GROUP NAME": g["name"]} for g in groups_containing(ctx.store, resource)]
    return success("Associated groups fetched successfully", {"ASSOCIATED GROUPS": groups})


def _change_members(ctx, group_id, verb, change):
    group = group_by_id(ctx.store, group_id, ctx.org)
    _require_manager(ctx.user, group, "change the resources of")
    outcomes, failures = {}, []
    for resource_id in _resource_ids(ctx.details):
        reason = _membership_problem(ctx, group, resource_id)
        if reason is None:
            change(ctx.store, group, ctx.store.get(RESOURCE, resource_id))
        else:
            failures.append(reason)
        outcomes[resource_id] = {"status": FAILED if reason else SUCCESS}
    done = len(outcomes) - len(failures)
    message = f"{done} of {len(outcomes)} resources {verb} resource group {group['name']}"
    return success(message + (": " + "; ".join(failures) if failures else ""), outcomes)


def _membership_problem(ctx, group, resource_id):
    """Why ``resource_id`` cannot join or leave ``group``, or ``None``."""
    resource = ctx.store.get(RESOURCE, resource_id)
    if resource is None or not in_organization(resource, ctx.org):
        return f"resource with ID {resource_id} does not exist"
    if not can_access(ctx.store, ctx.user, resource, VIEW):
        return f"you are not authorized to group resource {resource['name']}"
    if group["type"] == DYNAMIC:
        return f"resource group {group['name']} is dynamic: its resources follow its criteria"
    return None


def _resource_ids(details):
    """Details.RESOURCEIDS: a non-empty list of numbers (digit strings are tolerated)."""
    ids = details.get("RESOURCEIDS")
    if not isinstance(ids, list) or not ids:
        raise Failure("RESOURCEIDS is required: a list of resource ids")
    if not all(_is_id(item) for item in ids):
        raise Failure("RESOURCEIDS must be a list of numbers")
    return list(dict.fromkeys(str(item).strip() for item in ids))


def _list_item(ctx, group, level):
    item = {
        "resourceGroupId": group["id"],
        "resourceGroupName": group["name"],
        "resourceGroupDescription": group["description"],
        "resourceGroupType": group["type"],
        "ownerId": group["owner_id"],
        "timeCreated": millis_time(group["created"]),
        "subGroupOf": group["parent_id"],
    }
    owned = group["owner_id"] == ctx.user["id"]
    if ctx.config.edition == "A":
        item["ownership"] = "owned" if owned else "managed"
    else:
        item["accessType"] = level
        item["isOwner"] = "true" if owned else "false"
    return item


def _shared_levels(ctx):
    """``{group id: the strongest level it is shared with the caller at}``."""
    levels = {}
    for share in shares_of(ctx.store, ctx.user, RESOURCE_GROUP):
        levels[share["target_id"]] = max(share["level"], levels.get(share["target_id"], VIEW), key=_LEVELS.index)
    return levels


def _parent_id(ctx):
    """PARENTGROUPID: an existing group of the organization the caller manages; none for a top-level group."""
    if ctx.details.get("PARENTGROUPID") in (None, ""):
        return ""
    parent = group_by_id(ctx.store, _number(ctx.details, "PARENTGROUPID"), ctx.org)
    _require_manager(ctx.user, parent, "add a subgroup to")
    return parent["id"]


def _manages(user, group):
    return user["role"] in FULL_REACH_ROLES or group["owner_id"] == user["id"]


def _require_manager(user, group, action):
    if not _manages(user, group):
        raise Failure(f"You are not authorized to {action} resource group {group['name']}")


def _field(details, key):
    """A group input field, or its alternative name from the request sample."""
    return text(details, key) if key in details else text(details, _ALTERNATIVE_NAMES[key])


def _is_id(value):
    return not isinstance(value, bool) and (isinstance(value, int) or str(value).strip().isdigit())


def _number(source, key):
    """An id given as a number (or digit string) in ``source``."""
    value = source.get(key)
    if value is None or not _is_id(value):
        raise Failure(f"{key} must be a resource group id (a number)" if "GROUP" in key else f"{key} must be a number")
    return str(value).strip()
