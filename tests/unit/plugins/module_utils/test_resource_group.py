# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resource group convergence against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _resource_group
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

WEB = {"resourceGroupId": "4", "resourceGroupName": "web", "resourceGroupDescription": "front",
       "resourceGroupType": "static", "ownerId": "1", "subGroupOf": ""}
PARIS = {"resourceGroupId": "5", "resourceGroupName": "paris", "resourceGroupDescription": "",
         "resourceGroupType": "static", "ownerId": "1", "subGroupOf": "4"}
RESOURCES = [{"RESOURCE ID": "1", "RESOURCE NAME": "a"}, {"RESOURCE ID": "2", "RESOURCE NAME": "b"},
             {"RESOURCE ID": "3", "RESOURCE NAME": "c"}]
NO_GROUP_ID = VaultAPIError("GET RESOURCE GROUP ID failed: Resource group x does not exist", http_status=200)
UNSERVED = VaultAPIError("UNSUPPORTED failed (HTTP 404): not served", http_status=404)


def desired(**options):
    settings = {"name": "web", "type": None, "criteria_match": "all", "purge_resources": False,
                "recreate": False, "field_names": "standard"}
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


def vault(groups=(WEB, PARIS), members=None, **extra):
    answers = {"get_resource_groups": list(groups), "get_resources": RESOURCES,
               "get_associated_groups": memberships(members or {}), "associate_resources": all_succeed,
               "disassociate_resources": all_succeed, "delete_resource_group": None, "create_resource_group": None}
    answers.update(extra)
    return ScriptedClient(answers)


def keys(client):
    return [key for key, *dummy in client.calls]


def sent(client, key):
    return [(path, details, query) for name, path, details, query in client.calls if name == key]


def test_converged_group_without_resources_sends_one_read():
    client = vault()
    tracker, after = _resource_group.ensure_present(client, desired(description="front"), False)
    assert not tracker.changed and keys(client) == ["get_resource_groups"]
    assert after["group"] == WEB and after["resources"] is None


def test_converged_members_read_each_listed_resource_once():
    client = vault(members={"1": ["4"], "2": ["4", "9"]})
    tracker, after = _resource_group.ensure_present(client, desired(resources=["a", "b"]), False)
    assert not tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_groups", "get_resources", "get_associated_groups", "get_associated_groups"]
    assert after["resources"] == ["a", "b"]


def test_missing_resources_are_associated_in_one_call_with_number_ids():
    client = vault(members={"1": ["4"]})
    tracker, after = _resource_group.ensure_present(client, desired(resources=["a", "b", "c"]), False)
    assert tracker.changed and client.writes() == ["associate_resources"]
    assert sent(client, "associate_resources") == [({"group_id": "4"}, {"RESOURCEIDS": [2, 3]}, None)]
    assert tracker.diff()["before"]["resources"] == ["a"] and after["resources"] == ["a", "b", "c"]


def test_purge_reads_every_resource_and_disassociates_the_others():
    client = vault(members={"1": ["4"], "3": ["4"]})
    tracker, after = _resource_group.ensure_present(client, desired(resources=["a"], purge_resources=True), False)
    assert keys(client).count("get_associated_groups") == 3
    assert client.writes() == ["disassociate_resources"]
    assert sent(client, "disassociate_resources") == [({"group_id": "4"}, {"RESOURCEIDS": [3]}, None)]
    assert tracker.diff() == {"before": {"state": "present", "type": "static", "description": "front", "parent": "",
                                         "resources": ["a", "c"]},
                              "after": {"state": "present", "type": "static", "description": "front", "parent": "",
                                        "resources": ["a"]}}
    assert after["resources"] == ["a"]


def test_purge_with_no_resources_empties_the_group():
    client = vault(members={"2": ["4"]})
    tracker, after = _resource_group.ensure_present(client, desired(resources=[], purge_resources=True), False)
    assert sent(client, "disassociate_resources") == [({"group_id": "4"}, {"RESOURCEIDS": [2]}, None)]
    assert tracker.changed and after["resources"] == []


def test_check_mode_reads_but_writes_nothing():
    client = vault(members={"3": ["4"]})
    tracker, after = _resource_group.ensure_present(client, desired(resources=["a"], purge_resources=True), True)
    assert tracker.changed and client.writes() == [] and after["resources"] == ["c"]


def test_unknown_resource_names_fail_together_before_any_write():
    client = vault(groups=())
    with pytest.raises(VaultNotFoundError, match="resources nope, zed do not exist"):
        _resource_group.ensure_present(client, desired(resources=["a", "zed", "nope"]), False)
    assert client.writes() == []


