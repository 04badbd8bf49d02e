# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Account ids for the lookups: every (resource, account) pair of a call resolved at most once.

A resource named by two or more pairs is resolved with ``GET_RESOURCEID`` and one ``GET RESOURCE ACCOUNTLIST``
(whose ``ACCOUNT LIST`` items hold ``ACCOUNT NAME`` and ``ACCOUNT ID``); a pair alone in its resource with
``GET_RESOURCEACCOUNTID`` (``find_account``, which also tells a missing resource from a missing account).
With an ``IdCache``, fresh cached ids are used without a request, and ids the vault refuses are resolved again.
"""

from __future__ import annotations

from functools import partial

from ansible_collections.credvault.vault.plugins.module_utils._account import AccountRef, require_account
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultError,
    VaultNotFoundError,
)
from ansible_collections.credvault.vault.plugins.module_utils._resource import find_resource_id, read_resource

NO_RESOURCE = "resource %s does not exist (or is not visible to this token)"
NO_ACCOUNT = "resource %s has no account %s (or it is not visible to this token)"


def one_after_another(functions):
    return [function() for function in functions]


class AccountIds:
    """Resolves the pairs of one call over ``client``; ``run_all(functions)`` runs the resolutions (their results in
    order), possibly at once; ``cache`` is an ``IdCache`` or None."""

    def __init__(self, client, cache=None, run_all=one_after_another):
        self.client = client
        self.cache = cache
        self._run_all = run_all
        self._from_cache = set()

    def resolve(self, pairs):
        """``{pair: AccountRef, or the VaultError its resolution raised}`` for the distinct ``pairs``."""
        outcomes = {}
        for resource, account in pairs:
            ids = self.cache.get(resource, account) if self.cache is not None else None
            if ids is not None:
                outcomes[(resource, account)] = AccountRef(resource, account, *ids)
                self._from_cache.add((resource, account))
        pending = [pair for pair in pairs if pair not in outcomes]
        units = [partial(self._resolve_resource, resource, accounts) for resource, accounts in _by_resource(pending)]
        for resolved in self._run_all(units):
            outcomes.update(resolved)
        for pair in pending:
            self._remember(pair, outcomes[pair])
        return outcomes

    def read(self, ref, read):
        """``read(ref)``. When the vault refuses ids that came from the cache (``VaultAPIError``), the pair is
        resolved again, once: new ids are read (and cached), an account that is gone raises ``VaultNotFoundError``,
        and the same ids (or a failed resolution) raise the refusal."""
        try:
            return read(ref)
        except VaultAPIError as refusal:
            fresh = self._resolved_again(ref, refusal)
        return read(fresh)

    def _resolved_again(self, ref, refusal):
        pair = (ref.resource, ref.name)
        if pair not in self._from_cache:
            raise refusal
        fresh = self._resolve_one(*pair)
        self._remember(pair, fresh)
        if isinstance(fresh, VaultNotFoundError):
            raise fresh
        if isinstance(fresh, VaultError) or (fresh.resource_id, fresh.account_id) == (ref.resource_id, ref.account_id):
            raise refusal
        return fresh

    def _resolve_resource(self, resource, accounts):
        if len(accounts) == 1:
            return {(resource, accounts[0]): self._resolve_one(resource, accounts[0])}
        try:
            resource_id = find_resource_id(self.client, resource)
            if resource_id is None:
                missing = VaultNotFoundError(NO_RESOURCE % resource)
                return {(resource, account): missing for account in accounts}
            listed = _listed_ids(read_resource(self.client, resource_id))
        except VaultError as exc:
            return {(resource, account): exc for account in accounts}
        return {
            (resource, account): AccountRef(resource, account, resource_id, listed[account])
            if account in listed
            else VaultNotFoundError(NO_ACCOUNT % (resource, account))
            for account in accounts
        }

    def _resolve_one(self, resource, account):
        try:
            return require_account(self.client, resource, account)
        except VaultError as exc:
            return exc

    def _remember(self, pair, outcome):
        if self.cache is None:
            return
        if isinstance(outcome, AccountRef):
            self.cache.put(pair[0], pair[1], outcome.resource_id, outcome.account_id)
        elif isinstance(outcome, VaultNotFoundError):
            self.cache.forget(*pair)


def _by_resource(pairs):
    """``[(resource, [account, ...])]`` in the order the resources first appear."""
    grouped = {}
    for resource, account in pairs:
        grouped.setdefault(resource, []).append(account)
    return list(grouped.items())


def _listed_ids(detail):
    """``{ACCOUNT NAME: ACCOUNT ID}`` of a ``GET RESOURCE ACCOUNTLIST`` detail; the first of a name counts."""
    ids = {}
    for item in detail.get("ACCOUNT LIST") or []:
        if isinstance(item, dict) and item.get("ACCOUNT NAME") is not None and item.get("ACCOUNT ID") is not None:
            ids.setdefault(item["ACCOUNT NAME"], str(item["ACCOUNT ID"]))
    return ids
