# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Account ids for the lookups: batched per resource, from the cache, and stale cached ids resolved again once."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._account import get_password
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultNotFoundError,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._account_ids import AccountIds
from ansible_collections.credvault.vault.plugins.plugin_utils._id_cache import IdCache
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

PASSWORDS = {"11": "Pw-Old-1!", "99": "Pw-New-9!"}


def refused_unless_known(path, details, query):
    if path["account_id"] not in PASSWORDS:
        return VaultAPIError("GET PASSWORD failed: Account with ID %s does not exist" % path["account_id"])
    return {"PASSWORD": PASSWORDS[path["account_id"]]}


@pytest.fixture
def client():
    return ScriptedClient(
        {
            "get_resource_account_ids": {"RESOURCEID": "1", "ACCOUNTID": "99"},
            "get_password": refused_unless_known,
        }
    )


@pytest.fixture
def cache(tmp_path):
    def warn(message):
        raise AssertionError(message)

    return IdCache(str(tmp_path / "ids.json"), "identity", 3600, warn)


def sent(client):
    return [key for key, *dummy in client.calls]


def cached_ids(cache, resource_id, account_id):
    cache.put("web", "root", resource_id, account_id)
    cache.save()
    return cache


def test_fresh_cached_ids_cost_no_resolution(client, cache):
    ids = AccountIds(client, cached_ids(cache, "1", "99"))
    ref = ids.resolve([("web", "root")])[("web", "root")]
    assert ids.read(ref, lambda ref: get_password(client, ref)) == "Pw-New-9!"
    assert sent(client) == ["get_password"]


def test_stale_cached_ids_are_resolved_again_once_and_the_new_ids_cached(client, cache):
    ids = AccountIds(client, cached_ids(cache, "1", "12"))
    ref = ids.resolve([("web", "root")])[("web", "root")]
    assert ids.read(ref, lambda ref: get_password(client, ref)) == "Pw-New-9!"
    assert sent(client) == ["get_password", "get_resource_account_ids", "get_password"]
    assert cache.get("web", "root") == ("1", "99")


def test_unchanged_ids_raise_the_original_refusal_after_one_resolution(client, cache):
    client.answers["get_password"] = VaultAPIError("GET PASSWORD failed: not authorized")
    ids = AccountIds(client, cached_ids(cache, "1", "99"))
    ref = ids.resolve([("web", "root")])[("web", "root")]
    with pytest.raises(VaultAPIError, match="not authorized"):
        ids.read(ref, lambda ref: get_password(client, ref))
    assert sent(client) == ["get_password", "get_resource_account_ids"]


def test_an_account_gone_is_not_found_and_leaves_the_cache(client, cache):
    client.answers.update(
        {
            "get_resource_account_ids": VaultAPIError("GET_RESOURCEACCOUNTID failed: no such account"),
            "get_resource_id": {"RESOURCEID": "1"},
            "get_account_list": {"ACCOUNT LIST": []},
        }
    )
    ids = AccountIds(client, cached_ids(cache, "1", "12"))
    ref = ids.resolve([("web", "root")])[("web", "root")]
    with pytest.raises(VaultNotFoundError, match="resource web has no account root"):
        ids.read(ref, lambda ref: get_password(client, ref))
    cache.save()
    assert cache.get("web", "root") is None


def test_ids_not_from_the_cache_are_not_resolved_again(client):
    client.answers["get_resource_account_ids"] = {"RESOURCEID": "1", "ACCOUNTID": "12"}
    ids = AccountIds(client)
    ref = ids.resolve([("web", "root")])[("web", "root")]
    with pytest.raises(VaultAPIError, match="does not exist"):
        ids.read(ref, lambda ref: get_password(client, ref))
    assert sent(client) == ["get_resource_account_ids", "get_password"]


def test_a_failed_batch_resolution_is_the_outcome_of_each_of_its_pairs(client):
    client.answers["get_resource_id"] = VaultConnectionError("connection refused")
    outcomes = AccountIds(client).resolve([("web", "root"), ("web", "app")])
    assert [str(outcome) for outcome in outcomes.values()] == ["connection refused"] * 2
    assert sent(client) == ["get_resource_id"]


class RecordingCache:
    """Knows nothing; records what it is told."""

    def __init__(self):
        self.told = []

    def get(self, resource, account):
        return None

    def put(self, resource, account, resource_id, account_id):
        self.told.append(("put", resource, account, resource_id, account_id))

    def forget(self, resource, account):
        self.told.append(("forget", resource, account))


def test_a_resource_named_twice_is_resolved_with_its_account_list_and_the_outcomes_told_to_the_cache(client):
    client.answers.update(
        {
            "get_resource_id": {"RESOURCEID": "1"},
            "get_account_list": {
                "ACCOUNT LIST": [{"ACCOUNT NAME": "root", "ACCOUNT ID": 11}, {"ACCOUNT NAME": "root", "ACCOUNT ID": 7}]
            },
        }
    )
    cache = RecordingCache()
    outcomes = AccountIds(client, cache).resolve([("web", "root"), ("web", "gone")])
    assert (outcomes[("web", "root")].resource_id, outcomes[("web", "root")].account_id) == ("1", "11")
    assert isinstance(outcomes[("web", "gone")], VaultNotFoundError)
    assert sent(client) == ["get_resource_id", "get_account_list"]
    assert cache.told == [("put", "web", "root", "1", "11"), ("forget", "web", "gone")]
