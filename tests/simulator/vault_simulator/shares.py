"""Shares (kind ``share``): a resource, an account or a resource group given to a
user or a user group at an access level.

One share per (target, grantee): sharing again replaces the level, and
``revoke`` removes the share. A resource share and an account share are
separate: revoking one leaves the other. ``remote_app_ids`` are the remote
apps of a ``remoteapponly`` account share. Deleting a resource group, a user or a
user group deletes the shares of it and to them.
"""
from vault_simulator.lookups import RESOURCE_GROUP, USER
from vault_simulator.resource_groups import when_group_deleted
from vault_simulator.user_groups import USER_GROUP, group_ids_of

SHARE = "share"
REVOKE = "revoke"


def set_share(store, target, grantee, level, remote_app_ids=()):
    """Give ``target`` (kind, id) to ``grantee`` (``USER`` or ``USER_GROUP``, id) at ``level``;
    ``revoke`` takes it back (nothing to revoke is fine)."""
    (target_kind, target_id), (grantee_kind, grantee_id) = target, grantee
    share_id = f"{target_kind}:{target_id}:{grantee_kind}:{grantee_id}"
    if level == REVOKE:
        store.delete(SHARE, share_id)
        return
    store.put(SHARE, share_id, {"id": share_id, "target_kind": target_kind, "target_id": target_id,
                                "grantee_kind": grantee_kind, "grantee_id": grantee_id, "level": level,
                                "remote_app_ids": list(remote_app_ids)})


def shares_of(store, user, target_kind):
    """The shares of ``target_kind`` given to ``user`` or to one of the user's groups."""
    grantees = {(USER, user["id"])} | {(USER_GROUP, group_id) for group_id in group_ids_of(store, user)}
    return [s for s in store.all(SHARE)
            if s["target_kind"] == target_kind and (s["grantee_kind"], s["grantee_id"]) in grantees]


def forget_grantee(store, grantee_kind, grantee_id):
    """Remove every share given to a deleted user or user group."""
    for share in store.all(SHARE):
        if (share["grantee_kind"], share["grantee_id"]) == (grantee_kind, grantee_id):
            store.delete(SHARE, share["id"])


@when_group_deleted
def forget_resource_group(store, group):
    """Remove every share of a deleted resource group."""
    for share in store.all(SHARE):
        if (share["target_kind"], share["target_id"]) == (RESOURCE_GROUP, group["id"]):
            store.delete(SHARE, share["id"])
