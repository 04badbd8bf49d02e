# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_resource_group's scenarios beyond the integration contract, moved down from the integration target
tests/integration/targets/vault_resource_group (issue 36):

- static.yml: the requests of a creation and of a converged run, adding a resource (the others stay), purging in
  check mode and for real (one read per resource the token sees), and the refusals of an unknown resource on a new
  group, of purge_resources without resources and of criteria on a static group (the integration keeps the check-mode
  creation, the creation, the converged run and the unknown resource of an existing group);
- parent.yml: a subgroup under its parent, recreation with a description (new id, same parent, members carried
  over) and the alternative field names;
- precheck.yml: a recreation whose creation the vault refuses (fault injected): the failure says that the group was
  deleted and what it held, and reports a change; the group made again;
- dynamic.yml: a dynamic group whose criteria decide its members, its converged run, and the refusals of resources on
  a dynamic group, of a dynamic group without criteria and of criteria with resources;
- unreported.yml: force_recreate applies new criteria (new id, description kept, warning) and is not idempotent;
- delete.yml: check-mode deletion, deletion (its diff and requests) and deletion of an absent group;
- editions.yml / other_simulator.yml: the lifecycle on edition B (B 6320) and on a vault without the group list
  (A 12000).

Facts of those files already asserted by tests/unit/plugins/module_utils/test_resource_group.py were not repeated
here (see each test's comment); dry_run.yml is covered there entirely.
"""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes

MODULE = "vault_resource_group"
PASSWORD = "Rg-Acc0unt-pw-5150!"


# Shared helpers of this file (what the integration target's groups.yml and member_groups.yml read).


def ok(result):
    assert not result.get("failed"), result.get("msg")
    return result


def group(vault, check_mode=False, **args):
    return run(vault, MODULE, check_mode=check_mode, **args)


def make_resources(vault, accounts):
    """Resources {name: account name}, each with its first account; {name: resource id}."""
    ids = {}
    for name, account in accounts.items():
        made = ok(
            run(
                vault,
                "vault_resource",
                name=name,
                type="Linux",
                owner="admin",
                first_account={"name": account, "password": PASSWORD},
            )
        )
        ids[name] = made["resource"]["RESOURCE ID"]
    return ids


def groups(vault):
    """The groups the simulator lists, name to id (GET_RESOURCE_GROUPS)."""
    answer = sim_api(vault, "GET", "/restapi/json/v1/resourcegroup")
    return {item["resourceGroupName"]: item["resourceGroupId"] for item in answer["operation"].get("Details") or []}


def member_groups(vault, resource_id):
    """The names of the groups resource ``resource_id`` is in (GET ASSOCIATED GROUPS)."""
    answer = sim_api(vault, "GET", "/restapi/json/v1/resources/%s/associatedGroups" % resource_id)
    return [item["GROUP NAME"] for item in answer["operation"]["Details"]["ASSOCIATED GROUPS"]]


def resource_count(vault):
    answer = sim_api(vault, "GET", "/restapi/json/v1/resources")
    return len(answer["operation"].get("Details") or [])


def operations(vault):
    return [entry["operation"] for entry in vault.requests]


# static.yml


def test_static_group_requests_members_purge_and_refusals(vaults, unique):
    vault = vaults["default"]
    r1, r2, name = unique + "-r1", unique + "-r2", unique + "-static"
    ids = make_resources(vault, {r1: "root", r2: "root"})

    vault.forget_requests()
    create = ok(group(vault, name=name, description="Web servers", resources=[r1]))
    assert create["changed"] and create["resources"] == [r1]
    assert operations(vault) == [
        "GET_RESOURCE_GROUPS",
        "GET RESOURCES",
        "CREATE RESOURCE GROUP",
        "GET_RESOURCE_GROUPS",
        "ASSOCIATE RESOURCES",
    ]

    vault.forget_requests()
    again = ok(group(vault, name=name, description="Web servers", resources=[r1]))
    assert not again["changed"] and again["resources"] == [r1] and writes(vault) == []
    assert operations(vault) == ["GET_RESOURCE_GROUPS", "GET RESOURCES", "GET ASSOCIATED GROUPS"]

    # r1 is not listed and stays
    add = ok(group(vault, name=name, resources=[r2], _ansible_diff=True))
    assert add["changed"] and add["resources"] == [r2]
    assert add["diff"]["before"]["resources"] == [] and add["diff"]["after"]["resources"] == [r2]
    assert name in member_groups(vault, ids[r1])

    # purge: every member seen, each resource the token sees read once (plus the group list and the resource list)
    seen = resource_count(vault)
    vault.forget_requests()
    check_purge = ok(group(vault, check_mode=True, name=name, resources=[r2], purge_resources=True, _ansible_diff=True))
    assert check_purge["changed"] and writes(vault) == [] and len(vault.requests) == seen + 2
    assert check_purge["diff"]["before"]["resources"] == [r1, r2]
    assert check_purge["diff"]["after"]["resources"] == [r2]

    purge = ok(group(vault, name=name, resources=[r2], purge_resources=True))
    assert purge["changed"] and purge["resources"] == [r2]
    assert name not in member_groups(vault, ids[r1])
    vault.forget_requests()
    purge_again = ok(group(vault, name=name, resources=[r2], purge_resources=True))
    assert not purge_again["changed"] and writes(vault) == [] and len(vault.requests) == seen + 2

    vault.forget_requests()
    unknown_new = group(vault, name=unique + "-never", resources=[unique + "-nope"])
    assert unknown_new["failed"] and "resources %s-nope do not exist" % unique in unknown_new["msg"]
    without_list = group(vault, name=name, purge_resources=True)
    assert without_list["failed"]
    assert "purge_resources is True but all of the following are missing: resources" in without_list["msg"]
    criteria = [{"condition": "RESOURCENAME", "operator": "CONTAINS", "value": "web"}]
    on_static = group(vault, name=name, criteria=criteria)
    assert on_static["failed"] and "criteria are only for dynamic groups" in on_static["msg"]
    assert writes(vault) == []


# parent.yml, precheck.yml, delete.yml. Already in test_resource_group.py, so not here: a differing description or
# parent fails without recreate and says what differs (test_differing_settings_fail_without_recreate_and_say_what_
# differs, test_parent_is_compared_by_name), a group with subgroups is never recreated, an unknown parent fails
# before any write, check-mode recreation writes nothing (test_recreate_in_check_mode_writes_nothing), an unknown
# password policy fails every creation and recreation, in check mode too, before any write, naming the vault's
# policies (test_an_unknown_policy_fails_before_anything_is_written).


def test_subgroup_recreation_refused_creation_alternative_names_and_deletion(vaults, unique):
    vault = vaults["default"]
    r1, parent, child, alternative = unique + "-r1", unique + "-static", unique + "-child", unique + "-alternative"
    ids = make_resources(vault, {r1: "root"})
    ok(group(vault, name=parent))

    made = ok(group(vault, name=child, parent=parent, resources=[r1]))
    child_again = ok(group(vault, name=child, parent=parent, resources=[r1], _ansible_diff=True))
    assert made["changed"] and made["group"]["subGroupOf"] == groups(vault)[parent]
    assert not child_again["changed"] and child_again["diff"]["before"]["parent"] == parent

    recreated = ok(group(vault, name=child, description="Paris web servers", recreate=True, _ansible_diff=True))
    recreated_again = ok(group(vault, name=child, description="Paris web servers", recreate=True))
    assert recreated["changed"] and not recreated_again["changed"]
    assert recreated["diff"]["before"]["description"] == ""
    assert recreated["diff"]["after"]["description"] == "Paris web servers"
    assert recreated["group"]["resourceGroupId"] != made["group"]["resourceGroupId"]
    assert recreated["group"]["resourceGroupDescription"] == "Paris web servers"
    assert recreated["group"]["subGroupOf"] == made["group"]["subGroupOf"]
    assert child in member_groups(vault, ids[r1])

    # The vault refuses the next CREATE RESOURCE GROUP: the recreation deleted the group and says so.
    vault.faults.arm({"kind": "failed", "path": "/resourcegroup$", "method": "POST", "count": 1}, "write")
    try:
        lost = group(vault, name=child, description="Lost", recreate=True)
    finally:
        vault.faults.clear()
    assert lost["failed"] and lost["changed"]
    assert lost["msg"].startswith(
        "resource group %s was deleted, not recreated: CREATE RESOURCE GROUP failed: Simulated failure" % child
    )
    assert lost["msg"].endswith("; its resources were %s" % r1)
    assert child not in groups(vault)
    restored = ok(group(vault, name=child, parent=parent, description="Paris web servers", resources=[r1]))
    assert restored["changed"] and restored["resources"] == [r1]

    # The alternative field names (critgroup, critdesc, RuleCriteria): the vault takes name and description.
    taken = ok(
        group(
            vault, name=alternative, description="Sent as critdesc", password_policy="Strong", field_names="alternative"
        )
    )
    assert taken["changed"] and taken["group"]["resourceGroupName"] == alternative
    assert taken["group"]["resourceGroupDescription"] == "Sent as critdesc"

    check_delete = ok(group(vault, check_mode=True, name=alternative, state="absent"))
    assert check_delete["changed"] and alternative in groups(vault)
    vault.forget_requests()
    delete = ok(group(vault, name=alternative, state="absent", _ansible_diff=True))
    assert operations(vault) == ["GET_RESOURCE_GROUPS", "DELETE RESOURCE GROUP"]
    assert delete["changed"] and delete["group"] == {}
    assert delete["diff"]["before"]["state"] == "present" and delete["diff"]["after"]["state"] == "absent"
    assert not ok(group(vault, name=alternative, state="absent"))["changed"]
    assert alternative not in groups(vault)


# dynamic.yml, unreported.yml. Already in test_resource_group.py, so not here: resources of an existing dynamic
# group are refused before any write; settings the vault cannot report (policy and criteria, with and without
# recreate) are named in a warning and nothing is written; force_recreate in check mode writes nothing.


def test_dynamic_group_members_refusals_and_force_recreate(vaults, unique):
    vault = vaults["default"]
    db1, db2, name = unique + "-db1", unique + "-db2", unique + "-dynamic"
    ids = make_resources(vault, {db1: "postgres", db2: "root"})
    criteria = [
        {"condition": "RESOURCENAME", "operator": "CONTAINS", "value": unique + "-db"},
        {"condition": "LOGINNAME", "operator": "CONTAINS", "value": "postgres"},
    ]
    wanted = dict(name=name, type="dynamic", description="Databases", criteria=criteria)

    dynamic = ok(group(vault, _ansible_diff=True, **wanted))
    assert dynamic["changed"] and dynamic["group"]["resourceGroupType"] == "dynamic"
    assert len(dynamic["diff"]["after"]["criteria"]) == 2 and "resources" not in dynamic
    vault.forget_requests()
    again = ok(group(vault, **wanted))
    assert not again["changed"] and operations(vault) == ["GET_RESOURCE_GROUPS"]
    assert warning_messages(again) == [
        "resource group %s: criteria cannot be read back from the vault and were not compared; set "
        "force_recreate: true (once) to apply them by deleting the group and creating it again" % name
    ]
    # both criteria decide: db1 is a member, db2 (no postgres account) is not
    assert name in member_groups(vault, ids[db1]) and name not in member_groups(vault, ids[db2])

    vault.forget_requests()
    no_criteria = group(vault, name=unique + "-no-criteria", type="dynamic")
    assert (
        no_criteria["failed"] and "type is dynamic but all of the following are missing: criteria" in no_criteria["msg"]
    )
    both = group(vault, name=unique + "-both", type="dynamic", criteria=criteria[:1], resources=[db2])
    assert both["failed"] and "mutually exclusive: criteria|resources" in both["msg"]
    assert writes(vault) == []

    new_criteria = dict(name=name, type="dynamic", password_policy="Strong", force_recreate=True, criteria=criteria[:1])
    forced = ok(group(vault, _ansible_diff=True, **new_criteria))
    assert forced["changed"] and forced["diff"]["after"]["recreated"]
    assert forced["group"]["resourceGroupId"] != dynamic["group"]["resourceGroupId"]
    assert forced["group"]["resourceGroupDescription"] == "Databases"
    assert len([w for w in warning_messages(forced) if "is recreated without no_helpdesk_retrieval" in w]) == 1
    # the new criteria decide: db2 is a member now
    assert name in member_groups(vault, ids[db2])
    forced_again = ok(group(vault, **new_criteria))
    assert forced_again["changed"]  # force_recreate is not idempotent, as documented
    assert forced_again["group"]["resourceGroupId"] != forced["group"]["resourceGroupId"]


# editions.yml, other_simulator.yml


@pytest.mark.parametrize("profile", ["edition_b", "old_a"])
def test_lifecycle_on_edition_b_and_without_the_group_list(vaults, unique, profile):
    vault = vaults[profile]
    name = unique
    ids = make_resources(vault, {name: "root"})
    parent = ok(group(vault, name=name + "-parent"))
    wanted = dict(name=name, parent=name + "-parent", description="Other vault", resources=[name])
    create = ok(group(vault, **wanted))
    vault.forget_requests()
    again = ok(group(vault, **wanted))
    log = operations(vault)
    assert parent["changed"] and create["changed"] and not again["changed"]
    assert create["group"]["resourceGroupId"] == again["group"]["resourceGroupId"]
    assert again["resources"] == [name] and writes(vault) == []
    assert name in member_groups(vault, ids[name])
    if profile == "edition_b":
        assert create["group"]["resourceGroupType"] == "static"
        assert create["group"]["subGroupOf"] == parent["group"]["resourceGroupId"]
        assert create["group"]["isOwner"] == "true" and create["group"]["accessType"] == "fullaccess"
        assert log == ["GET_RESOURCE_GROUPS", "GET RESOURCES", "GET ASSOCIATED GROUPS"]
    else:
        assert sorted(create["group"]) == ["resourceGroupId", "resourceGroupName"]
        assert create["group"]["resourceGroupName"] == name
        assert log == ["GET RESOURCE GROUP ID", "GET RESOURCES", "GET ASSOCIATED GROUPS"]
        assert len([w for w in warning_messages(again) if "the description and parent of the existing group" in w]) == 1

    assert ok(group(vault, name=name, state="absent"))["changed"]
    assert not ok(group(vault, name=name, state="absent"))["changed"]
