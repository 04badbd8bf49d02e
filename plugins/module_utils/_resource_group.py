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
  only, and on an existing group the task warns that they were not compared
  (``force_recreate`` applies them by recreating the group on every run).
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

What ``CREATE RESOURCE GROUP`` could refuse is checked before anything is
written, and so before a re-creation deletes the group: clean names and
criteria, the listed resources, the parent group and the password policy
(``GET PASSWORD POLICIES``, where the vault has it). In check mode a missing
resource or parent is taken as made by an earlier task of the run, with a
warning. Another run may create or delete the same group between this run's
read and its write: a refused create or delete is followed by one more read,
and the task converges to what it finds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._api import resource_groups as resource_groups_api
from ._api import resources as resources_api
from ._checks import clean_text
from ._converge import CreatedMeanwhile, VaultObject
from ._errors import (
    VaultAPIError,
    VaultError,
    VaultInputError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
    not_found,
    refuse_unknown,
)
from ._gates import gates_text
from ._policy import find_policy, list_policies, unknown_policy_error

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
CRITERION_FIELDS = ("condition", "operator", "value")


def refuse_members_of_dynamic(name):
    return VaultInputError(
        "resource group %s is dynamic: its resources follow its criteria and cannot be "
        "associated (remove resources, or use type: static)" % name
    )


def validate(desired):
    """Refuse input the vault would refuse or store trimmed, before any request. ``type`` None: as it is (new: static)."""
    name = clean_text(desired["name"], "name")
    if desired.get("parent") != "":
        clean_text(desired.get("parent"), "parent")
    clean_text(desired.get("password_policy"), "password_policy")
    for resource in desired.get("resources") or []:
        clean_text(resource, "resources entry")
    for number, criterion in enumerate(desired.get("criteria") or [], start=1):
        for criterion_field in CRITERION_FIELDS:
            clean_text(criterion.get(criterion_field), "criteria %d %s" % (number, criterion_field))
    if desired.get("type") == DYNAMIC and desired.get("resources") is not None:
        raise refuse_members_of_dynamic(name)
    if desired.get("type") == DYNAMIC and not desired.get("criteria"):
        raise VaultInputError("resource group %s is dynamic: criteria needs at least one criterion" % name)
    if desired.get("criteria") and desired.get("type") != DYNAMIC:
        raise VaultInputError("resource group %s: criteria are only for dynamic groups (set type: dynamic)" % name)
    if desired.get("parent") == name:
        raise VaultInputError("resource group %s cannot be its own parent" % name)


def list_groups(client):
    """The groups this token sees (``GET_RESOURCE_GROUPS`` list items), or None when the vault lacks the list
    (A 12230 / B 6000)."""
    try:
        return resource_groups_api.get_resource_groups(client)
    except VaultUnsupportedError:
        return None


def find_group(client, groups, name):
    """The list item of group ``name``, or None when there is none.

    Without the list (``groups`` None) the item holds only the id and name,
    from ``GET RESOURCE GROUP ID`` among the caller's own groups.
    """
    if groups is not None:
        return next((item for item in groups if item.get("resourceGroupName") == name), None)
    group_id = resource_groups_api.get_resource_group_id(client, name)
    return None if group_id is None else {"resourceGroupId": group_id, "resourceGroupName": name}


class ResourceIndex:
    """Resource names to ids for every resource the token sees, read with one ``GET RESOURCES`` when first needed."""

    def __init__(self, client):
        self.client = client
        self._ids = None

    @property
    def ids(self):
        if self._ids is None:
            self._ids = {
                item["RESOURCE NAME"]: str(item.get("RESOURCE ID"))
                for item in resources_api.get_resources(self.client)
                if item.get("RESOURCE NAME")
            }
        return self._ids


def group_ids_of_resource(client, resource_id):
    return {str(item.get("GROUP ID")) for item in resources_api.get_associated_groups(client, resource_id)}


def members_among(client, group_id, ids_by_name):
    """The names in ``ids_by_name`` whose resource is in the group: one ``GET ASSOCIATED GROUPS`` per resource."""
    return {name for name, resource_id in ids_by_name.items() if group_id in group_ids_of_resource(client, resource_id)}


