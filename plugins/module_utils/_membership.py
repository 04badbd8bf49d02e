# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""User-group membership: the look-up of a user group's id, the call that adds a user to a user group, and the one
that removes users from user groups, read pair by pair. Users (``_user``) and user groups (``_user_group``) both need
them; ``_user_group`` imports ``_user``, so what ``_user`` needs of user groups is here.

The spec has no call that reads a user's groups or a group's members, so the
answer to ``REMOVE USER FROM USER_GROUP`` is the only sign of who was a member:
"Details.RESULT list of {USERID, USERGROUPID, message, status} one per user and
group pair", and "in remove user from group each pair has status ``Failed`` with
the message that the user does not exist in the group".
"""

from __future__ import annotations

import re

from ._api import users as users_api
from ._errors import VaultNotFoundError, VaultResponseError

REMOVE = "REMOVE USER FROM USER_GROUP"
REMOVED = "removed"
NOT_A_MEMBER = "not a member"
_NOT_A_MEMBER = re.compile(r"does not exist in", re.IGNORECASE)
_ALREADY_MEMBER = re.compile(r"already", re.IGNORECASE)


def find_user_group_id(client, name):
    """``(id, None)`` of the user group called ``name``, or ``(None, the vault's message)`` when it has none
    (``GET_USERGROUPID``, A 11200 / B 5100: a failed ``result`` for an unknown name)."""
    try:
        return users_api.get_user_group_id(client, name), None
    except VaultNotFoundError as exc:
        return None, exc.vault_message


def add_member(client, user, group_name):
    """``ADD USER TO USERGROUP``; False when the vault answers that the user is a member already."""
    return not _ALREADY_MEMBER.search(users_api.add_user_to_group(client, user, group_name) or "")


def remove_pairs(client, user_ids, group_ids):
    """Remove every user of ``user_ids`` from every group of ``group_ids`` (ids as digit strings) in one call.

    Returns ``{(user id, group id): pair}`` with the vault's RESULT item of each
    pair, or None for a pair it did not answer.
    """
    pairs = users_api.remove_user_from_group(client, _numbers(user_ids, "user"), _numbers(group_ids, "user group"))
    answered = {(str(pair.get("USERID")), str(pair.get("USERGROUPID"))): pair for pair in pairs}
    return {(str(u), str(g)): answered.get((str(u), str(g))) for u in user_ids for g in group_ids}


def pair_outcome(pair):
    """``REMOVED``, ``NOT_A_MEMBER``, or None when the pair was refused (or not answered)."""
    status = str(pair.get("status", "")).lower() if isinstance(pair, dict) else ""
    if status == "success":
        return REMOVED
    if status == "failed" and _NOT_A_MEMBER.search(str(pair.get("message") or "")):
        return NOT_A_MEMBER
    return None


def _numbers(ids, what):
    """The ids as numbers ("USERIDS (list of number), USERGROUPIDS (list of number)")."""
    text = [str(value) for value in ids]
    wrong = [value for value in text if not value.isdigit()]
    if wrong:
        raise VaultResponseError("%s: the %s id %r is not a number" % (REMOVE, what, wrong[0]), operation=REMOVE)
    return sorted(int(value) for value in text)
