# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Sharing resources, accounts and resource groups with users and user groups, and revoking it.

What the API offers, and what that means here:

- Every sharing call is a PUT, and no call reads a share back: the spec lists
  no way to learn with whom something is shared. Nothing can be compared, so
  every run sends its share calls, and a task reports ``changed`` exactly when
  it sent share calls (in check mode: would send them). Sharing again at the
  same level, or revoking what was never shared, is reported changed too.
  The forks of one task on one host send them once: the targets' lock
  is held around the calls, and a fork that finds every pair sent by another
  fork of the task (``_object_lock.sent_by_this_task``) sends nothing and
  reports no change (``sent_by_another_fork``).
- The access types of the spec's "Sharing": resources ``view``, ``modify``,
  ``fullaccess``; an account shared with a user ``view``, ``modify``; an
  account shared with a user group ``view``, ``modify``, ``fullaccess``;
  resource groups ``view``, ``modify``, ``fullaccess``; ``revoke`` for all.
  ``remoteapponly`` exists only in the ``accessType`` of ``/accounts/share``
  (B 6320), with ``remoteAppIds`` and the accounts' one ``resourceId``. Input
  outside this matrix is refused before any request.
- Since nothing can be read, the diff's ``before`` is null and its ``after``
  names every share the task sends: ``shares``, each target (by its label, as
  ``calls`` names it) to each grantee to the access type (``revoked`` with
  ``state: absent``).
- Calls: ``SHARE RESOURCE`` and ``SHARE ACCOUNT`` share one target with one
  ``USERID`` (any build) or ``USERGROUPID`` (A 11200 / B 5100). The bulk calls
  ``SHARE_RESOURCE(S)`` (``/resources/share``) and ``SHARE_ACCOUNTS(S)``
  (``/accounts/share``), B 6320, take lists of targets, and ``userIds`` or
  ``userGroupIds`` - one of them, so users and user groups are two calls. The
  bulk call is used when the configured edition and build have it; without a
  configured edition and build, the per-target calls. ``/accounts/share`` has
  no ``fullaccess``: an account shared with a user group at ``fullaccess``
  always goes by ``SHARE ACCOUNT``. Resource groups are shared only by
  ``SHARE_RESOURCEGROUP(S)`` (A 12450 / B 6320), whose ``statusCode`` 20001
  says "a bulk share action was triggered".
- Every name (resource, account, resource group, user, user group, remote
  app) is resolved to its id before the first share call, so an unknown name
  fails before anything is shared. User and user group ids given as ids are
  sent as they are: the vault's answer decides.
- A failed call fails the task naming what it shared with whom, and the calls
  sent before it (which stay applied). A bulk answer whose Details carry a
  status per id (the shape of the spec's other multi-target answers: Details
  keyed by id, each ``{status, message}``) fails naming the items not shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ._account import require_account
from ._api import resources as resources_api
from ._api import sharing as sharing_api
from ._api import users as users_api
from ._api._declare import require, unsupported_reason
from ._checks import clean_text
from ._errors import VaultAPIError, VaultError, VaultInputError, VaultNotFoundError, VaultUnsupportedError, not_found
from ._object_lock import sent_by_this_task
from ._resource import find_resource_id
from ._resource_group import find_group, list_groups
from ._response import SUCCESS_CODES
from ._user import require_user_id
from ._user_group import require_user_group_id

# The kind of object whose lock is held while share calls are sent: the targets they share (``_object_lock``).
LOCKED_KIND = "share targets"

VIEW, MODIFY, FULL_ACCESS, REMOTE_APP_ONLY, REVOKE = "view", "modify", "fullaccess", "remoteapponly", "revoke"
ACCESS_LEVELS = (VIEW, MODIFY, FULL_ACCESS, REMOTE_APP_ONLY)

RESOURCE, ACCOUNT, RESOURCE_GROUP = "resource", "account", "resource group"
USER, USER_GROUP = "user", "user group"
# The order calls are made in.
TARGET_KINDS = (RESOURCE_GROUP, RESOURCE, ACCOUNT)

