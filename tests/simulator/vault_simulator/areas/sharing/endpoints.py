"""Sharing resources, accounts and resource groups with users and user groups.

What a share gives is in ``core.access``; the records in ``core.shares``. Who may share
(the spec is silent): a resource and its accounts, whoever has ``fullaccess``
on the resource (Administrators, Privileged Administrators, its owner and the
users it is shared with at ``fullaccess``); a resource group, Administrators
and Privileged Administrators only. ``revoke`` of a share that does not exist
succeeds, so that revoking is idempotent. A bulk share applies to every id
listed at once, or fails as a whole when one id is unknown or not the
caller's to share.
"""

from vault_simulator.core.access import (
    FULL_ACCESS,
    MODIFY,
    REMOTE_APP_ONLY,
    VIEW,
    require_access,
    require_user_manager,
)
from vault_simulator.core.finders import (
    account_and_resource,
    account_by_id,
    existing_user,
    existing_user_group,
    group_by_id,
    resource_by_id,
)
from vault_simulator.core.inputs import string_list, text
from vault_simulator.core.records import ACCOUNT, REMOTE_APP, RESOURCE, RESOURCE_GROUP, USER, USER_GROUP
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, Unsupported, success
from vault_simulator.core.shares import REVOKE, set_share
from vault_simulator.core.styles import REST_OPERATION_NAME

# Sharing with USERGROUPID: "A 11200 / B 5100".
GROUP_SHARING = {"A": 11200, "B": 5100}
# PUT /resources/share and PUT /accounts/share: "B 6320".
BULK_SHARING = {"B": 6320}
RESOURCE_LEVELS = (VIEW, MODIFY, FULL_ACCESS, REVOKE)
ACCOUNT_LEVELS_FOR_USER = (VIEW, MODIFY, REVOKE)
ACCOUNT_LEVELS_FOR_GROUP = (VIEW, MODIFY, FULL_ACCESS, REVOKE)
BULK_ACCOUNT_LEVELS = (VIEW, MODIFY, REMOTE_APP_ONLY, REVOKE)
# "statusCode 20000 means success and 20001 means a bulk share action was triggered."
SUCCESS_CODE = 20000
BULK_SHARE_CODE = 20001


@endpoint("PUT", "/resources/<resource_id>/share", op="SHARE RESOURCE", builds=ANY_BUILD)
def share_resource(ctx, resource_id):
    """Details ACCESSTYPE (view, modify, fullaccess, revoke) and USERID, or USERGROUPID
    (from A 11200 / B 5100; below it the input is unsupported)."""
    grantee = _single_grantee(ctx)
    resource = resource_by_id(ctx.store, resource_id)
    level = _level(ctx.details, "ACCESSTYPE", RESOURCE_LEVELS)
    require_access(ctx.store, ctx.user, resource, FULL_ACCESS, f"share resource {resource['name']}")
    set_share(ctx.store, (RESOURCE, resource["id"]), (grantee[0], grantee[1]["id"]), level)
    return success(_outcome(f"resource {resource['name']}", level, [grantee]))


@endpoint("PUT", "/resources/<resource_id>/accounts/<account_id>/share", op="SHARE ACCOUNT", builds=ANY_BUILD)
def share_account(ctx, resource_id, account_id):
    """Details ACCESSTYPE and USERID (view, modify, revoke), or USERGROUPID (view, modify,
    fullaccess, revoke; from A 11200 / B 5100)."""
    grantee = _single_grantee(ctx)
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    levels = ACCOUNT_LEVELS_FOR_USER if grantee[0] == USER else ACCOUNT_LEVELS_FOR_GROUP
    level = _level(ctx.details, "ACCESSTYPE", levels)
    require_access(ctx.store, ctx.user, resource, FULL_ACCESS, f"share account {resource['name']}/{account['name']}")
    set_share(ctx.store, (ACCOUNT, account["id"]), (grantee[0], grantee[1]["id"]), level)
    return success(_outcome(f"account {resource['name']}/{account['name']}", level, [grantee]))


@endpoint(
    "PUT",
    "/resourcegroup/share",
    op="SHARE_RESOURCEGROUP(S)",
    builds={"A": 12450, "B": 6320},
    style=REST_OPERATION_NAME,
)
def share_resource_groups(ctx):
    """Details resourceGroupIds, accessType (view, modify, fullaccess, revoke) and userIds or
    userGroupIds. A share of a group covers its member resources. The simulator applies it at
    once; the result still carries statusCode 20001, "a bulk share action was triggered"."""
    require_user_manager(ctx.user, "share resource groups")
    groups = [group_by_id(ctx.store, group_id, ctx.org) for group_id in _ids(ctx.details, "resourceGroupIds")]
    level = _level(ctx.details, "accessType", RESOURCE_LEVELS)
    grantees = _grantees(ctx)
    for group in groups:
        for kind, grantee in grantees:
            set_share(ctx.store, (RESOURCE_GROUP, group["id"]), (kind, grantee["id"]), level)
    names = ", ".join(group["name"] for group in groups)
    return success(
        f"A bulk share action was triggered: {_outcome(f'resource groups {names}', level, grantees)}",
        statusCode=BULK_SHARE_CODE,
    )


