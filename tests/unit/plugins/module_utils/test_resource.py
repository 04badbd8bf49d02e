# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""File resources, first-account booleans and the read-only views: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account, _resource, _resource_type
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

NOT_FOUND = VaultAPIError("GET_RESOURCEID failed: Resource lic does not exist")
LICENSE = {
    "RESOURCE ID": "9",
    "RESOURCE NAME": "lic",
    "RESOURCE TYPE": "License Store",
    "RESOURCE OWNER": "admin",
    "CUSTOM FIELD": [],
    "ACCOUNT LIST": [{"ACCOUNT ID": "4", "ACCOUNT NAME": "license"}],
}
SECRET_FIELD = {
    "CUSTOMFIELDLABEL": "PIN",
    "CUSTOMFIELDVALUE": "pin-4471",
    "CUSTOMFIELDTYPE": "Password",
    "CUSTOMFIELDCOLUMNNAME": "COLUMN_SCHAR1",
}


class UploadingClient(ScriptedClient):
    """A scripted client that also keeps the files of each call, and may claim an edition and build."""

    def __init__(self, answers, edition=None, build=None):
        super().__init__(answers)
        self.files = []
        self.edition = edition
        self.build = build

    def call(self, key, path=None, details=None, query=None, files=None):
        self.files.append((key, files))
        return super().call(key, path, details, query, files)


def keys(client):
    return [key for key, *dummy in client.calls]


def sent(client, key):
    return [details for name, dummy, details, dummy_query in client.calls if name == key]


def absent_then_created(edition=None, build=None):
    created = []

    def resource_id(path, details, query):
        return {"RESOURCEID": "9"} if created else NOT_FOUND

    def create(path, details, query):
        created.append(details)

    answers = {
        "get_resource_id": resource_id,
        "get_resources": [],
        "create_resource": create,
        "get_account_list": LICENSE,
        "edit_resource": None,
        "edit_account": None,
    }
    return UploadingClient(answers, edition, build)


def license_desired(path, **extra):
    desired = {
        "name": "lic",
        "type": "License Store",
        "owner": "admin",
        "src": str(path),
        "first_account": {"name": "license", "password": "pw"},
    }
    desired.update(extra)
    return desired


def test_a_file_resource_is_created_with_the_file_as_the_part_named_by_the_catalogue(tmp_path):
    path = tmp_path / "product.lic"
    path.write_bytes(b"LICENSE-KEY-1234\n")
    client = absent_then_created()
    tracker, values = run_entry(_resource.converge, client, license_desired(path), False)
    assert tracker.changed and values["resource"] == LICENSE
    assert ("create_resource", {"product.lic": b"LICENSE-KEY-1234\n"}) in client.files
    assert [files for key, files in client.files if key != "create_resource"] == [None] * (len(client.files) - 1)
    assert tracker.diff()["after"]["src"] == "product.lic"
    assert keys(client) == [
        "get_resource_id",
        "get_resources",
        "create_resource",
        "get_resource_id",
        "get_account_list",
    ]


def test_a_file_is_not_read_or_sent_in_check_mode(tmp_path):
    path = tmp_path / "product.lic"
    path.write_bytes(b"x")
    client = absent_then_created()
    tracker, values = run_entry(_resource.converge, client, license_desired(path), True)
    assert tracker.changed and values == {"resource": {}} and client.writes() == []


@pytest.mark.parametrize("kind", ["Linux", "Windows", "Key Store"])
def test_a_file_with_a_type_that_holds_none_is_refused_before_any_request(tmp_path, kind):
    path = tmp_path / "product.lic"
    path.write_bytes(b"x")
    client = absent_then_created()
    with pytest.raises(VaultInputError, match="File Store or License Store, not %s" % kind):
        run_entry(_resource.converge, client, license_desired(path, type=kind), False)
    assert client.calls == []


def test_a_missing_file_is_refused_before_any_request(tmp_path):
    client = absent_then_created()
    with pytest.raises(VaultInputError, match="is not a readable file"):
        run_entry(_resource.converge, client, license_desired(tmp_path / "nowhere.lic", type="File Store"), False)
    assert client.calls == []


def test_the_file_of_an_existing_resource_is_left_alone(tmp_path):
    path = tmp_path / "other.lic"
    path.write_bytes(b"another licence")
    client = UploadingClient({"get_resource_id": {"RESOURCEID": "9"}, "get_account_list": LICENSE})
    tracker, dummy = run_entry(_resource.converge, client, license_desired(path), False)
    assert not tracker.changed and keys(client) == ["get_resource_id", "get_account_list"]


