"""Resource groups as only this area needs them: the groups of an organization, the
groups of a resource, leaving a group, and deleting a group with its subgroups.

The record and its members are in ``core.groups``. Deleting a group deletes its
subgroups too (a subgroup cannot outlive the tree it hangs from), each removed
with what goes with it (``core.removals``: its shares, its place in accounts'
ACCOUNT_RESOURCE_GROUP_IDS), but never a resource. A removed resource leaves
every static group.
"""

from vault_simulator.core.groups import members_of
from vault_simulator.core.records import RESOURCE, RESOURCE_GROUP
from vault_simulator.core.removals import remove, when_removed
from vault_simulator.core.tenancy import in_organization, organization_of


def groups_of_organization(store, org):
    return [g for g in store.all(RESOURCE_GROUP) if in_organization(g, org)]


def groups_containing(store, resource):
    """The groups of the resource's organization that have ``resource`` as a member."""
    return [
        g for g in groups_of_organization(store, organization_of(resource)) if resource["id"] in members_of(store, g)
    ]


def remove_member(store, group, resource_id):
    if resource_id in group["resources"]:
        group["resources"].remove(resource_id)
        store.put(RESOURCE_GROUP, group["id"], group)


@when_removed(RESOURCE)
def leave_all_groups(store, resource):
    """Take a resource being removed out of every static group."""
    for group in store.all(RESOURCE_GROUP):
        remove_member(store, group, resource["id"])


def subgroups_of(store, group):
    """The group's subgroups, at every depth."""
    children = [g for g in store.all(RESOURCE_GROUP) if g["parent_id"] == group["id"]]
    return children + [deeper for child in children for deeper in subgroups_of(store, child)]


def delete_group(store, group):
    """Delete ``group`` and its subgroups; return the deleted groups, ``group`` first."""
    deleted = [group] + subgroups_of(store, group)
    for each in deleted:
        remove(store, RESOURCE_GROUP, each)
    return deleted