def test_a_per_resource_failure_fails_the_task_with_the_resource_name():
    def one_fails(path, details, query):
        return {"1": {"status": "Success"}, "2": {"status": "Failed"}}
    client = vault(associate_resources=one_fails)
    with pytest.raises(VaultAPIError, match="did not accept b"):
        _resource_group.ensure_present(client, desired(resources=["a", "b"]), False)


def test_a_resource_missing_from_the_answer_counts_as_refused():
    client = vault(associate_resources=lambda path, details, query: {})
    with pytest.raises(VaultAPIError, match="did not accept a"):
        _resource_group.ensure_present(client, desired(resources=["a"]), False)


def test_create_sends_the_group_input_then_finds_and_fills_the_new_group():
    created = []

    def groups(path, details, query):
        return [WEB, dict(WEB, resourceGroupId="8", resourceGroupName="new", subGroupOf="4")] if created else [WEB]

    client = vault(get_resource_groups=groups, create_resource_group=lambda path, details, query: created.append(1))
    options = desired(name="new", description="d", parent="web", password_policy="Strong",
                      no_helpdesk_retrieval=True, resources=["b"])
    tracker, after = _resource_group.ensure_present(client, options, False)
    assert keys(client) == ["get_resource_groups", "get_resources", "create_resource_group", "get_resource_groups",
                            "associate_resources"]
    assert sent(client, "create_resource_group")[0][1] == {
        "GROUPNAME": "new", "GROUPTYPE": "STATIC", "DESCRIPTION": "d", "POLICY": "Strong", "PARENTGROUPID": 4,
        "NoHelpDeskRetrieval": "true"}
    assert sent(client, "associate_resources") == [({"group_id": "8"}, {"RESOURCEIDS": [2]}, None)]
    assert tracker.changed and after["group"]["resourceGroupId"] == "8" and after["resources"] == ["b"]


def test_create_in_check_mode_writes_nothing():
    client = vault(groups=[WEB])
    tracker, after = _resource_group.ensure_present(client, desired(name="new", resources=["a"]), True)
    assert tracker.changed and client.writes() == [] and after == {"group": {}, "resources": [], "unverified": []}
    assert tracker.diff()["after"]["resources"] == ["a"]


