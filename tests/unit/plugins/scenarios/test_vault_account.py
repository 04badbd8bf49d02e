# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_account scenarios moved down from the integration target vault_account (issue 36):

- main.yml: the password change in check mode (the old password kept), the change of password and notes with its
  diff, update_password on_create; a TOTP set, set again, removed and removed again; TOTP refused before sending
  with a configured build below 12430; an unknown resource; the connection options from the environment, a missing
  CA and a missing url;
- input_rules.yml: an account whose policy the vault does not know (the item's reason, without the password);
- totp_support.yml (all of it): TOTP on edition B build 6320 and edition A build 12000 with edition and build not
  configured, for an existing account and a new one.

Not moved, already covered by tests/unit/plugins/module_utils/test_account.py: main.yml's TOTP secret that is not
base32, input_rules.yml's empty password, name with a leading space, TOTP validity of 0 and -30, null custom field
value (each refused before any request, in check mode too) and the warning naming the settings the vault does not
report back (password_policy, record_rdp_sessions without force_settings).
"""

from __future__ import annotations

import json

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_module
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes

REST = "/restapi/json/v1"
FIRST_PASSWORD = "Acc-F1rst-pw-1209!"
DEPLOY_PASSWORD = "Acc-Depl0y-pw-5531!"
DEPLOY_PASSWORD_2 = "Acc-Depl0y-pw-9902!"
TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP"


def host(vault, name):
    """A Linux resource ``name`` with its root account, made for the test."""
    first = {"name": "root", "password": FIRST_PASSWORD}
    result = run(vault, "vault_resource", name=name, type="Linux", owner="admin", first_account=first)
    assert result["changed"], result


def remove(vault, name):
    assert not run(vault, "vault_resource", name=name, state="absent").get("failed")


def stored_password(vault, resource, account):
    """The password the vault keeps for ``resource``/``account`` (what the vault_password lookup reads)."""
    query = "%s/resources/getResourceIdAccountId?RESOURCENAME=%s&ACCOUNTNAME=%s" % (REST, resource, account)
    ids = sim_api(vault, "GET", query)["operation"]["Details"]
    path = "%s/resources/%s/accounts/%s/password" % (REST, ids["RESOURCEID"], ids["ACCOUNTID"])
    return sim_api(vault, "GET", path)["operation"]["Details"]["PASSWORD"]


def account_names(vault, resource):
    """The names of the accounts of ``resource`` (what vault_resource_info lists)."""
    answer = sim_api(vault, "GET", "%s/resources/resourcename/%s" % (REST, resource))
    path = "%s/resources/%s/accounts" % (REST, answer["operation"]["Details"]["RESOURCEID"])
    details = sim_api(vault, "GET", path)["operation"]["Details"]
    return [account["ACCOUNT NAME"] for account in details["ACCOUNT LIST"]]


def test_password_notes_and_totp_of_an_existing_account(vaults, unique):
    vault = vaults["default"]
    host(vault, unique)
    deploy = {"resource": unique, "name": "deploy"}
    added = run(vault, "vault_account", password=DEPLOY_PASSWORD, notes="Deployment pipeline", **deploy)
    assert added["changed"], added

    check = run(vault, "vault_account", check_mode=True, password=DEPLOY_PASSWORD_2, **deploy)
    assert check["changed"], check
    assert stored_password(vault, unique, "deploy") == DEPLOY_PASSWORD

    change = run(vault, "vault_account", password=DEPLOY_PASSWORD_2, notes="Deployment pipeline (rotated)", **deploy)
    assert change["changed"], change
    assert change["diff"]["before"]["notes"] == "Deployment pipeline"
    assert change["diff"]["after"]["notes"] == "Deployment pipeline (rotated)"
    assert change["diff"]["after"]["password"] == "<hidden, changed>"
    on_create = run(vault, "vault_account", password="something-else-entirely", update_password="on_create", **deploy)
    assert not on_create.get("failed") and not on_create["changed"], on_create
    assert stored_password(vault, unique, "deploy") == DEPLOY_PASSWORD_2

    totp = dict(deploy, totp_secret=TOTP_SECRET, totp_digits=8)
    totp_set = run(vault, "vault_account", **totp)
    totp_again = run(vault, "vault_account", **totp)
    removed = run(vault, "vault_account", totp_secret="", **deploy)
    removed_again = run(vault, "vault_account", totp_secret="", **deploy)
    assert [r.get("changed") for r in (totp_set, totp_again, removed, removed_again)] == [True, False, True, False], (
        totp_set,
        totp_again,
        removed,
        removed_again,
    )
    assert TOTP_SECRET not in json.dumps(totp_set)

    vault.forget_requests()
    gated = run(vault, "vault_account", build=12000, totp_secret=TOTP_SECRET, **deploy)
    assert gated.get("failed"), gated
    assert "FETCH_CURRENT_TOTP" in gated["msg"]
    assert "needs edition A from build 12430; the vault is edition A build 12000" in gated["msg"]
    assert "FETCH_CURRENT_TOTP" not in [entry["operation"] for entry in vault.requests]
    assert writes(vault) == []

    no_resource = run(vault, "vault_account", resource=unique + "-none", name="deploy", password="not-used-Pw-1")
    assert no_resource.get("failed") and "resource %s-none does not exist" % unique in no_resource["msg"], no_resource

    refused_add = dict(deploy)
    refused_add["name"] = "refused-add"
    refused = run(
        vault,
        "vault_account",
        password=DEPLOY_PASSWORD,
        password_policy="No Such Policy",
        **refused_add,
    )
    assert refused.get("failed") and not refused.get("changed"), refused
    assert "ADD ACCOUNTS refused account %s/refused-add: " % unique in refused["msg"]
    assert "No account was added" not in refused["msg"]
    assert DEPLOY_PASSWORD not in json.dumps(refused)
    remove(vault, unique)


def unversioned(vault):
    """The vault's connection with edition and build not configured."""
    return {key: value for key, value in vault.connection.items() if key not in ("edition", "build")}


@pytest.mark.parametrize("profile", ["edition_b", "old_a"])
def test_totp_on_a_vault_without_it_fails_clearly_edition_and_build_not_configured(vaults, unique, profile):
    vault = vaults[profile]
    host(vault, unique)
    existing = run_module(
        "vault_account", dict(unversioned(vault), resource=unique, name="root", totp_secret=TOTP_SECRET)
    )
    assert existing.get("failed") and not existing.get("changed"), existing
    assert "this vault has no TOTP" in existing["msg"] and "edition A from build 12430" in existing["msg"]

    new_password = "Svc-N0-totp-pw-5521!"
    new = run_module(
        "vault_account",
        dict(unversioned(vault), resource=unique, name="svc-totp", password=new_password, totp_secret=TOTP_SECRET),
    )
    assert new.get("failed") and new.get("changed"), new
    message = new["msg"]
    assert "account %s/svc-totp was created, but the vault did not apply totp_secret" % unique in message
    assert "this vault has no TOTP" in message
    assert "This task had already written to the vault: ADD ACCOUNTS" in message
    assert TOTP_SECRET not in json.dumps(new) and new_password not in json.dumps(new)
    assert "svc-totp" in account_names(vault, unique)
    remove(vault, unique)


def test_connection_options_from_the_environment_and_connection_errors(vaults, unique, monkeypatch):
    vault = vaults["default"]
    host(vault, unique)
    connection = vault.connection
    account = {"resource": unique, "name": "root"}

    with monkeypatch.context() as env:
        env.setenv("CREDVAULT_URL", connection["url"])
        env.setenv("CREDVAULT_AUTH_TOKEN", connection["auth_token"])
        env.setenv("CREDVAULT_CA_PATH", connection["ca_path"])
        from_env = run_module("vault_account", dict(account, password=FIRST_PASSWORD))
    assert not from_env.get("failed") and not from_env["changed"], from_env
    assert from_env["account"]["ACCOUNT NAME"] == "root"

    with monkeypatch.context() as env:
        env.setenv("CREDVAULT_CA_PATH", "")
        no_ca = run_module("vault_account", dict(account, url=connection["url"], auth_token=connection["auth_token"]))
    assert no_ca.get("failed") and "TLS verification" in no_ca["msg"] and "ca_path" in no_ca["msg"], no_ca

    with monkeypatch.context() as env:
        env.setenv("CREDVAULT_URL", "")
        no_url = run_module("vault_account", dict(account, auth_token=connection["auth_token"]))
    assert no_url.get("failed") and "url" in no_url["msg"], no_url
    remove(vault, unique)
