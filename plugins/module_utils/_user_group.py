# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""User groups. The spec has no call that creates one: they are managed as they exist.

What the API offers, and what that means here:

- ``GET_USERGROUPID`` (A 11200 / B 5100) finds a group's id by name. A group
  that does not exist cannot be made: ``state: present`` fails and says where
  groups are made, in check mode too (no earlier task of a run can create one).
- No call reads a group's members. ``ADD USER TO USERGROUP`` is sent for every
  listed member, and each one sent counts as a change unless the vault's
  answer says the user is a member already ("already"): so parallel runs
  adding one user report one change, and a run that finds them all members
  none.
- ``REMOVE USER FROM USER_GROUP`` (A 12230 / B 6000) answers
  ``Details.RESULT``, one ``{USERID, USERGROUPID, message, status}`` per user
  and group pair. A pair ``Success`` was removed (a change); a pair "Failed with
  the message that the user does not exist in the group" was not a member (no
  change); any other pair fails the task. A call in which no pair succeeded may
  answer a failed result that carries the same ``RESULT``.
- ``purge_members`` must know every user to remove those not listed, and only
  ``GET_USER(S)`` (B 6320) lists users: elsewhere it is refused before anything
  is sent.
- ``DELETE_USERGROUP`` (A 12230 / B 6000) takes ``details.userGroupIds``
  (numbers) and answers Details keyed by group id, each ``{message, status,
  statusCode}``; statusCode 46000 is the spec's example, "an invalid user group id".
