# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resource group convergence against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _resource_group
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._task import Task
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

WEB = {
    "resourceGroupId": "4",
    "resourceGroupName": "web",
    "resourceGroupDescription": "front",
    "resourceGroupType": "static",
    "ownerId": "1",
    "subGroupOf": "",
}
PARIS = {
    "resourceGroupId": "5",
    "resourceGroupName": "paris",
    "resourceGroupDescription": "",
    "resourceGroupType": "static",
    "ownerId": "1",
    "subGroupOf": "4",
}
RESOURCES = [
    {"RESOURCE ID": "1", "RESOURCE NAME": "a"},
    {"RESOURCE ID": "2", "RESOURCE NAME": "b"},
    {"RESOURCE ID": "3", "RESOURCE NAME": "c"},
]
NO_GROUP_ID = VaultAPIError("GET RESOURCE GROUP ID failed: Resource group x does not exist", http_status=200)
UNSERVED = VaultAPIError("UNSUPPORTED failed (HTTP 404): not served", http_status=404)
POLICIES = {
    "ORGANIZATION": "Default Organization",
    "POLICIES": [{"POLICYID": "1", "POLICYNAME": "Low"}, {"POLICYID": "3", "POLICYNAME": "Strong"}],
}


def desired(**options):
    settings = {
        "name": "web",
        "type": None,
        "criteria_match": "all",
        "purge_resources": False,
        "recreate": False,
        "field_names": "standard",
    }
    settings.update(options)
    return settings


def memberships(groups_by_resource):
    """A GET ASSOCIATED GROUPS answer from {resource id: [group ids]}."""

    def answer(path, details, query):
        ids = groups_by_resource.get(path["resource_id"], [])
        return {"ASSOCIATED GROUPS": [{"GROUP ID": int(i), "GROUP NAME": "g%s" % i} for i in ids]}

    return answer


def all_succeed(path, details, query):
    return {str(i): {"status": "Success"} for i in details["RESOURCEIDS"]}


def scripted_client(groups=(WEB, PARIS), members=None, **extra):
    answers = {
        "get_resource_groups": list(groups),
        "get_resources": RESOURCES,
        "get_associated_groups": memberships(members or {}),
        "associate_resources": all_succeed,
        "disassociate_resources": all_succeed,
        "delete_resource_group": None,
        "create_resource_group": None,
        "get_password_policies": POLICIES,
    }
    answers.update(extra)
    return ScriptedClient(answers)


def keys(client):
    return [key for key, *dummy in client.calls]


def sent(client, key):
    return [(path, details, query) for name, path, details, query in client.calls if name == key]


def test_converged_group_without_resources_sends_one_read():
    client = scripted_client()
    tracker, after = run_entry(_resource_group.converge, client, desired(description="front"), False)
    assert not tracker.changed and keys(client) == ["get_resource_groups"]
    assert after["group"] == WEB and "resources" not in after


