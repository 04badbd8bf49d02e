# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Many accounts of one resource in one task (``vault_accounts``): one account list read, one ADD ACCOUNTS, edits
only where they differ.

Each account is an ``Account`` of ``_account``: its checks, creation item, comparison and writes are that
module's, run on ids taken from the resource's ``ACCOUNT LIST`` instead of one lookup per account. Every
comparison is read before the first write; in check mode nothing else is sent.
"""

from __future__ import annotations

from ._account import Account, AccountRef, item_status
from ._api import accounts as accounts_api
from ._api._declare import require
from ._checks import clean_text
from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultError, VaultInputError, VaultNotAppliedError, not_found
from ._redaction import scrub
from ._resource import find_resource_id, read_resource
from ._task import Task

# The options of the task that apply to every listed account.
SHARED_OPTIONS = ("resource", "state", "update_password", "reason", "ticket_id", "force_settings")


def converge(task):
    """Entry point of ``vault_accounts``: the accounts ``desired["accounts"]`` of ``desired["resource"]``, converged
    to the task's ``state``.

    Records in ``task.tracker`` a diff keyed by account name; returns ``{"accounts"}``: per listed account in order,
    ``name``, ``account_id`` and ``outcome`` (created, updated, unchanged, deleted or absent).

    Shape 2 although each account has a name and present/absent: the task converges a list of ``Account``
    objects (``_account``) together, one list read and one ``ADD ACCOUNTS`` for all, not one object.
    """
    client, check_mode, state, tracker = task.client, task.check_mode, task.state, task.tracker
    accounts = _accounts(task)
    resource = task.desired["resource"]
    for account in accounts:
        account.check_names()
        if state == "present":
            account.check_input()
    resource_id = find_resource_id(client, resource)
    if resource_id is None:
        return {"accounts": _in_missing_resource(tracker, accounts, state, check_mode, resource)}
    listed = _account_ids(client, resource_id)
    if state == "absent":
        return {"accounts": _remove(tracker, accounts, listed, resource_id, check_mode)}
    return {"accounts": _Convergence(client, accounts, resource_id, check_mode).run(tracker, listed)}


def _accounts(task):
    """One ``Account`` per listed account, with the task's shared options; a name listed twice is refused."""
    params = task.desired
    clean_text(params.get("resource"), "resource")
    shared = {option: params.get(option) for option in SHARED_OPTIONS}
    seen, repeated = set(), []
    for item in params["accounts"]:
        name = item.get("name")
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    if repeated:
        raise VaultInputError("accounts lists %s more than once" % ", ".join(str(name) for name in repeated))
    return [Account(Task(task.client, dict(item, **shared), task.check_mode)) for item in params["accounts"]]


def _account_ids(client, resource_id):
    """Account name to id, from one ``GET RESOURCE ACCOUNTLIST``."""
    items = read_resource(client, resource_id).get("ACCOUNT LIST") or []
    return {item.get("ACCOUNT NAME"): str(item.get("ACCOUNT ID")) for item in items if isinstance(item, dict)}


def _ref(account, resource_id, account_id):
    return AccountRef(account.desired["resource"], account.desired["name"], resource_id, account_id)


def _record(tracker, trackers):
    """Record each account's tracker in the task's ``tracker`` (diff keyed by account name, every warning)."""
    for name, sub in trackers.items():
        tracker.record(name, sub.before, sub.after, sub.changed)
        for warning in sub.warnings:
            tracker.warn(warning)


def _outcome(name, account_id, outcome):
    return {"name": name, "account_id": account_id, "outcome": outcome}


def _in_missing_resource(tracker, accounts, state, check_mode, resource):
    """A missing resource holds no account: all are absent; with ``present`` it is an error, except in check
    mode, where an earlier task would create the resource and every account would be created in it."""
    missing = not_found("resource", resource)
    if state == "present" and not check_mode:
        raise missing
    trackers, outcomes = {}, []
    for account in accounts:
        name, sub = account.desired["name"], DifferenceTracker()
        trackers[name] = sub
        if state == "absent":
            sub.record("state", "absent", "absent", False)
            outcomes.append(_outcome(name, None, "absent"))
            continue
        account.check_create_input()
        sub.record("state", "absent", "present", True)
        account.creation_item(sub)
        outcomes.append(_outcome(name, None, "created"))
    _record(tracker, trackers)
    if state == "present":
        tracker.warn(
            "%s: in check mode that means an earlier task would create it, so every listed account (%d) would be "
            "created in it" % (missing, len(accounts))
        )
    return outcomes


def _remove(tracker, accounts, listed, resource_id, check_mode):
    """``DELETE ACCOUNT`` for each listed account the resource has; one deleted meanwhile counts as absent."""
    trackers, outcomes, deleted = {}, [], []
    for account in accounts:
        name, sub = account.desired["name"], DifferenceTracker()
        trackers[name] = sub
        account_id = listed.get(name)
        if account_id is None:
            sub.record("state", "absent", "absent", False)
            outcomes.append(_outcome(name, None, "absent"))
            continue
        gone = check_mode or _after_writes(deleted, lambda: account.delete(_ref(account, resource_id, account_id)))
        sub.record("state", "present", "absent", gone is not False)
        outcomes.append(_outcome(name, account_id, "deleted" if gone is not False else "absent"))
        if gone is not False:
            deleted.append("%s (deleted)" % name)
    _record(tracker, trackers)
    return outcomes


