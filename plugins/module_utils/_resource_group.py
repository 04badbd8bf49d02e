# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Resource groups: find by name, read members, converge.

What the API offers, and what that means here:

- There is no edit call for a group. Its type, description and parent are
  reported by ``GET_RESOURCE_GROUPS`` (A 12230 / B 6000) and so can be
  compared; when they differ the group is only changed by deleting and
  creating it again (``recreate``). Policy, ``NoHelpDeskRetrieval`` and the
  criteria of a dynamic group are never reported: they are sent on creation
  only.
- Vaults without the group list find a group by name with
  ``GET RESOURCE GROUP ID`` (A 12000 / B 5400), which answers only its id, so
  nothing else of an existing group can be compared there.
- There is no call that lists a group's members. A resource's groups are read
  with ``GET ASSOCIATED GROUPS``, one request per resource: for the listed
  resources, or for every resource the token sees when members outside the
  list matter (``purge_resources``, or carrying the members over a
  re-creation).
- ``ASSOCIATE RESOURCES`` and ``DISASSOCIATE RESOURCES`` answer Success for
  the call and a status per resource id; a resource whose status is not
  Success fails the task.
"""

from __future__ import annotations

from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, VaultUnsupportedError

STATIC, DYNAMIC = "static", "dynamic"

# The group input's names for name, description and policy, and the alternative
# names the spec's request sample shows for the same three fields.
FIELD_NAMES = {
    "standard": {"name": "GROUPNAME", "description": "DESCRIPTION", "password_policy": "POLICY"},
    "alternative": {"name": "critgroup", "description": "critdesc", "password_policy": "RuleCriteria"},
}
# What the group list reports (resourceGroupType, resourceGroupDescription, subGroupOf), as options.
REPORTED = ("type", "description", "parent")

# Sent when the group is created, never reported back.
CREATION_ONLY = ("password_policy", "no_helpdesk_retrieval", "criteria")


def refuse_members_of_dynamic(name):
    return VaultInputError("resource group %s is dynamic: its resources follow its criteria and cannot be "
                           "associated (remove resources, or use type: static)" % name)


def validate(desired):
    """Refuse combinations the vault cannot hold, before any request. ``type`` None means "as it is" (new: static)."""
    if desired.get("type") == DYNAMIC and desired.get("resources") is not None:
        raise refuse_members_of_dynamic(desired["name"])
    if desired.get("criteria") and desired.get("type") != DYNAMIC:
        raise VaultInputError("resource group %s: criteria are only for dynamic groups (set type: dynamic)"
                              % desired["name"])
    if desired.get("parent") == desired["name"]:
        raise VaultInputError("resource group %s cannot be its own parent" % desired["name"])


def list_groups(client):
    """The groups this token sees (``GET_RESOURCE_GROUPS`` list items), or None when the vault lacks the list.

    A vault configured below A 12230 / B 6000 is refused by the client before
    sending; one without a configured build answers the unserved path with
    HTTP 404.
    """
    try:
        details = client.call("get_resource_groups").details
    except VaultUnsupportedError:
        return None
    except VaultAPIError as exc:
        if exc.http_status == 404:
            return None
        raise
    return [item for item in details or [] if isinstance(item, dict)]


def find_group(client, groups, name):
    """The list item of group ``name``, or None when there is none.

    Without the list (``groups`` None) the item holds only the id and name,
    from ``GET RESOURCE GROUP ID`` among the caller's own groups (no USERID).
    That call fails alike for an unknown name and other refusals; a refusal
    then shows up as the vault's own error when the group is created.
    """
    if groups is not None:
        return next((item for item in groups if item.get("resourceGroupName") == name), None)
    try:
        response = client.call("get_resource_group_id", query={"RESOURCEGROUPNAME": name})
    except VaultAPIError as exc:
        if exc.http_status == 404:
            raise
        return None
    found = response.details if isinstance(response.details, dict) else {}
    if not found.get("RESOURCEGROUPID"):
        return None
    return {"resourceGroupId": str(found["RESOURCEGROUPID"]), "resourceGroupName": name}


def require_group_id(client, groups, name, role):
    group = find_group(client, groups, name)
    if group is None:
        raise VaultNotFoundError("%s resource group %s does not exist (or is not visible to this token)"
                                 % (role, name))
    return str(group["resourceGroupId"])


class ResourceIndex:
    """Resource names to ids for every resource the token sees, read with one ``GET RESOURCES`` when first needed."""

    def __init__(self, client):
        self.client = client
        self._ids = None

    @property
    def ids(self):
        if self._ids is None:
            self._ids = {item["RESOURCE NAME"]: str(item.get("RESOURCE ID"))
                         for item in self.client.call("get_resources").details or []
                         if isinstance(item, dict) and item.get("RESOURCE NAME")}
        return self._ids

    def pick(self, names):
        """``{name: id}`` for ``names``; every unknown name fails in one message."""
        if not names:
            return {}
        unknown = sorted({name for name in names if name not in self.ids})
        if unknown:
            raise VaultNotFoundError("resources %s do not exist (or are not visible to this token)"
                                     % ", ".join(unknown))
        return {name: self.ids[name] for name in names}


def group_ids_of_resource(client, resource_id):
    response = client.call("get_associated_groups", path={"resource_id": resource_id})
    groups = response.details.get("ASSOCIATED GROUPS") if isinstance(response.details, dict) else None
    return {str(item.get("GROUP ID")) for item in groups or [] if isinstance(item, dict)}


def members_among(client, group_id, ids_by_name):
    """The names in ``ids_by_name`` whose resource is in the group: one ``GET ASSOCIATED GROUPS`` per resource."""
    return {name for name, resource_id in ids_by_name.items()
            if group_id in group_ids_of_resource(client, resource_id)}


def change_members(client, key, group_id, ids_by_name):
    """Associate or disassociate ``ids_by_name`` (``key`` says which); any resource not answered Success fails."""
    ids = sorted(ids_by_name.values(), key=int)
    response = client.call(key, path={"group_id": group_id}, details={"RESOURCEIDS": [int(i) for i in ids]})
    outcomes = response.details if isinstance(response.details, dict) else {}
    refused = sorted(name for name, resource_id in ids_by_name.items()
                     if _status(outcomes.get(resource_id)) != "success")
    if refused:
        operation = response.operation or key
        message = response.message or "no message given"
        raise VaultAPIError("%s: the vault did not accept %s: %s" % (operation, ", ".join(refused), message),
                            operation=operation, vault_message=response.message)


def _status(outcome):
    if not isinstance(outcome, dict):
        return None
    status = outcome.get("status", outcome.get("STATUS"))
    return str(status).lower() if status is not None else None


def create_input(desired, parent_id):
    """The group input (Details) of ``CREATE RESOURCE GROUP``; ``desired["type"]`` None creates a static group."""
    names = FIELD_NAMES[desired.get("field_names") or "standard"]
    kind = desired.get("type") or STATIC
    details = {names["name"]: desired["name"], "GROUPTYPE": kind.upper()}
    if desired.get("description") is not None:
        details[names["description"]] = desired["description"]
    if desired.get("password_policy"):
        details[names["password_policy"]] = desired["password_policy"]
    if parent_id:
        details["PARENTGROUPID"] = int(parent_id)
    if desired.get("no_helpdesk_retrieval") is not None:
        details["NoHelpDeskRetrieval"] = "true" if desired["no_helpdesk_retrieval"] else "false"
    if kind == DYNAMIC:
        criteria = desired["criteria"]
        details.update({"andor": "or" if desired.get("criteria_match") == "any" else "and",
                        "NoOfCriteria": len(criteria)})
        for number, criterion in enumerate(criteria, start=1):
            details["condition_%d" % number] = criterion["condition"]
            details["operator_%d" % number] = criterion["operator"]
            details["valuefield_%d" % number] = criterion["value"]
    return details


def group_type(group):
    """``static`` or ``dynamic`` as the list reports it; None without the list (only the id is known)."""
    reported = group.get("resourceGroupType")
    return str(reported).lower() if reported else None


def reported_values(group, groups):
    """The reported settings of a list item as options: type, description and parent name ("" at top level)."""
    parent_id = str(group.get("subGroupOf") or "")
    parent = next((item.get("resourceGroupName") for item in groups if str(item.get("resourceGroupId")) == parent_id),
                  parent_id)
    return {"type": group_type(group), "description": group.get("resourceGroupDescription") or "", "parent": parent}


def differences(group, groups, desired):
    """Reported settings that differ from the task's, ``{option: (vault's value, task's value)}``; none without a list."""
    if groups is None:
        return {}
    current = reported_values(group, groups)
    return {option: (current[option], desired[option]) for option in REPORTED
            if desired.get(option) is not None and current[option] != desired[option]}