@pytest.mark.parametrize(
    "current, desired", [("License Store", "File Store"), ("File Store", "License Store"), ("License Store", "Linux")]
)
def test_type_changes_from_or_to_license_store_are_refused_before_any_write(current, desired):
    client = UploadingClient(
        {"get_resource_id": {"RESOURCEID": "9"}, "get_account_list": dict(LICENSE, **{"RESOURCE TYPE": current})}
    )
    with pytest.raises(VaultInputError, match="cannot change from %s to %s" % (current, desired)):
        run_entry(_resource.converge, client, {"name": "lic", "type": desired}, False)
    assert client.writes() == []


def test_a_file_store_may_become_another_type_as_the_spec_allows():
    client = UploadingClient(
        {
            "get_resource_id": {"RESOURCEID": "9"},
            "edit_resource": None,
            "get_account_list": dict(LICENSE, **{"RESOURCE TYPE": "File Store"}),
        }
    )
    tracker, dummy = run_entry(_resource.converge, client, {"name": "lic", "type": "Linux"}, False)
    assert tracker.changed and sent(client, "edit_resource") == [{"RESOURCETYPE": "Linux"}]


FLAGGED = {
    "name": "lic",
    "type": "Windows",
    "owner": "admin",
    "first_account": {
        "name": "license",
        "password": "pw",
        "record_rdp_sessions": True,
        "services_reset": False,
        "iis_app_pool_reset": None,
    },
}


def test_first_account_booleans_are_set_by_one_edit_account_after_the_creation():
    client = absent_then_created()
    client.answers["get_account_list"] = dict(LICENSE, **{"RESOURCE TYPE": "Windows"})
    tracker, dummy = run_entry(_resource.converge, client, FLAGGED, False)
    assert client.writes() == ["create_resource", "edit_account"]
    create = sent(client, "create_resource")[0]
    assert "RECORD_RDP_SESSIONS" not in create and "SERVICES_RESET" not in create
    edit = [(path, details) for key, path, details, dummy in client.calls if key == "edit_account"]
    assert edit == [({"resource_id": "9", "account_id": "4"}, {"RECORD_RDP_SESSIONS": True, "SERVICES_RESET": False})]
    assert tracker.diff()["after"]["first_account_settings"] == {"RECORD_RDP_SESSIONS": True, "SERVICES_RESET": False}


def test_first_account_booleans_in_check_mode_write_nothing():
    client = absent_then_created()
    tracker, dummy = run_entry(_resource.converge, client, FLAGGED, True)
    assert tracker.changed and client.writes() == []


@pytest.mark.parametrize("edition, build", [("A", 12000), ("B", 5400)])
def test_first_account_booleans_on_an_older_vault_are_refused_before_any_request(edition, build):
    client = absent_then_created(edition=edition, build=build)
    with pytest.raises(VaultUnsupportedError, match="RECORD_RDP_SESSIONS needs edition A from build 12230"):
        run_entry(_resource.converge, client, FLAGGED, False)
    assert client.calls == []


def test_first_account_booleans_are_sent_when_the_build_has_them():
    client = absent_then_created(edition="B", build=6000)
    client.answers["get_account_list"] = dict(LICENSE, **{"RESOURCE TYPE": "Windows"})
    run_entry(_resource.converge, client, FLAGGED, False)
    assert client.writes() == ["create_resource", "edit_account"]


# Read-only views


def present(**extra):
    answers = {
        "get_resource_id": {"RESOURCEID": "9"},
        "get_account_list": LICENSE,
        "get_associated_groups": {"ASSOCIATED GROUPS": [{"GROUP ID": 3, "GROUP NAME": "Licences"}]},
        "get_associated_remote_apps": [{"name": "RDP", "id": "901"}],
    }
    answers.update(extra)
    return UploadingClient(answers)


def test_all_resources_are_one_request():
    client = UploadingClient({"get_resources": [{"RESOURCE NAME": "lic"}, "junk"]})
    tracker, values = run_entry(_resource.describe, client, {"name": None})
    assert values == {"resources": [{"RESOURCE NAME": "lic"}]} and not tracker.recorded
    assert keys(client) == ["get_resources"]


