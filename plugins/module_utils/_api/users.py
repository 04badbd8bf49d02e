# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The user, user group and organization rows of the catalogue ("Users and user groups": ``{rest_root}/user``,
``/userGroup``, ``/organizations``), one function each."""

from __future__ import annotations

from .._errors import VaultAPIError, VaultNotFoundError, VaultResponseError, is_refusal
from ._declare import UNSUPPORTED, declares


@declares("create_user")
def create_user(call, details) -> None:
    """CREATE_USER of a user who is not an API user: ``details`` is the create-user input (USERNAME, FIRSTNAME,
    ..., booleans as ``true``/``false``)."""
    call(details=details)


@declares("create_api_user")
def create_api_user(call, details) -> str | None:
    """CREATE_USER with ISAPIUSER ``true`` ("without FIRSTNAME, LASTNAME, PASSWORD"): the new user's token, Details
    ``AUTHTOKEN``, which the vault answers once and never again; None when the answer has no such text."""
    token = call(details=details).details_dict().get("AUTHTOKEN")
    return token if isinstance(token, str) and token else None


@declares("delete_user")
def delete_user(call, user_id) -> None:
    """DELETE USER by id."""
    call(path={"user_id": user_id})


@declares("delete_user_by_name")
def delete_user_by_name(call, user_name) -> None:
    """DELETE USER by name (query ``USERNAME``)."""
    call(query={"USERNAME": user_name})


@declares("get_user_id")
def get_user_id(call, user_name) -> str:
    """get_USERID: Details ``USERID`` of the user called ``user_name``.

    The vault answers a failed ``result`` (HTTP 200) for an unknown name, and the spec shows no code that tells it
    from another failure: such a failure is ``VaultNotFoundError`` carrying the vault's words (``vault_message``).
    An HTTP error status and a refusal of this token (``is_refusal``) are raised as they are; an answer without
    ``USERID`` is a ``VaultResponseError``.
    """
    try:
        details = call(query={"USERNAME": user_name}).details_dict()
    except VaultAPIError as exc:
        if exc.http_status not in (None, 200) or is_refusal(exc):
            raise
        raise exc.reworded("user %s does not exist: %s" % (user_name, exc), VaultNotFoundError) from None
    user_id = details.get("USERID")
    if user_id in (None, ""):
        raise VaultResponseError("get_USERID for user %s returned no USERID" % user_name, operation="get_USERID")
    return str(user_id)


@declares("add_user_to_group")
def add_user_to_group(call, user_name, user_group_name) -> str | None:
    """ADD USER TO USERGROUP (query ``USERNAME``, ``USERGROUPNAME``): the vault's ``result.message``, the only sign
    of a user who was a member already."""
    return call(query={"USERNAME": user_name, "USERGROUPNAME": user_group_name}).message


@declares("lock_user")
def lock_user(call, user_name) -> None:
    """LOCK USER (query ``USERNAME``): sets ``isUserLocked``."""
    call(query={"USERNAME": user_name})


@declares("unlock_user")
def unlock_user(call, user_name) -> None:
    """UNLOCK USER (query ``USERNAME``)."""
    call(query={"USERNAME": user_name})


@declares("reset_mfa")
def reset_mfa(call, user_name) -> None:
    """Reset MFA (A 12100 / B 5400, query ``USERNAME``): an action, nothing to read."""
    call(query={"USERNAME": user_name})


@declares("get_user_group_id")
def get_user_group_id(call, user_group_name) -> str:
    """GET_USERGROUPID (A 11200 / B 5100): Details ``USERGROUPID`` of the user group called ``user_group_name``.

    As get_USERID, the vault answers a failed ``result`` for an unknown name: a failure without an HTTP error status
    is ``VaultNotFoundError`` carrying the vault's words (``vault_message``), a refusal of this token included; an
    HTTP error status is raised as it is, an answer without ``USERGROUPID`` is a ``VaultResponseError``.
    """
    try:
        details = call(query={"USERGROUPNAME": user_group_name}).details_dict()
    except VaultAPIError as exc:
        if exc.http_status not in (None, 200):
            raise
        raise exc.reworded("user group %s does not exist: %s" % (user_group_name, exc), VaultNotFoundError) from None
    group_id = details.get("USERGROUPID")
    if group_id in (None, ""):
        raise VaultResponseError(
            "GET_USERGROUPID for user group %s returned no USERGROUPID" % user_group_name, operation="GET_USERGROUPID"
        )
    return str(group_id)


@declares("remove_user_from_group")
def remove_user_from_group(call, user_ids, user_group_ids) -> list[dict]:
    """REMOVE USER FROM USER_GROUP (A 12230 / B 6000) of every user of ``user_ids`` from every group of
    ``user_group_ids`` (Details ``USERIDS``, ``USERGROUPIDS``: lists of numbers): the items of Details ``RESULT``,
    "one per user and group pair" (``{USERID, USERGROUPID, message, status}``).

    A call in which no pair was removed may answer a failed ``result`` carrying the same ``RESULT``: its items are
    returned alike; a failure without them is raised.
    """
    try:
        return call(details={"USERIDS": user_ids, "USERGROUPIDS": user_group_ids}).details_list("RESULT")
    except VaultAPIError as exc:
        found = exc.details.get("RESULT") if isinstance(exc.details, dict) else None
        pairs = [pair for pair in found if isinstance(pair, dict)] if isinstance(found, list) else []
        if not pairs:
            raise
        return pairs


@declares("delete_user_groups")
def delete_user_groups(call, user_group_ids) -> dict:
    """DELETE_USERGROUP (A 12230 / B 6000) of ``user_group_ids`` (digit strings; sent as numbers in
    ``details.userGroupIds``): the Details, keyed by group id, each ``{message, status, statusCode}``.

    A failed ``result`` whose Details carry the outcome of a group asked for is read like a success (the outcomes say
    what happened); any other failure is raised.
    """
    try:
        return call(details={"userGroupIds": [int(group_id) for group_id in user_group_ids]}).details_dict()
    except VaultAPIError as exc:
        found = exc.details if isinstance(exc.details, dict) else {}
        if not any(str(group_id) in found for group_id in user_group_ids):
            raise
        return found


@declares("get_users", unserved=UNSUPPORTED)
def get_users(call, details):
    """GET_USER(S) (B 6320): one page of the user list, the ``VaultResponse`` (its items: ``userId``, ``userName``,
    ``email``, ``role``, ..., ``isUserLocked``; and ``totalRows``). ``details`` holds ``limit``, ``startIndex`` and
    the search (``_paging``). ``VaultUnsupportedError`` where the vault lacks the list."""
    return call(details=details)


@declares("get_user_groups", unserved=UNSUPPORTED)
def get_user_groups(call, details):
    """GET_USERGROUP(S) (B 6320): one page of the user group list, the ``VaultResponse`` (its items:
    ``userGroupId``, ``userGroupName``, ...; and ``totalRows``), as ``get_users``. ``VaultUnsupportedError`` where the
    vault lacks the list."""
    return call(details=details)


@declares("get_organizations")
def get_organizations(call) -> list[dict]:
    """GET_ORGANIZATIONS (B 6320): every organization (Details items ``{name, id, displayName}``)."""
    return call().details_list()
