# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Many accounts of one resource in one task (``vault_accounts``): one account list read, one ADD ACCOUNTS, edits
only where they differ.

Each account is a ``ListedAccount``: an ``Account`` of ``_account``, whose checks, creation item, comparison and
writes are that module's, and for which the steps of the converge base (``_converge``) decide, as for one account;
its handle comes from the resource's ``ACCOUNT LIST`` instead of one lookup per account, and its hooks leave the
writes to this task, which sends them together. Every comparison is read before the first write; in check mode
nothing else is sent.
"""

from __future__ import annotations

from ._account import Account, AccountRef, item_status
from ._api import accounts as accounts_api
from ._api._declare import require
from ._checks import clean_text
from ._converge import created_in_missing_parent
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
    client, check_mode, state = task.client, task.check_mode, task.state
    accounts = _accounts(task)
    resource = task.desired["resource"]
    for account in accounts:
        account.check_names()
        if state == "present":
            account.check_input()
    resource_id, warning = find_resource_id(client, resource), None
    if resource_id is None:
        # A missing resource holds no account; an earlier task would create it in check mode.
        if state == "present":
            what = "every listed account (%d)" % len(accounts)
            warning = created_in_missing_parent(not_found("resource", resource), check_mode, what)
        listed = {}
    else:
        listed = _account_ids(client, resource_id)
    handles = [_handle(account, resource_id, listed.get(account.name)) for account in accounts]
    if state == "absent":
        outcomes = _remove(accounts, handles)
    else:
        outcomes = _Convergence(client, accounts, resource_id, check_mode).run(handles)
    _record(task.tracker, accounts)
    if warning:
        task.tracker.warn(warning)
    return {"accounts": outcomes}


class ListedAccount(Account):
    """One account of the task: the base's steps (``create_missing``, ``update_existing``, ``delete_found``) decide
    for it as for a ``vault_account`` task, on the handle the resource's account list gives. Its hooks leave the
    writes to the task, which sends them together: ``create`` returns the account's ``ADD ACCOUNTS`` item, ``apply``
    and ``as_planned`` the changes ``plan`` returned; ``read`` reads the detail only when an option is compared with
    it (``needs_detail``; None otherwise)."""

    @property
    def name(self):
        return self.desired["name"]

    def read(self, handle):
        return super().read(handle) if self.needs_detail() else None

    def create(self, handle, tracker):
        return self.creation_item(tracker)

    def apply(self, handle, current, changes):
        return changes

    def as_planned(self, current, changes):
        return changes


def _accounts(task):
    """One ``ListedAccount`` per listed account, with the task's shared options; a name listed twice is refused."""
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
    return [ListedAccount(Task(task.client, dict(item, **shared), task.check_mode)) for item in params["accounts"]]


def _account_ids(client, resource_id):
    """Account name to id, from one ``GET RESOURCE ACCOUNTLIST``."""
    items = read_resource(client, resource_id).get("ACCOUNT LIST") or []
    return {item.get("ACCOUNT NAME"): str(item.get("ACCOUNT ID")) for item in items if isinstance(item, dict)}


def _handle(account, resource_id, account_id):
    """The account's handle, as ``find_account`` gives it: ``account_id`` None for a missing account."""
    return AccountRef(account.desired["resource"], account.name, resource_id, account_id)


def _record(tracker, accounts):
    """Record each account's tracker in the task's ``tracker`` (diff keyed by account name, every warning)."""
    for account in accounts:
        sub = account.tracker
        tracker.record(account.name, sub.before, sub.after, sub.changed)
        for warning in sub.warnings:
            tracker.warn(warning)


def _outcome(name, account_id, outcome):
    return {"name": name, "account_id": account_id, "outcome": outcome}


def _remove(accounts, handles):
    """``state: absent``: each account the resource has is deleted (``delete_found``); one deleted meanwhile by a
    parallel run, which leaves its tracker unchanged, is absent."""
    outcomes, deleted = [], []
    for account, handle in zip(accounts, handles):
        _after_writes(deleted, lambda: account.delete_found(handle))
        gone = account.tracker.changed
        outcomes.append(_outcome(account.name, handle.account_id, "deleted" if gone else "absent"))
        if gone:
            deleted.append("%s (deleted)" % account.name)
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
        self.ids = {}
        self.outcomes = {}
        self.pending = []  # (account, handle, changes) to write
        self.done = []  # what this task wrote, for the message of a later failure
        self.added = []  # names of the accounts this task added

    def run(self, handles):
        """Converge the accounts, found as ``handles`` (one per account, in order); returns the per-account
        outcomes."""
        existing, missing, items = [], [], {}
        for account, handle in zip(self.accounts, handles):
            if account.exists(handle):
                existing.append((account, handle))
                continue
            missing.append(account)
            items[account.name] = account.create_missing(handle)
            self.outcomes[account.name] = "created"
        for account, handle in existing:
            self._compare(account, handle)
        if not self.check_mode:
            if items:
                require(self.client, accounts_api.add_accounts, details={"ACCOUNTLIST": list(items.values())})
                self._add(missing, items)
            for account, handle, changes in self.pending:
                _after_writes(self.done, lambda: account.write(handle, changes))
                self.done.append("%s (updated)" % handle.name)
            self._require_applied()
        return [
            _outcome(account.name, self.ids.get(account.name), self.outcomes[account.name]) for account in self.accounts
        ]

    def _compare(self, account, handle):
        """Read what the account's options need (detail, password, TOTP) and queue the writes that differ."""
        changes = account.update_existing(handle)
        self.ids[account.name] = handle.account_id
        self.outcomes[account.name] = "updated" if changes else "unchanged"
        if changes:
            self.pending.append((account, handle, changes))

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
            name = account.name
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
            account.tracker.clear()  # as after a CreatedMeanwhile: the account is converged as found
            self._compare(account, _handle(account, self.resource_id, account_id))

    def _require_applied(self):
        """Read back what the vault may have dropped of the added accounts' settings (``Account.not_applied``: the
        TOTP, and notes and custom fields when given), after every write; fail naming them and what was written."""
        found = []
        for account in self.accounts:
            if account.name in self.added:
                handle = _handle(account, self.resource_id, self.ids[account.name])
                found.extend(
                    "%s: %s" % (account.name, what) for what in account.not_applied(handle, account.read(handle))
                )
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
            "%s: %s" % (account.name, scrub(status or "no status given", passwords)) for account, status in refused
        ]
        return VaultAPIError(
            "ADD ACCOUNTS refused %d of the accounts to add to resource %s (%s); added: %s; no other account was "
            "changed"
            % (len(refused), self.accounts[0].desired["resource"], "; ".join(reasons), ", ".join(added) or "none"),
            operation="ADD ACCOUNTS",
            vault_message="; ".join(reasons),
        )
