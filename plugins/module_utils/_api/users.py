# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The user, user group and organization rows of the catalogue (``{rest_root}/user``, ``/userGroup``,
``/organizations``), one function each."""

from __future__ import annotations

from .._errors import VaultAPIError, VaultNotFoundError, VaultResponseError, is_refusal
from ._declare import UNSUPPORTED, declares


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
        raise VaultNotFoundError(
            "user %s does not exist: %s" % (user_name, exc),
            operation=exc.operation,
            http_status=exc.http_status,
            vault_message=exc.vault_message,
        ) from None
    user_id = details.get("USERID")
    if user_id in (None, ""):
        raise VaultResponseError("get_USERID for user %s returned no USERID" % user_name, operation="get_USERID")
    return str(user_id)


@declares("get_users", unserved=UNSUPPORTED)
def get_users(call, details):
    """GET_USER(S) (B 6320): one page of the user list, the ``VaultResponse`` (Details items, ``totalRows``); Details
    ``limit``, ``startIndex`` and the search fields (``_paging``). ``VaultUnsupportedError`` where the vault lacks
    the row."""
    return call(details=details)


@declares("get_user_groups", unserved=UNSUPPORTED)
def get_user_groups(call, details):
    """GET_USERGROUP(S) (B 6320): one page of the user group list, the ``VaultResponse`` (Details items,
    ``totalRows``); Details ``limit``, ``startIndex`` and the search fields (``_paging``). ``VaultUnsupportedError``
    where the vault lacks the row."""
    return call(details=details)