def subgroup_names(groups, group_id):
    return sorted(item.get("resourceGroupName") for item in groups if str(item.get("subGroupOf") or "") == group_id)


def parent_id_of(client, groups, desired):
    parent = desired.get("parent")
    return require_group_id(client, groups, parent, "parent") if parent else None


def track_creation(tracker, desired):
    tracker.record("state", "absent", "present", True)
    tracker.record("type", None, desired.get("type") or STATIC, True)
    for option in ("description", "parent") + CREATION_ONLY:
        tracker.compare(option, None, desired.get(option))


def create(client, groups, desired, parent_id, members):
    """Create the group, find it again for its id, associate ``members`` ({name: id}); return its list item."""
    client.call("create_resource_group", details=create_input(desired, parent_id))
    group = find_group(client, None if groups is None else list_groups(client), desired["name"])
    if group is None:
        raise VaultAPIError("CREATE RESOURCE GROUP reported success but resource group %s cannot be found"
                            % desired["name"], operation="CREATE RESOURCE GROUP")
    if members:
        change_members(client, "associate_resources", str(group["resourceGroupId"]), members)
    return group


def converge_members(client, tracker, group_id, index, desired, check_mode):
    """Associate the listed resources that are not members; with purge, disassociate the members not listed.

    Returns the member names checked (all members with purge, else the listed
    ones that are members), as they are after the run (in check mode: before).
    """
    wanted = index.pick(desired["resources"])
    purge = desired.get("purge_resources")
    current = members_among(client, group_id, index.ids if purge else wanted)
    missing = {name: wanted[name] for name in sorted(set(wanted) - current)}
    extra = {name: index.ids[name] for name in sorted(current - set(wanted))} if purge else {}
    after = (current | set(missing)) - set(extra)
    tracker.record("resources", sorted(current), sorted(after), bool(missing or extra))
    if check_mode:
        return sorted(current)
    if missing:
        change_members(client, "associate_resources", group_id, missing)
    if extra:
        change_members(client, "disassociate_resources", group_id, extra)
    return sorted(after)


