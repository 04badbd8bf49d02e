# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Users and API users: find, list, create, delete, lock, reset MFA, user-group membership.

What the API offers, and what that means here:

- There is no call that edits a user. ``GET_USER(S)`` (B 6320) reports
  ``role``, ``email``, ``department``, ``location``, ``isSuperAdmin``,
  ``isApiUser`` and ``isUserLocked`` ("User (list item, edition B)"). Where the
  vault serves it, the options behind the first six are compared, and a
  difference fails the task before any write unless ``recreate`` (delete the
  user, create it again). FIRSTNAME, LASTNAME, FULLNAME, POLICY, PASSWORD,
  HOSTNAME and EXPIRYDATE are never reported: they are sent on creation only.
- Elsewhere (edition A, B before 6320) ``get_USERID`` answers only the id: a
  user is compared by existence only, ``locked`` is sent when given and counts
  as a change, and the task warns once what it could not compare.
- ``LOCK USER`` and ``UNLOCK USER`` set ``isUserLocked``. ``Reset MFA``
  (A 12100 / B 5400) is an action: a change each time it is asked for.
- No call reads a user's memberships. ``ADD USER TO USERGROUP`` is sent for
  each group asked for and counts as a change unless the vault answers that the
  user is a member already ("already"). ``purge_groups`` removes the
  user from every other group of ``GET_USERGROUP(S)`` (B 6320) with one
  ``REMOVE USER FROM USER_GROUP`` (A 12230 / B 6000), whose Details.RESULT has
  one ``{USERID, USERGROUPID, message, status}`` per pair: ``Success`` is a
  change; ``Failed`` "with the message that the user does not exist in the
  group" is not; any other pair fails the task.
