# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The sharing rows of the catalogue ("Sharing": ``{rest_root}/resources/.../share``, ``/resources/share``,
``/accounts/share``, ``/resourcegroup/share``; all PUT), one function each.

Each returns the ``VaultResponse``: no call reads a share back, and the answer of a bulk call may carry a status per
id in its Details, which the caller reads with the operation name and message."""

from __future__ import annotations

from ._declare import declares


@declares("share_resource_with_user")
def share_resource_with_user(call, resource_id, user_id, access):
    """SHARE RESOURCE with one user: Details ``ACCESSTYPE`` (view, modify, fullaccess, revoke) and ``USERID``."""
    return call(path={"resource_id": resource_id}, details={"ACCESSTYPE": access, "USERID": user_id})


@declares("share_account_with_user")
def share_account_with_user(call, resource_id, account_id, user_id, access):
    """SHARE ACCOUNT with one user: Details ``ACCESSTYPE`` (view, modify, revoke) and ``USERID``."""
    return call(
        path={"resource_id": resource_id, "account_id": account_id}, details={"ACCESSTYPE": access, "USERID": user_id}
    )


@declares("share_resource_with_group")
def share_resource_with_group(call, resource_id, user_group_id, access):
    """SHARE RESOURCE with one user group (A 11200 / B 5100): Details ``ACCESSTYPE`` and ``USERGROUPID``."""
    return call(path={"resource_id": resource_id}, details={"ACCESSTYPE": access, "USERGROUPID": user_group_id})


@declares("share_account_with_group")
def share_account_with_group(call, resource_id, account_id, user_group_id, access):
    """SHARE ACCOUNT with one user group (A 11200 / B 5100): Details ``ACCESSTYPE`` (view, modify, fullaccess,
    revoke) and ``USERGROUPID``."""
    return call(
        path={"resource_id": resource_id, "account_id": account_id},
        details={"ACCESSTYPE": access, "USERGROUPID": user_group_id},
    )


@declares("share_resource_groups")
def share_resource_groups(call, details):
    """SHARE_RESOURCEGROUP(S) (A 12450 / B 6320): ``details`` holds ``resourceGroupIds``, ``accessType`` and
    ``userIds`` or ``userGroupIds``; its ``statusCode`` 20001 says "a bulk share action was triggered"."""
    return call(details=details)


@declares("share_resources")
def share_resources(call, details):
    """SHARE_RESOURCE(S) (B 6320): ``details`` holds ``resourceIds``, ``accessType`` and ``userIds`` or
    ``userGroupIds``."""
    return call(details=details)


@declares("share_accounts")
def share_accounts(call, details):
    """SHARE_ACCOUNTS(S) (B 6320): ``details`` holds ``accountIds``, ``accessType`` (no fullaccess; remoteapponly
    with ``remoteAppIds`` and the accounts' one ``resourceId``) and ``userIds`` or ``userGroupIds``."""
    return call(details=details)