def recreate(client, tracker, groups, group, desired, check_mode):
    """Delete the group and create it with the task's settings; type, description and parent not given are kept.

    The static members of a static group stay members of the new static group
    (unless ``purge_resources``): finding them costs one ``GET ASSOCIATED
    GROUPS`` per resource the token sees. Refused before any write: a group
    with subgroups (the vault may delete subgroups with their parent), and a
    dynamic group without the task's criteria (the vault never reports them).
    """
    group_id = str(group["resourceGroupId"])
    subgroups = subgroup_names(groups, group_id)
    if subgroups:
        raise VaultInputError("resource group %s has subgroups (%s): recreating it could delete them with it"
                              % (desired["name"], ", ".join(subgroups)))
    kept = reported_values(group, groups)
    new = dict(desired, **{option: kept[option] for option in ("type", "description") if desired.get(option) is None})
    if new["type"] == DYNAMIC and not new.get("criteria"):
        raise VaultInputError("resource group %s is dynamic: recreating it needs its criteria, which the vault "
                              "does not report" % desired["name"])
    static = new["type"] == STATIC
    index = ResourceIndex(client)
    wanted = index.pick(desired.get("resources"))
    old = members_among(client, group_id, index.ids) if static and group_type(group) == STATIC else set()
    members = dict(wanted)
    if not desired.get("purge_resources"):
        members.update({name: index.ids[name] for name in old})
    parent_id = parent_id_of(client, groups, desired) if desired.get("parent") is not None else group.get("subGroupOf")
    tracker.record("recreated", False, True, True)
    for option, (current, value) in sorted(differences(group, groups, desired).items()):
        tracker.record(option, current, value, True)
    for option in CREATION_ONLY:
        tracker.compare(option, None, desired.get(option))
    if static:
        tracker.record("resources", sorted(old), sorted(members), set(old) != set(members))
    if check_mode:
        return {"group": group, "resources": sorted(old) if static else None}
    client.call("delete_resource_group", query={"RESOURCEGROUPID": group_id})
    created = create(client, groups, new, parent_id, members)
    return {"group": created, "resources": sorted(members) if static else None}


