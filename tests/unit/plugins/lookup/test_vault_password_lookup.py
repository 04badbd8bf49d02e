# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_password: terms, default=, and how each failure reads."""

from __future__ import annotations

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.plugins.lookup.scripted_vault import CONNECTION, PASSWORDS


def failure(run, *terms, **kwargs):
    with pytest.raises(AnsibleLookupError) as caught:
        run(*terms, **kwargs)
    message = str(caught.value)
    assert not any(secret in message for secret in list(PASSWORDS.values()) + [CONNECTION["auth_token"]])
    return message


def fetched(vault):
    """The account ids whose password was fetched, sorted (fetches run at once, in any order)."""
    return sorted(path["account_id"] for key, path, details, query in vault.calls if key == "get_password")


# Terms.


def test_terms_in_order_share_one_client(lookup, vault):
    assert lookup("web/root", "db/root") == ["Pw-Web-Root-1!", "Pw-Db-Root-3!"]
    assert len(vault.clients) == 1 and vault.clients[0].closed


@pytest.mark.parametrize(
    "terms",
    [
        (["web/root", "web/app"], "db/root"),
        (["web/root", ["web/app", ("db/root",)]],),
        ("web/root", [], ["web/app"], "db/root"),
    ],
)
def test_lists_of_terms_are_flattened(lookup, vault, terms):
    assert lookup(*terms) == ["Pw-Web-Root-1!", "Pw-Web-App-2!", "Pw-Db-Root-3!"]
    assert fetched(vault) == ["11", "12", "21"]


@pytest.mark.parametrize("term", [{"resource": "web", "account": "root"}, 7, None])
def test_a_term_that_is_not_a_string_is_refused_before_anything_is_sent(lookup, vault, term):
    message = failure(lookup, "web/root", [term])
    assert message.startswith("vault_password: a term must be a string or a list of strings, not ")
    assert vault.clients == []


def test_a_list_in_the_template_arrives_flattened(template, vault, lookup):
    """As Ansible passes it: ``lookup(..., ['a', 'b'])`` hands run() one term that is a (lazy) list."""
    expression = "query('credvault.vault.vault_password', accounts, 'db/root', url=url, auth_token=token)"
    result = template(
        expression, accounts=["web/root", ["web/app"]], url=CONNECTION["url"], token=CONNECTION["auth_token"]
    )
    assert result == ["Pw-Web-Root-1!", "Pw-Web-App-2!", "Pw-Db-Root-3!"]


@pytest.mark.parametrize("term", ["web", "/root", "web/", ""])
def test_a_term_that_is_not_resource_slash_account_is_refused(lookup, vault, term):
    assert "is not RESOURCE/ACCOUNT" in failure(lookup, term)
    assert vault.clients == []


def test_keywords_name_one_account(lookup, vault):
    assert lookup(resource="web", account="app") == ["Pw-Web-App-2!"]


@pytest.mark.parametrize(
    "terms, kwargs",
    [
        (["web/root"], {"resource": "web", "account": "app"}),
        ([["web/root"]], {"resource": "web", "account": "app"}),
        ([], {"resource": "web"}),
    ],
)
def test_terms_and_keywords_do_not_mix(lookup, terms, kwargs):
    assert "give either terms RESOURCE/ACCOUNT, or both resource= and account=" in failure(lookup, *terms, **kwargs)


@pytest.mark.parametrize("terms", [(), ([],), ([[]],)])
def test_no_account_is_refused(lookup, terms):
    assert failure(lookup, *terms) == "vault_password: no account given"


# default=


@pytest.mark.parametrize("term", ["nowhere/root", "web/nobody"])
def test_without_default_a_missing_account_or_resource_fails(lookup, term):
    message = failure(lookup, term)
    assert message.startswith("vault_password: not found: resource ")


@pytest.mark.parametrize("default", ["", "none-yet"])
def test_default_stands_for_each_missing_account_or_resource(lookup, vault, default):
    result = lookup("web/root", "nowhere/root", "web/nobody", "db/root", default=default)
    assert result == ["Pw-Web-Root-1!", default, default, "Pw-Db-Root-3!"]
    assert fetched(vault) == ["11", "21"]


def test_default_is_not_returned_for_a_refusal(lookup, vault):
    vault.answers["get_password"] = VaultAPIError("GET PASSWORD failed: not authorized", operation="GET PASSWORD")
    message = failure(lookup, "web/root", default="")
    assert message == "vault_password: the vault refused the password of web/root: GET PASSWORD failed: not authorized"