# The spec's access types for each (what, with whom), revoke aside.
LEVELS = {
    (RESOURCE, USER): (VIEW, MODIFY, FULL_ACCESS),
    (RESOURCE, USER_GROUP): (VIEW, MODIFY, FULL_ACCESS),
    (ACCOUNT, USER): (VIEW, MODIFY, REMOTE_APP_ONLY),
    (ACCOUNT, USER_GROUP): (VIEW, MODIFY, FULL_ACCESS, REMOTE_APP_ONLY),
    (RESOURCE_GROUP, USER): (VIEW, MODIFY, FULL_ACCESS),
    (RESOURCE_GROUP, USER_GROUP): (VIEW, MODIFY, FULL_ACCESS),
}
PER_TARGET = {
    (RESOURCE, USER): sharing_api.share_resource_with_user,
    (RESOURCE, USER_GROUP): sharing_api.share_resource_with_group,
    (ACCOUNT, USER): sharing_api.share_account_with_user,
    (ACCOUNT, USER_GROUP): sharing_api.share_account_with_group,
}
BULK = {
    RESOURCE: sharing_api.share_resources,
    ACCOUNT: sharing_api.share_accounts,
    RESOURCE_GROUP: sharing_api.share_resource_groups,
}
# The accessType each bulk call takes; the spec lists none for /resources/share, which shares resources.
BULK_LEVELS = {
    sharing_api.share_resources: (VIEW, MODIFY, FULL_ACCESS, REVOKE),
    sharing_api.share_accounts: (VIEW, MODIFY, REMOTE_APP_ONLY, REVOKE),
    sharing_api.share_resource_groups: (VIEW, MODIFY, FULL_ACCESS, REVOKE),
}
BULK_TARGET_IDS = {RESOURCE: "resourceIds", ACCOUNT: "accountIds", RESOURCE_GROUP: "resourceGroupIds"}
BULK_GRANTEE_IDS = {USER: "userIds", USER_GROUP: "userGroupIds"}
# Why a call the configured vault lacks is needed, for the refusal.
NEEDED_FOR = {
    sharing_api.share_resource_groups: "resource groups are shared only by SHARE_RESOURCEGROUP(S)",
    sharing_api.share_accounts: "remoteapponly is shared only by SHARE_ACCOUNTS(S)",
    sharing_api.share_resource_with_group: "sharing a resource with a user group",
    sharing_api.share_account_with_group: "sharing an account with a user group",
    users_api.get_user_group_id: "user group names are resolved by GET_USERGROUPID",
    resources_api.get_associated_remote_apps: "remote apps are resolved by GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE",
}


@dataclass
class Party:
    """A target or a grantee: ``kind``, its name (None when given by id) and id (None when check mode takes it as
    created by an earlier task). An account's ``resource_id`` is its resource's; a resource's is its own id."""

    kind: str
    name: str | None
    id: str | None
    resource_id: str | None = None

    @property
    def label(self):
        return "%s %s" % (self.kind, self.name) if self.name is not None else "%s id %s" % (self.kind, self.id)


@dataclass
class Request:
    """The task's input, checked: access type (``revoke`` for state absent), names by kind, remote apps."""

    level: str
    targets: dict
    users: list
    user_ids: list
    user_groups: list
    user_group_ids: list
    remote_apps: list
    remote_app_ids: list

    @property
    def grantee_kinds(self):
        kinds = []
        if self.users or self.user_ids:
            kinds.append(USER)
        if self.user_groups or self.user_group_ids:
            kinds.append(USER_GROUP)
        return kinds

    @property
    def target_kinds(self):
        return [kind for kind in TARGET_KINDS if self.targets[kind]]