def test_the_include_options_of_vault_resource_info_ask_for_groups_and_remote_apps_unless_false():
    client = present()
    desired = {"name": "lic", "include_associated_groups": None, "include_remote_apps": False}
    dummy, values = run_entry(_resource.describe, client, desired)
    assert values["associated_groups"] == [{"GROUP ID": 3, "GROUP NAME": "Licences"}] and values["remote_apps"] is None
    assert keys(client) == ["get_resource_id", "get_account_list", "get_associated_groups"]


def test_one_resource_with_its_accounts_groups_and_remote_apps_is_four_reads():
    client = present()
    info = _resource.resource_info(client, "lic")
    assert info == {
        "exists": True,
        "resource": LICENSE,
        "unavailable": {},
        "associated_groups": [{"GROUP ID": 3, "GROUP NAME": "Licences"}],
        "remote_apps": [{"name": "RDP", "id": "901"}],
    }
    assert keys(client) == [
        "get_resource_id",
        "get_account_list",
        "get_associated_groups",
        "get_associated_remote_apps",
    ]
    assert client.writes() == []


def test_groups_and_remote_apps_are_not_asked_for_when_not_wanted():
    client = present()
    info = _resource.resource_info(client, "lic", associated_groups=False, remote_apps=False)
    assert info["associated_groups"] is None and info["remote_apps"] is None and info["unavailable"] == {}
    assert keys(client) == ["get_resource_id", "get_account_list"]


def test_an_unknown_resource_is_not_an_error_and_costs_no_further_read():
    client = UploadingClient({"get_resource_id": NOT_FOUND, "get_resources": []})
    info = _resource.resource_info(client, "lic")
    assert info == {"exists": False, "resource": {}, "associated_groups": None, "remote_apps": None, "unavailable": {}}
    assert keys(client) == ["get_resource_id", "get_resources"]


def test_endpoints_the_vault_lacks_are_skipped_with_the_reason():
    gate = VaultUnsupportedError("GET ASSOCIATED GROUPS (...) needs edition A from build 12000; the vault is A 11000")
    unserved = VaultAPIError("UNSUPPORTED failed (HTTP 404): not supported", http_status=404)
    client = present(get_associated_groups=gate, get_associated_remote_apps=unserved)
    info = _resource.resource_info(client, "lic")
    assert info["exists"] and info["associated_groups"] is None and info["remote_apps"] is None
    assert "needs edition A from build 12000" in info["unavailable"]["associated_groups"]
    assert "does not serve it" in info["unavailable"]["remote_apps"]


def test_a_not_json_404_is_also_an_endpoint_the_vault_lacks():
    client = present(get_associated_remote_apps=VaultResponseError("HTTP 404 not JSON", http_status=404))
    assert _resource.resource_info(client, "lic")["remote_apps"] is None


def test_other_failures_of_the_optional_reads_are_not_hidden():
    client = present(get_associated_groups=VaultAPIError("GET ASSOCIATED GROUPS failed: denied", http_status=200))
    with pytest.raises(VaultAPIError, match="denied"):
        _resource.resource_info(client, "lic")


def test_password_typed_custom_fields_are_hidden_in_resources_and_accounts():
    with_secret = dict(LICENSE, **{"CUSTOM FIELD": [SECRET_FIELD]})
    client = present(get_account_list=with_secret)
    assert "pin-4471" not in str(_resource.resource_info(client, "lic"))
    client = UploadingClient(
        {
            "get_resource_account_ids": {"RESOURCEID": "9", "ACCOUNTID": "4"},
            "get_account_details": {"DESCRIPTION": "", "CUSTOM FIELD": [SECRET_FIELD]},
        }
    )
    assert "pin-4471" not in str(_account.account_info(client, "lic", "license"))


def test_one_account_is_two_reads_and_carries_its_ids():
    client = UploadingClient(
        {
            "get_resource_account_ids": {"RESOURCEID": "9", "ACCOUNTID": "4"},
            "get_account_details": {"DESCRIPTION": "n", "PASSWDID": "4", "CUSTOM FIELD": []},
        }
    )
    info = _account.account_info(client, "lic", "license")
    assert info["exists"] and info["account"]["ACCOUNT ID"] == "4" and info["account"]["DESCRIPTION"] == "n"
    assert keys(client) == ["get_resource_account_ids", "get_account_details"]