- Creating an API user (ISAPIUSER ``true``, with the "create-user input
  without FIRSTNAME, LASTNAME, PASSWORD") answers its token in
  Details.AUTHTOKEN, once and never again: the run that created the user
  returns it, and a failure after the creation carries it
  (``CreatedButFailed``).
- The vault's list search compares without case: a user looked up by name
  through the list is the item whose ``userName`` is exactly that name.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Callable

from ._api import users as users_api
from ._api._declare import require
from ._checks import clean_text
from ._converge import CreatedMeanwhile, Field, VaultObject
from ._errors import (
    VaultAPIError,
    VaultError,
    VaultInputError,
    VaultNotAppliedError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ._gates import gates_text
from ._membership import REMOVE, REMOVED, add_member, find_user_group_id, pair_outcome, remove_pairs
from ._paging import PAGE_SIZE, SEARCH_OPERATORS, read_all_pages_if_served, search_input

# "searchColumn for users is one of userId, userName, email, role, department, location, orgName, isApiUser,
# isTfaEnabled, isSuperAdmin, isUserLocked."
SEARCH_COLUMNS = (
    "userId",
    "userName",
    "email",
    "role",
    "department",
    "location",
    "orgName",
    "isApiUser",
    "isTfaEnabled",
    "isSuperAdmin",
    "isUserLocked",
)
NEVER_EXPIRES = "NeverExpires"
# The create-user input of an API user is "without FIRSTNAME, LASTNAME, PASSWORD".
NOT_FOR_API_USERS = ("first_name", "last_name", "password")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_FLAGS = ("super_admin", "api_user")
# What ``calls`` names for a recreation.
RECREATION_CALLS = ("DELETE USER", "CREATE_USER")


# Words that say a user is missing, in the failed answer of get_USERID.
MISSING = re.compile(r"(does not|doesn't|do not) exist|not found|no such|invalid user|unknown user", re.IGNORECASE)


def find_user_id(client, name):
    """``(id, None)`` of the user called ``name``, or ``(None, the vault's message)`` when it has none
    (``get_USERID``: a failed ``result`` counts as "no such user"; an HTTP error status and a refusal of this token
    are raised)."""
    try:
        return users_api.get_user_id(client, name), None
    except VaultNotFoundError as exc:
        return None, exc.vault_message


def require_user_id(client, name):
    """The id of the user called ``name``; ``VaultNotFoundError`` (with the vault's words) when it has none."""
    user_id, vault_message = find_user_id(client, name)
    if user_id is None:
        raise VaultNotFoundError(
            with_vault_words("user %s does not exist" % name, vault_message), vault_message=vault_message
        )
    return user_id


def with_vault_words(text, vault_message):
    """``text``, followed by what the vault said, when it said anything."""
    return text if not vault_message else "%s; the vault said: %s" % (text, vault_message)


def listed_user(items, name=None, user_id=None):
    """The item of ``items`` whose ``userName`` is exactly ``name`` (else whose ``userId`` is ``user_id``)."""
    if name is not None:
        return next((item for item in items if item.get("userName") == name), None)
    return next((item for item in items if str(item.get("userId")) == str(user_id)), None)


def check_page_size(page_size):
    if page_size < 1:
        raise VaultInputError("page_size must be 1 or more, not %d" % page_size)


def describe(task):
    """Entry point of ``vault_user_info``: with ``name``, that user (``look_up_user``; its ``doubt`` is warned);
    without it, ``users``, those ``search`` matches (``search_users``; all without ``search``)."""
    desired = task.desired
    if desired.get("name") is not None:
        found = look_up_user(task.client, desired["name"], desired["page_size"])
        if "doubt" in found:
            task.warn(found.pop("doubt"))
        return found
    search = desired.get("search") or {"value": None, "column": "userName", "operator": "contains"}
    return {
        "users": search_users(task.client, search["value"], search["column"], search["operator"], desired["page_size"])
    }


def look_up_user(client, name, page_size=PAGE_SIZE):
    """``{"exists", "user_id", "user", "vault_message"}`` of the user called ``name``: its id (``get_USERID``)
    and, where the vault lists users (B 6320), its list item (else ``{}``). A name the vault has no id for is not
    an error: ``vault_message`` keeps the vault's words for it.

    The spec shows no code that tells a failed ``get_USERID`` for an unknown name from another failure, so the
    answer is checked where it can be: where the vault lists users, a user the list holds is no absent user (the
    failure is raised); elsewhere words that do not say the user is missing are returned in ``doubt``."""
    clean_text(name, "name")
    check_page_size(page_size)
    user_id, vault_message = find_user_id(client, name)
    items, dummy_why = read_all_pages_if_served(
        client, users_api.get_users, search_input(name, "userName", "equals"), page_size
    )
    if user_id is not None:
        return {"exists": True, "user_id": user_id, "user": listed_user(items or [], name) or {}, "vault_message": None}
    if items is not None and listed_user(items, name):
        raise VaultAPIError(
            "get_USERID failed for user %s, whom the vault's user list holds: %s" % (name, vault_message),
            operation="get_USERID",
            vault_message=vault_message,
        )
    described = {"exists": False, "user_id": None, "user": {}, "vault_message": vault_message}
    doubt = absence_doubt("get_USERID", "user %s" % name, vault_message)
    if items is None and doubt:
        described["doubt"] = doubt
    return described


def absence_doubt(operation, what, vault_message):
    """The warning to give when ``operation`` failed for ``what`` with words that do not say it is missing
    (``None`` when they do): the object is reported absent, as the spec gives no code to tell them apart."""
    if vault_message and MISSING.search(vault_message):
        return None
    return (
        "%s failed for %s with words that do not say it is missing (%s); it is reported as absent, as the spec "
        "gives no code to tell the two apart" % (operation, what, vault_message or "no message")
    )


def search_users(client, value=None, column="userName", operator="contains", page_size=PAGE_SIZE):
    """Every user of ``GET_USER(S)`` (B 6320) that matches the search (all users without ``value``), read page
    after page. Refused where the vault has no user list."""
    if column not in SEARCH_COLUMNS:
        raise VaultInputError("search column must be one of %s, not %s" % (", ".join(SEARCH_COLUMNS), column))
    if operator not in SEARCH_OPERATORS:
        raise VaultInputError("search operator must be one of %s, not %s" % (", ".join(SEARCH_OPERATORS), operator))
    check_page_size(page_size)
    items, why = read_all_pages_if_served(client, users_api.get_users, search_input(value, column, operator), page_size)
    if items is None:
        raise VaultUnsupportedError(
            "listing and searching users needs the user list GET_USER(S) (%s), and %s; look a user up by name instead"
            % (gates_text(users_api.get_users.endpoint.gates), why),
            operation="GET_USER(S)",
        )
    return items


def check_kind(values):
    """An API user is created without FIRSTNAME, LASTNAME and PASSWORD: refuse them before any request."""
    if values.get("api_user") is not True:
        return
    given = [option for option in NOT_FOR_API_USERS if values.get(option) is not None]
    if given:
        raise VaultInputError(
            "user %s: an API user is created without first_name, last_name and password (the create-user input "
            "with ISAPIUSER true has none of them): remove %s" % (values["name"], ", ".join(given))
        )


def check_expiry(value):
    """``EXPIRYDATE`` is ``yyyy-mm-dd`` or ``NeverExpires``."""
    if value is None or value == NEVER_EXPIRES:
        return
    try:
        if not _DATE.match(value):
            raise ValueError(value)
        datetime.date.fromisoformat(value)
    except ValueError:
        raise VaultInputError("expiry_date must be a date yyyy-mm-dd or %s, not %r" % (NEVER_EXPIRES, value)) from None


def flag(value):
    """A boolean of the list item (``true``/``false`` text tolerated); None when it is neither."""
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    return text == "true" if text in ("true", "false") else None


def reported_value(field, item):
    """The value of ``field`` in a ``GET_USER(S)`` item, as the option holds it."""
    value = item.get(field.read)
    if field.option in _FLAGS:
        return flag(value)
    return "" if value is None else str(value)


def create_input(values):
    """The create-user input (Details) of the options given; booleans as ``true``/``false``."""
    details = {}
    for field in User.FIELDS:
        value = values.get(field.option)
        if value is not None:
            details[field.create] = ("true" if value else "false") if isinstance(value, bool) else value
    return details


def removal_outcomes(client, user_id, others):
    """Remove the user from the groups ``others`` ({group id: name}) in one ``REMOVE USER FROM USER_GROUP``;
    returns the names of the groups it was removed from. A pair answered Failed because the user is not in the
    group is no removal; any other failed or missing pair fails the task, naming the groups."""
    pairs = remove_pairs(client, [user_id], list(others))
    removed, refused = [], []
    for group_id, name in sorted(others.items(), key=lambda item: item[1]):
        pair = pairs[(str(user_id), str(group_id))]
        outcome = pair_outcome(pair)
        if outcome == REMOVED:
            removed.append(name)
        elif outcome is None:
            refused.append("%s (%s)" % (name, (pair or {}).get("message") or "no outcome reported for it"))
    if refused:
        raise VaultAPIError(
            "%s: the user was not removed from user groups %s" % (REMOVE, "; ".join(refused)), operation=REMOVE
        )
    return removed


class CreatedButFailed(VaultError):
    """A step after the creation of a user failed. The failure carries an API user's token, which the creation
    answered once and no later run can return."""

    def __init__(self, label, exc, token):
        # The action plugin writes the token to token_dest, or says that a failed task returns none.
        carried = " (an API user)" if token is not None else ""
        super().__init__(
            "%s was created%s, then: %s" % (label, carried, exc),
            operation=exc.operation,
            http_status=exc.http_status,
            vault_message=exc.vault_message,
        )
        self.token = token

    def to_result(self):
        result = super().to_result()
        if self.token is not None:
            result["token"] = self.token
        return result


@dataclass(frozen=True)
class Writes:
    """What a run sends to an existing user (``User.plan``) or to one it has just created, in the order it is sent:
    the lock state (``lock``: ``lock_user`` or ``unlock_user``), the MFA reset, the groups to add the user to
    (``add``: every group of ``groups``, as no call reads memberships) and the groups to remove it from (``remove``:
    ``{group id: name}``)."""

    lock: Callable | None = None
    reset_mfa: bool = False
    add: tuple = ()
    remove: dict | None = None

    def __bool__(self):
        return bool(self.lock or self.reset_mfa or self.add or self.remove)

    @property
    def actions(self):
        """The gateway functions sent with the user's name alone, in their order."""
        return [write for write in (self.lock, users_api.reset_mfa if self.reset_mfa else None) if write]

    @property
    def call_names(self):
        """What ``calls`` says of these writes."""
        names = [write.endpoint.operation for write in self.actions]
        names.extend("ADD USER TO USERGROUP %s" % group for group in self.add)
        if self.remove:
            names.append("%s %s" % (REMOVE, ", ".join(sorted(self.remove.values()))))
        return names


@dataclass(frozen=True)
class Recreation:
    """What ``User.plan`` returns for a user whose reported settings differ from the task's, with ``recreate``:
    delete it and create it with ``values`` (the options of the create-user input); what follows a creation is
    planned against the new user."""

    values: dict


class User(VaultObject):
    """A user, found by name (or, to delete it, by id). Its handle is ``{"id", "item"}``: ``item`` is its
    ``GET_USER(S)`` list item, None where the vault has no user list (``no_list`` says why then); ``unverified``
    marks the id of a user to delete that could not be looked up; ``token`` is the token a creation by this run
    answered (an API user's; None for a person).

    ``plan`` compares what the list reports (a difference fails, or is a ``Recreation``) and returns the ``Writes``
    that follow; ``apply`` sends them, ``as_planned`` names them in check mode. The object after a run is
    ``{"user_id", "user"}`` (the list item, ``{}`` without the list), with ``token`` when the run created an API
    user; ``calls`` names every write sent (in check mode: that would be sent).
    """

    KIND = "user"
    # No edit key anywhere: the API has no call that edits a user.
    FIELDS = (
        Field("name", read="userName", create="USERNAME"),
        Field("first_name", create="FIRSTNAME"),
        Field("last_name", create="LASTNAME"),
        Field("full_name", create="FULLNAME"),
        Field("email", read="email", create="EMAIL"),
        Field("password_policy", create="POLICY"),
        Field("role", read="role", create="ROLE"),
        Field("super_admin", read="isSuperAdmin", create="ISSUPERADMIN"),
        Field("password", create="PASSWORD", secret=True),
        Field("department", read="department", create="DEPARTMENT"),
        Field("location", read="location", create="LOCATION"),
        Field("api_user", read="isApiUser", create="ISAPIUSER"),
        Field("host_name", create="HOSTNAME"),
        Field("expiry_date", create="EXPIRYDATE"),
    )

    def __init__(self, task):
        super().__init__(task)
        # Why the vault has no user list, once a find learned it: a fact of the vault, not of the user, kept only so
        # that a later find (after the creation, after a refused delete) does not ask for the list again. The hooks
        # read it from the handle.
        self.no_list = None
        self.calls = []

    @property
    def label(self):
        if self.desired.get("name"):
            return "user %s" % self.desired["name"]
        return "user with id %s" % self.desired["user_id"]

    @property
    def reported_fields(self):
        return [field for field in self.FIELDS if field.read and field.option != "name"]

    def check_names(self):
        clean_text(self.desired.get("name"), "name")
        user_id = self.desired.get("user_id")
        if user_id is not None and not str(user_id).isdigit():
            raise VaultInputError("user_id must be a number, not %r" % user_id)

    def check_input(self):
        desired = self.desired
        for group in desired.get("groups") or []:
            clean_text(group, "groups entry")
        check_kind(desired)
        check_expiry(desired.get("expiry_date"))
        if desired.get("token_dest") and desired.get("api_user") is not True:
            raise VaultInputError("%s: token_dest is only for API users: set api_user: true" % self.label)
        if desired.get("reset_mfa"):
            require(self.client, users_api.reset_mfa)
        if desired.get("purge_groups"):
            try:
                require(self.client, users_api.get_user_groups, users_api.remove_user_from_group)
            except VaultUnsupportedError as exc:
                raise self._purge_refused(exc) from None

    def _purge_refused(self, why):
        return VaultUnsupportedError(
            "%s: purge_groups needs the user group list (GET_USERGROUP(S), %s) to find the groups not listed, and %s"
            % (self.label, gates_text(users_api.get_user_groups.endpoint.gates), why),
            operation="GET_USERGROUP(S)",
        )

    def find(self):
        name, user_id = self.desired.get("name"), self.desired.get("user_id")
        if self.no_list is None:
            search = search_input(name, "userName", "equals") if name else search_input(user_id, "userId", "equals")
            items, self.no_list = read_all_pages_if_served(self.client, users_api.get_users, search)
            if items is not None:
                item = listed_user(items, name, user_id)
                return None if item is None else {"id": str(item.get("userId")), "item": item}
        if name is None:
            self.tracker.warn(
                "%s: the vault has no user list (%s), so whether the user exists is known only by deleting it: "
                "DELETE USER is sent, and a refusal counts as absent" % (self.label, self.no_list)
            )
            return {"id": str(user_id), "item": None, "no_list": self.no_list, "unverified": True}
        found, dummy_message = find_user_id(self.client, name)
        return None if found is None else {"id": found, "item": None, "no_list": self.no_list}

    def create(self, handle, tracker):
        values = self.desired
        self.prepare_groups()
        self.check_creation(values)
        self.track_creation(tracker, values, None)
        self.calls.append("CREATE_USER")
        if self.check_mode:
            self.follow_creation(tracker, None)
            return None
        return self.after_creation(tracker, self.send_create(values))

    def check_creation(self, values):
        """What the creation would refuse, before any write: an API user's fields, and a password on edition A."""
        check_kind(values)
        if values.get("api_user") is not True and self.client.edition == "A" and not values.get("password"):
            raise VaultInputError(
                "%s: edition A creates a user who is not an API user only with a password (PASSWORD; edition B "
                "allows none): give password" % self.label
            )

    def track_creation(self, tracker, values, item):
        for field in self.FIELDS:
            value = values.get(field.option)
            if value is None:
                continue
            stored = reported_value(field, item) if item is not None and field.read else None
            tracker.record(field.option, stored, value, stored != value, field.secret)

    def send_create(self, values):
        """``CREATE_USER``. A refused create is followed by one more read: when the user exists by then, a parallel
        run created it (``CreatedMeanwhile``). Returns the new user's handle, with an API user's token."""
        details = create_input(values)
        api_user = values.get("api_user") is True
        token = None
        try:
            if api_user:
                token = users_api.create_api_user(self.client, details)
            else:
                users_api.create_user(self.client, details)
        except VaultAPIError:
            handle = self.find()
            if handle is None:
                raise
            raise CreatedMeanwhile(handle) from None
        try:
            if api_user and token is None:
                raise VaultResponseError("CREATE_USER returned no AUTHTOKEN", operation="CREATE_USER")
            handle = self.find()
            if handle is None:
                raise VaultResponseError("CREATE_USER reported success but the user cannot be found")
        except VaultError as exc:
            raise CreatedButFailed(self.label, exc, token) from None
        return dict(handle, token=token)

    def after_creation(self, tracker, handle):
        """The new user read back, then what follows its creation; a failure carries an API user's token."""
        try:
            self.require_applied(handle["item"])
            return self.result(handle, self.follow_creation(tracker, handle))
        except VaultError as exc:
            raise CreatedButFailed(self.label, exc, handle.get("token")) from None

    def require_applied(self, item):
        """The new user read back (where the vault lists users): a setting it reports otherwise than the task
        gave - dropped without a word - fails the task now, naming it, rather than every later run."""
        found = self.differences(item)
        if found:
            raise VaultNotAppliedError(
                "the vault did not apply %s"
                % "; ".join(
                    "%s (it reports %r)" % (option, stored) for option, (stored, dummy) in sorted(found.items())
                ),
                operation="CREATE_USER",
            )

    def follow_creation(self, tracker, handle):
        """Lock state, MFA reset and memberships of a user just created (``handle`` None: one check mode would
        create), planned against its list item and sent (in check mode: named). True when the lock state was
        written."""
        writes = self.plan_writes(tracker, handle["item"] if handle else None, new=True)
        if self.check_mode:
            self.name_writes(tracker, writes)
            return False
        self.send_writes(tracker, writes, handle["id"])
        return writes.lock is not None

    def plan(self, handle, current):
        """An existing user: first the groups are checked (``prepare_groups``); the settings the list reports are
        compared, and a difference fails the task (``refuse_differences``) or, with ``recreate``, is a
        ``Recreation``; else what was not compared is warned about and the ``Writes`` that follow are returned."""
        tracker = self.tracker
        others = self.prepare_groups()
        item = current["item"]
        found = self.differences(item)
        self.refuse_differences(found)
        if found:
            return self.plan_recreation(tracker, current)
        if item is not None:
            for field in self.reported_fields:
                tracker.compare(field.option, reported_value(field, item), self.desired.get(field.option))
        self.warn_not_compared(tracker, current)
        return self.plan_writes(tracker, item, new=False, remove=others)

    def apply(self, handle, current, changes):
        """Recreate the user, or send the writes; the object after."""
        if isinstance(changes, Recreation):
            return self.recreate(changes.values)
        self.send_writes(self.tracker, changes, current["id"])
        return self.result(current, changes.lock is not None)

    def as_planned(self, current, changes):
        """Nothing sent (nothing to send, or check mode): in check mode the writes ``changes`` holds are named, and
        so is what a recreation would send after the creation. The user as found."""
        if isinstance(changes, Recreation):
            self.calls.extend(RECREATION_CALLS)
            self.follow_creation(self.tracker, None)
        elif changes:
            self.name_writes(self.tracker, changes)
        return self.result(current, False)

    def differences(self, item):
        """``{option: (vault's value, task's value)}`` of the reported settings that differ; none without a list."""
        if item is None:
            return {}
        found = {}
        for field in self.reported_fields:
            value = self.desired.get(field.option)
            stored = reported_value(field, item)
            if value is not None and stored != value:
                found[field.option] = (stored, value)
        return found

    def warn_not_compared(self, tracker, handle):
        """One warning naming the options given for an existing user that could not be compared, and why."""
        item = handle["item"]
        given = [field.option for field in self.FIELDS if self.desired.get(field.option) is not None]
        reasons = []
        locked = item is None and self.desired.get("locked") is not None
        unlisted = [] if item is not None else [field.option for field in self.reported_fields if field.option in given]
        if unlisted or locked:
            reasons.append(
                "%s (the vault has no user list: %s%s)"
                % (
                    ", ".join(unlisted + (["locked"] if locked else [])),
                    handle["no_list"],
                    "; locked is sent as given and counted as a change" if locked else "",
                )
            )
        creation_only = [field.option for field in self.FIELDS if field.write_only and field.option in given]
        if creation_only:
            reasons.append("%s (sent on creation only: the vault never reports them)" % ", ".join(creation_only))
        if reasons:
            tracker.warn(
                "%s exists; not compared with the vault: %s. The API has no call that edits a user"
                % (self.label, "; ".join(reasons))
            )

    def plan_recreation(self, tracker, handle):
        """Delete the user and create it with the task's settings; reported settings not given are kept. An API
        user gets a new token. Whatever the creation could refuse is refused here, before the deletion."""
        item = handle["item"]
        values = dict(self.desired)
        for field in self.reported_fields:
            if values.get(field.option) is None:
                values[field.option] = reported_value(field, item)
        self.check_creation(values)
        if values.get("api_user") is not True and not (values.get("first_name") and values.get("last_name")):
            raise VaultInputError(
                "%s: recreating a user who is not an API user needs first_name and last_name, which the vault "
                "does not report" % self.label
            )
        tracker.record("recreated", False, True, True)
        self.track_creation(tracker, values, item)
        tracker.warn(
            "%s is recreated: it gets a new id and loses its group memberships and shares (groups lists the "
            "memberships it gets back)%s"
            % (self.label, "; an API user gets a new token" if values.get("api_user") else "")
        )
        return Recreation(values)

    def recreate(self, values):
        """Delete the user and create it with ``values``; a creation that fails after the deletion says so."""
        self.calls.extend(RECREATION_CALLS)
        users_api.delete_user_by_name(self.client, values["name"])
        try:
            created = self.send_create(values)
        except CreatedMeanwhile as meanwhile:
            created = meanwhile.handle
        except CreatedButFailed:
            raise
        except VaultError as exc:
            raise exc.reworded("%s was deleted, not recreated: %s" % (self.label, exc)) from None
        return self.after_creation(self.tracker, created)

    def prepare_groups(self):
        """Before any write: the groups of ``groups`` exist. Returns what ``purge_groups`` removes an existing user
        from: ``{group id: name}`` of the user group list (``GET_USERGROUP(S)``, read here) but the groups of
        ``groups``; None without ``purge_groups``."""
        names = self.desired.get("groups") or []
        others = None
        if self.desired.get("purge_groups"):
            group_items, why = read_all_pages_if_served(self.client, users_api.get_user_groups)
            if group_items is None:
                raise self._purge_refused(why)
            known = {item.get("userGroupName") for item in group_items}
            unknown = [name for name in names if name not in known]
            others = {
                str(item.get("userGroupId")): item.get("userGroupName")
                for item in group_items
                if item.get("userGroupName") not in set(names)
            }
        else:
            unknown = [name for name in names if _group_exists(self.client, name) is False]
        if unknown:
            raise VaultNotFoundError(
                "%s: user groups %s do not exist (or are not visible to this token); the API cannot create user "
                "groups" % (self.label, ", ".join(unknown))
            )
        return others

    def plan_writes(self, tracker, item, new, remove=None):
        """The ``Writes`` after the settings, for a ``new`` user (or an existing one: then ``remove``, the groups of
        ``prepare_groups``); records the lock state and the MFA reset. What the memberships change only the vault's
        answers tell (``send_writes``), or check mode assumes (``name_writes``)."""
        lock = self.plan_lock(tracker, item, new)
        reset_mfa = bool(self.desired.get("reset_mfa"))
        if reset_mfa:
            tracker.record("reset_mfa", False, True, True)
        groups = tuple(dict.fromkeys(self.desired.get("groups") or []))
        return Writes(lock=lock, reset_mfa=reset_mfa, add=groups, remove=remove)

    def plan_lock(self, tracker, item, new):
        """``isUserLocked`` where the list reports it; a new user is unlocked; elsewhere unknown, so sent. The
        write that sets ``locked``, None when none is needed."""
        locked = self.desired.get("locked")
        current = flag(item.get("isUserLocked")) if item is not None else (False if new else None)
        if locked is None:
            if item is not None:
                tracker.compare("locked", current, None)
            return None
        differs = current != locked
        tracker.record("locked", current, locked, differs)
        if not differs:
            return None
        return users_api.lock_user if locked else users_api.unlock_user

    def send_writes(self, tracker, writes, user_id):
        """Send ``writes`` (never in check mode) and record what the memberships changed: ``ADD USER TO USERGROUP``
        is a change unless the vault answers that the user is a member already; a removal counts for the groups the
        user was in."""
        name = self.desired["name"]
        self.calls.extend(writes.call_names)
        for write in writes.actions:
            write(self.client, name)
        if writes.add:
            added = [group for group in writes.add if add_member(self.client, name, group)]
            tracker.record("added_to_groups", [], added, bool(added))
        if writes.remove:
            removed = removal_outcomes(self.client, user_id, writes.remove)
            tracker.record("removed_from_groups", [], removed, bool(removed))

    def name_writes(self, tracker, writes):
        """Check mode: ``writes`` named in ``calls``. It cannot read memberships (no call does): every group to add
        counts as a change, and both the additions and the removals are warned about."""
        self.calls.extend(writes.call_names)
        if writes.add:
            tracker.warn(
                "check mode cannot tell whether %s is a member of user groups %s already (the API has no call that "
                "reads memberships): a real run reports a change only for the groups it was added to"
                % (self.desired["name"], ", ".join(writes.add))
            )
            tracker.record("added_to_groups", [], list(writes.add), True)
        if writes.remove:
            tracker.warn(
                "%s: check mode cannot tell which of the user groups %s the user is in (no call reads a user's "
                "memberships); a real run removes it from those it is in, and counts only those as a change"
                % (self.label, ", ".join(sorted(writes.remove.values())))
            )

    def result(self, handle, relocked):
        """The object after: ``{"user_id", "user"}``, with ``token`` when the run created an API user; the list item
        is read again when the lock state of a listed user was written."""
        after = handle
        if relocked and handle["item"] is not None:
            after = self.find() or handle
        result = {"user_id": after["id"], "user": after["item"] or {}}
        if handle.get("token") is not None:
            result["token"] = handle["token"]
        return result

    def delete(self, handle):
        try:
            if self.desired.get("name"):
                users_api.delete_user_by_name(self.client, self.desired["name"])
            else:
                users_api.delete_user(self.client, handle["id"])
        except VaultAPIError as exc:
            if handle.get("unverified") and exc.http_status is not None and 200 <= exc.http_status < 300:
                self.tracker.warn("%s: taken as absent, the vault refused to delete it: %s" % (self.label, exc))
                return False
            return self.deleted_meanwhile(exc)
        return True


def _group_exists(client, name):
    """True or False by ``GET_USERGROUPID``; None where the vault lacks it (the add's own answer decides then)."""
    try:
        return find_user_group_id(client, name)[0] is not None
    except VaultUnsupportedError:
        return None


def converge(task):
    """Entry point of ``vault_user``: the user ``task.desired`` describes, converged to its ``state``; returns
    ``{"user_id", "user", "calls"}`` with ``token`` when the run created an API user."""
    user = User(task)
    after = user.ensure()
    if task.state == "absent" and task.tracker.changed:
        user.calls.append("DELETE USER")
    return dict(after or {"user_id": None, "user": {}}, calls=user.calls)