@dataclass
class Call:
    """One share call: the gateway function that sends it and what it takes after the client (``arguments``), and
    what it shares with whom (for the result and messages)."""

    send: Callable
    targets: list
    grantees: list
    level: str
    arguments: tuple
    remote_apps: list = field(default_factory=list)

    @property
    def operation(self):
        return self.send.endpoint.operation

    def entry(self):
        """The call as the module returns it: never an id the task did not give, never a secret."""
        entry = {
            "operation": self.operation,
            "what": [target.label for target in self.targets],
            "whom": [grantee.label for grantee in self.grantees],
            "access": self.level,
        }
        if self.level == REMOTE_APP_ONLY:
            entry["remote_apps"] = list(self.remote_apps)
        return entry

    def summary(self):
        what = ", ".join(target.label for target in self.targets)
        whom = ", ".join(grantee.label for grantee in self.grantees)
        if self.level == REVOKE:
            return "%s revoking %s from %s" % (self.operation, what, whom)
        return "%s sharing %s with %s at %s" % (self.operation, what, whom, self.level)

    def labels_by_id(self):
        labels = {str(target.id): target.label for target in self.targets}
        for grantee in self.grantees:
            labels.setdefault(str(grantee.id), grantee.label)
        return labels


def _unique(values):
    return list(dict.fromkeys(values))


def _names(values, what):
    return _unique(clean_text(value, what) for value in values or [])


def _ids(values, what):
    """Ids given as ids: whole numbers (users, user groups) or text (remote apps), as strings."""
    return _unique(clean_text(str(value), what) for value in values or [])


def read_request(desired):
    """The task's options as a ``Request``; whatever the spec's sharing rules refuse is refused here, before any
    request (``VaultInputError``)."""
    request = Request(
        level=_level(desired),
        targets={
            RESOURCE: _names(desired.get("resources"), "resources entry"),
            ACCOUNT: _unique(
                (
                    clean_text(item.get("resource"), "accounts resource"),
                    clean_text(item.get("account"), "accounts account"),
                )
                for item in desired.get("accounts") or []
            ),
            RESOURCE_GROUP: _names(desired.get("resource_groups"), "resource_groups entry"),
        },
        users=_names(desired.get("users"), "users entry"),
        user_ids=_ids(desired.get("user_ids"), "user_ids entry"),
        user_groups=_names(desired.get("user_groups"), "user_groups entry"),
        user_group_ids=_ids(desired.get("user_group_ids"), "user_group_ids entry"),
        remote_apps=_names(desired.get("remote_apps"), "remote_apps entry"),
        remote_app_ids=_ids(desired.get("remote_app_ids"), "remote_app_ids entry"),
    )
    if not request.target_kinds:
        raise VaultInputError("nothing to share: give resources, accounts or resource_groups")
    if not request.grantee_kinds:
        raise VaultInputError("no one to share with: give users, user_ids, user_groups or user_group_ids")
    check_matrix(request)
    check_remote_apps(request)
    return request


def _level(desired):
    access = desired.get("access")
    if (desired.get("state") or "present") == "absent":
        if access is not None:
            raise VaultInputError(
                "access %s is not used with state=absent: revoking takes back whatever was shared" % access
            )
        return REVOKE
    if access is None:
        raise VaultInputError("access is required with state=present")
    if access not in ACCESS_LEVELS:
        raise VaultInputError("access must be one of %s, not %s" % (", ".join(ACCESS_LEVELS), access))
    return access


def check_matrix(request):
    """Refuse an access type the spec's sharing table does not give some (what, with whom) of the task."""
    if request.level == REVOKE:
        return
    for kind in request.target_kinds:
        for grantee_kind in request.grantee_kinds:
            allowed = LEVELS[(kind, grantee_kind)]
            if request.level in allowed:
                continue
            message = "%ss shared with a %s take %s, not %s" % (kind, grantee_kind, ", ".join(allowed), request.level)
            if request.level == REMOTE_APP_ONLY:
                message += " (remoteapponly is only for accounts)"
            elif kind == ACCOUNT:
                message += " (fullaccess on an account is only for user groups; share its resource instead)"
            raise VaultInputError(message)


