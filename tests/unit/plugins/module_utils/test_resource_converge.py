# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resource convergence against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _resource
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

RESOURCE = {
    "RESOURCE ID": "7",
    "RESOURCE NAME": "web",
    "RESOURCE TYPE": "Linux",
    "RESOURCE DESCRIPTION": "d",
    "RESOURCE URL": "",
    "DEPARTMENT": "Ops",
    "LOCATION": "Paris",
    "PASSWORD POLICY": "Strong",
    "RESOURCE OWNER": "admin",
    "CUSTOM FIELD": [
        {
            "CUSTOMFIELDLABEL": "Env",
            "CUSTOMFIELDVALUE": "prod",
            "CUSTOMFIELDTYPE": "Character",
            "CUSTOMFIELDCOLUMNNAME": "COLUMN_CHAR1",
        }
    ],
    "ACCOUNT LIST": [{"ACCOUNT ID": "3", "ACCOUNT NAME": "root"}],
}
NOT_FOUND = VaultAPIError("GET_RESOURCEID failed: Resource web does not exist")


def present_resource(**extra):
    return ScriptedClient(
        dict({"get_resource_id": {"RESOURCEID": "7"}, "get_account_list": RESOURCE, "edit_resource": None}, **extra)
    )


def test_converged_resource_sends_only_reads():
    client = present_resource()
    tracker, values = run_entry(
        _resource.converge,
        client,
        {"name": "web", "type": "Linux", "location": "Paris", "custom_fields": {"Env": "prod"}},
        False,
    )
    assert not tracker.changed and client.writes() == [] and values["resource"] == RESOURCE
    assert [key for key, *dummy in client.calls] == ["get_resource_id", "get_account_list"]


def test_resource_edit_sends_only_what_differs():
    client = present_resource()
    desired = {"name": "web", "location": "Lyon", "department": "Ops", "custom_fields": {"Env": "prod", "Tier": "1"}}
    tracker, dummy = run_entry(_resource.converge, client, desired, False)
    edits = [details for key, dummy, details, dummy_query in client.calls if key == "edit_resource"]
    assert edits == [{"LOCATION": "Lyon", "RESOURCECUSTOMFIELD": [{"CUSTOMLABEL": "Tier", "CUSTOMVALUE": "1"}]}]
    assert tracker.diff()["after"]["location"] == "Lyon" and tracker.diff()["before"]["location"] == "Paris"


def test_resource_check_mode_writes_nothing():
    client = present_resource()
    tracker, dummy = run_entry(_resource.converge, client, {"name": "web", "location": "Lyon"}, True)
    assert tracker.changed and client.writes() == []


def test_absent_resource_is_confirmed_by_the_list_then_created_with_an_edit_for_description():
    created = []

    def resource_id(path, details, query):
        return {"RESOURCEID": "9"} if created else NOT_FOUND

    def create(path, details, query):
        created.append(details)

    client = ScriptedClient(
        {
            "get_resource_id": resource_id,
            "get_resources": [{"RESOURCE NAME": "other"}],
            "create_resource": create,
            "edit_resource": None,
            "get_account_list": dict(RESOURCE, **{"RESOURCE DESCRIPTION": "front"}),
        }
    )
    desired = {
        "name": "web",
        "type": "Linux",
        "description": "front",
        "owner": "admin",
        "first_account": {"name": "root", "password": "pw", "notes": "n"},
    }
    tracker, dummy = run_entry(_resource.converge, client, desired, False)
    assert tracker.changed
    assert created == [
        {
            "RESOURCENAME": "web",
            "ACCOUNTNAME": "root",
            "PASSWORD": "pw",
            "RESOURCETYPE": "Linux",
            "OWNERNAME": "admin",
            "NOTES": "n",
        }
    ]
    assert ("edit_resource", {"resource_id": "9"}, {"RESOURCEDESCRIPTION": "front"}, None) in client.calls


def test_creating_without_first_account_fails_before_any_write():
    client = ScriptedClient({"get_resource_id": NOT_FOUND, "get_resources": []})
    with pytest.raises(VaultInputError, match="first_account"):
        run_entry(_resource.converge, client, {"name": "web", "type": "Linux"}, False)
    assert client.writes() == []


@pytest.mark.parametrize("current, desired", [("Linux", "License Store"), ("Key Store", "Windows")])
def test_refused_type_changes_fail_before_any_write(current, desired):
    client = present_resource(get_account_list=dict(RESOURCE, **{"RESOURCE TYPE": current}))
    with pytest.raises(VaultInputError, match="cannot change"):
        run_entry(_resource.converge, client, {"name": "web", "type": desired}, False)
    assert client.writes() == []


def test_too_many_custom_fields_fail_before_any_request():
    client = present_resource()
    with pytest.raises(VaultInputError, match="at most 20"):
        run_entry(_resource.converge, client, {"name": "web", "custom_fields": {str(i): "v" for i in range(21)}}, False)
    assert client.calls == []


SECRET_FIELD = {
    "CUSTOMFIELDLABEL": "Recovery PIN",
    "CUSTOMFIELDVALUE": "pin-4471",
    "CUSTOMFIELDTYPE": "Password",
    "CUSTOMFIELDCOLUMNNAME": "COLUMN_SCHAR1",
}


def test_password_typed_custom_fields_are_compared_but_never_shown():
    with_secret = dict(RESOURCE, **{"CUSTOM FIELD": RESOURCE["CUSTOM FIELD"] + [SECRET_FIELD]})
    client = present_resource(get_account_list=with_secret)
    tracker, values = run_entry(
        _resource.converge, client, {"name": "web", "custom_fields": {"Recovery PIN": "pin-4471"}}, False
    )
    assert not tracker.changed and client.writes() == []
    client = present_resource(get_account_list=with_secret)
    tracker, values = run_entry(
        _resource.converge, client, {"name": "web", "custom_fields": {"Recovery PIN": "pin-9999"}}, False
    )
    assert tracker.changed
    shown = str(tracker.diff()) + str(values)
    assert "pin-4471" not in shown and "pin-9999" not in shown
    assert values["resource"]["CUSTOM FIELD"][0]["CUSTOMFIELDVALUE"] == "prod"