def test_an_unknown_account_or_resource_is_not_an_error():
    client = UploadingClient(
        {
            "get_resource_account_ids": VaultAPIError("x"),
            "get_resource_id": {"RESOURCEID": "9"},
            "get_account_list": LICENSE,
        }
    )
    assert _account.account_info(client, "lic", "nobody") == {
        "exists": False,
        "resource_exists": True,
        "account": {},
    }
    client = UploadingClient(
        {"get_resource_account_ids": VaultAPIError("x"), "get_resource_id": NOT_FOUND, "get_resources": []}
    )
    assert _account.account_info(client, "lic", "license") == {
        "exists": False,
        "resource_exists": False,
        "account": {},
    }
    assert _account.list_accounts(client, "lic") == {"resource_exists": False, "accounts": []}
    assert client.writes() == []


def test_the_accounts_of_a_resource_are_its_account_list_or_one_detail_read_each():
    client = present()
    assert _account.list_accounts(client, "lic") == {"resource_exists": True, "accounts": LICENSE["ACCOUNT LIST"]}
    assert keys(client) == ["get_resource_id", "get_account_list"]
    client = present(get_account_details={"DESCRIPTION": "n", "CUSTOM FIELD": []})
    accounts = _account.list_accounts(client, "lic", details=True)["accounts"]
    assert accounts == [
        {"DESCRIPTION": "n", "CUSTOM FIELD": [], "RESOURCE ID": "9", "ACCOUNT ID": "4", "ACCOUNT NAME": "license"}
    ]
    assert keys(client) == ["get_resource_id", "get_account_list", "get_account_details"]


def test_resource_types_send_the_substring_filter_only_when_given():
    types = {"RESOURCETYPES": [{"RESOURCETYPE": "File Store"}], "ORGANIZATIONNAME": "Default Organization"}
    client = UploadingClient({"get_resource_types": types})
    tracker, values = run_entry(_resource_type.describe, client, {"containing": ["Store"]})
    assert values == {
        "resource_types": [{"RESOURCETYPE": "File Store"}],
        "organization_name": "Default Organization",
    }
    assert not tracker.recorded
    assert run_entry(_resource_type.describe, client, {"containing": []})[1] == values
    assert run_entry(_resource_type.describe, client, {"containing": None})[1] == values
    assert sent(client, "get_resource_types") == [{"RESOURCETYPE_CONTAINING": ["Store"]}, None, None]


WEB = {
    "RESOURCE ID": "7",
    "RESOURCE NAME": "web",
    "RESOURCE TYPE": "Linux",
    "CUSTOM FIELD": [],
    "ACCOUNT LIST": [{"ACCOUNT ID": "3", "ACCOUNT NAME": "root"}],
}


def web_desired(**extra):
    return dict({"name": "web", "type": "Linux", "first_account": {"name": "root", "password": "Pw-1"}}, **extra)


@pytest.mark.parametrize("option", ["name", "type", "owner", "resource_group", "password_policy"])
@pytest.mark.parametrize("value", ["", " ", " web", "web "])
def test_names_the_vault_would_trim_are_refused_before_any_request(option, value):
    client = ScriptedClient({})
    for check_mode in (True, False):
        with pytest.raises(VaultInputError, match=option):
            run_entry(_resource.converge, client, web_desired(**{option: value}), check_mode)
    assert client.calls == []


@pytest.mark.parametrize(
    "account, message",
    [
        ({"name": " root", "password": "Pw-1"}, "first_account.name"),
        ({"name": "", "password": "Pw-1"}, "first_account.name"),
        ({"name": "root", "password": ""}, "first_account.password must not be empty"),
        ({"name": "root", "password": "Pw-1", "custom_fields": {"Team": None}}, "first_account.custom_fields"),
    ],
)
def test_first_account_input_the_vault_would_refuse_fails_before_any_request(account, message):
    client = ScriptedClient({})
    with pytest.raises(VaultInputError, match=message):
        run_entry(_resource.converge, client, web_desired(first_account=account), True)
    assert client.calls == []


def test_an_empty_name_is_refused_for_absent_too():
    client = ScriptedClient({})
    with pytest.raises(VaultInputError, match="name must not be empty"):
        run_entry(_resource.converge, client, {"name": "", "state": "absent"}, False)
    assert client.calls == []


def test_custom_field_numbers_are_compared_as_the_strings_the_vault_stores():
    stored = dict(WEB, **{"CUSTOM FIELD": [{"CUSTOMFIELDLABEL": "Port", "CUSTOMFIELDVALUE": "8080"}]})
    client = ScriptedClient({"get_resource_id": {"RESOURCEID": "7"}, "get_account_list": stored})
    tracker, dummy = run_entry(_resource.converge, client, web_desired(custom_fields={"Port": 8080}), False)
    assert not tracker.changed and client.writes() == []