def check_remote_apps(request):
    """``remoteapponly`` needs remote apps and one resource for all the accounts; other access types take none."""
    given = request.remote_apps or request.remote_app_ids
    if request.level != REMOTE_APP_ONLY:
        if given:
            raise VaultInputError("remote_apps and remote_app_ids are only for access remoteapponly")
        return
    if not given:
        raise VaultInputError("access remoteapponly needs remote_apps or remote_app_ids")
    resources = _unique(resource for resource, dummy_account in request.targets[ACCOUNT])
    if len(resources) > 1:
        raise VaultInputError(
            "access remoteapponly shares accounts of one resource (SHARE_ACCOUNTS(S) takes one resourceId), "
            "not of %s: use one task per resource" % ", ".join(resources)
        )


def has(client, function):
    """True when the configured edition and build have the row of gateway function ``function``; False when none is
    configured."""
    if client.edition is None or client.build is None:
        return False
    return unsupported_reason(client, function) is None


def route(client, kind, grantee_kind, level):
    """The gateway function that shares ``kind`` with ``grantee_kind`` at ``level``: the bulk call where it is the
    only one or the configured vault has it (with that access type), else the per-target call."""
    bulk = BULK[kind]
    if kind == RESOURCE_GROUP or level == REMOTE_APP_ONLY:
        return bulk
    if level in BULK_LEVELS[bulk] and has(client, bulk):
        return bulk
    return PER_TARGET[(kind, grantee_kind)]


def plan_routes(client, request):
    """``{(kind, grantee kind): gateway function}``; every call the task needs (writes and the look-ups that only some
    builds have) is checked against the configured edition and build before any request."""
    routes = {
        (kind, grantee_kind): route(client, kind, grantee_kind, request.level)
        for kind in request.target_kinds
        for grantee_kind in request.grantee_kinds
    }
    needed = sorted(set(routes.values()), key=lambda function: function.endpoint.key)
    if request.user_groups:
        needed.append(users_api.get_user_group_id)
    if request.level == REMOTE_APP_ONLY:
        needed.append(resources_api.get_associated_remote_apps)
    for function in needed:
        try:
            require(client, function)
        except VaultUnsupportedError as exc:
            raise lacking(function, exc) from None
    return routes


def lacking(function, exc):
    """The refusal of a task that needs ``function``'s row, which the vault lacks (``exc``), saying what for."""
    reason = NEEDED_FOR.get(function)
    message = "%s: %s" % (reason, exc) if reason else str(exc)
    return VaultUnsupportedError(
        message, operation=exc.operation, http_status=exc.http_status, vault_message=exc.vault_message
    )


