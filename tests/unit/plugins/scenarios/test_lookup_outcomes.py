# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""on_missing and on_denied of every lookup, against simulators: a missing object and a refused secret each fail,
warn and leave the term out, or leave it out silently; a refusal of the token itself, a reason the vault demands and
an unreachable vault always fail; default wins over on_missing and never stands for a refused secret."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_lookup
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import api_user, run

PASSWORD = "Ut-outcome-pw-7!"
OWN_PASSWORD = "Ut-outcome-own-8!"


def lookup(vault, name, terms, token=None, **options):
    connection = dict(vault.connection)
    if token is not None:
        connection["auth_token"] = token
    return run_lookup(name, terms, dict(connection, **options))


@pytest.fixture
def unshared(vaults, unique):
    """On the default vault: a resource of the admin's, another shared with a Password User; that user's token."""
    vault = vaults["default"]
    for resource, password in (("%s-admin" % unique, PASSWORD), ("%s-own" % unique, OWN_PASSWORD)):
        first = {"name": "root", "password": password}
        assert not run(vault, "vault_resource", name=resource, type="Linux", owner="admin", first_account=first).get(
            "failed"
        )
    token = api_user(vault, "%s-user" % unique)
    shared = run(vault, "vault_share", resources=["%s-own" % unique], users=["%s-user" % unique], access="view")
    assert not shared.get("failed"), shared.get("msg")
    return vault, token


@pytest.mark.parametrize(
    "outcome, value, warned",
    [("error", None, False), ("warn", [PASSWORD], True), ("skip", [PASSWORD], False)],
)
def test_a_missing_account_fails_warns_or_is_left_out(vaults, unique, outcome, value, warned):
    vault = vaults["default"]
    first = {"name": "root", "password": PASSWORD}
    run(vault, "vault_resource", name=unique, type="Linux", owner="admin", first_account=first)
    terms = ["%s/root" % unique, "%s/nobody" % unique, "%s-gone/root" % unique]
    result = lookup(vault, "vault_password", terms, on_missing=outcome)
    if value is None:
        assert result["failed"]
        assert result["msg"].startswith("vault_password: not found: ")
        assert "nobody" in result["msg"]
        return
    assert result["value"] == value
    warnings = result.get("warnings", [])
    assert len(warnings) == (2 if warned else 0)
    if warned:
        assert warnings[0].startswith("vault_password: not found: ")
        assert warnings[0].endswith("(on_missing=warn: %s/nobody left out of the result)" % unique)
        assert warnings[1].endswith("(on_missing=warn: %s-gone/root left out of the result)" % unique)


def test_default_wins_over_on_missing_and_is_not_warned(vaults, unique):
    vault = vaults["default"]
    result = lookup(vault, "vault_password", ["%s/root" % unique], default="-", on_missing="warn")
    assert result == {"value": ["-"]}


@pytest.mark.parametrize("outcome", ["error", "warn", "skip"])
def test_a_secret_the_token_may_not_read_fails_warns_or_is_left_out(unshared, unique, outcome):
    vault, token = unshared
    terms = ["%s-own/root" % unique, "%s-admin/root" % unique]
    result = lookup(vault, "vault_password", terms, token=token, on_denied=outcome, default="never")
    if outcome == "error":
        assert result["failed"]
        assert result["msg"].startswith("vault_password: the vault refused ")
        assert "%s-admin" % unique in result["msg"]
        return
    assert result["value"] == [OWN_PASSWORD]  # default never stands for a refused secret
    warnings = result.get("warnings", [])
    assert len(warnings) == (1 if outcome == "warn" else 0)
    if warnings:
        assert "You are not authorized" in warnings[0]
        assert warnings[0].endswith("(on_denied=warn: %s-admin/root left out of the result)" % unique)


def test_a_password_under_access_control_not_checked_out_is_a_denied_secret(vaults, unique):
    vault = vaults["access_control"]
    first = {"name": "root", "password": PASSWORD}
    run(vault, "vault_resource", name=unique, type="Linux", owner="admin", first_account=first)
    token = api_user(vault, "%s-user" % unique)
    run(vault, "vault_share", resources=[unique], users=["%s-user" % unique], access="view")
    options = dict(token=token, reason="outcomes")
    refused = lookup(vault, "vault_password", ["%s/root" % unique], **options)
    assert refused["failed"]
    assert "access control" in refused["msg"]
    assert lookup(vault, "vault_password", ["%s/root" % unique], on_denied="skip", **options) == {"value": []}


@pytest.mark.parametrize(
    "profile, token, words",
    [
        ("default", "not-a-token-of-this-vault", "vault_password: "),  # the token itself is refused
        ("strict", None, "reason"),  # the vault demands a reason and a ticket
    ],
)
def test_refusals_of_the_token_or_of_what_was_sent_always_fail(vaults, unique, profile, token, words):
    vault = vaults[profile]
    first = {"name": "root", "password": PASSWORD}
    run(vault, "vault_resource", name=unique, type="Linux", owner="admin", first_account=first)
    result = lookup(vault, "vault_password", ["%s/root" % unique], token=token, on_denied="skip", on_missing="skip")
    assert result.get("failed"), result
    assert words in result["msg"].lower() or words in result["msg"]


def test_an_unreachable_vault_always_fails(vaults, unique):
    options = dict(vaults["default"].connection, url="https://127.0.0.1:9", retries=0, timeout=2)
    result = run_lookup("vault_password", ["%s/root" % unique], dict(options, on_denied="skip", on_missing="skip"))
    assert result["failed"]


def test_a_missing_ssh_key_fails_warns_or_is_left_out(vaults, unique):
    vault = vaults["edition_b"]  # public keys: edition B from build 6200
    made = run(vault, "vault_ssh_key", name=unique, key_type="ssh-rsa", length=2048)
    assert not made.get("failed"), made.get("msg")
    terms = [unique, "%s-gone" % unique]
    failed = lookup(vault, "vault_ssh_key", terms)
    assert failed["failed"]
    assert failed["msg"].startswith("vault_ssh_key: not found: SSH key %s-gone does not exist" % unique)
    for outcome, warnings in (("warn", 1), ("skip", 0)):
        result = lookup(vault, "vault_ssh_key", terms, on_missing=outcome)
        assert len(result["value"]) == 1
        assert result["value"][0].startswith("ssh-rsa ")
        assert len(result.get("warnings", [])) == warnings


@pytest.mark.parametrize("outcome", ["error", "warn", "skip"])
def test_a_missing_policy_fails_warns_or_is_left_out(vaults, unique, outcome):
    vault = vaults["default"]
    result = lookup(vault, "vault_generated_password", ["Strong", "%s-policy" % unique], on_missing=outcome)
    if outcome == "error":
        assert result["failed"]
        assert result["msg"].startswith("vault_generated_password: ")
        assert "%s-policy" % unique in result["msg"]
        return
    assert len(result["value"]) == 1 and result["value"][0]
    warnings = result.get("warnings", [])
    assert len(warnings) == (1 if outcome == "warn" else 0)
    if warnings:
        assert warnings[0].endswith("(on_missing=warn: %s-policy left out of the result)" % unique)


def test_an_unknown_outcome_is_refused(vaults):
    result = lookup(vaults["default"], "vault_password", ["a/b"], on_missing="ignore")
    assert result == {"failed": True, "msg": "vault_password: on_missing must be one of error, warn, skip"}
