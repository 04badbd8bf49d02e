"""User groups (kind ``user_group``) and their members (``member_ids``).

The spec has no endpoint that creates a user group: groups come from the
admin endpoint ``POST /__simulator/user-groups`` or the flag ``--user-group``.
Like users, groups are not partitioned by organization. A removed user leaves
every group.
"""

from vault_simulator.core.records import USER, USER_GROUP
from vault_simulator.core.removals import when_removed
from vault_simulator.core.replies import Failure
from vault_simulator.core.timefmt import millis_time, now_iso


def add_user_group(store, name, description=""):
    """Store a user group called ``name`` (unique); return it, or the existing one."""
    name = name.strip()
    if not name:
        raise ValueError("a user group needs a name")
    existing = user_group_by_name(store, name)
    if existing:
        return existing
    group = {
        "id": store.next_id(USER_GROUP),
        "name": name,
        "description": description,
        "created": now_iso(),
        "member_ids": [],
    }
    store.put(USER_GROUP, group["id"], group)
    return group


def user_group_by_name(store, name):
    """The user group called ``name`` or ``None``."""
    return next(iter(store.where(USER_GROUP, name=name)), None)


def existing_user_group_by_name(store, name):
    group = user_group_by_name(store, name)
    if group is None:
        raise Failure(f"User group {name} does not exist")
    return group


@when_removed(USER)
def leave_all_user_groups(store, user):
    for group in store.all(USER_GROUP):
        if user["id"] in group["member_ids"]:
            group["member_ids"].remove(user["id"])
            store.put(USER_GROUP, group["id"], group)


def user_group_item(group):
    """A user group as the spec's list item: userGroupId is a number."""
    return {
        "userGroupName": group["name"],
        "userGroupId": int(group["id"]),
        "dateCreated": millis_time(group["created"]),
        "description": group["description"],
    }
