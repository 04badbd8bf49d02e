# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The modules and lookups against the simulator that answers as recorded real servers do (profile ``real``;
tests/simulator/README.md, "Dialects"), moved here from the integration target real_dialect (issue 36; the file
names below are those of its former tasks/ directory):

- tasks/resource.yml, account.yml (empty notes and TOTP), accounts.yml, account_password.yml, user.yml, share.yml,
  password_request.yml, user_group_info.yml, resource_group.yml, ssh_key.yml, certificate.yml, csr.yml and
  audit_info.yml: each converge run twice, the first changes the vault, the second changes nothing and sends reads
  only, in the same number and order of operations (share: the same calls again, by design); the raw answers of the
  real dialect (RESOURCE PASSWORD POLICY, DESCRIPTION "N/A", audit keys "Audit ID") read as the spec's. The resource
  and its accounts run against the profile ``default`` too (the spec's dialect): the same results and requests.
- tasks/lookups.yml and the share's lookup with the requester's token: what each lookup answers.
- tasks/invalid_token.yml: a module and the lookup refused with the real dialect's words; the inventory plugin's
  refusal (tasks/inventory_plugin.yml, its second half).

The integration target keeps the inventory plugin through ansible-inventory, the host_credentials role, one lookup
through Ansible's templating and the guide's example docs/examples/real_vaults/check_vault.yml as a user runs it.
"""

from __future__ import annotations

import datetime
import re

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_inventory, run_lookup
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes

PASSWORDS = {
    "root": "Rd-R00t-pw-4471!",
    "root_changed": "Rd-R00t-pw-4472!",
    "deploy": "Rd-Depl0y-pw-4473!",
    "agent": "Rd-Ag3nt-pw-4474!",
}
TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP"
UNKNOWN_TOKEN = "00000000-0000-4000-8000-000000000000"
REFUSED = (
    "the vault refused the token (Authentication: API key received is not associated to any user. "
    "Authentication failed.)"
)
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$")


def operations(vault):
    """The operations of the requests the vault served since its log was last forgotten, in order."""
    return [entry["operation"] for entry in vault.requests]


def converge_twice(vault, module, **args):
    """Run ``module`` with ``args``, forget the requests, run it again: both results, and the second run's
    operations and writes (as ``scenario.writes``)."""
    first = run(vault, module, **args)
    assert not first.get("failed"), first
    vault.forget_requests()
    second = run(vault, module, **args)
    assert not second.get("failed"), second
    return first, second, operations(vault), writes(vault)


def ids_of(vault, resource, account):
    path = "/restapi/json/v1/resources/getResourceIdAccountId?RESOURCENAME=%s&ACCOUNTNAME=%s" % (resource, account)
    return sim_api(vault, "GET", path)["operation"]["Details"]


def lookup(vault, name, terms, **options):
    return run_lookup(name, terms, dict(vault.connection, **options))


@pytest.mark.parametrize("profile", ["real", "default"])
def test_the_resource_and_its_accounts_converge_then_read_only(vaults, unique, profile):
    """tasks/resource.yml, account.yml, accounts.yml, account_password.yml, user.yml, share.yml,
    password_request.yml, lookups.yml (the passwords and the TOTP code) and invalid_token.yml, in their order."""
    vault = vaults[profile]
    real = profile == "real"
    resource = "%s-web" % unique
    requester = "%s-requester" % unique

    # Resource with a password policy: the real dialect writes it RESOURCE PASSWORD POLICY.
    first, second, ops, sent = converge_twice(
        vault,
        "vault_resource",
        name=resource,
        type="Linux",
        description="Web server of the real dialect",
        location="Paris",
        password_policy="Medium",
        owner="admin",
        first_account={"name": "root", "password": PASSWORDS["root"]},
    )
    ids = ids_of(vault, resource, "root")
    raw = sim_api(vault, "GET", "/restapi/json/v1/resources/%s/accounts" % ids["RESOURCEID"])["operation"]["Details"]
    if real:
        assert raw["RESOURCE PASSWORD POLICY"] == "Medium"
        assert "PASSWORD POLICY" not in raw
    else:
        assert raw["PASSWORD POLICY"] == "Medium"
    assert first["changed"] and not second["changed"]
    assert second["resource"]["PASSWORD POLICY"] == "Medium"
    assert sent == []
    assert ops == ["GET_RESOURCEID", "GET RESOURCE ACCOUNTLIST"]

    # Account with empty notes: the real dialect writes them DESCRIPTION "N/A", read back as no notes.
    account = dict(resource=resource, name="deploy", password=PASSWORDS["deploy"], notes="")
    first, second, ops, sent = converge_twice(vault, "vault_account", **account)
    ids = ids_of(vault, resource, "deploy")
    path = "/restapi/json/v1/resources/%s/accounts/%s" % (ids["RESOURCEID"], ids["ACCOUNTID"])
    raw = sim_api(vault, "GET", path)["operation"]["Details"]
    assert raw["DESCRIPTION"] == ("N/A" if real else "")
    assert first["changed"] and not second["changed"]
    assert second["account"]["DESCRIPTION"] == ""
    assert sent == []
    assert ops == ["GET_RESOURCEACCOUNTID", "GET RESOURCE ACCOUNT DETAILS", "GET PASSWORD"]

    # Its TOTP (edition A from build 12430), compared by the vault's current code.
    first, second, ops, sent = converge_twice(
        vault, "vault_account", resource=resource, name="deploy", totp_secret=TOTP_SECRET
    )
    assert first["changed"] and not second["changed"]
    assert sent == []
    assert ops == ["GET_RESOURCEACCOUNTID", "GET RESOURCE ACCOUNT DETAILS", "FETCH_CURRENT_TOTP"]

    # Two accounts in one task, one with notes, one with empty notes.
    agents = [
        {"name": "agent-1", "password": PASSWORDS["agent"], "notes": "Build agent"},
        {"name": "agent-2", "password": PASSWORDS["agent"], "notes": ""},
    ]
    first, second, ops, sent = converge_twice(vault, "vault_accounts", resource=resource, accounts=agents)
    assert first["changed"] and not second["changed"]
    assert sent == []
    assert ops == ["GET_RESOURCEID", "GET RESOURCE ACCOUNTLIST"] + ["GET RESOURCE ACCOUNT DETAILS", "GET PASSWORD"] * 2

    # The first account's password changed.
    first, second, ops, sent = converge_twice(
        vault, "vault_account_password", resource=resource, account="root", password=PASSWORDS["root_changed"]
    )
    assert first["changed"] and not second["changed"]
    assert sent == []
    assert ops == ["GET_RESOURCEACCOUNTID", "GET PASSWORD"]

    # A Password User API user (the module: its token in the result of the run that created it, where the
    # integration target had the action plugin write it to token_dest); found by name on the second run.
    user = dict(name=requester, api_user=True, role="Password User")
    first, second, ops, sent = converge_twice(vault, "vault_user", **user)
    assert first["changed"] and not second["changed"]
    assert second["user_id"] == first["user_id"]
    assert sent == []
    assert ops == ["get_USERID"]
    requester_token = first["token"]

    # The share: no call reads shares back, so the second run sends the same calls again and is changed.
    share = dict(accounts=[{"resource": resource, "account": "root"}], users=[requester], access="view")
    first, second, ops, sent = converge_twice(vault, "vault_share", **share)
    assert first["changed"] and second["changed"]
    assert second["calls"] == first["calls"]
    assert ops == ["GET_RESOURCEACCOUNTID", "get_USERID", "SHARE ACCOUNT"]
    assert [operation for dummy, operation in sent] == ["SHARE ACCOUNT"]
    assert [entry["status"] for entry in vault.requests if entry["method"] != "GET"] == ["Success"]
    # The requester reads the shared password with its own token.
    found = lookup(vault, "vault_password", ["%s/root" % resource], auth_token=requester_token)
    assert found == {"value": [PASSWORDS["root_changed"]]}

    # The password request workflow: requested by the requester, approved by the admin, checked out.
    as_requester = dict(auth_token=requester_token, resource=resource, account="root", reason="Real dialect test")
    steps = [
        (dict(as_requester, state="requested"), ["GET_RESOURCEACCOUNTID", "GET_PASSWORDREQUEST"]),
        (
            dict(resource=resource, account="root", requester=requester, state="approved"),
            ["GET_RESOURCEACCOUNTID", "get_USERID", "GET_PASSWORDREQUEST"],
        ),
        (dict(as_requester, state="checked_out"), ["GET_RESOURCEACCOUNTID", "GET_PASSWORDREQUEST"]),
    ]
    for args, expected in steps:
        first, second, ops, sent = converge_twice(vault, "vault_password_request", **args)
        assert first["changed"] and not second["changed"], args["state"]
        assert second["state"] == args["state"]
        assert sent == []
        assert ops == expected, args["state"]

    # The lookups answer what the vault holds.
    assert lookup(vault, "vault_password", ["%s/deploy" % resource]) == {"value": [PASSWORDS["deploy"]]}
    assert lookup(vault, "vault_password", ["%s/root" % resource]) == {"value": [PASSWORDS["root_changed"]]}
    agents_found = lookup(vault, "vault_password", ["%s/agent-1" % resource, "%s/agent-2" % resource])
    assert agents_found == {"value": [PASSWORDS["agent"]] * 2}
    totp = lookup(vault, "vault_password", ["%s/deploy" % resource], field="totp")
    assert re.match(r"^[0-9]{6}$", totp["value"][0]), totp

    # A token the vault does not know: the real dialect refuses it with HTTP 200 and "Authentication".
    if real:
        refused = run(vault, "vault_resource", name=resource, auth_token=UNKNOWN_TOKEN)
        assert refused.get("failed") and not refused.get("changed")
        assert REFUSED in refused["msg"]
        assert UNKNOWN_TOKEN not in refused["msg"]
        refused = lookup(vault, "vault_password", ["%s/deploy" % resource], auth_token=UNKNOWN_TOKEN)
        assert refused.get("failed") and REFUSED in refused["msg"], refused


def test_the_other_domains_converge_then_read_only(vaults, unique):
    """tasks/user_group_info.yml, resource_group.yml, ssh_key.yml, certificate.yml, csr.yml, audit_info.yml and
    lookups.yml (the SSH key and the generated password), on the real dialect only (the certificate and the CSR
    cost a key each: about a CPU-second)."""
    vault = vaults["real"]
    resource = "%s-web" % unique
    group_name = "%s-group" % unique
    root = {"name": "root", "password": PASSWORDS["root"]}
    first = run(vault, "vault_resource", name=resource, type="Linux", owner="admin", first_account=root)
    assert first["changed"], first

    # A user group made by the simulator's admin endpoint (the API cannot make one); an info module never changes.
    group = sim_api(vault, "POST", "/__simulator/user-groups", {"userGroupName": group_name, "description": ""})
    first, second, ops, sent = converge_twice(vault, "vault_user_group_info", name=group_name)
    assert not first["changed"] and first["exists"]
    assert first["user_group"]["userGroupId"] == str(group["userGroupId"])
    assert not second["changed"] and second["user_group"] == first["user_group"]
    assert sent == []
    assert ops == ["GET_USERGROUPID"]

    # A static resource group holding the resource.
    first, second, ops, sent = converge_twice(
        vault,
        "vault_resource_group",
        name="%s-group-web" % unique,
        description="Web servers of the real dialect",
        resources=[resource],
    )
    assert first["changed"] and not second["changed"]
    assert second["resources"] == [resource]
    assert sent == []
    assert ops == ["GET_RESOURCE_GROUPS", "GET RESOURCES", "GET ASSOCIATED GROUPS"]

    # An ed25519 key the vault makes, then its private key by the lookup (edition A exports no public key).
    ssh_key = "%s-key" % unique
    first, second, ops, sent = converge_twice(vault, "vault_ssh_key", name=ssh_key, key_type="ed25519")
    assert first["changed"] and not second["changed"]
    assert sent == []
    assert ops == ["GetAllSSHKeys"]
    key = lookup(vault, "vault_ssh_key", [ssh_key], private=True)
    assert re.match(r"^-----BEGIN [A-Z ]*PRIVATE KEY-----", key["value"][0]), key

    # A certificate the vault creates from fields.
    first, second, ops, sent = converge_twice(
        vault,
        "vault_certificate",
        common_name="%s-cert.example.com" % unique,
        organization_name="Real Dialect Ltd",
        country_name="FR",
        key_algorithm="RSA",
        key_length=2048,
        signature_algorithm="SHA256",
        validity=30,
        validity_type="days",
    )
    assert first["changed"] and not second["changed"]
    assert sent == []
    assert ops == ["GetAllSSLCertificates"]

    # A CSR (new to the vault: the API cannot delete one; this simulator lives for the session only).
    first, second, ops, sent = converge_twice(
        vault,
        "vault_csr",
        common_name="%s-csr.example.com" % unique,
        key_algorithm="RSA",
        key_length=2048,
        signature_algorithm="SHA256",
        store_type="PKCS12",
        validity=30,
        validity_type="days",
    )
    assert first["changed"] and not second["changed"]
    assert second["csr_id"] == first["csr_id"]
    assert sent == []
    assert ops == ["GetCSRList"]

    # A generated password of the policy: one the vault made, none of the given ones.
    generated = lookup(vault, "vault_generated_password", ["Medium"])
    assert generated["value"][0] and generated["value"][0] not in PASSWORDS.values(), generated

    # The audit trail: the real dialect keys records "Audit ID", "Operation Type", ...; read in the spec's names.
    raw = sim_api(vault, "GET", "/restapi/json/v1/audit?AUDITTYPE=Resource&DURATION=TODAY&LIMIT=5")
    raw = raw["operation"]["Details"]
    assert raw
    assert all("Audit ID" in record for record in raw)
    assert [record for record in raw if "AUDITID" in record or "OPERATIONTYPE" in record] == []
    first, second, ops, sent = converge_twice(vault, "vault_audit_info", duration="today", page_size=1000)
    assert not first["changed"] and not second["changed"]
    records = second["records"]
    assert records
    for key in ("AUDITID", "OPERATIONTYPE", "accessed_at"):
        assert [record for record in records if record.get(key) is None] == [], key
    created = [
        record
        for record in records
        if record["RESOURCENAME"] == resource and record["OPERATIONTYPE"] == "CREATE RESOURCE"
    ]
    assert created
    assert created[0]["OPERATEDBY"] == "admin"
    assert ISO.match(created[0]["accessed_at"])
    assert created[0]["accessed_at"] == created[0]["LASTACCESSEDTIME"].replace(" ", "T")
    assert created[0]["accessed_at"][:10] == datetime.datetime.now().strftime("%Y-%m-%d")
    assert "Audit ID" not in created[0]
    assert second["pages"] == 1 and second["total"] == len(records)
    assert sent == []
    assert ops == ["GET_AUDIT"]


def test_the_inventory_plugin_reports_an_unknown_token_as_refused(vaults, unique, tmp_path):
    """tasks/inventory_plugin.yml's second half: with a token the vault does not know, the inventory fails saying
    the vault refused the token, and lists no host."""
    vault = vaults["real"]
    resource = "%s-web" % unique
    root = {"name": "root", "password": PASSWORDS["root"]}
    created = run(vault, "vault_resource", name=resource, type="Linux", owner="admin", first_account=root)
    assert created["changed"], created
    config = dict(vault.connection, auth_token=UNKNOWN_TOKEN, resource_groups=False)
    config["filters"] = {"name_pattern": "^%s" % unique}
    refused = run_inventory(config, tmp_path)
    assert refused.get("failed"), refused
    assert "the vault refused the token" in refused["msg"]
    assert resource not in refused["msg"] and UNKNOWN_TOKEN not in refused["msg"]
    # The same inventory with the admin's token has the resource: the refusal was the token's.
    found = run_inventory(dict(config, auth_token=vault.connection["auth_token"]), tmp_path)
    assert list(found["hosts"]) == [resource], found