def change_members(client, change, group_id, ids_by_name):
    """Associate or disassociate ``ids_by_name`` (``change``: ``associate_resources`` or ``disassociate_resources``
    of the gateway); any resource not answered Success fails."""
    ids = sorted(ids_by_name.values(), key=int)
    response = change(client, group_id, [int(i) for i in ids])
    outcomes = response.details_dict()
    refused = sorted(
        name for name, resource_id in ids_by_name.items() if _status(outcomes.get(resource_id)) != "success"
    )
    if refused:
        operation = response.operation or change.endpoint.operation
        message = response.message or "no message given"
        raise VaultAPIError(
            "%s: the vault did not accept %s: %s" % (operation, ", ".join(refused), message),
            operation=operation,
            vault_message=response.message,
        )


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
        details.update(
            {"andor": "or" if desired.get("criteria_match") == "any" else "and", "NoOfCriteria": len(criteria)}
        )
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
    parent = next(
        (item.get("resourceGroupName") for item in groups if str(item.get("resourceGroupId")) == parent_id), parent_id
    )
    return {"type": group_type(group), "description": group.get("resourceGroupDescription") or "", "parent": parent}


def subgroup_names(groups, group_id):
    return sorted(item.get("resourceGroupName") for item in groups if str(item.get("subGroupOf") or "") == group_id)


def _policy_list_missing(exc):
    """True when ``GET PASSWORD POLICIES`` is not there (``VaultUnsupportedError``) or refused (not a connection or
    server failure)."""
    if isinstance(exc, VaultUnsupportedError):
        return True
    return isinstance(exc, VaultAPIError) and exc.http_status is not None and 200 <= exc.http_status < 300


@dataclass(frozen=True)
class Found:
    """What the search found: the group's list item (None when there is no such group) and the group list it was
    looked for in (``groups``: None where the vault has no list; the item then holds only ``resourceGroupId`` and
    ``resourceGroupName``)."""

    group: dict | None
    groups: list | None

    @property
    def group_id(self):
        return str(self.group["resourceGroupId"])


@dataclass(frozen=True)
class Recreation:
    """A group deleted and created again: the options it is created with (as ``create_input`` takes them) and the
    id of its parent (None at top level)."""

    settings: dict
    parent_id: str | None


@dataclass(frozen=True)
class Plan:
    """What ``plan`` found for an existing group, and what ``apply`` sends; true when there is something to send.

    ``before`` and ``after``: the member names checked, as they are and as the run leaves them (None when the task
    does not manage resources, or when a recreated group is not static). ``add`` and ``remove``: ``{name: id}`` to
    associate and to disassociate; after a ``recreation``, ``add`` holds the members of the new group.
    """

    before: list | None = None
    after: list | None = None
    add: dict = field(default_factory=dict)
    remove: dict = field(default_factory=dict)
    recreation: Recreation | None = None

    def __bool__(self):
        return bool(self.recreation or self.add or self.remove)


