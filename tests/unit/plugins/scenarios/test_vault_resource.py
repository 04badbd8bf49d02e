# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_resource scenarios moved down from the integration target vault_resource (issue 36):

- main.yml: the update in check mode, the update with its diff and the update run again; an owner the vault does not
  know (the vault's refusal, without the password);
- input_rules.yml (all of it): names and custom fields the vault would trim or refuse, a number as a custom field
  value, creation-only options of an existing resource, check mode across dependent tasks (vault_account and
  vault_account_password of a resource that check mode did not create);
- files.yml (all of it: the module reads the file itself): a License Store created with its file in check mode and
  for real, the file the vault keeps, the file used on create only, refused type changes, a file with a type that
  holds none, a file that is not there;
- booleans.yml (all of it): the first account's booleans on the default vault (one EDIT ACCOUNT after the creation)
  and their refusal on edition A build 12000.

Not moved, already covered by tests/unit/plugins/module_utils/test_resource_converge.py: main.yml's refused type
change from Linux to License Store, creating without first_account, more than 20 custom fields (each refused before
any write).
"""

from __future__ import annotations

import json

import pytest
import requests

from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes

PASSWORD = "Res-R00t-pw-7741!"
REST = "/restapi/json/v1"


def resource_names(vault):
    """The names of the resources the vault holds now (the integration's sim_resource_names lookup)."""
    answer = sim_api(vault, "GET", REST + "/resources")
    return [resource["RESOURCE NAME"] for resource in answer["operation"].get("Details") or []]


def operations(vault):
    return [entry["operation"] for entry in vault.requests]


def field(resource, label):
    return [item["CUSTOMFIELDVALUE"] for item in resource["CUSTOM FIELD"] if item["CUSTOMFIELDLABEL"] == label][0]


def linux(name, **extra):
    fields = {"name": name, "type": "Linux", "owner": "admin", "first_account": root()}
    fields.update(extra)
    return fields


def root(**extra):
    return dict({"name": "root", "password": PASSWORD}, **extra)


def delete(vault, *names):
    for name in names:
        assert not run(vault, "vault_resource", name=name, state="absent").get("failed")


def test_an_update_in_check_mode_then_for_real_changes_only_what_differs(vaults, unique):
    vault = vaults["default"]
    created = run(
        vault,
        "vault_resource",
        **linux(unique, description="Front web server", location="Paris", custom_fields={"Environment": "production"}),
    )
    assert created["changed"], created
    vault.forget_requests()

    check = run(vault, "vault_resource", check_mode=True, name=unique, location="Lyon", department="Operations")
    assert check["changed"] and check["resource"]["LOCATION"] == "Paris"
    assert writes(vault) == []

    update = run(
        vault,
        "vault_resource",
        name=unique,
        location="Lyon",
        department="Operations",
        custom_fields={"Environment": "production", "Tier": "gold"},
    )
    assert update["changed"], update
    assert (update["diff"]["before"]["location"], update["diff"]["after"]["location"]) == ("Paris", "Lyon")
    assert (update["diff"]["before"]["department"], update["diff"]["after"]["department"]) == ("", "Operations")
    resource = update["resource"]
    assert (resource["LOCATION"], resource["DEPARTMENT"]) == ("Lyon", "Operations")
    assert resource["RESOURCE DESCRIPTION"] == "Front web server"
    assert sorted(item["CUSTOMFIELDLABEL"] for item in resource["CUSTOM FIELD"]) == ["Environment", "Tier"]

    again = run(vault, "vault_resource", name=unique, location="Lyon", department="Operations")
    assert not again.get("failed") and not again["changed"], again
    delete(vault, unique)


def test_an_owner_the_vault_does_not_know_is_its_refusal_without_the_password(vaults, unique):
    vault = vaults["default"]
    result = run(vault, "vault_resource", **linux(unique, owner="nobody-such"))
    assert result.get("failed") and "CREATE RESOURCE failed" in result["msg"], result
    assert PASSWORD not in json.dumps(result)
    assert unique not in resource_names(vault)


@pytest.mark.parametrize(
    "args, check_mode, messages",
    [
        pytest.param(
            linux(" padded"), False, ["leading or trailing spaces", "stores it trimmed"], id="name-with-spaces"
        ),
        pytest.param({"type": ""}, True, ["type must not be empty"], id="empty-type-in-check-mode"),
        pytest.param({"custom_fields": {"Env ": "prod"}}, False, ["custom_fields label"], id="label-with-a-space"),
        pytest.param({"custom_fields": {"Env": None}}, False, ["the value of Env is null"], id="null-value"),
        pytest.param({"custom_fields": {"Env": True}}, False, ["the value of Env is bool"], id="bool-value"),
    ],
)
def test_input_the_vault_would_trim_or_refuse_fails_before_any_request(vaults, unique, args, check_mode, messages):
    vault = vaults["default"]
    vault.forget_requests()
    result = run(vault, "vault_resource", check_mode=check_mode, **dict({"name": unique + "-x"}, **args))
    assert result.get("failed") and not result.get("changed"), result
    for message in messages:
        assert message in result["msg"]
    assert vault.requests == []


def test_numbers_and_creation_only_options_of_an_existing_resource(vaults, unique):
    vault = vaults["default"]
    assert run(vault, "vault_resource", **linux(unique))["changed"]

    number = run(vault, "vault_resource", name=unique, custom_fields={"Port": 8080})
    again = run(vault, "vault_resource", name=unique, custom_fields={"Port": 8080})
    assert number["changed"] and not again["changed"], (number, again)
    assert field(again["resource"], "Port") == "8080"

    creation_only = run(
        vault,
        "vault_resource",
        name=unique,
        resource_group=unique + "-never-joined",
        first_account={"name": "nobody", "password": PASSWORD},
    )
    assert not creation_only.get("failed") and not creation_only["changed"], creation_only
    warnings = warning_messages(creation_only)
    assert len([w for w in warnings if "is not in resource group %s-never-joined" % unique in w]) == 1, warnings
    assert len([w for w in warnings if "has no account nobody" in w]) == 1, warnings
    delete(vault, unique)


def test_in_check_mode_dependent_tasks_say_what_they_would_do_and_write_nothing(vaults, unique):
    vault = vaults["default"]
    vault.forget_requests()
    new = run(vault, "vault_resource", check_mode=True, **linux(unique))
    account = run(vault, "vault_account", check_mode=True, resource=unique, name="deploy", password=PASSWORD)
    password = run(
        vault, "vault_account_password", check_mode=True, resource=unique, account="deploy", password=PASSWORD
    )
    absent = run(vault, "vault_account", resource=unique, name="deploy", state="absent")

    assert new["changed"], new
    assert account["changed"] and not account.get("failed"), account
    assert len([w for w in warning_messages(account) if "would be created" in w]) == 1
    assert password["changed"] and not password.get("failed"), password
    assert len([w for w in warning_messages(password) if "would be set" in w]) == 1
    assert not absent["changed"] and not absent.get("failed"), absent
    assert writes(vault) == []
    assert unique not in resource_names(vault)


def download(vault, resource):
    """The file the vault keeps for the first account of ``resource`` (a module result's ``resource``)."""
    path = "%s%s/resources/%s/accounts/%s/downloadfile" % (
        vault.connection["url"],
        REST,
        resource["RESOURCE ID"],
        resource["ACCOUNT LIST"][0]["ACCOUNT ID"],
    )
    answer = requests.get(
        path, headers={"AUTHTOKEN": vault.connection["auth_token"]}, verify=vault.connection["ca_path"], timeout=30
    )
    answer.raise_for_status()
    return answer.text, answer.headers.get("Content-Disposition", "")


def test_file_resources(vaults, unique, tmp_path):
    vault = vaults["default"]
    license_name, store_name = unique + "-license", unique + "-store"
    content = "LICENSE-KEY it-vault_resource 0042\n"
    (tmp_path / "product.lic").write_text(content)
    (tmp_path / "other.lic").write_text("another file\n")

    def license_store(src):
        args = {"name": license_name, "type": "License Store", "owner": "admin", "src": str(tmp_path / src)}
        return dict(args, first_account={"name": "license", "password": PASSWORD})

    vault.forget_requests()
    check = run(vault, "vault_resource", check_mode=True, **license_store("product.lic"))
    assert check["changed"] and check["diff"]["after"]["src"] == "product.lic", check
    assert writes(vault) == []

    created = run(vault, "vault_resource", **license_store("product.lic"))
    assert created["changed"] and created["resource"]["RESOURCE TYPE"] == "License Store", created
    kept, disposition = download(vault, created["resource"])
    assert kept == content and "product.lic" in disposition

    vault.forget_requests()
    for src in ("product.lic", "other.lic"):  # the file is used on create only
        again = run(vault, "vault_resource", **license_store(src))
        assert not again.get("failed") and not again["changed"], again
    assert writes(vault) == []
    assert operations(vault) == ["GET_RESOURCEID", "GET RESOURCE ACCOUNTLIST"] * 2

    to_store = run(vault, "vault_resource", name=license_name, type="File Store")
    assert to_store.get("failed") and "type cannot change from License Store to File Store" in to_store["msg"]
    store = run(
        vault,
        "vault_resource",
        name=store_name,
        type="File Store",
        owner="admin",
        src=str(tmp_path / "other.lic"),
        first_account={"name": "file", "password": PASSWORD},
    )
    assert store["changed"], store
    to_license = run(vault, "vault_resource", name=store_name, type="License Store")
    assert to_license.get("failed") and "type cannot change from File Store to License Store" in to_license["msg"]
    names = resource_names(vault)
    assert license_name in names and store_name in names

    vault.forget_requests()
    linux_file = run(vault, "vault_resource", **linux(unique + "-linux-file", src=str(tmp_path / "product.lic")))
    assert linux_file.get("failed") and "File Store or License Store, not Linux" in linux_file["msg"], linux_file
    missing = run(
        vault,
        "vault_resource",
        name=unique + "-missing-file",
        type="File Store",
        owner="admin",
        src=str(tmp_path / "nowhere.lic"),
        first_account={"name": "file", "password": PASSWORD},
    )
    assert missing.get("failed") and "nowhere.lic is not a readable file" in missing["msg"], missing
    assert vault.requests == []
    delete(vault, license_name, store_name)


FLAGGED_ACCOUNT = {"name": "Administrator", "password": PASSWORD, "record_rdp_sessions": True, "services_reset": False}


def test_first_account_booleans_are_set_by_one_edit_account_after_the_creation(vaults, unique):
    vault = vaults["default"]
    args = {"name": unique, "type": "Windows", "owner": "admin", "first_account": FLAGGED_ACCOUNT}
    vault.forget_requests()
    flagged = run(vault, "vault_resource", **args)
    assert flagged["changed"], flagged
    assert flagged["diff"]["after"]["first_account_settings"] == {"RECORD_RDP_SESSIONS": True, "SERVICES_RESET": False}
    assert operations(vault) == [
        "GET_RESOURCEID",
        "GET RESOURCES",
        "CREATE RESOURCE",
        "GET_RESOURCEID",
        "GET RESOURCE ACCOUNTLIST",
        "EDIT ACCOUNT",
    ]
    resource = flagged["resource"]
    last_write = [entry for entry in vault.requests if entry["method"] != "GET"][-1]
    assert last_write["path"] == "%s/resources/%s/accounts/%s" % (
        REST,
        resource["RESOURCE ID"],
        resource["ACCOUNT LIST"][0]["ACCOUNT ID"],
    )

    vault.forget_requests()
    again = run(vault, "vault_resource", **args)
    assert not again.get("failed") and not again["changed"], again
    assert writes(vault) == [] and len(vault.requests) == 2
    delete(vault, unique)


def test_first_account_booleans_on_a_vault_older_than_12230_are_refused_before_any_request(vaults, unique):
    vault = vaults["old_a"]
    vault.forget_requests()
    account = {"name": "Administrator", "password": PASSWORD, "record_rdp_sessions": True}
    result = run(vault, "vault_resource", name=unique, type="Windows", owner="admin", first_account=account)
    assert result.get("failed"), result
    assert "RECORD_RDP_SESSIONS needs edition A from build 12230 or edition B from build 6000" in result["msg"]
    assert "the vault is edition A build 12000" in result["msg"]
    assert vault.requests == []