"""

from __future__ import annotations

from ._api import users as users_api
from ._api._declare import require
from ._checks import clean_text
from ._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
    refuse_unknown,
)
from ._gates import gates_text
from ._membership import NOT_A_MEMBER, REMOVE, REMOVED, add_member, find_user_group_id, pair_outcome, remove_pairs
from ._paging import read_all_pages, read_all_pages_if_served, search_input
from ._user import absence_doubt, find_user_id, with_vault_words

CANNOT_CREATE = "the vault's API cannot create user groups; create it in the vault's web console"
NO_USER_LIST = (
    "purge_members needs the list of every user (GET_USER(S), "
    + gates_text(users_api.get_users.endpoint.gates)
    + ") to know whom to remove, "
    "and the API has no call that reads a group's members; name the users to remove in absent_members instead: %s"
)
# "For user groups it is one of userGroupId, userGroupName, description."
SEARCH_COLUMNS = ("userGroupId", "userGroupName", "description")
_DELETE = "DELETE_USERGROUP"


def require_user_group_id(client, name):
    """The id of the user group called ``name``; ``VaultNotFoundError`` (with the vault's words) when it has none."""
    group_id, vault_message = find_user_group_id(client, name)
    if group_id is None:
        raise VaultNotFoundError(
            with_vault_words("user group %s does not exist" % name, vault_message), vault_message=vault_message
        )
    return group_id


def describe(task):
    """Entry point of ``vault_user_group_info``: with ``name``, that group (``look_up_user_group``; its ``doubt`` is
    warned); without it, ``user_groups``, those ``search`` matches (``list_user_groups``)."""
    desired = task.desired
    if desired.get("name") is not None:
        found = look_up_user_group(task.client, desired["name"])
        if "doubt" in found:
            task.warn(found.pop("doubt"))
        return found
    return {"user_groups": list_user_groups(task.client, desired.get("search"))}


def look_up_user_group(client, name):
    """``{"exists", "user_group", "vault_message"}`` of the group called ``name``: ``{userGroupName,
    userGroupId}`` from ``GET_USERGROUPID``, or ``{}`` and the vault's words when it has no id for it; ``doubt``
    when those words do not say the group is missing (see ``absence_doubt``)."""
    clean_text(name, "name")
    group_id, vault_message = find_user_group_id(client, name)
    if group_id is None:
        described = {"exists": False, "user_group": {}, "vault_message": vault_message}
        doubt = absence_doubt("GET_USERGROUPID", "user group %s" % name, vault_message)
        if doubt:
            described["doubt"] = doubt
        return described
    return {"exists": True, "user_group": {"userGroupName": name, "userGroupId": group_id}, "vault_message": None}


def list_user_groups(client, search=None):
    """Every user group ``GET_USERGROUP(S)`` (B 6320) lists, every page of it; ``search`` is ``{value, column,
    operator}`` (the vault compares, and decides about case)."""
    search = search or {}
    criteria = search_input(search.get("value"), search.get("column"), search.get("operator"))
    return read_all_pages(client, users_api.get_user_groups, search=criteria)


def converge(task):
    """Entry point of ``vault_user_group``: the members of one existing group (``state: present``), or the groups
    deleted (``state: absent``); returns the module's values for that state.

    Not a ``VaultObject``: ``state: absent`` deletes a set of groups (``name``, ``names`` and ``ids``) in one call,
    and ``state: present`` never creates one (the API cannot), so the one-object find, create and delete of
    ``ensure`` fits neither state."""
    validate(task)
    if task.state == "absent":
        return delete_groups(task)
    return _converge_members(task)


def validate(task):
    """Refuse, before any request, names the vault would trim and options the state does not take."""
    desired = task.desired
    clean_text(desired.get("name"), "name")
    for option in ("names", "members", "absent_members"):
        for value in desired.get(option) or []:
            clean_text(value, "%s entry" % option)
    if task.state == "absent":
        given = [option for option in ("members", "absent_members") if desired.get(option) is not None]
        if desired.get("purge_members"):
            given.append("purge_members")
        if given:
            raise VaultInputError("%s: only with state present (state absent deletes the groups)" % ", ".join(given))
        return
    if desired.get("name") is None or desired.get("names") is not None or desired.get("ids") is not None:
        raise VaultInputError("state present manages one group given by name; names and ids are for state absent")
    both = sorted(set(desired.get("members") or []) & set(desired.get("absent_members") or []))
    if both:
        raise VaultInputError("users %s are in both members and absent_members" % ", ".join(both))


def _converge_members(task):
    """Add ``members``, then remove ``absent_members`` (or, with ``purge_members``, every user not listed).

    Every read, and every refusal that can be predicted, comes before the first write.
    """
    client, desired, tracker = task.client, task.desired, task.tracker
    name = desired["name"]
    check_member_gates(client, desired)
    group_id = existing_group_id(client, name)
    tracker.record("state", "present", "present", False)
    users = all_users(client) if desired.get("purge_members") else None
    adds = members_to_add(task, users, desired.get("members") or [])
    removals, strangers = members_to_remove(client, users, desired)
    if task.check_mode:
        removed, outside = removal_in_check_mode(tracker, name, removals), []
    else:
        adds = [user for user in adds if add_member(client, user, name)]
        removed, outside = remove_members(client, group_id, name, removals)
    tracker.record("added", [], adds, bool(adds))
    tracker.record("removed", [], removed, bool(removed))
    return {
        "user_group": {"userGroupName": name, "userGroupId": group_id},
        "added": adds,
        "removed": removed,
        "not_members": sorted(strangers + outside),
    }


def removal_in_check_mode(tracker, group_name, removals):
    """The users a removal would be sent for: check mode cannot tell which of them are members, and warns."""
    if removals:
        tracker.warn(
            "check mode cannot tell which of %s are members of user group %s (the API has no call that reads "
            "a group's members): a real run removes those that are, and reports a change only for them"
            % (", ".join(sorted(removals)), group_name)
        )
    return sorted(removals)


def check_member_gates(client, desired):
    """Refuse before any request what the configured build lacks: the user list for ``purge_members``, and the
    removal call."""
    if desired.get("purge_members"):
        try:
            require(client, users_api.get_users)
        except VaultUnsupportedError as exc:
            raise VaultUnsupportedError(NO_USER_LIST % exc, operation=exc.operation) from None
    if desired.get("purge_members") or desired.get("absent_members"):
        require(client, users_api.remove_user_from_group)


def existing_group_id(client, name):
    """The id of group ``name``; a group that does not exist fails, saying that the API cannot create it."""
    group_id, vault_message = find_user_group_id(client, name)
    if group_id is None:
        raise VaultNotFoundError(
            with_vault_words("user group %s does not exist: %s" % (name, CANNOT_CREATE), vault_message),
            vault_message=vault_message,
        )
    return number(group_id, "GET_USERGROUPID", "user group %s" % name)


def all_users(client):
    """``{user name: user id}`` of every user ``GET_USER(S)`` lists (B 6320), every page of it.

    A vault without the list, configured (refused before sending) or not (HTTP 404), refuses ``purge_members``.
    """
    items, why = read_all_pages_if_served(client, users_api.get_users)
    if items is None:
        raise VaultUnsupportedError(NO_USER_LIST % why, operation="GET_USER(S)")
    return {
        str(item["userName"]): number(item.get("userId"), "GET_USER(S)", "user %s" % item["userName"])
        for item in items
        if item.get("userName")
    }


def members_to_add(task, users, members):
    """The sorted ``members`` to send; users the vault does not know fail before any write (in check mode they
    are taken as created by an earlier task, with a warning)."""
    wanted = sorted(set(members))
    if users is not None:
        unknown = [user for user in wanted if user not in users]
    else:
        unknown = [user for user in wanted if find_user_id(task.client, user)[0] is None]
    refuse_unknown("users", unknown, task.check_mode, task.warn)
    return wanted


def members_to_remove(client, users, desired):
    """``({name: id} to send for removal, [names in absent_members that are no user])``.

    With ``users`` (purge) every user not in ``members``; otherwise ``absent_members``, each id read with
    ``get_USERID``: a user that does not exist is in no group, so it is no change.
    """
    if users is not None:
        keep = set(desired.get("members") or [])
        return {user: user_id for user, user_id in users.items() if user not in keep}, []
    removals, strangers = {}, []
    for user in sorted(set(desired.get("absent_members") or [])):
        user_id, dummy_message = find_user_id(client, user)
        if user_id is None:
            strangers.append(user)
        else:
            removals[user] = number(user_id, "get_USERID", "user %s" % user)
    return removals, strangers


def remove_members(client, group_id, group_name, removals):
    """One ``REMOVE USER FROM USER_GROUP`` of ``removals`` ({name: id}) from the group; ``(removed, not members)``.

    Any pair answered otherwise, or not answered, fails the task naming the user and the group.
    """
    if not removals:
        return [], []
    pairs = remove_pairs(client, list(removals.values()), [group_id])
    removed, outside, refused = [], [], []
    for user, user_id in sorted(removals.items()):
        pair = pairs[(str(user_id), str(group_id))]
        outcome = pair_outcome(pair)
        if outcome == REMOVED:
            removed.append(user)
        elif outcome == NOT_A_MEMBER:
            outside.append(user)
        else:
            refused.append("user %s: %s" % (user, _outcome_text(pair)))
    if refused:
        raise VaultAPIError(
            "%s: not removed from user group %s - %s%s"
            % (REMOVE, group_name, "; ".join(refused), _also("removed", removed)),
            operation=REMOVE,
        )
    return removed, outside


def delete_groups(task):
    """Delete the groups of ``name``, ``names`` and ``ids`` in one ``DELETE_USERGROUP``.

    A name the vault does not know is no change. Ids are sent as given (in check mode they are not checked).
    """
    client = task.client
    require(client, users_api.delete_user_groups)
    targets, absent = groups_to_delete(client, task.desired)
    listed = [_group(group_id, name) for group_id, name in targets.items()]
    if task.check_mode or not targets:
        task.tracker.record("user_groups", listed, [], bool(listed))
        return {"deleted": listed, "absent": absent}
    deleted, meanwhile = send_delete(client, targets)
    gone = [_group(item["userGroupId"], item["userGroupName"]) for item in deleted]
    task.tracker.record("user_groups", gone, [], bool(gone))
    return {"deleted": deleted, "absent": absent + meanwhile}


def groups_to_delete(client, desired):
    """``({id: name, or None for an id given}, [names the vault does not know])``, each group once."""
    names = ([desired["name"]] if desired.get("name") is not None else []) + list(desired.get("names") or [])
    targets, absent = {}, []
    for name in dict.fromkeys(names):
        group_id, dummy_message = find_user_group_id(client, name)
        if group_id is None:
            absent.append(name)
        else:
            targets.setdefault(number(group_id, "GET_USERGROUPID", "user group %s" % name), name)
    for group_id in desired.get("ids") or []:
        targets.setdefault(str(group_id), None)
    return targets, absent


def send_delete(client, targets):
    """``DELETE_USERGROUP`` of ``targets``; ``(deleted items, names deleted meanwhile)``.

    A group the vault did not delete fails the task naming it, unless it was asked for by name and that name
    is gone now (another run deleted it first).
    """
    outcomes = users_api.delete_user_groups(client, list(targets))
    deleted, meanwhile, refused = [], [], []
    for group_id, name in targets.items():
        outcome = outcomes.get(group_id)
        if _status(outcome) == "success":
            deleted.append(dict(_group(group_id, name), **_result_fields(outcome)))
        elif name is not None and find_user_group_id(client, name)[0] is None:
            meanwhile.append(name)
        else:
            refused.append("%s: %s" % (_label(group_id, name), _outcome_text(outcome)))
    if refused:
        done = [_label(item["userGroupId"], item["userGroupName"]) for item in deleted]
        raise VaultAPIError(
            "%s: not deleted - %s%s" % (_DELETE, "; ".join(refused), _also("deleted", done)), operation=_DELETE
        )
    return deleted, meanwhile


def number(value, operation, what):
    """``value`` as a string of digits, as the calls that take ids as numbers need; else ``VaultResponseError``."""
    text = "" if value is None or isinstance(value, bool) else str(value)
    if not text.isdigit():
        raise VaultResponseError(
            "%s gave %s an id that is not a number: %r" % (operation, what, value), operation=operation
        )
    return text


def _status(outcome):
    if not isinstance(outcome, dict) or outcome.get("status") is None:
        return None
    return str(outcome["status"]).lower()


def _result_fields(outcome):
    return {key: outcome.get(key) for key in ("status", "message", "statusCode")}


def _outcome_text(outcome):
    """The vault's words about one item: its message and statusCode, or that it gave none."""
    if not isinstance(outcome, dict):
        return "the vault gave no result for it"
    message = str(outcome.get("message") or "no message given")
    code = outcome.get("statusCode")
    return message if code is None else "%s (statusCode %s)" % (message, code)


def _group(group_id, name):
    return {"userGroupId": group_id, "userGroupName": name}


def _label(group_id, name):
    return "user group id %s" % group_id if name is None else "user group %s (id %s)" % (name, group_id)


def _also(what, names):
    return "; %s: %s" % (what, ", ".join(names)) if names else ""
