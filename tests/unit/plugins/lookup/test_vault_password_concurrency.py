# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_password: terms fetched at once over one pooled client, names resolved once per call."""

from __future__ import annotations

import threading

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultConnectionError
from ansible_collections.credvault.vault.tests.unit.plugins.lookup.scripted_vault import (
    CONNECTION,
    PASSWORDS,
    password,
)

# Long enough never to be reached when the fetches do run at once; a wait that times out fails the test.
WAIT_LIMIT = 10


def keys(vault):
    return sorted(key for key, *dummy in vault.calls)


def failure(run, *terms, **kwargs):
    with pytest.raises(AnsibleLookupError) as caught:
        run(*terms, **kwargs)
    message = str(caught.value)
    assert not any(secret in message for secret in list(PASSWORDS.values()) + [CONNECTION["auth_token"]])
    return message


def test_fetches_run_at_once_and_the_results_keep_the_term_order(lookup, vault):
    """Each fetch waits until the next term's fetch has finished, so they finish in reverse term order; fetches
    one after another would wait in vain."""
    order = ["11", "12", "21"]
    done = {account_id: threading.Event() for account_id in order}
    finished = []

    def staggered(path, details, query):
        account_id = path["account_id"]
        position = order.index(account_id)
        if position + 1 < len(order):
            assert done[order[position + 1]].wait(WAIT_LIMIT), "the fetches did not run at once"
        finished.append(account_id)
        done[account_id].set()
        return password(path, details, query)

    vault.answers["get_password"] = staggered
    assert lookup("web/root", "web/app", "db/root") == ["Pw-Web-Root-1!", "Pw-Web-App-2!", "Pw-Db-Root-3!"]
    assert finished == ["21", "12", "11"]
    assert vault.clients[0].pool_size == 3


@pytest.mark.parametrize("concurrency, pool", [(1, None), (2, 2), (8, 3), (64, 3)])
def test_the_pool_holds_as_many_connections_as_requests_run_at_once(lookup, vault, concurrency, pool):
    lookup("web/root", "web/app", "db/root", "web/root", concurrency=concurrency)
    assert getattr(vault.clients[0], "pool_size", None) == pool


@pytest.mark.parametrize("concurrency", [0, 65, -1])
def test_concurrency_out_of_range_is_refused_before_anything_is_sent(lookup, vault, concurrency):
    message = failure(lookup, "web/root", concurrency=concurrency)
    assert message == "vault_password: concurrency must be from 1 to 64, not %d" % concurrency
    assert vault.clients == []


def test_concurrency_from_the_environment(lookup, vault, monkeypatch):
    monkeypatch.setenv("CREDVAULT_LOOKUP_CONCURRENCY", "2")
    lookup("web/root", "web/app", "db/root")
    assert vault.clients[0].pool_size == 2


@pytest.mark.parametrize("concurrency", [1, 8])
def test_the_first_failing_term_in_term_order_fails_the_call(lookup, vault, concurrency):
    refusals = {"12": "not authorized for app", "21": "not authorized for db"}

    def refusing(path, details, query):
        if path["account_id"] in refusals:
            return VaultAPIError("GET PASSWORD failed: %s" % refusals[path["account_id"]], operation="GET PASSWORD")
        return password(path, details, query)

    vault.answers["get_password"] = refusing
    message = failure(lookup, "web/root", "web/app", "db/root", concurrency=concurrency)
    assert (
        message
        == "vault_password: the vault refused the password of web/app: GET PASSWORD failed: not authorized for app"
    )
    assert vault.clients[0].closed


def test_a_failed_resolution_fails_with_its_term_even_when_a_later_fetch_failed(lookup, vault):
    vault.answers["get_resource_account_ids"] = VaultConnectionError("connection refused")
    vault.answers["get_password"] = VaultAPIError("GET PASSWORD failed: never asked")
    assert failure(lookup, "db/root", default="") == "vault_password: could not look up db/root: connection refused"


def test_accounts_of_one_resource_are_resolved_with_one_account_list(lookup, vault):
    """3 terms of one resource: GET_RESOURCEID and GET RESOURCE ACCOUNTLIST, then 3 fetches."""
    assert lookup("web/root", "web/app", "web/root", concurrency=1)[:2] == ["Pw-Web-Root-1!", "Pw-Web-App-2!"]
    assert keys(vault) == ["get_account_list", "get_password", "get_password", "get_resource_id"]


def test_three_terms_of_one_resource_cost_two_resolution_requests_and_three_fetches(lookup, vault):
    vault.answers["get_account_list"] = {
        "ACCOUNT LIST": [{"ACCOUNT NAME": name, "ACCOUNT ID": "1%d" % number} for number, name in enumerate("abc")]
    }
    vault.answers["get_password"] = lambda path, details, query: {"PASSWORD": "pw-%s" % path["account_id"]}
    assert lookup("web/a", "web/b", "web/c") == ["pw-10", "pw-11", "pw-12"]
    assert keys(vault) == ["get_account_list"] + ["get_password"] * 3 + ["get_resource_id"]


def test_an_account_alone_in_its_resource_is_resolved_with_one_request(lookup, vault):
    lookup("web/root", "db/root")
    assert keys(vault) == ["get_password", "get_password", "get_resource_account_ids", "get_resource_account_ids"]


def test_a_term_given_twice_is_resolved_and_fetched_once_and_repeated(lookup, vault):
    assert lookup("db/root", "web/root", "db/root") == ["Pw-Db-Root-3!", "Pw-Web-Root-1!", "Pw-Db-Root-3!"]
    assert keys(vault) == ["get_password", "get_password", "get_resource_account_ids", "get_resource_account_ids"]


def test_a_missing_resource_named_twice_stands_for_default_in_both_terms(lookup, vault):
    assert lookup("gone/a", "gone/b", "db/root", default="-") == ["-", "-", "Pw-Db-Root-3!"]
    message = failure(lookup, "gone/a", "gone/b")
    assert message == "vault_password: not found: resource gone does not exist (or is not visible to this token)"


def test_a_missing_account_of_a_batched_resource_names_itself(lookup, vault):
    message = failure(lookup, "web/root", "web/nobody")
    assert (
        message == "vault_password: not found: resource web has no account nobody (or it is not visible to this token)"
    )


def test_totp_codes_take_the_same_path(lookup, vault):
    assert lookup("web/root", "web/app", field="totp") == ["123456", "123456"]
    assert keys(vault) == ["get_account_list", "get_resource_id", "get_totp", "get_totp"]
