"""User groups (kind ``user_group``) and their members.

The spec has no endpoint that creates a user group: groups come from the
admin endpoint ``POST /__simulator/user-groups`` or the flag ``--user-group``.
Like users, groups are not partitioned by organization.
"""
from vault_simulator.lookups import USER
from vault_simulator.replies import Failure
from vault_simulator.timefmt import millis_time, now_iso

USER_GROUP = "user_group"


def add_user_group(store, name, description=""):
    """Store a user group called ``name`` (unique); return it, or the existing one."""
    name = name.strip()
    if not name:
        raise ValueError("a user group needs a name")
    existing = user_group_by_name(store, name)
    if existing:
        return existing
    group = {"id": store.next_id(USER_GROUP), "name": name, "description": description, "created": now_iso(),
             "member_ids": []}
    store.put(USER_GROUP, group["id"], group)
    return group


def user_group_by_name(store, name):
    """The user group called ``name`` or ``None``."""
    return next((g for g in store.all(USER_GROUP) if g["name"] == name), None)


def existing_user_group_by_name(store, name):
    group = user_group_by_name(store, name)
    if group is None:
        raise Failure(f"User group {name} does not exist")
    return group


def existing_user_group(store, group_id):
    group = store.get(USER_GROUP, group_id)
    if group is None:
        raise Failure(f"User group with ID {group_id} does not exist")
    return group


def group_ids_of(store, user):
    """The ids of the groups ``user`` is a member of."""
    return [g["id"] for g in store.all(USER_GROUP) if user["id"] in g["member_ids"]]


def leave_all_user_groups(store, user):
    for group in store.all(USER_GROUP):
        if user["id"] in group["member_ids"]:
            group["member_ids"].remove(user["id"])
            store.put(USER_GROUP, group["id"], group)


def user_group_item(group):
    """A user group as the spec's list item: userGroupId is a number."""
    return {"userGroupName": group["name"], "userGroupId": int(group["id"]),
            "dateCreated": millis_time(group["created"]), "description": group["description"]}


def existing_user(store, user_id):
    """The user with id ``user_id`` (a member or a grantee), failing when there is none."""
    user = store.get(USER, user_id)
    if user is None:
        raise Failure(f"User with ID {user_id} does not exist")
    return user