@endpoint("PUT", "/resources/share", op="SHARE_RESOURCE(S)", builds=BULK_SHARING, style=REST_OPERATION_NAME)
def share_resources(ctx):
    """Details resourceIds, accessType (view, modify, fullaccess, revoke) and userIds or
    userGroupIds, as PUT /resources/{resource_id}/share for each resource."""
    resources = [resource_by_id(ctx.store, resource_id) for resource_id in _ids(ctx.details, "resourceIds")]
    level = _level(ctx.details, "accessType", RESOURCE_LEVELS)
    grantees = _grantees(ctx)
    for resource in resources:
        require_access(ctx.store, ctx.user, resource, FULL_ACCESS, f"share resource {resource['name']}")
        for kind, grantee in grantees:
            set_share(ctx.store, (RESOURCE, resource["id"]), (kind, grantee["id"]), level)
    names = ", ".join(resource["name"] for resource in resources)
    return success(_outcome(f"resources {names}", level, grantees), statusCode=SUCCESS_CODE)


@endpoint("PUT", "/accounts/share", op="SHARE_ACCOUNTS(S)", builds=BULK_SHARING, style=REST_OPERATION_NAME)
def share_accounts(ctx):
    """Details accountIds, accessType (view, modify, remoteapponly, revoke) and userIds or
    userGroupIds. ``remoteapponly`` also needs resourceId, the resource of every account, and
    remoteAppIds, remote apps associated with that resource; it gives no password retrieval.
    For the other access types resourceId and remoteAppIds are ignored."""
    level = _level(ctx.details, "accessType", BULK_ACCOUNT_LEVELS)
    account_ids = _ids(ctx.details, "accountIds")
    remote_app_ids = []
    if level == REMOTE_APP_ONLY:
        resource = resource_by_id(ctx.store, _required_id(ctx.details, "resourceId"))
        pairs = [(resource, account_by_id(ctx.store, resource, account_id)) for account_id in account_ids]
        remote_app_ids = [
            _associated_remote_app(ctx.store, resource, app_id)["id"] for app_id in _ids(ctx.details, "remoteAppIds")
        ]
    else:
        pairs = [_resource_and_account(ctx.store, account_id) for account_id in account_ids]
    grantees = _grantees(ctx)
    for resource, account in pairs:
        require_access(
            ctx.store, ctx.user, resource, FULL_ACCESS, f"share account {resource['name']}/{account['name']}"
        )
        for kind, grantee in grantees:
            set_share(ctx.store, (ACCOUNT, account["id"]), (kind, grantee["id"]), level, remote_app_ids)
    names = ", ".join(f"{resource['name']}/{account['name']}" for resource, account in pairs)
    return success(_outcome(f"accounts {names}", level, grantees), statusCode=SUCCESS_CODE)


def _single_grantee(ctx):
    """``(USER, user)`` for Details.USERID or ``(USER_GROUP, group)`` for Details.USERGROUPID."""
    has_user, has_group = "USERID" in ctx.details, "USERGROUPID" in ctx.details
    if has_group and not ctx.supports(GROUP_SHARING):
        raise Unsupported("USERGROUPID")
    if has_user == has_group:
        raise Failure("Give exactly one of USERID or USERGROUPID")
    grantee = (
        (USER, existing_user(ctx.store, _required_id(ctx.details, "USERID")))
        if has_user
        else (USER_GROUP, existing_user_group(ctx.store, _required_id(ctx.details, "USERGROUPID")))
    )
    ctx.audit["username"] = grantee[1]["name"]
    return grantee


def _grantees(ctx):
    """Every user of Details.userIds or every group of Details.userGroupIds (exactly one of them)."""
    user_ids, group_ids = string_list(ctx.details, "userIds"), string_list(ctx.details, "userGroupIds")
    if bool(user_ids) == bool(group_ids):
        raise Failure("Give exactly one of userIds or userGroupIds")
    if user_ids:
        return [(USER, existing_user(ctx.store, user_id)) for user_id in user_ids]
    return [(USER_GROUP, existing_user_group(ctx.store, group_id)) for group_id in group_ids]


def _level(details, key, allowed):
    level = text(details, key)
    if level not in allowed:
        raise Failure(f"{key} must be one of {', '.join(allowed)}")
    return level


def _ids(details, key):
    ids = string_list(details, key)
    if not ids:
        raise Failure(f"{key} must be a non-empty list of ids")
    return ids


def _required_id(details, key):
    value = text(details, key).strip()
    if not value:
        raise Failure(f"{key} is required")
    return value


def _resource_and_account(store, account_id):
    account, resource = account_and_resource(store, account_id)
    return resource, account


def _associated_remote_app(store, resource, app_id):
    """The remote app ``app_id``, read from the store (the remote apps area writes it)."""
    app = store.get(REMOTE_APP, app_id)
    if app is None or resource["id"] not in app["resource_ids"]:
        raise Failure(f"Remote app with ID {app_id} is not associated with resource {resource['name']}")
    return app


def _outcome(what, level, grantees):
    """The message: "Resource web01 shared with user pat with view access", or "Access to
    resource web01 has been revoked from user group ops"."""
    whom = ", ".join(f"{'user' if kind == USER else 'user group'} {grantee['name']}" for kind, grantee in grantees)
    if level == REVOKE:
        return f"Access to {what} has been revoked from {whom}"
    return f"{what[0].upper()}{what[1:]} shared with {whom} with {level} access"