@pytest.mark.parametrize("value", [None, True, ["a"], {"k": "v"}])
def test_custom_field_values_no_string_reads_back_as_fail_before_any_request(value):
    client = ScriptedClient({})
    with pytest.raises(VaultInputError, match="the value of Env"):
        run_entry(_resource.converge, client, web_desired(custom_fields={"Env": value}), True)
    assert client.calls == []


def test_a_resource_created_meanwhile_by_another_run_is_converged_not_failed():
    state = {"created": False}

    def resource_id(path, details, query):
        return {"RESOURCEID": "7"} if state["created"] else NOT_FOUND

    def create(path, details, query):
        state["created"] = True  # another fork won the race
        return VaultAPIError("CREATE RESOURCE failed: Resource web already exists", http_status=200)

    client = ScriptedClient(
        {"get_resource_id": resource_id, "get_resources": [], "create_resource": create, "get_account_list": WEB}
    )
    tracker, values = run_entry(_resource.converge, client, web_desired(), False)
    assert not tracker.changed and values["resource"] == WEB
    assert client.writes() == ["create_resource"]


def test_a_refused_create_of_a_resource_that_still_does_not_exist_fails_with_the_vault_message():
    refusal = VaultAPIError("CREATE RESOURCE failed: Resource type Nope does not exist", http_status=200)
    client = ScriptedClient({"get_resource_id": NOT_FOUND, "get_resources": [], "create_resource": refusal})
    with pytest.raises(VaultAPIError, match="Resource type Nope does not exist"):
        run_entry(_resource.converge, client, web_desired(), False)


def test_a_follow_up_failure_after_the_create_says_the_resource_was_created():
    client = absent_then_created()
    client.answers["edit_resource"] = VaultAPIError(
        "EDIT RESOURCE failed: no", operation="EDIT RESOURCE", http_status=200
    )
    with pytest.raises(VaultAPIError, match="resource web was created, but not completed: EDIT RESOURCE failed"):
        run_entry(_resource.converge, client, web_desired(description="front"), False)
    assert client.writes() == ["create_resource", "edit_resource"]


def groups_answer(*names):
    return {"ASSOCIATED GROUPS": [{"GROUP ID": i, "GROUP NAME": name} for i, name in enumerate(names, 1)]}


@pytest.mark.parametrize(
    "groups, warned",
    [
        (groups_answer("linux", "web-servers"), None),
        (groups_answer("linux"), "is not in resource group web-servers"),
        (VaultUnsupportedError("GET ASSOCIATED GROUPS needs edition A from build 12000"), "cannot list a resource's"),
        (
            VaultAPIError("GET ASSOCIATED GROUPS failed (HTTP 404): not found", http_status=404),
            "cannot list a resource's",
        ),
    ],
)
def test_resource_group_of_an_existing_resource_is_compared_or_warned_about(groups, warned):
    client = ScriptedClient(
        {"get_resource_id": {"RESOURCEID": "7"}, "get_account_list": WEB, "get_associated_groups": groups}
    )
    tracker, dummy = run_entry(_resource.converge, client, web_desired(resource_group="web-servers"), False)
    assert not tracker.changed and client.writes() == []
    if warned:
        assert len(tracker.warnings) == 1 and warned in tracker.warnings[0]
    else:
        assert tracker.warnings == []


@pytest.mark.parametrize(
    "account, warned",
    [
        ({"name": "root", "password": "Pw-1"}, None),
        ({"name": "admin", "password": "Pw-1"}, "has no account admin"),
        (
            {"name": "root", "password": "Pw-1", "notes": "n", "record_rdp_sessions": True},
            "first_account.notes, first_account.record_rdp_sessions were not compared or applied",
        ),
    ],
)
def test_first_account_of_an_existing_resource_warns_what_was_not_applied(account, warned):
    client = UploadingClient({"get_resource_id": {"RESOURCEID": "7"}, "get_account_list": WEB})
    tracker, dummy = run_entry(_resource.converge, client, web_desired(first_account=account), False)
    assert not tracker.changed and client.writes() == []
    if warned is None:
        assert tracker.warnings == []
    else:
        assert len(tracker.warnings) == 1 and warned in tracker.warnings[0]
