# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every reader of the collection over the answers recorded from real servers (``tests/real_answers``), served over
HTTPS as a vault serves them: the client, the domain reads and converged tasks, vault_audit_info, the event source's
trail, the lookup and the inventory plugin. A converged task over each real shape reports not changed and writes
nothing."""

from __future__ import annotations

import json

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils import _account, _audit, _resource
from ansible_collections.credvault.vault.plugins.module_utils._answers import ANSWERS
from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, is_refusal
from ansible_collections.credvault.vault.plugins.plugin_utils import _audit_events
from ansible_collections.credvault.vault.tests.unit.corpus_vault import (
    CorpusVault,
    corpus,
    details,
    is_refusal_body,
    spec_answer,
    successes,
)
from ansible_collections.credvault.vault.tests.unit.fakes import run_entry
from ansible_collections.credvault.vault.tests.unit.local_servers import ScriptedVault

# The path placeholders of a call, for the rows the corpus holds.
PATHS = {"resource_id": "1", "account_id": "1", "resource_name": "res1"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    vault = ScriptedVault(tmp_path_factory.mktemp("tls"))
    yield vault
    vault.close()


def served(entry):
    """The recorded body as the vault sent it; the few files holding only ``operation.Details`` (the source printed
    no more) get the result every successful answer carries."""
    body = json.loads(json.dumps(entry["body"]))
    if entry.get("body_part"):
        body["operation"].setdefault("result", {"status": "Success", "message": "(not recorded)"})
    return body


def client_of(vault):
    return VaultClient(retries=0, **vault.connection())


def names(files):
    return [pytest.param(entry, id=name) for name, entry in files]


# The client: every body read without a crash; the refusals of a token are refusals, named so.


@pytest.mark.parametrize("entry", names(corpus()))
def test_the_client_reads_every_recorded_body(server, entry):
    key = entry["catalogue_key"]
    vault = CorpusVault(server, {key: served(entry)})
    client = client_of(vault)
    path = {name: value for name, value in PATHS.items() if "{%s}" % name in CATALOGUE[key].path}
    if is_refusal_body(entry):
        with pytest.raises(VaultAPIError) as caught:
            client.call(key, path=path)
        assert is_refusal(caught.value)
        assert str(caught.value).startswith(
            "%s failed: the vault refused the token (Authentication: " % (CATALOGUE[key].operation)
        )
        return
    response = client.call(key, path=path)
    assert response.ok and vault.keys == [key]
    if key in ANSWERS:
        declared = ANSWERS[key].record or ANSWERS[key].items
        records = response.details if isinstance(response.details, list) else [response.details]
        aliases = {alias for declared_key in declared.keys for alias in declared_key.aliases}
        assert all(not aliases & set(record) for record in records), "a real spelling was left for domain code"


def test_an_empty_list_without_details_is_an_empty_list(server):
    (entry,) = [entry for dummy, entry in successes("get_resources") if details(entry) is None]
    assert entry["body"]["operation"]["totalRows"] == 0
    vault = CorpusVault(server, {"get_resources": served(entry)})
    assert client_of(vault).call("get_resources").details == []


# vault_resource and vault_resource_info: the resource's settings as a user who sees them in the vault writes them.


def settings_as_shown(resource):
    """The options a user writes for what the vault shows: its policy whichever key names it, empty for N/A."""
    policy = resource.get("RESOURCE PASSWORD POLICY", resource.get("PASSWORD POLICY"))
    shown = {
        "name": resource["RESOURCE NAME"],
        "type": resource["RESOURCE TYPE"],
        "description": resource["RESOURCE DESCRIPTION"],
        "resource_url": resource["RESOURCE URL"],
        "department": resource["DEPARTMENT"],
        "location": resource["LOCATION"],
        "password_policy": policy,
        "owner": resource["RESOURCE OWNER"],
    }
    return {option: "" if value == "N/A" else value for option, value in shown.items()}


RESOURCE_DETAILS = [(name, entry) for name, entry in successes("get_account_list") if "RESOURCE NAME" in details(entry)]


def resource_vault(server, entry):
    resource = details(entry)
    return CorpusVault(
        server,
        {
            "get_account_list": served(entry),
            "get_resource_id": spec_answer("GET_RESOURCEID", {"RESOURCEID": resource["RESOURCE ID"]}),
        },
    )


@pytest.mark.parametrize("entry", names(RESOURCE_DETAILS))
def test_a_converged_resource_of_each_real_shape_is_not_changed(server, entry):
    vault = resource_vault(server, entry)
    desired = settings_as_shown(details(entry))
    tracker, values = run_entry(_resource.converge, client_of(vault), desired, False)
    assert not tracker.changed, tracker.changed_names
    assert vault.keys == ["get_resource_id", "get_account_list"]
    assert values["resource"]["PASSWORD POLICY"] == desired["password_policy"]
    labels = [field["CUSTOMFIELDLABEL"] for field in details(entry).get("CUSTOM FIELD", [])]
    assert [field["CUSTOMFIELDLABEL"] for field in values["resource"]["CUSTOM FIELD"]] == labels


@pytest.mark.parametrize("entry", names(RESOURCE_DETAILS))
def test_a_resource_of_each_real_shape_with_another_policy_is_changed(server, entry):
    vault = resource_vault(server, entry)
    desired = dict(settings_as_shown(details(entry)), password_policy="Another")
    tracker, dummy = run_entry(_resource.converge, client_of(vault), desired, True)
    assert tracker.changed_names == ["password_policy"] and vault.keys == ["get_resource_id", "get_account_list"]


@pytest.mark.parametrize("entry", names(RESOURCE_DETAILS))
def test_a_resource_answer_without_a_compared_key_is_an_error_naming_it(server, entry):
    body = served(entry)
    for key in ("PASSWORD POLICY", "RESOURCE PASSWORD POLICY"):
        body["operation"]["Details"].pop(key, None)
    vault = CorpusVault(
        server, {"get_account_list": body, "get_resource_id": resource_vault(server, entry).bodies["get_resource_id"]}
    )
    desired = settings_as_shown(details(entry))
    with pytest.raises(Exception, match="has no PASSWORD POLICY .*RESOURCE PASSWORD POLICY.*password_policy cannot"):
        run_entry(_resource.converge, client_of(vault), desired, False)


@pytest.mark.parametrize("entry", names(RESOURCE_DETAILS))
def test_vault_resource_info_reads_each_real_shape_in_the_spec_spelling(server, entry):
    vault = resource_vault(server, entry)
    desired = {
        "name": details(entry)["RESOURCE NAME"],
        "include_associated_groups": False,
        "include_remote_apps": False,
    }
    dummy, values = run_entry(_resource.describe, client_of(vault), desired, False)
    resource = values["resource"]
    assert resource["PASSWORD POLICY"] == settings_as_shown(details(entry))["password_policy"]
    assert "RESOURCE PASSWORD POLICY" not in resource
    assert [item["ACCOUNT NAME"] for item in resource["ACCOUNT LIST"]] == [
        item["ACCOUNT NAME"] for item in details(entry)["ACCOUNT LIST"]
    ]


# vault_account and vault_account_info: "DESCRIPTION": "N/A" is an account without notes.

ACCOUNT_DETAILS = successes("get_account_details")


def account_vault(server, entry):
    return CorpusVault(
        server,
        {
            "get_account_details": served(entry),
            "get_resource_account_ids": spec_answer("GET_RESOURCEACCOUNTID", {"RESOURCEID": "1", "ACCOUNTID": "1"}),
        },
    )


def notes_as_shown(account):
    return "" if account["DESCRIPTION"] in ("N/A", "") else account["DESCRIPTION"]


@pytest.mark.parametrize("entry", names(ACCOUNT_DETAILS))
def test_a_converged_account_of_each_real_shape_is_not_changed(server, entry):
    vault = account_vault(server, entry)
    desired = {"resource": "res1", "name": "admin", "notes": notes_as_shown(details(entry))}
    tracker, values = run_entry(_account.converge, client_of(vault), desired, False)
    assert not tracker.changed, tracker.changed_names
    assert vault.keys == ["get_resource_account_ids", "get_account_details"]
    assert values["account"]["DESCRIPTION"] == desired["notes"]
    assert values["account"]["LAST MODIFIED TIME"] is None  # "N/A" in every recorded body: never modified


@pytest.mark.parametrize("entry", names(ACCOUNT_DETAILS))
def test_an_account_of_each_real_shape_with_other_notes_is_changed(server, entry):
    vault = account_vault(server, entry)
    desired = {"resource": "res1", "name": "admin", "notes": "other notes"}
    tracker, dummy = run_entry(_account.converge, client_of(vault), desired, True)
    assert tracker.changed_names == ["notes"]


# vault_audit_info and the event source: both record shapes give the same fields.

AUDIT = successes("get_audit")


@pytest.mark.parametrize("entry", names(AUDIT))
def test_vault_audit_info_gives_each_real_record_its_fields_and_time(server, entry):
    vault = CorpusVault(server, {"get_audit": served(entry)})
    desired = {"audit_type": "resource", "duration": "last_7_days", "max_records": None, "page_size": 100}
    dummy, values = run_entry(_audit.describe, client_of(vault), desired, False)
    recorded = details(entry)
    assert [record["AUDITID"] for record in values["records"]] == [record["Audit ID"] for record in recorded]
    for record, raw in zip(values["records"], recorded):
        assert record["OPERATIONTYPE"] == raw["Operation Type"]
        assert record["RESOURCENAME"] == raw["Resource Name"]
        assert record["OPERATEDBY"] == raw["Operated by"]
        assert record["accessed_at"] == raw["Time Stamp"].replace(" ", "T")
        assert record["USERNAME"] is None and record["ACCOUNTNAME"] is None  # "N/A"


@pytest.mark.parametrize("entry", names(AUDIT))
def test_the_event_source_gives_each_real_record_once_with_its_time(server, entry, tmp_path):
    vault = CorpusVault(server, {"get_audit": served(entry)})
    client = client_of(vault)
    cursor = _audit_events.Cursor(client.base_url, str(tmp_path / "cursor.json"))
    events = _audit_events.AuditEvents(client, cursor, ["resource"], _audit_events.Filters(), start_at="last_7_days")
    given = []
    for event, audit_type, audit_id, moment in events.poll():
        given.append(event)
        events.note(audit_type, audit_id, moment)  # handed over, as the source does
    for event, audit_type, audit_id, moment in events.poll():
        raise AssertionError("given again: %s" % audit_id)
    recorded = details(entry)
    assert sorted(event["vault_audit"]["audit_id"] for event in given) == sorted(r["Audit ID"] for r in recorded)
    for event in given:
        raw = next(r for r in recorded if r["Audit ID"] == event["vault_audit"]["audit_id"])
        assert event["vault_audit"]["operation"] == raw["Operation Type"]
        assert event["vault_audit"]["time"] == raw["Time Stamp"].replace(" ", "T")
        assert event["vault_audit"]["user"] is None


def test_an_audit_record_with_only_its_epoch_time_has_a_time(server):
    ((dummy, entry),) = AUDIT[:1]
    body = served(entry)
    for record in body["operation"]["Details"]:
        del record["Time Stamp"]
    vault = CorpusVault(server, {"get_audit": body})
    values = _audit.read_audit(client_of(vault))
    assert values["records"][0]["accessed_at"] == "2024-03-12T05:45:44.835"  # TIME 1710222344835, in UTC


# The lookup and the inventory plugin.


@pytest.mark.parametrize("entry", names(successes("get_password")))
def test_the_password_lookup_reads_each_real_answer(server, entry, lookup_plugin):
    vault = CorpusVault(
        server,
        {
            "get_password": served(entry),
            "get_resource_account_ids": spec_answer("GET_RESOURCEACCOUNTID", {"RESOURCEID": "1", "ACCOUNTID": "1"}),
        },
    )
    found = lookup_plugin("vault_password").run(["res1/admin"], variables={}, **vault.connection())
    assert found == [details(entry)["PASSWORD"]]


REFUSALS = [(name, entry) for name, entry in corpus() if is_refusal_body(entry)]


@pytest.mark.parametrize("entry", names(REFUSALS))
def test_the_password_lookup_reports_a_refused_token_as_refused(server, entry, lookup_plugin):
    vault = CorpusVault(server, {}, otherwise=served(entry))
    with pytest.raises(AnsibleLookupError, match="refused the token"):
        lookup_plugin("vault_password").run(["res1/admin"], variables={}, **vault.connection())


@pytest.mark.parametrize("entry", names(RESOURCE_DETAILS))
def test_the_inventory_plugin_reads_each_real_resource(server, entry, tmp_path):
    from ansible.inventory.data import InventoryData
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import inventory_loader

    resource = details(entry)
    item = {key: resource[key] for key in ("RESOURCE ID", "RESOURCE NAME", "RESOURCE DESCRIPTION", "RESOURCE TYPE")}
    bodies = {"get_resources": spec_answer("GET RESOURCES", [item]), "get_account_list": served(entry)}
    vault = CorpusVault(server, bodies)
    config = tmp_path / "test.vault_resources.yml"
    options = dict(plugin="credvault.vault.vault_resources", hostname_source="resource_name", resource_groups=False)
    config.write_text(json.dumps(dict(options, **vault.connection())))
    data = InventoryData()
    inventory_loader.get("credvault.vault.vault_resources").parse(data, DataLoader(), str(config), cache=False)
    variables = data.get_host(resource["RESOURCE NAME"]).get_vars()
    shown = settings_as_shown(resource)
    assert variables["credvault_password_policy"] == shown["password_policy"]
    assert variables["credvault_location"] == shown["location"]
    assert variables["credvault_accounts"] == sorted(item["ACCOUNT NAME"] for item in resource["ACCOUNT LIST"])