class Resolver:
    """Names to ids, before any write. An unknown name fails; in check mode an unknown resource, account, resource
    group or user is taken as created by an earlier task of the run (a warning, and no id). User groups and remote
    apps, which the API cannot create, must exist in check mode too."""

    def __init__(self, task):
        self.task = task
        self.client = task.client
        self.check_mode = task.check_mode
        self._groups_read = False
        self._groups = None

    def assume(self, error):
        """Raise ``error`` outside check mode; in check mode warn that it is taken as created earlier."""
        if not self.check_mode:
            raise error
        self.task.warn(
            "%s: check mode takes it as created by an earlier task, a real run fails unless it exists by then" % error
        )

    def resource(self, name):
        resource_id = find_resource_id(self.client, name)
        if resource_id is None:
            self.assume(not_found("resource", name))
        return Party(RESOURCE, name, resource_id, resource_id)

    def account(self, resource, name):
        try:
            ref = require_account(self.client, resource, name)
        except VaultNotFoundError as exc:
            self.assume(exc)
            return Party(ACCOUNT, "%s/%s" % (resource, name), None)
        return Party(ACCOUNT, ref.label, ref.account_id, ref.resource_id)

    def resource_group(self, name):
        if not self._groups_read:
            self._groups, self._groups_read = list_groups(self.client), True
        group = find_group(self.client, self._groups, name)
        if group is None:
            self.assume(not_found("resource group", name))
            return Party(RESOURCE_GROUP, name, None)
        return Party(RESOURCE_GROUP, name, str(group["resourceGroupId"]))

    def user(self, name):
        try:
            return Party(USER, name, require_user_id(self.client, name))
        except VaultNotFoundError as exc:
            self.assume(exc)
            return Party(USER, name, None)

    def user_group(self, name):
        return Party(USER_GROUP, name, require_user_group_id(self.client, name))

    def targets(self, request):
        return {
            RESOURCE: [self.resource(name) for name in request.targets[RESOURCE]],
            ACCOUNT: [self.account(resource, name) for resource, name in request.targets[ACCOUNT]],
            RESOURCE_GROUP: [self.resource_group(name) for name in request.targets[RESOURCE_GROUP]],
        }

    def grantees(self, request):
        users = [self.user(name) for name in request.users] + [Party(USER, None, i) for i in request.user_ids]
        groups = [self.user_group(name) for name in request.user_groups]
        groups += [Party(USER_GROUP, None, i) for i in request.user_group_ids]
        return {USER: _unique_parties(users), USER_GROUP: _unique_parties(groups)}

    def remote_apps(self, request):
        """``(resource id, [(name, id)])`` of the remote apps of ``remoteapponly``, checked against the remote apps
        associated with the accounts' resource."""
        resource = request.targets[ACCOUNT][0][0]
        resource_id = find_resource_id(self.client, resource)
        if resource_id is None:
            raise not_found("resource", resource, ", so it has no remote apps")
        try:
            apps = resources_api.get_associated_remote_apps(self.client, resource_id)
        except VaultUnsupportedError as exc:
            raise lacking(resources_api.get_associated_remote_apps, exc) from None
        chosen = [_app_by(apps, "name", name, resource) for name in request.remote_apps]
        chosen += [_app_by(apps, "id", app_id, resource) for app_id in request.remote_app_ids]
        return resource_id, _unique((str(app.get("name")), str(app.get("id"))) for app in chosen)


def _unique_parties(parties):
    """Grantees once each: a user given by name and by id is one grantee (those not resolved stay apart)."""
    seen, unique = set(), []
    for party in parties:
        if party.id is None or party.id not in seen:
            unique.append(party)
            seen.add(party.id)
    return unique


def _app_by(apps, key, value, resource):
    found = [app for app in apps if str(app.get(key)) == value]
    if len(found) == 1:
        return found[0]
    if found:
        raise VaultInputError(
            "several remote apps of resource %s are called %s: give remote_app_ids instead" % (resource, value)
        )
    known = ", ".join("%s (id %s)" % (app.get("name"), app.get("id")) for app in apps) or "none"
    raise VaultNotFoundError(
        "remote app %s %s is not associated with resource %s; its remote apps: %s" % (key, value, resource, known)
    )


def plan_calls(routes, targets, grantees, level, remote=None):
    """The share calls, in order: resource groups, resources, accounts; for each, users, then user groups."""
    calls = []
    for kind, grantee_kind in routes:
        send = routes[(kind, grantee_kind)]
        items, whom = targets[kind], grantees[grantee_kind]
        if send is BULK[kind]:
            calls.append(bulk_call(send, kind, items, grantee_kind, whom, level, remote))
        else:
            calls.extend(single_call(send, item, grantee, level) for item in items for grantee in whom)
    return calls


def single_call(send, target, grantee, level):
    """``SHARE RESOURCE`` or ``SHARE ACCOUNT`` of one target (an account by its resource's id and its own) with one
    grantee."""
    ids = (target.resource_id, target.id) if target.kind == ACCOUNT else (target.resource_id,)
    return Call(send, [target], [grantee], level, ids + (grantee.id, level))


def bulk_call(send, kind, targets, grantee_kind, grantees, level, remote):
    """A bulk call: the ``resourceIds``, ``accountIds`` or ``resourceGroupIds``, ``accessType``, and ``userIds`` or
    ``userGroupIds``; ``remoteapponly`` adds ``remoteAppIds`` and ``resourceId`` (a number)."""
    details = {
        BULK_TARGET_IDS[kind]: [target.id for target in targets],
        "accessType": level,
        BULK_GRANTEE_IDS[grantee_kind]: [grantee.id for grantee in grantees],
    }
    names = []
    if level == REMOTE_APP_ONLY:
        resource_id, apps = remote
        details.update({"remoteAppIds": [app_id for dummy_name, app_id in apps], "resourceId": int(resource_id)})
        names = [name for name, dummy_id in apps]
    return Call(send, list(targets), list(grantees), level, (details,), remote_apps=names)