class ResourceGroup(VaultObject):
    """A resource group, found by name; its handle is a ``Found``. The API has no edit call for a group: an existing
    one converges by membership calls, and by deletion and creation (``recreate``, ``force_recreate``).

    The object after a run is ``{"group": the list item after the run (in check mode: before it), "resources": member
    names checked (None when resources are not managed)}``. Everything that could refuse the task (unknown resource,
    parent or policy names, settings that differ) is checked before the first write: by ``create``, or by ``plan``.
    """

    KIND = "resource group"

    def check_input(self):
        validate(self.desired)

    def find(self):
        """A ``Found`` handle; its ``group`` is None when there is no such group, and its list is what ``create``
        looks the parent up in and finds the new group again in, so that nothing is read twice."""
        groups = list_groups(self.client)
        return Found(find_group(self.client, groups, self.desired["name"]), groups)

    def exists(self, handle):
        return handle is not None and handle.group is not None

    def create(self, handle, tracker):
        """Create a missing group; whatever the create could refuse fails before it is sent."""
        desired, groups = self.desired, handle.groups
        wanted, assumed = self.pick_resources(ResourceIndex(self.client), desired.get("resources"))
        parent_id = self.parent_id(groups)
        self.check_policy()
        self.track_creation(tracker)
        managed = desired.get("resources") is not None
        if managed:
            tracker.record("resources", [], sorted(set(wanted) | set(assumed)), bool(wanted or assumed))
        if self.check_mode:
            return {"group": {}, "resources": [] if managed else None}
        created = self.send_create(desired, parent_id, groups)
        if wanted:
            change_members(
                self.client, resource_groups_api.associate_resources, str(created["resourceGroupId"]), wanted
            )
        return {"group": created, "resources": sorted(wanted) if managed else None}

    def plan(self, handle, current):
        """The ``Plan`` of a recreation (``force_recreate``, or reported settings that differ and ``recreate``:
        without it they fail the task), else of the member changes; each recorded in the tracker."""
        desired = self.desired
        forced = desired.get("force_recreate")
        found = self.differences(handle)
        if not forced:
            self.refuse_differences(found)
        if forced or found:
            return self.plan_recreation(handle, found)
        if group_type(handle.group) == DYNAMIC and desired.get("resources") is not None:
            raise refuse_members_of_dynamic(desired["name"])
        if handle.groups is not None:
            for option, value in reported_values(handle.group, handle.groups).items():
                self.tracker.compare(option, value, None)
        self.warn_not_compared(handle.groups)
        if desired.get("resources") is None:
            return Plan()
        return self.plan_members(handle.group_id, ResourceIndex(self.client))

    def apply(self, handle, current, changes):
        """Delete the group and create it again, or change its members, as planned."""
        if changes.recreation is not None:
            group = self.send_recreation(handle, changes)
        else:
            group = handle.group
            self.send_member_changes(handle.group_id, changes)
        return {"group": group, "resources": changes.after}

    def as_planned(self, current, changes):
        """Nothing sent (nothing differs, or check mode): the group and the members checked as they are (``current``
        is the handle: ``read`` is the base's)."""
        return {"group": current.group, "resources": changes.before}

    def delete(self, handle):
        try:
            resource_groups_api.delete_resource_group(self.client, handle.group["resourceGroupId"])
        except VaultAPIError as exc:
            return self.deleted_meanwhile(exc)
        return True

    def pick_resources(self, index, names):
        """``({name: id}, [unknown names])`` for ``names``.

        Unknown names fail together, before any write. In check mode they are
        taken as resources an earlier task of the run would create: a warning,
        not a failure, so that a dry run of a whole playbook goes on.
        """
        if not names:
            return {}, []
        unknown = sorted({name for name in names if name not in index.ids})
        refuse_unknown("resources", unknown, self.check_mode, self.tracker.warn)
        return {name: index.ids[name] for name in names if name not in unknown}, unknown

    def differences(self, handle):
        """Reported settings that differ from the task's, ``{option: (vault's value, task's value)}``; none without
        a list."""
        if handle.groups is None:
            return {}
        current = reported_values(handle.group, handle.groups)
        return {
            option: (current[option], self.desired[option])
            for option in REPORTED
            if self.desired.get(option) is not None and current[option] != self.desired[option]
        }

    def warn_not_compared(self, groups):
        """Warn about the options given for an existing group that the vault cannot report (``groups``: the group
        list, None where the vault has none)."""
        desired = self.desired
        name = desired["name"]
        unlisted = [option for option in REPORTED if groups is None and desired.get(option) is not None]
        if unlisted:
            self.tracker.warn(
                "the vault has no resource group list (GET_RESOURCE_GROUPS needs %s), so the %s of the existing group "
                "%s could not be compared"
                % (gates_text(resource_groups_api.get_resource_groups.endpoint.gates), " and ".join(unlisted), name)
            )
        unreported = [option for option in CREATION_ONLY if desired.get(option) is not None]
        if unreported:
            self.tracker.warn(
                "resource group %s: %s cannot be read back from the vault and were not compared; set "
                "force_recreate: true (once) to apply them by deleting the group and creating it again"
                % (name, ", ".join(unreported))
            )

    def parent_id(self, groups):
        """The id of the ``parent`` group (looked up in ``groups``, or by name without a list), None for a top-level
        group; an unknown parent fails (check mode: warns)."""
        parent = self.desired.get("parent")
        if not parent:
            return None
        group = find_group(self.client, groups, parent)
        if group is not None:
            return str(group["resourceGroupId"])
        if not self.check_mode:
            raise not_found("parent resource group", parent)
        self.tracker.warn(
            "parent resource group %s does not exist yet: check mode takes it as created by an earlier task, "
            "a real run fails unless it exists by then" % parent
        )
        return None

    def check_policy(self):
        """Fail before any write when the vault has no password policy ``password_policy``.

        Where the policy list cannot be read (a vault before A 11300 / B 5300, or
        one that refuses it to this token), the task warns that the policy was not
        checked and goes on: the create then gets the vault's own verdict.
        """
        name = self.desired.get("password_policy")
        if not name:
            return
        try:
            dummy_organization, policies = list_policies(self.client)
        except (VaultUnsupportedError, VaultAPIError, VaultResponseError) as exc:
            if not _policy_list_missing(exc):
                raise
            self.tracker.warn(
                "resource group %s: password_policy %s could not be checked before writing, the vault has no "
                "password policy list for this token: %s" % (self.desired["name"], name, exc)
            )
            return
        if find_policy(policies, name) is None:
            raise VaultNotFoundError(
                "resource group %s: %s" % (self.desired["name"], unknown_policy_error(policies, name))
            )

    def track_creation(self, tracker):
        tracker.record("type", None, self.desired.get("type") or STATIC, True)
        for option in ("description", "parent") + CREATION_ONLY:
            tracker.compare(option, None, self.desired.get(option))

    def send_create(self, values, parent_id, groups):
        """``CREATE RESOURCE GROUP`` of ``values`` (the task's options, or those of a re-creation), then the new
        group's list item, found again by name the way ``groups`` was read (the list read again, or by name where
        the vault has none).

        A refused create is followed by one more read: when the group exists by
        then, another run created it, and ``CreatedMeanwhile`` carries its ``Found``.
        """
        try:
            resource_groups_api.create_resource_group(self.client, create_input(values, parent_id))
        except VaultAPIError:
            group, groups = self.find_again(values["name"], groups)
            if group is None:
                raise
            raise CreatedMeanwhile(Found(group, groups)) from None
        created, dummy_groups = self.find_again(values["name"], groups)
        if created is None:
            raise VaultAPIError(
                "CREATE RESOURCE GROUP reported success but resource group %s cannot be found" % values["name"],
                operation="CREATE RESOURCE GROUP",
            )
        return created

    def find_again(self, name, groups):
        """``(list item of group name or None, group list)`` read again after a create: the list where there was one
        (``groups``), else the group by name."""
        groups = None if groups is None else list_groups(self.client)
        return find_group(self.client, groups, name), groups

    def plan_members(self, group_id, index):
        """Record the member changes: the listed resources that are not members are added; with purge, the members
        not listed are removed.

        ``before`` and ``after`` are the member names checked (all members with
        purge, else the listed ones that are members).
        """
        wanted, assumed = self.pick_resources(index, self.desired["resources"])
        purge = self.desired.get("purge_resources")
        current = members_among(self.client, group_id, index.ids if purge else wanted)
        add = {name: wanted[name] for name in sorted(set(wanted) - current)}
        remove = {name: index.ids[name] for name in sorted(current - set(wanted))} if purge else {}
        after = (current | set(add) | set(assumed)) - set(remove)
        self.tracker.record("resources", sorted(current), sorted(after), bool(add or remove or assumed))
        return Plan(before=sorted(current), after=sorted(after), add=add, remove=remove)

    def send_member_changes(self, group_id, changes):
        if changes.add:
            change_members(self.client, resource_groups_api.associate_resources, group_id, changes.add)
        if changes.remove:
            change_members(self.client, resource_groups_api.disassociate_resources, group_id, changes.remove)

    def plan_recreation(self, handle, found):
        """Record the deletion and creation of the group with the task's settings (``found``: the reported settings
        that differ); type, description and parent not given are kept.

        The static members of a static group stay members of the new static group
        (unless ``purge_resources``): finding them costs one ``GET ASSOCIATED
        GROUPS`` per resource the token sees. Refused before any write: a vault
        without the group list (nothing of the group can be kept), a group with
        subgroups (the vault may delete subgroups with their parent), a dynamic
        group without the task's criteria (the vault never reports them) or with
        resources, and whatever the create would refuse (unknown resources, parent
        or password policy).
        """
        desired = self.desired
        name = desired["name"]
        group, groups, group_id = handle.group, handle.groups, handle.group_id
        if groups is None:
            raise VaultInputError(
                "resource group %s cannot be recreated: the vault has no resource group list "
                "(GET_RESOURCE_GROUPS), so its subgroups, type, description and parent cannot be read" % name
            )
        subgroups = subgroup_names(groups, group_id)
        if subgroups:
            raise VaultInputError(
                "resource group %s has subgroups (%s): recreating it could delete them with it"
                % (name, ", ".join(subgroups))
            )
        kept = reported_values(group, groups)
        new = dict(
            desired, **{option: kept[option] for option in ("type", "description") if desired.get(option) is None}
        )
        if new["type"] == DYNAMIC and not new.get("criteria"):
            raise VaultInputError(
                "resource group %s is dynamic: recreating it needs its criteria, which the vault does not report" % name
            )
        if new["type"] == DYNAMIC and desired.get("resources") is not None:
            raise refuse_members_of_dynamic(name)
        static = new["type"] == STATIC
        index = ResourceIndex(self.client)
        wanted, assumed = self.pick_resources(index, desired.get("resources"))
        old = members_among(self.client, group_id, index.ids) if static and group_type(group) == STATIC else set()
        members = dict(wanted)
        if not desired.get("purge_resources"):
            members.update({member: index.ids[member] for member in old})
        parent_id = group.get("subGroupOf") if desired.get("parent") is None else self.parent_id(groups)
        self.check_policy()
        self.track_recreation(found, sorted(old) if static else None, sorted(set(members) | set(assumed)))
        return Plan(
            before=sorted(old) if static else None,
            after=sorted(members) if static else None,
            add=members,
            recreation=Recreation(new, parent_id),
        )

    def track_recreation(self, found, old, members):
        tracker, desired = self.tracker, self.desired
        tracker.record("recreated", False, True, True)
        for option, (current, value) in sorted(found.items()):
            tracker.record(option, current, value, True)
        for option in CREATION_ONLY:
            tracker.compare(option, None, desired.get(option))
        if old is not None:
            tracker.record("resources", old, members, set(old) != set(members))
        lost = [option for option in ("password_policy", "no_helpdesk_retrieval") if desired.get(option) is None]
        if lost:
            tracker.warn(
                "resource group %s is recreated without %s: the vault does not report those of the deleted "
                "group; give them to keep them" % (desired["name"], ", ".join(lost))
            )

    def send_recreation(self, handle, changes):
        """Delete the group, create it again and associate its members; the new group's list item. The members it
        held before (``changes.before``: those of a static group) are named when the create fails."""
        recreation = changes.recreation
        resource_groups_api.delete_resource_group(self.client, handle.group_id)
        created = self.create_after_delete(
            recreation.settings, recreation.parent_id, handle.groups, changes.before or []
        )
        if changes.add:
            self.associate_after_recreation(created, changes.add)
        return created

    def create_after_delete(self, new, parent_id, groups, old):
        """The new group's list item; a failure says that the group was deleted, and what it held."""
        try:
            return self.send_create(new, parent_id, groups)
        except CreatedMeanwhile as meanwhile:
            return meanwhile.handle.group
        except VaultError as exc:
            held = "; its resources were %s" % ", ".join(old) if old else ""
            if isinstance(exc, VaultAPIError):
                message = "resource group %s was deleted, not recreated: %s%s" % (new["name"], exc, held)
            else:
                message = "resource group %s was deleted, and it is not known whether it was recreated: %s%s" % (
                    new["name"],
                    exc,
                    held,
                )
            raise exc.restated(message) from None

    def associate_after_recreation(self, created, members):
        try:
            change_members(
                self.client, resource_groups_api.associate_resources, str(created["resourceGroupId"]), members
            )
        except VaultError as exc:
            raise exc.reworded(
                "resource group %s was recreated (new id %s) but its resources %s were not all associated "
                "again: %s" % (self.desired["name"], created["resourceGroupId"], ", ".join(sorted(members)), exc)
            ) from None


def converge(task):
    """Entry point of ``vault_resource_group``: the group ``task.desired`` describes, converged to its ``state``;
    returns ``{"group"}`` (its list item, ``{}`` when absent) and ``resources`` (the member names checked) when the
    task manages resources."""
    after = ResourceGroup(task).ensure() or {"group": {}, "resources": None}
    values = {"group": after["group"]}
    if after["resources"] is not None:
        values["resources"] = after["resources"]
    return values