def ensure_absent(client, name, check_mode):
    group = find_group(client, list_groups(client), name)
    tracker = DifferenceTracker()
    tracker.record("state", "present" if group else "absent", "absent", bool(group))
    if group and not check_mode:
        client.call("delete_resource_group", query={"RESOURCEGROUPID": group["resourceGroupId"]})
    return tracker, {"group": {}, "resources": None, "unverified": []}


def ensure_present(client, desired, check_mode):
    """Create the group, or converge an existing one. ``desired`` holds the module's options.

    Returns the tracker and ``{"group": the list item after the run (in check
    mode: before it), "resources": member names checked (None when resources
    are not managed), "unverified": options the vault cannot report}``.
    Everything that could refuse the task (unknown resource or parent names,
    settings that differ) is checked before the first write.
    """
    validate(desired)
    groups = list_groups(client)
    group = find_group(client, groups, desired["name"])
    tracker = DifferenceTracker()
    if group is None:
        return tracker, _create_new(client, tracker, groups, desired, check_mode)
    found = differences(group, groups, desired)
    if found and not desired.get("recreate"):
        described = "; ".join("%s is %r in the vault, %r in the task" % (option, current, value)
                              for option, (current, value) in sorted(found.items()))
        raise VaultInputError("resource group %s: %s. The API cannot edit a group: change the task, or set "
                              "recreate: true to delete the group and create it again" % (desired["name"], described))
    if found:
        return tracker, dict(recreate(client, tracker, groups, group, desired, check_mode), unverified=[])
    if group_type(group) == DYNAMIC and desired.get("resources") is not None:
        raise refuse_members_of_dynamic(desired["name"])
    tracker.record("state", "present", "present", False)
    if groups is not None:
        for option, value in reported_values(group, groups).items():
            tracker.compare(option, value, None)
    members = None
    if desired.get("resources") is not None:
        members = converge_members(client, tracker, str(group["resourceGroupId"]), ResourceIndex(client), desired,
                                   check_mode)
    unverified = [option for option in REPORTED if groups is None and desired.get(option) is not None]
    return tracker, {"group": group, "resources": members, "unverified": unverified}


def _create_new(client, tracker, groups, desired, check_mode):
    """Create a missing group; unknown resource or parent names fail before the create is sent."""
    wanted = ResourceIndex(client).pick(desired.get("resources"))
    parent_id = parent_id_of(client, groups, desired)
    track_creation(tracker, desired)
    managed = desired.get("resources") is not None
    if managed:
        tracker.record("resources", [], sorted(wanted), bool(wanted))
    if check_mode:
        return {"group": {}, "resources": [] if managed else None, "unverified": []}
    created = create(client, groups, desired, parent_id, wanted)
    return {"group": created, "resources": sorted(wanted) if managed else None, "unverified": []}