def refused_items(response, call):
    """What a bulk answer's Details (keyed by id, each ``{status, message}``) report as not shared, by label."""
    labels = call.labels_by_id()
    refused = []
    for item_id, outcome in response.details_dict().items():
        if isinstance(outcome, dict) and not _item_ok(outcome):
            message = outcome.get("message") or outcome.get("MESSAGE") or "no message given"
            refused.append("%s (%s)" % (labels.get(str(item_id), "id %s" % item_id), message))
    return refused


def _item_ok(outcome):
    status = outcome.get("status", outcome.get("STATUS"))
    if status is not None:
        return str(status).lower() == "success"
    code = outcome.get("statusCode")
    return code is None or str(code) in {str(c) for c in SUCCESS_CODES}


def _already_sent(sent):
    if not sent:
        return ""
    return "; sent before it, and applied: %s" % "; ".join(call.summary() for call in sent)


def send(client, calls):
    """Send ``calls`` in order; the first failure fails the task naming the call and those sent before it."""
    sent = []
    for call in calls:
        try:
            response = call.send(client, *call.arguments)
        except VaultError as exc:
            raise exc.restated("%s failed: %s%s" % (call.summary(), exc, _already_sent(sent))) from None
        refused = refused_items(response, call)
        if refused:
            failure = VaultAPIError(
                "%s: the vault did not share %s%s" % (call.summary(), "; ".join(sorted(refused)), _already_sent(sent)),
                operation=response.operation or call.operation,
                vault_message=response.message,
            )
            failure.names_its_writes = True
            raise failure
        sent.append(call)


def track_shares(tracker, calls, sent):
    """Record what ``calls`` share: ``shares``, {target label: {grantee label: access type}} (``revoked`` when they
    revoke). No call reads shares, so ``before`` is null and every share sent is a change; when another fork of the
    task sent the same (``sent`` false), ``before`` is the same and nothing changes."""
    shares = {}
    for call in calls:
        for target in call.targets:
            for grantee in call.grantees:
                shares.setdefault(target.label, {})[grantee.label] = "revoked" if call.level == REVOKE else call.level
    tracker.record("shares", None if sent else shares, shares, sent and bool(calls))


def converge(task):
    """Entry point of ``vault_share``: share (or with ``state: absent`` revoke) as ``task.desired`` says; returns
    ``{"calls"}``, the calls made (in check mode those that would be) as the module returns them (``Call.entry``)."""
    client = task.client
    request = read_request(task.desired)
    routes = plan_routes(client, request)
    resolver = Resolver(task)
    remote = resolver.remote_apps(request) if request.level == REMOTE_APP_ONLY else None
    targets = resolver.targets(request)
    grantees = resolver.grantees(request)
    calls = plan_calls(routes, targets, grantees, request.level, remote)
    if task.check_mode:
        track_shares(task.tracker, calls, True)
        return {"calls": [call.entry() for call in calls], "sent_by_another_fork": False}
    parts = sent_parts(calls)
    targets = sorted({target.label for call in calls for target in call.targets})
    with sent_by_this_task(client, LOCKED_KIND, targets) as record:
        repeated = record.repeats(parts)
        track_shares(task.tracker, calls, not repeated)
        if not repeated:
            send(client, calls)
            record.sent(parts)
    return {"calls": [call.entry() for call in calls], "sent_by_another_fork": repeated}


def sent_parts(calls):
    """What ``calls`` set, pair by pair: ``{"<target> | <grantee>": access (and remote apps)}``."""
    return {
        "%s | %s" % (target.label, grantee.label): [call.level] + list(call.remote_apps)
        for call in calls
        for target in call.targets
        for grantee in call.grantees
    }