def test_converged_members_read_each_listed_resource_once():
    client = scripted_client(members={"1": ["4"], "2": ["4", "9"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(resources=["a", "b"]), False)
    assert not tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_groups", "get_resources", "get_associated_groups", "get_associated_groups"]
    assert after["resources"] == ["a", "b"]


def test_missing_resources_are_associated_in_one_call_with_number_ids():
    client = scripted_client(members={"1": ["4"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(resources=["a", "b", "c"]), False)
    assert tracker.changed and client.writes() == ["associate_resources"]
    assert sent(client, "associate_resources") == [({"group_id": "4"}, {"RESOURCEIDS": [2, 3]}, None)]
    assert tracker.diff()["before"]["resources"] == ["a"] and after["resources"] == ["a", "b", "c"]


def test_purge_reads_every_resource_and_disassociates_the_others():
    client = scripted_client(members={"1": ["4"], "3": ["4"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(resources=["a"], purge_resources=True), False)
    assert keys(client).count("get_associated_groups") == 3
    assert client.writes() == ["disassociate_resources"]
    assert sent(client, "disassociate_resources") == [({"group_id": "4"}, {"RESOURCEIDS": [3]}, None)]
    assert tracker.diff() == {
        "before": {"state": "present", "type": "static", "description": "front", "parent": "", "resources": ["a", "c"]},
        "after": {"state": "present", "type": "static", "description": "front", "parent": "", "resources": ["a"]},
    }
    assert after["resources"] == ["a"]


def test_purge_with_no_resources_empties_the_group():
    client = scripted_client(members={"2": ["4"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(resources=[], purge_resources=True), False)
    assert sent(client, "disassociate_resources") == [({"group_id": "4"}, {"RESOURCEIDS": [2]}, None)]
    assert tracker.changed and after["resources"] == []


def test_check_mode_reads_but_writes_nothing():
    client = scripted_client(members={"3": ["4"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(resources=["a"], purge_resources=True), True)
    assert tracker.changed and client.writes() == [] and after["resources"] == ["c"]


def test_unknown_resource_names_fail_together_before_any_write():
    client = scripted_client(groups=())
    with pytest.raises(VaultNotFoundError) as failure:
        run_entry(_resource_group.converge, client, desired(resources=["a", "zed", "nope"]), False)
    assert str(failure.value) == (
        "resources nope, zed do not exist (or are not visible to this token); nothing was changed"
    )
    assert client.writes() == []


def test_a_per_resource_failure_fails_the_task_with_the_resource_name():
    def one_fails(path, details, query):
        return {"1": {"status": "Success"}, "2": {"status": "Failed"}}

    client = scripted_client(associate_resources=one_fails)
    with pytest.raises(VaultAPIError, match="did not accept b"):
        run_entry(_resource_group.converge, client, desired(resources=["a", "b"]), False)


def test_a_resource_missing_from_the_answer_counts_as_refused():
    client = scripted_client(associate_resources=lambda path, details, query: {})
    with pytest.raises(VaultAPIError, match="did not accept a"):
        run_entry(_resource_group.converge, client, desired(resources=["a"]), False)


def test_create_sends_the_group_input_then_finds_and_fills_the_new_group():
    created = []

    def groups(path, details, query):
        return [WEB, dict(WEB, resourceGroupId="8", resourceGroupName="new", subGroupOf="4")] if created else [WEB]

    client = scripted_client(
        get_resource_groups=groups, create_resource_group=lambda path, details, query: created.append(1)
    )
    options = desired(
        name="new", description="d", parent="web", password_policy="Strong", no_helpdesk_retrieval=True, resources=["b"]
    )
    tracker, after = run_entry(_resource_group.converge, client, options, False)
    assert keys(client) == [
        "get_resource_groups",
        "get_resources",
        "get_password_policies",
        "create_resource_group",
        "get_resource_groups",
        "associate_resources",
    ]
    assert sent(client, "create_resource_group")[0][1] == {
        "GROUPNAME": "new",
        "GROUPTYPE": "STATIC",
        "DESCRIPTION": "d",
        "POLICY": "Strong",
        "PARENTGROUPID": 4,
        "NoHelpDeskRetrieval": "true",
    }
    assert sent(client, "associate_resources") == [({"group_id": "8"}, {"RESOURCEIDS": [2]}, None)]
    assert tracker.changed and after["group"]["resourceGroupId"] == "8" and after["resources"] == ["b"]


def test_create_in_check_mode_writes_nothing():
    client = scripted_client(groups=[WEB])
    tracker, after = run_entry(_resource_group.converge, client, desired(name="new", resources=["a"]), True)
    assert tracker.changed and client.writes() == [] and after == {"group": {}, "resources": []}
    assert tracker.diff()["after"]["resources"] == ["a"]


def test_dynamic_group_input_numbers_its_criteria():
    options = desired(
        name="db",
        type="dynamic",
        criteria_match="any",
        criteria=[
            {"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "db-"},
            {"condition": "LOGINNAME", "operator": "CONTAINS", "value": "postgres"},
        ],
    )
    assert _resource_group.create_input(options, None) == {
        "GROUPNAME": "db",
        "GROUPTYPE": "DYNAMIC",
        "andor": "or",
        "NoOfCriteria": 2,
        "condition_1": "RESOURCENAME",
        "operator_1": "CONTAINS",
        "valuefield_1": "db-",
        "condition_2": "LOGINNAME",
        "operator_2": "CONTAINS",
        "valuefield_2": "postgres",
    }


def test_alternative_field_names_replace_name_description_and_policy():
    options = desired(name="g", description="d", password_policy="Strong", field_names="alternative")
    assert _resource_group.create_input(options, None) == {
        "critgroup": "g",
        "critdesc": "d",
        "RuleCriteria": "Strong",
        "GROUPTYPE": "STATIC",
    }


@pytest.mark.parametrize(
    "options, message",
    [
        ({"type": "dynamic", "criteria": [{}], "resources": ["a"]}, "is dynamic"),
        ({"criteria": [{"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "x"}]}, "only for dynamic"),
        ({"parent": "web"}, "its own parent"),
    ],
)
def test_impossible_combinations_fail_before_any_request(options, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_resource_group.converge, client, desired(**options), False)
    assert client.calls == []


def test_unknown_parent_fails_before_any_write():
    client = scripted_client()
    with pytest.raises(VaultNotFoundError, match="parent resource group nowhere does not exist"):
        run_entry(_resource_group.converge, client, desired(name="new", parent="nowhere"), False)
    assert client.writes() == []


def test_differing_settings_fail_without_recreate_and_say_what_differs():
    client = scripted_client()
    with pytest.raises(VaultInputError) as failure:
        run_entry(_resource_group.converge, client, desired(description="back", resources=["a"]), False)
    assert str(failure.value) == (
        "resource group web: description is 'front' in the vault, 'back' in the task. The API cannot edit it: change "
        "the task, or set recreate: true to delete it and create it again"
    )
    assert client.writes() == []


def test_the_hooks_after_find_need_only_its_handle():
    """``plan`` and ``apply`` of an object that never ran ``find`` work from the handle another one found."""
    client = scripted_client(members={"1": ["4"], "3": ["4"]})
    options = desired(resources=["a", "b"], purge_resources=True)
    handle = _resource_group.ResourceGroup(Task(client, options, False)).find()
    fresh = _resource_group.ResourceGroup(Task(client, options, False))
    changes = fresh.plan(handle, fresh.read(handle))
    assert changes.add == {"b": "2"} and changes.remove == {"c": "3"}
    assert fresh.apply(handle, handle, changes) == {"group": WEB, "resources": ["a", "b"]}
    assert client.writes() == ["associate_resources", "disassociate_resources"]
    assert fresh.tracker.diff()["after"]["resources"] == ["a", "b"]


def test_a_plan_with_nothing_to_send_is_false_and_keeps_the_members_checked():
    client = scripted_client(members={"1": ["4"]})
    group = _resource_group.ResourceGroup(Task(client, desired(resources=["a"]), False))
    handle = group.find()
    changes = group.plan(handle, handle)
    assert not changes and group.as_planned(handle, changes) == {"group": WEB, "resources": ["a"]}


def test_parent_is_compared_by_name():
    client = scripted_client()
    tracker, dummy = run_entry(_resource_group.converge, client, desired(name="paris", parent="web"), False)
    assert not tracker.changed
    with pytest.raises(VaultInputError, match="parent is 'web' in the vault, '' in the task"):
        run_entry(_resource_group.converge, client, desired(name="paris", parent=""), False)


def test_recreate_carries_static_members_over():
    created = []

    def groups(path, details, query):
        return [dict(WEB, resourceGroupId="9", resourceGroupDescription="back")] if created else [WEB]

    client = scripted_client(
        get_resource_groups=groups,
        members={"1": ["4"], "3": ["4"]},
        create_resource_group=lambda path, details, query: created.append(1),
    )
    tracker, after = run_entry(
        _resource_group.converge, client, desired(description="back", resources=["b"], recreate=True), False
    )
    assert client.writes() == ["delete_resource_group", "create_resource_group", "associate_resources"]
    assert sent(client, "delete_resource_group") == [(None, None, {"RESOURCEGROUPID": "4"})]
    assert sent(client, "associate_resources") == [({"group_id": "9"}, {"RESOURCEIDS": [1, 2, 3]}, None)]
    assert tracker.diff()["before"]["description"] == "front" and tracker.diff()["after"]["description"] == "back"
    assert after["resources"] == ["a", "b", "c"]


def test_recreate_in_check_mode_writes_nothing():
    client = scripted_client(groups=[WEB], members={"1": ["4"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(description="back", recreate=True), True)
    assert tracker.changed and client.writes() == [] and after["group"] == WEB


def test_a_group_with_subgroups_is_never_recreated():
    client = scripted_client()
    with pytest.raises(VaultInputError, match="has subgroups \\(paris\\)"):
        run_entry(_resource_group.converge, client, desired(description="back", recreate=True), False)
    assert client.writes() == []


def test_resources_of_an_existing_dynamic_group_are_refused_before_any_write():
    client = scripted_client(groups=[dict(WEB, resourceGroupType="dynamic")])
    with pytest.raises(VaultInputError, match="web is dynamic"):
        run_entry(_resource_group.converge, client, desired(resources=["a"]), False)
    assert keys(client) == ["get_resource_groups"]


def test_a_dynamic_group_is_not_recreated_without_its_criteria():
    client = scripted_client(groups=[dict(WEB, resourceGroupType="dynamic")])
    with pytest.raises(VaultInputError, match="needs its criteria"):
        run_entry(_resource_group.converge, client, desired(description="back", recreate=True), False)
    assert client.writes() == []


def test_a_new_group_without_type_is_static_and_says_so_in_the_diff():
    client = scripted_client(groups=[WEB])
    tracker, dummy = run_entry(_resource_group.converge, client, desired(name="new"), True)
    assert tracker.diff()["after"]["type"] == "static" and client.calls == [("get_resource_groups", None, None, None)]


def test_delete_sends_the_id_in_the_query():
    client = scripted_client()
    tracker, dummy = run_entry(_resource_group.converge, client, {"name": "web", "state": "absent"}, False)
    assert tracker.changed and sent(client, "delete_resource_group") == [(None, None, {"RESOURCEGROUPID": "4"})]


def test_absent_group_is_not_deleted_and_check_mode_deletes_nothing():
    client = scripted_client()
    assert not run_entry(_resource_group.converge, client, {"name": "none", "state": "absent"}, False)[0].changed
    assert run_entry(_resource_group.converge, client, {"name": "web", "state": "absent"}, True)[0].changed
    assert client.writes() == []


@pytest.mark.parametrize("refusal", [VaultUnsupportedError("needs A 12230"), UNSERVED])
def test_without_the_list_the_group_is_found_by_name_and_settings_go_unverified(refusal):
    client = scripted_client(
        get_resource_groups=refusal, get_resource_group_id={"RESOURCEGROUPID": "4"}, members={"1": ["4"]}
    )
    tracker, after = run_entry(_resource_group.converge, client, desired(description="other", resources=["a"]), False)
    assert not tracker.changed and client.writes() == []
    assert sent(client, "get_resource_group_id") == [(None, None, {"RESOURCEGROUPNAME": "web"})]
    assert after["group"] == {"resourceGroupId": "4", "resourceGroupName": "web"}
    assert tracker.warnings == [
        "the vault has no resource group list (GET_RESOURCE_GROUPS needs edition A from build "
        "12230 or edition B from build 6000), so the description of the existing group web "
        "could not be compared"
    ]


def test_without_the_list_a_new_group_is_found_again_by_name():
    created = []

    def group_id(path, details, query):
        if query["RESOURCEGROUPNAME"] == "web":
            return {"RESOURCEGROUPID": "4"}
        return {"RESOURCEGROUPID": "11"} if created else NO_GROUP_ID

    client = scripted_client(
        get_resource_groups=UNSERVED,
        get_resource_group_id=group_id,
        create_resource_group=lambda path, details, query: created.append(1),
    )
    tracker, after = run_entry(
        _resource_group.converge, client, desired(name="new", parent="web", resources=["a"]), False
    )
    assert sent(client, "create_resource_group")[0][1]["PARENTGROUPID"] == 4
    assert sent(client, "associate_resources") == [({"group_id": "11"}, {"RESOURCEIDS": [1]}, None)]
    assert tracker.changed and after["group"]["resourceGroupId"] == "11"


def test_other_failures_of_the_list_are_not_taken_for_an_old_vault():
    client = scripted_client(get_resource_groups=VaultAPIError("GET_RESOURCE_GROUPS failed: denied", http_status=200))
    with pytest.raises(VaultAPIError, match="denied"):
        run_entry(_resource_group.converge, client, desired(), False)


# Issue 8: what the create could refuse is checked before anything is written, above all before a recreation
# deletes the group; a create that fails after the delete says so.


def recreating(groups=(WEB,), **extra):
    """A vault whose group list follows DELETE RESOURCE GROUP and CREATE RESOURCE GROUP (new groups get id 9)."""
    listed = [dict(group) for group in groups]

    def delete(path, details, query):
        listed[:] = [group for group in listed if group["resourceGroupId"] != query["RESOURCEGROUPID"]]

    def create(path, details, query):
        listed.append(
            dict(
                groups[0],
                resourceGroupId="9",
                resourceGroupName=details["GROUPNAME"],
                resourceGroupDescription=details.get("DESCRIPTION", ""),
                subGroupOf=str(details.get("PARENTGROUPID", "")),
            )
        )

    answers = {
        "get_resource_groups": lambda path, details, query: list(listed),
        "create_resource_group": create,
        "delete_resource_group": delete,
    }
    answers.update(extra)
    return scripted_client(**answers)


@pytest.mark.parametrize(
    "name, options",
    [
        ("new", {"password_policy": "Nope"}),
        ("new", {"password_policy": "Nope", "resources": ["a"]}),
        ("web", {"password_policy": "Nope", "recreate": True, "description": "back"}),
        ("web", {"password_policy": "Nope", "force_recreate": True}),
    ],
)
@pytest.mark.parametrize("check_mode", [False, True])
def test_an_unknown_policy_fails_before_anything_is_written(name, options, check_mode):
    client = recreating(members={"1": ["4"]})
    with pytest.raises(
        VaultNotFoundError,
        match="resource group %s: password policy Nope does not exist; the "
        "vault has: Low \\(id 1\\), Strong \\(id 3\\)" % name,
    ):
        run_entry(_resource_group.converge, client, desired(name=name, **options), check_mode)
    assert client.writes() == []


@pytest.mark.parametrize(
    "missing",
    [
        VaultUnsupportedError(
            "GET PASSWORD POLICIES (GET /passwords/policies) needs "
            "edition A from build 11300; the vault is edition A build "
            "11000"
        ),
        UNSERVED,
        VaultAPIError("GET PASSWORD POLICIES failed: not authorized", http_status=200),
    ],
)
def test_without_a_policy_list_the_policy_is_sent_unchecked_with_a_warning(missing):
    client = recreating(get_password_policies=missing)
    tracker, after = run_entry(_resource_group.converge, client, desired(name="new", password_policy="Strong"), False)
    assert client.writes() == ["create_resource_group"]
    assert len(tracker.warnings) == 1
    assert tracker.warnings[0].startswith(
        "resource group new: password_policy Strong could not be checked before "
        "writing, the vault has no password policy list for this token: "
    )
    assert str(missing) in tracker.warnings[0]


def test_a_server_failure_of_the_policy_list_fails_before_anything_is_written():
    client = recreating(
        get_password_policies=VaultAPIError("GET PASSWORD POLICIES failed (HTTP 500): boom", http_status=500)
    )
    with pytest.raises(VaultAPIError, match="boom"):
        run_entry(
            _resource_group.converge,
            client,
            desired(description="back", password_policy="Strong", recreate=True),
            False,
        )
    assert client.writes() == []


def test_a_parent_that_does_not_exist_fails_a_recreation_before_the_delete():
    client = recreating(groups=(PARIS,))
    with pytest.raises(VaultNotFoundError, match="parent resource group nowhere does not exist"):
        run_entry(_resource_group.converge, client, desired(name="paris", parent="nowhere", recreate=True), False)
    assert client.writes() == []


def test_a_create_refused_after_the_delete_says_the_group_was_deleted_and_what_it_held():
    refusal = VaultAPIError(
        "CREATE RESOURCE GROUP failed: Password policy Strong is locked",
        operation="CREATE RESOURCE GROUP",
        http_status=200,
        vault_message="Password policy Strong is locked",
    )
    client = recreating(members={"1": ["4"], "3": ["4"]}, create_resource_group=refusal)
    with pytest.raises(VaultAPIError) as caught:
        run_entry(
            _resource_group.converge,
            client,
            desired(description="back", password_policy="Strong", recreate=True),
            False,
        )
    assert str(caught.value) == (
        "resource group web was deleted, not recreated: CREATE RESOURCE GROUP failed: "
        "Password policy Strong is locked; its resources were a, c"
    )
    assert caught.value.vault_message == "Password policy Strong is locked"
    assert caught.value.operation == "CREATE RESOURCE GROUP"
    assert client.writes() == ["delete_resource_group", "create_resource_group"]


def test_a_create_without_an_answer_after_the_delete_says_it_may_not_have_been_applied():
    client = recreating(create_resource_group=VaultConnectionError("CREATE RESOURCE GROUP: no answer"))
    with pytest.raises(
        VaultConnectionError,
        match="resource group web was deleted, and it is not known whether it "
        "was recreated: CREATE RESOURCE GROUP: no answer",
    ):
        run_entry(_resource_group.converge, client, desired(description="back", recreate=True), False)


def test_members_refused_after_a_recreation_are_named_in_the_failure():
    client = recreating(members={"1": ["4"]}, associate_resources=lambda path, details, query: {})
    with pytest.raises(
        VaultAPIError,
        match="resource group web was recreated \\(new id 9\\) but its resources a "
        "were not all associated again: OP: the vault did not accept a",
    ):
        run_entry(_resource_group.converge, client, desired(description="back", recreate=True), False)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"name": " web"}, "name ' web' has leading or trailing spaces"),
        ({"name": "web "}, "name 'web ' has leading or trailing spaces"),
        ({"name": ""}, "name must not be empty"),
        ({"parent": " web"}, "parent ' web' has leading or trailing spaces"),
        ({"parent": "  "}, "parent must not be empty"),
        ({"resources": ["a", "b "]}, "resources entry 'b ' has leading or trailing spaces"),
        ({"resources": [""]}, "resources entry must not be empty"),
        ({"password_policy": "Strong "}, "password_policy 'Strong ' has leading or trailing spaces"),
        ({"password_policy": ""}, "password_policy must not be empty"),
        (
            {"type": "dynamic", "criteria": [{"condition": "RESOURCENAME", "operator": "CONTAINS", "value": " db"}]},
            "criteria 1 value ' db' has leading or trailing spaces",
        ),
        (
            {
                "type": "dynamic",
                "criteria": [
                    {"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "db"},
                    {"condition": "", "operator": "CONTAINS", "value": "x"},
                ],
            },
            "criteria 2 condition must not be empty",
        ),
        (
            {"type": "dynamic", "criteria": [{"condition": "RESOURCENAME", "operator": "CONTAINS ", "value": "db"}]},
            "criteria 1 operator 'CONTAINS ' has leading or trailing spaces",
        ),
        ({"type": "dynamic", "criteria": []}, "criteria needs at least one criterion"),
    ],
)
def test_input_the_vault_would_trim_or_refuse_fails_before_any_request(options, message):
    for recreate in (False, True):
        client = scripted_client()
        with pytest.raises(VaultInputError, match=message):
            run_entry(_resource_group.converge, client, desired(**dict(options, recreate=recreate)), False)
        assert client.calls == []


@pytest.mark.parametrize("name, message", [(" web", "has leading or trailing spaces"), ("", "must not be empty")])
def test_a_name_the_vault_would_trim_is_refused_for_deletion_too(name, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_resource_group.converge, client, {"name": name, "state": "absent"}, False)
    assert client.calls == []


def test_the_name_may_hold_inner_spaces_and_the_parent_may_be_empty_for_top_level():
    client = scripted_client(groups=[dict(WEB, resourceGroupName="Web servers")])
    tracker, dummy = run_entry(_resource_group.converge, client, desired(name="Web servers", parent=""), False)
    assert not tracker.changed and client.writes() == []


# Issue 8: settings the vault cannot report are named in a warning, and applied only by force_recreate.

DYNAMIC_WEB = dict(WEB, resourceGroupType="dynamic")
CRITERIA = [{"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "db-"}]


@pytest.mark.parametrize(
    "options, named",
    [
        ({"password_policy": "Strong"}, "password_policy"),
        ({"no_helpdesk_retrieval": False}, "no_helpdesk_retrieval"),
        ({"password_policy": "Strong", "no_helpdesk_retrieval": True}, "password_policy, no_helpdesk_retrieval"),
        ({"type": "dynamic", "criteria": CRITERIA}, "criteria"),
        ({"type": "dynamic", "criteria": CRITERIA, "password_policy": "Low"}, "password_policy, criteria"),
    ],
)
@pytest.mark.parametrize("recreate", [False, True])
def test_settings_the_vault_cannot_report_are_named_in_a_warning_and_nothing_is_written(options, named, recreate):
    client = scripted_client(groups=[DYNAMIC_WEB if options.get("type") else WEB])
    tracker, after = run_entry(_resource_group.converge, client, desired(recreate=recreate, **options), False)
    assert not tracker.changed and client.writes() == []
    assert tracker.warnings == [
        "resource group web: %s cannot be read back from the vault and were not compared; "
        "set force_recreate: true (once) to apply them by deleting the group and creating "
        "it again" % named
    ]


def test_a_group_given_only_reported_settings_gets_no_warning():
    client = scripted_client()
    tracker, dummy = run_entry(_resource_group.converge, client, desired(description="front", type="static"), False)
    assert tracker.warnings == [] and not tracker.changed


def test_force_recreate_recreates_a_group_whose_reported_settings_are_the_same():
    client = recreating(members={"2": ["4"]})
    options = desired(description="front", password_policy="Low", no_helpdesk_retrieval=True, force_recreate=True)
    tracker, after = run_entry(_resource_group.converge, client, options, False)
    assert client.writes() == ["delete_resource_group", "create_resource_group", "associate_resources"]
    assert sent(client, "create_resource_group")[0][1] == {
        "GROUPNAME": "web",
        "GROUPTYPE": "STATIC",
        "DESCRIPTION": "front",
        "POLICY": "Low",
        "NoHelpDeskRetrieval": "true",
    }
    assert sent(client, "associate_resources") == [({"group_id": "9"}, {"RESOURCEIDS": [2]}, None)]
    assert tracker.changed and tracker.diff()["after"]["recreated"] is True
    assert tracker.diff()["after"]["password_policy"] == "Low" and tracker.warnings == []
    assert after["resources"] == ["b"]


def test_force_recreate_applies_new_criteria_to_a_dynamic_group():
    client = recreating(groups=(DYNAMIC_WEB,))
    criteria = [{"condition": "LOGINNAME", "operator": "CONTAINS", "value": "postgres"}]
    tracker, dummy = run_entry(
        _resource_group.converge, client, desired(criteria=criteria, type="dynamic", force_recreate=True), False
    )
    assert client.writes() == ["delete_resource_group", "create_resource_group"]
    details = sent(client, "create_resource_group")[0][1]
    assert details["condition_1"] == "LOGINNAME" and details["valuefield_1"] == "postgres"
    assert details["DESCRIPTION"] == "front"
    assert tracker.changed


def test_force_recreate_in_check_mode_writes_nothing():
    client = recreating()
    tracker, after = run_entry(_resource_group.converge, client, desired(force_recreate=True), True)
    assert tracker.changed and client.writes() == [] and after["group"] == WEB


def test_a_recreation_warns_that_unreported_settings_not_given_are_lost():
    client = recreating()
    tracker, dummy = run_entry(
        _resource_group.converge, client, desired(force_recreate=True, password_policy="Low"), False
    )
    assert tracker.warnings == [
        "resource group web is recreated without no_helpdesk_retrieval: the vault does not "
        "report those of the deleted group; give them to keep them"
    ]


def test_force_recreate_without_the_group_list_is_refused_before_any_write():
    client = scripted_client(get_resource_groups=UNSERVED, get_resource_group_id={"RESOURCEGROUPID": "4"})
    with pytest.raises(VaultInputError, match="cannot be recreated: the vault has no resource group list"):
        run_entry(_resource_group.converge, client, desired(force_recreate=True), False)
    assert client.writes() == []


def test_recreating_a_dynamic_group_with_resources_is_refused_before_any_write():
    client = recreating(groups=(DYNAMIC_WEB,))
    with pytest.raises(VaultInputError, match="web is dynamic"):
        run_entry(_resource_group.converge, client, desired(criteria=None, resources=["a"], force_recreate=True), False)
    assert client.writes() == []


def test_a_new_group_with_creation_only_settings_gets_no_warning():
    client = recreating(groups=(PARIS,))
    tracker, dummy = run_entry(
        _resource_group.converge,
        client,
        desired(name="new", password_policy="Strong", no_helpdesk_retrieval=False),
        False,
    )
    assert tracker.changed and tracker.warnings == []


# Issue 8: parallel runs ensuring the same group converge instead of failing.

ALREADY = VaultAPIError(
    "CREATE RESOURCE GROUP failed: Resource group new already exists",
    operation="CREATE RESOURCE GROUP",
    http_status=200,
    vault_message="Resource group new already exists",
)
NEW = dict(WEB, resourceGroupId="8", resourceGroupName="new", resourceGroupDescription="")


def created_by_another_run(first=(WEB,), then=(WEB, NEW)):
    """GET_RESOURCE_GROUPS without the group until CREATE RESOURCE GROUP was refused, with it afterwards."""
    refused = []

    def listed(path, details, query):
        return list(then) if refused else list(first)

    def create(path, details, query):
        refused.append(1)
        return ALREADY

    return listed, create


def test_a_create_refused_because_another_run_created_the_group_converges():
    listed, create = created_by_another_run()
    client = scripted_client(get_resource_groups=listed, create_resource_group=create, members={"1": ["8"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(name="new", resources=["a", "b"]), False)
    assert keys(client) == [
        "get_resource_groups",
        "get_resources",
        "create_resource_group",
        "get_resource_groups",
        "get_resources",
        "get_associated_groups",
        "get_associated_groups",
        "associate_resources",
    ]
    assert sent(client, "associate_resources") == [({"group_id": "8"}, {"RESOURCEIDS": [2]}, None)]
    assert after["group"] == NEW and after["resources"] == ["a", "b"]
    assert tracker.diff()["before"]["state"] == "present" and tracker.diff()["before"]["resources"] == ["a"]


def test_a_create_refused_for_a_group_that_another_run_created_alike_reports_no_change():
    listed, create = created_by_another_run()
    client = scripted_client(get_resource_groups=listed, create_resource_group=create)
    tracker, after = run_entry(_resource_group.converge, client, desired(name="new", description=""), False)
    assert not tracker.changed and after["group"] == NEW


def test_a_create_refused_while_the_group_is_still_missing_fails_with_the_vault_message():
    listed, create = created_by_another_run(then=(WEB,))
    client = scripted_client(get_resource_groups=listed, create_resource_group=create)
    with pytest.raises(VaultAPIError) as caught:
        run_entry(_resource_group.converge, client, desired(name="new"), False)
    assert caught.value is ALREADY


def test_a_group_created_meanwhile_with_other_settings_fails_as_any_difference_does():
    listed, create = created_by_another_run(then=(WEB, dict(NEW, resourceGroupDescription="theirs")))
    client = scripted_client(get_resource_groups=listed, create_resource_group=create)
    with pytest.raises(VaultInputError, match="description is 'theirs' in the vault, 'mine' in the task"):
        run_entry(_resource_group.converge, client, desired(name="new", description="mine"), False)


def test_without_the_list_a_group_created_meanwhile_is_found_by_name():
    refused = []

    def group_id(path, details, query):
        return {"RESOURCEGROUPID": "11"} if refused else NO_GROUP_ID

    def create(path, details, query):
        refused.append(1)
        return ALREADY

    client = scripted_client(get_resource_groups=UNSERVED, get_resource_group_id=group_id, create_resource_group=create)
    tracker, after = run_entry(_resource_group.converge, client, desired(name="new"), False)
    assert after["group"] == {"resourceGroupId": "11", "resourceGroupName": "new"} and not tracker.changed


def test_a_delete_refused_because_another_run_deleted_the_group_is_ok():
    deleted = []

    def listed(path, details, query):
        return [PARIS] if deleted else [WEB, PARIS]

    def delete(path, details, query):
        deleted.append(1)
        return VaultAPIError("DELETE RESOURCE GROUP failed: Resource group with ID 4 does not exist", http_status=200)

    client = scripted_client(get_resource_groups=listed, delete_resource_group=delete)
    tracker, dummy = run_entry(_resource_group.converge, client, {"name": "web", "state": "absent"}, False)
    assert not tracker.changed and tracker.diff() == {"before": {"state": "absent"}, "after": {"state": "absent"}}


def test_a_delete_refused_while_the_group_still_exists_fails():
    refusal = VaultAPIError("DELETE RESOURCE GROUP failed: You are not authorized", http_status=200)
    client = scripted_client(delete_resource_group=refusal)
    with pytest.raises(VaultAPIError, match="not authorized"):
        run_entry(_resource_group.converge, client, {"name": "web", "state": "absent"}, False)


# Issue 8: in check mode a missing resource or parent is taken as created by an earlier task.


@pytest.mark.parametrize("name", ["web", "new"])
def test_check_mode_takes_missing_resources_as_created_earlier_and_warns(name):
    client = scripted_client(members={"1": ["4"]})
    tracker, after = run_entry(_resource_group.converge, client, desired(name=name, resources=["a", "brand-new"]), True)
    assert tracker.changed and client.writes() == []
    assert "brand-new" in tracker.diff()["after"]["resources"]
    assert tracker.warnings == [
        "resources brand-new do not exist yet: check mode takes them as created by an earlier "
        "task, a real run fails unless they exist by then"
    ]


def test_check_mode_takes_a_missing_parent_as_created_earlier_and_warns():
    client = scripted_client()
    tracker, after = run_entry(_resource_group.converge, client, desired(name="new", parent="brand-new"), True)
    assert tracker.changed and client.writes() == [] and after["group"] == {}
    assert tracker.diff()["after"]["parent"] == "brand-new"
    assert tracker.warnings == [
        "parent resource group brand-new does not exist yet: check mode takes it as created "
        "by an earlier task, a real run fails unless it exists by then"
    ]


def test_check_mode_recreation_with_missing_resources_and_parent_warns():
    client = recreating(groups=(PARIS, WEB))
    tracker, dummy = run_entry(
        _resource_group.converge,
        client,
        desired(name="paris", parent="brand-new", resources=["zed"], recreate=True),
        True,
    )
    assert tracker.changed and client.writes() == [] and len(tracker.warnings) == 3


def test_a_real_run_still_fails_on_missing_resources_and_parents():
    with pytest.raises(VaultNotFoundError, match="resources brand-new do not exist"):
        run_entry(_resource_group.converge, scripted_client(), desired(resources=["brand-new"]), False)
    with pytest.raises(VaultNotFoundError, match="parent resource group brand-new does not exist"):
        run_entry(_resource_group.converge, scripted_client(), desired(name="new", parent="brand-new"), False)