def _after_writes(done, step):
    """Run ``step``; if it fails after earlier writes of this task, say which were already made."""
    try:
        return step()
    except VaultError as exc:
        if not done:
            raise
        raise exc.restated("%s; already written in this task: %s" % (exc, ", ".join(done))) from None


def _already_exists(status):
    """True when an ``ADD ACCOUNTS`` item's STATUS refuses the account because it exists ("Account svc already
    exists"): a parallel run added it meanwhile."""
    return status is not None and "exist" in status.lower()


class _Convergence:
    """``state: present``: compare every existing account (reads only), then one ``ADD ACCOUNTS`` for the missing
    ones, then the edits."""

    def __init__(self, client, accounts, resource_id, check_mode):
        self.client = client
        self.accounts = accounts
        self.resource_id = resource_id
        self.check_mode = check_mode
        self.trackers = {account.desired["name"]: account.tracker for account in accounts}
        self.ids = {}
        self.outcomes = {}
        self.pending = []  # (account, ref, changes) to write
        self.done = []  # what this task wrote, for the message of a later failure
        self.added = []  # names of the accounts this task added

    def run(self, tracker, listed):
        """Converge; records each account's tracker in ``tracker`` and returns the per-account outcomes."""
        missing = [account for account in self.accounts if account.desired["name"] not in listed]
        items = {}
        for account in missing:
            account.check_create_input()
            name = account.desired["name"]
            self.trackers[name].record("state", "absent", "present", True)
            items[name] = account.creation_item(self.trackers[name])
            self.outcomes[name] = "created"
        for account in self.accounts:
            if account.desired["name"] in listed:
                self._compare(account, listed[account.desired["name"]])
        if not self.check_mode:
            if items:
                require(self.client, accounts_api.add_accounts, details={"ACCOUNTLIST": list(items.values())})
                self._add(missing, items)
            for account, ref, changes in self.pending:
                _after_writes(self.done, lambda: account.write(ref, changes))
                self.done.append("%s (updated)" % ref.name)
            self._require_applied()
        _record(tracker, self.trackers)
        return [_outcome(name, self.ids.get(name), self.outcomes[name]) for name in self.trackers]

    def _compare(self, account, account_id):
        """Read what the account's options need (detail, password, TOTP) and queue the writes that differ."""
        name = account.desired["name"]
        ref = _ref(account, self.resource_id, account_id)
        self.ids[name] = account_id
        tracker = self.trackers[name]
        tracker.record("state", "present", "present", False)
        current = account.read(ref) if account.needs_detail() else None
        changes = account.plan(ref, current)
        self.outcomes[name] = "updated" if changes else "unchanged"
        if changes:
            self.pending.append((account, ref, changes))

    def _add(self, missing, items):
        """One ``ADD ACCOUNTS``; then the list, read once, says which were added: the answer may be Success with
        items refused, or Failed with items added."""
        overall = None  # the call's own message, for items the answer gives no STATUS
        try:
            details = accounts_api.add_accounts(self.client, self.resource_id, list(items.values()))
        except VaultAPIError as refusal:
            details, overall = refusal.details, refusal.vault_message
        listed = _account_ids(self.client, self.resource_id)
        refused, meanwhile, added = [], [], []
        for account in missing:
            name = account.desired["name"]
            status = item_status(details, name)
            if name not in listed:
                refused.append((account, status or overall))
            elif _already_exists(status):
                meanwhile.append((account, listed[name]))
            else:
                self.ids[name] = listed[name]
                added.append(name)
                self.added.append(name)
                self.done.append("%s (added)" % name)
        if added:
            # Written, whatever the answer's overall status said (a Failed answer leaves the client unaware).
            self.client.wrote = True
        if refused:
            raise self._refusal(refused, added)
        for account, account_id in meanwhile:
            name = account.desired["name"]
            account.tracker.clear()
            self._compare(account, account_id)

    def _require_applied(self):
        """Read back what the vault may have dropped of the added accounts' settings (``Account.not_applied``: the
        TOTP, and notes and custom fields when given), after every write; fail naming them and what was written."""
        found = []
        for account in self.accounts:
            name = account.desired["name"]
            if name in self.added:
                ref = _ref(account, self.resource_id, self.ids[name])
                detail = account.read(ref) if account.needs_detail() else None
                found.extend("%s: %s" % (name, what) for what in account.not_applied(ref, detail))
        if found:
            failure = VaultNotAppliedError(
                "the vault did not apply, to the accounts this task added, %s; already written in this task: %s"
                % ("; ".join(found), ", ".join(self.done)),
                operation="ADD ACCOUNTS",
            )
            failure.names_its_writes = True
            raise failure

    def _refusal(self, refused, added):
        """Every refused account with its STATUS (passwords scrubbed), and what was added."""
        passwords = [account.desired.get("password") for account in self.accounts]
        reasons = [
            "%s: %s" % (account.desired["name"], scrub(status or "no status given", passwords))
            for account, status in refused
        ]
        return VaultAPIError(
            "ADD ACCOUNTS refused %d of the accounts to add to resource %s (%s); added: %s; no other account was "
            "changed"
            % (len(refused), self.accounts[0].desired["resource"], "; ".join(reasons), ", ".join(added) or "none"),
            operation="ADD ACCOUNTS",
            vault_message="; ".join(reasons),
        )