def test_default_is_not_returned_when_the_reason_is_missing(lookup, vault):
    vault.answers["get_password"] = VaultAPIError("GET PASSWORD failed: reason is required", operation="GET PASSWORD")
    assert "the vault refused the password of web/root" in failure(lookup, "web/root", default="")


@pytest.mark.parametrize("key", ["get_resource_account_ids", "get_password"])
def test_default_is_not_returned_when_the_vault_cannot_be_reached(lookup, vault, key):
    vault.answers[key] = VaultConnectionError("connection refused")
    message = failure(lookup, "web/root", default="")
    assert "connection refused" in message


def test_default_is_not_returned_for_a_vault_without_totp(lookup, vault):
    vault.answers["get_totp"] = VaultAPIError("FETCH_CURRENT_TOTP failed (HTTP 404): Not Found", http_status=404)
    assert "is not available" in failure(lookup, "web/app", field="totp", default="")


# TOTP.


def test_totp_code(lookup, vault):
    assert lookup("web/app", field="totp") == ["123456"]
    assert [key for key, *dummy in vault.calls] == ["get_resource_account_ids", "get_totp"]


@pytest.mark.parametrize(
    "answer",
    [
        VaultAPIError(
            "FETCH_CURRENT_TOTP failed (HTTP 404): Not Found", operation="FETCH_CURRENT_TOTP", http_status=404
        ),
        VaultUnsupportedError(
            "FETCH_CURRENT_TOTP (GET /accounts/{account_id}/totp) needs edition A from build 12430; "
            "the vault is edition B build 6320",
            operation="FETCH_CURRENT_TOTP",
        ),
    ],
)
def test_a_vault_without_totp_says_so_not_that_it_refused(lookup, vault, answer):
    vault.answers["get_totp"] = answer
    message = failure(lookup, "web/app", field="totp")
    assert message.startswith("vault_password: the totp of web/app is not available: this vault has no TOTP")
    assert "edition A from build 12430" in message
    assert "refused" not in message


def test_a_refused_totp_is_a_refusal(lookup, vault):
    vault.answers["get_totp"] = VaultAPIError(
        "FETCH_CURRENT_TOTP failed: You are not authorized to view account web/app",
        http_status=200,
        vault_message="You are not authorized to view account web/app",
    )
    assert failure(lookup, "web/app", field="totp").startswith("vault_password: the vault refused the totp of web/app")


def test_an_account_without_totp_says_so_not_that_the_vault_refused(lookup, vault):
    vault.answers["get_totp"] = VaultAPIError(
        "FETCH_CURRENT_TOTP failed: TOTP is not configured for account app",
        http_status=200,
        operation="FETCH_CURRENT_TOTP",
        vault_message="TOTP is not configured for account app",
    )
    message = failure(lookup, "web/app", field="totp")
    assert message.startswith("vault_password: the vault has no TOTP for web/app: ")
    assert "TOTP is not configured for account app" in message and "refused" not in message


def test_an_answer_without_a_password_is_a_failure(lookup, vault):
    vault.answers["get_password"] = {}
    assert "returned no PASSWORD" in failure(lookup, "web/root")


# The Secrets API (ansible-core 2.22 and later).


def test_the_passwords_returned_and_the_token_are_registered_as_secrets(lookup, registered):
    assert lookup("web/root", "db/root") == ["Pw-Web-Root-1!", "Pw-Db-Root-3!"]
    assert registered == [CONNECTION["auth_token"], "Pw-Web-Root-1!", "Pw-Db-Root-3!"]


def test_a_totp_code_returned_is_registered_as_a_secret(lookup, registered):
    assert lookup("web/app", field="totp") == ["123456"]
    assert "123456" in registered


def test_nothing_but_the_token_is_registered_when_the_lookup_fails(lookup, registered):
    failure(lookup, "web/root", "web/missing")
    assert registered == [CONNECTION["auth_token"]]


def test_the_default_is_the_users_own_value_and_is_not_registered(lookup, registered):
    assert lookup("web/root", "web/missing", default="-") == ["Pw-Web-Root-1!", "-"]
    assert registered == [CONNECTION["auth_token"], "Pw-Web-Root-1!"]