def test_dynamic_group_input_numbers_its_criteria():
    options = desired(name="db", type="dynamic", criteria_match="any",
                      criteria=[{"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "db-"},
                                {"condition": "LOGINNAME", "operator": "CONTAINS", "value": "postgres"}])
    assert _resource_group.create_input(options, None) == {
        "GROUPNAME": "db", "GROUPTYPE": "DYNAMIC", "andor": "or", "NoOfCriteria": 2,
        "condition_1": "RESOURCENAME", "operator_1": "CONTAINS", "valuefield_1": "db-",
        "condition_2": "LOGINNAME", "operator_2": "CONTAINS", "valuefield_2": "postgres"}


def test_alternative_field_names_replace_name_description_and_policy():
    options = desired(name="g", description="d", password_policy="Strong", field_names="alternative")
    assert _resource_group.create_input(options, None) == {"critgroup": "g", "critdesc": "d", "RuleCriteria": "Strong",
                                                           "GROUPTYPE": "STATIC"}


@pytest.mark.parametrize("options, message", [
    ({"type": "dynamic", "criteria": [{}], "resources": ["a"]}, "is dynamic"),
    ({"criteria": [{"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "x"}]}, "only for dynamic"),
    ({"parent": "web"}, "its own parent"),
])
def test_impossible_combinations_fail_before_any_request(options, message):
    client = vault()
    with pytest.raises(VaultInputError, match=message):
        _resource_group.ensure_present(client, desired(**options), False)
    assert client.calls == []


def test_unknown_parent_fails_before_any_write():
    client = vault()
    with pytest.raises(VaultNotFoundError, match="parent resource group nowhere does not exist"):
        _resource_group.ensure_present(client, desired(name="new", parent="nowhere"), False)
    assert client.writes() == []


def test_differing_settings_fail_without_recreate_and_say_what_differs():
    client = vault()
    with pytest.raises(VaultInputError, match="description is 'front' in the vault, 'back' in the task.*recreate"):
        _resource_group.ensure_present(client, desired(description="back", resources=["a"]), False)
    assert client.writes() == []


def test_parent_is_compared_by_name():
    client = vault()
    tracker, dummy = _resource_group.ensure_present(client, desired(name="paris", parent="web"), False)
    assert not tracker.changed
    with pytest.raises(VaultInputError, match="parent is 'web' in the vault, '' in the task"):
        _resource_group.ensure_present(client, desired(name="paris", parent=""), False)


def test_recreate_carries_static_members_over():
    created = []

    def groups(path, details, query):
        return [dict(WEB, resourceGroupId="9", resourceGroupDescription="back")] if created else [WEB]

    client = vault(get_resource_groups=groups, members={"1": ["4"], "3": ["4"]},
                   create_resource_group=lambda path, details, query: created.append(1))
    tracker, after = _resource_group.ensure_present(client, desired(description="back", resources=["b"],
                                                                    recreate=True), False)
    assert client.writes() == ["delete_resource_group", "create_resource_group", "associate_resources"]
    assert sent(client, "delete_resource_group") == [(None, None, {"RESOURCEGROUPID": "4"})]
    assert sent(client, "associate_resources") == [({"group_id": "9"}, {"RESOURCEIDS": [1, 2, 3]}, None)]
    assert tracker.diff()["before"]["description"] == "front" and tracker.diff()["after"]["description"] == "back"
    assert after["resources"] == ["a", "b", "c"]


def test_recreate_in_check_mode_writes_nothing():
    client = vault(groups=[WEB], members={"1": ["4"]})
    tracker, after = _resource_group.ensure_present(client, desired(description="back", recreate=True), True)
    assert tracker.changed and client.writes() == [] and after["group"] == WEB


def test_a_group_with_subgroups_is_never_recreated():
    client = vault()
    with pytest.raises(VaultInputError, match="has subgroups \\(paris\\)"):
        _resource_group.ensure_present(client, desired(description="back", recreate=True), False)
    assert client.writes() == []


def test_resources_of_an_existing_dynamic_group_are_refused_before_any_write():
    client = vault(groups=[dict(WEB, resourceGroupType="dynamic")])
    with pytest.raises(VaultInputError, match="web is dynamic"):
        _resource_group.ensure_present(client, desired(resources=["a"]), False)
    assert keys(client) == ["get_resource_groups"]


def test_a_dynamic_group_is_not_recreated_without_its_criteria():
    client = vault(groups=[dict(WEB, resourceGroupType="dynamic")])
    with pytest.raises(VaultInputError, match="needs its criteria"):
        _resource_group.ensure_present(client, desired(description="back", recreate=True), False)
    assert client.writes() == []


def test_a_new_group_without_type_is_static_and_says_so_in_the_diff():
    client = vault(groups=[WEB])
    tracker, dummy = _resource_group.ensure_present(client, desired(name="new"), True)
    assert tracker.diff()["after"]["type"] == "static" and client.calls == [("get_resource_groups", None, None, None)]


def test_delete_sends_the_id_in_the_query():
    client = vault()
    tracker, dummy = _resource_group.ensure_absent(client, "web", False)
    assert tracker.changed and sent(client, "delete_resource_group") == [(None, None, {"RESOURCEGROUPID": "4"})]


def test_absent_group_is_not_deleted_and_check_mode_deletes_nothing():
    client = vault()
    assert not _resource_group.ensure_absent(client, "none", False)[0].changed
    assert _resource_group.ensure_absent(client, "web", True)[0].changed
    assert client.writes() == []


@pytest.mark.parametrize("refusal", [VaultUnsupportedError("needs A 12230"), UNSERVED])
def test_without_the_list_the_group_is_found_by_name_and_settings_go_unverified(refusal):
    client = vault(get_resource_groups=refusal, get_resource_group_id={"RESOURCEGROUPID": "4"},
                   members={"1": ["4"]})
    tracker, after = _resource_group.ensure_present(client, desired(description="other", resources=["a"]), False)
    assert not tracker.changed and client.writes() == []
    assert sent(client, "get_resource_group_id") == [(None, None, {"RESOURCEGROUPNAME": "web"})]
    assert after["group"] == {"resourceGroupId": "4", "resourceGroupName": "web"}
    assert after["unverified"] == ["description"]


def test_without_the_list_a_new_group_is_found_again_by_name():
    created = []

    def group_id(path, details, query):
        if query["RESOURCEGROUPNAME"] == "web":
            return {"RESOURCEGROUPID": "4"}
        return {"RESOURCEGROUPID": "11"} if created else NO_GROUP_ID

    client = vault(get_resource_groups=UNSERVED, get_resource_group_id=group_id,
                   create_resource_group=lambda path, details, query: created.append(1))
    tracker, after = _resource_group.ensure_present(client, desired(name="new", parent="web", resources=["a"]), False)
    assert sent(client, "create_resource_group")[0][1]["PARENTGROUPID"] == 4
    assert sent(client, "associate_resources") == [({"group_id": "11"}, {"RESOURCEIDS": [1]}, None)]
    assert tracker.changed and after["group"]["resourceGroupId"] == "11"


def test_other_failures_of_the_list_are_not_taken_for_an_old_vault():
    client = vault(get_resource_groups=VaultAPIError("GET_RESOURCE_GROUPS failed: denied", http_status=200))
    with pytest.raises(VaultAPIError, match="denied"):
        _resource_group.ensure_present(client, desired(), False)
