"""Shares (kind ``share``): a resource, an account or a resource group given to a
user or a user group at an access level. The sharing area writes them; ``access``
and the resource groups list read them.

One share per (target, grantee): sharing again replaces the level, and
``revoke`` removes the share. A resource share and an account share are
separate: revoking one leaves the other. ``remote_app_ids`` are the remote
apps of a ``remoteapponly`` account share. Removing a resource, an account, a
resource group, a user or a user group removes the shares of it and to it.
"""

from vault_simulator.core.groups import user_group_ids_of
from vault_simulator.core.records import ACCOUNT, RESOURCE, RESOURCE_GROUP, SHARE, USER, USER_GROUP
from vault_simulator.core.removals import delete_where, when_removed

REVOKE = "revoke"


def set_share(store, target, grantee, level, remote_app_ids=()):
    """Give ``target`` (kind, id) to ``grantee`` (``USER`` or ``USER_GROUP``, id) at ``level``;
    ``revoke`` takes it back (nothing to revoke is fine)."""
    (target_kind, target_id), (grantee_kind, grantee_id) = target, grantee
    share_id = f"{target_kind}:{target_id}:{grantee_kind}:{grantee_id}"
    if level == REVOKE:
        store.delete(SHARE, share_id)
        return
    store.put(
        SHARE,
        share_id,
        {
            "id": share_id,
            "target_kind": target_kind,
            "target_id": target_id,
            "grantee_kind": grantee_kind,
            "grantee_id": grantee_id,
            "level": level,
            "remote_app_ids": list(remote_app_ids),
        },
    )


def shares_of(store, user, target_kind):
    """The shares of ``target_kind`` given to ``user`` or to one of the user's groups."""
    grantees = {(USER, user["id"])} | {(USER_GROUP, group_id) for group_id in user_group_ids_of(store, user)}
    return [
        s
        for s in store.all(SHARE)
        if s["target_kind"] == target_kind and (s["grantee_kind"], s["grantee_id"]) in grantees
    ]


# Removal rules: the shares of a removed target, and those given to a removed grantee.


@when_removed(RESOURCE)
def forget_resource(store, resource):
    _forget(store, "target", RESOURCE, resource)


@when_removed(ACCOUNT)
def forget_account(store, account):
    _forget(store, "target", ACCOUNT, account)


@when_removed(RESOURCE_GROUP)
def forget_resource_group(store, group):
    _forget(store, "target", RESOURCE_GROUP, group)


@when_removed(USER)
def forget_user(store, user):
    _forget(store, "grantee", USER, user)


@when_removed(USER_GROUP)
def forget_user_group(store, group):
    _forget(store, "grantee", USER_GROUP, group)


def _forget(store, side, kind, record):
    """Delete the shares whose ``side`` (target or grantee) is ``record`` of ``kind``."""
    delete_where(store, SHARE, lambda s: (s[f"{side}_kind"], s[f"{side}_id"]) == (kind, record["id"]))
