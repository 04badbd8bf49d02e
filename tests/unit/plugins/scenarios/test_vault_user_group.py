# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_user_group scenarios moved down from the integration target vault_user_group (issue 36):

- members.yml after the contract (check mode, adding two users, adding them again): that check mode added nobody,
  removals and what they count, a member that does not exist, purge_members refused on edition A with and without
  its edition and build (``test_members_on_edition_a``);
- delete.yml but the refusal of a group that does not exist with state present, which stays in integration
  (``test_groups_deleted_by_name_and_id``);
- refused.yml, the refusals test_user_group.py does not already make before any request (``ids`` with ``name``, no
  ``name`` with state present, purge_members without members, purge_members with absent_members:
  ``test_the_argument_spec_refuses_before_any_request``); the others are test_user_group.py's
  ``test_input_is_refused_before_any_request`` and ``test_a_user_both_added_and_removed_is_refused_before_any_request``;
- edition_b.yml (``test_purge_members_on_edition_b``) and old_a.yml (``test_removal_and_deletion_refused_on_a_12000``),
  the whole of them.
"""

from __future__ import annotations

import json

import requests

from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_module
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes


def make_users(vault, *names):
    """The persons ``names``, made with the REST API as the integration's users.yml does (not with vault_user)."""
    for name in names:
        details = {"USERNAME": name, "ROLE": "Password User", "ISAPIUSER": "false", "FIRSTNAME": "Group"}
        details.update(LASTNAME="Member", EMAIL=name + "@example.com", PASSWORD="Ug-Memb3r-pw-4417!")
        answer = requests.post(
            vault.connection["url"] + "/restapi/json/v1/user",
            data={"INPUT_DATA": json.dumps({"operation": {"Details": details}})},
            headers={"AUTHTOKEN": vault.connection["auth_token"]},
            verify=vault.connection["ca_path"],
            timeout=30,
        )
        assert answer.json()["operation"]["result"]["status"] == "Success", answer.text


def make_group(vault, name):
    """The user group ``name`` (the simulator's admin endpoint): its id, as text."""
    return str(sim_api(vault, "POST", "/__simulator/user-groups", body={"userGroupName": name})["userGroupId"])


def unversioned_connection(vault):
    """The vault's connection without its edition and build (the integration's sim_connection_unversioned): every
    call is sent and the vault's answer decides."""
    return {key: value for key, value in vault.connection.items() if key not in ("edition", "build")}


def operations(vault):
    return [entry["operation"] for entry in vault.requests]


def exists(vault, name):
    return run(vault, "vault_user_group_info", name=name)["exists"]


def succeeded(result):
    assert not result.get("failed"), result.get("msg")
    return result


def test_members_on_edition_a(vaults, unique):
    vault = vaults["default"]
    u1, u2, u3 = users = [unique + "-u1", unique + "-u2", unique + "-u3"]
    nobody, group = unique + "-nobody", unique + "-team"
    make_users(vault, *users)
    make_group(vault, group)

    # Check mode added nobody.
    succeeded(run(vault, "vault_user_group", check_mode=True, name=group, members=[u1, u2], absent_members=[u3]))
    none_there = succeeded(run(vault, "vault_user_group", name=group, absent_members=[u1, u2]))
    assert not none_there["changed"] and none_there["removed"] == [] and none_there["not_members"] == [u1, u2]

    # One removal request; only the member removed counts as a change.
    succeeded(run(vault, "vault_user_group", name=group, members=[u1, u2]))
    vault.forget_requests()
    remove = succeeded(run(vault, "vault_user_group", name=group, absent_members=[u1, u3, nobody]))
    assert remove["changed"] and remove["removed"] == [u1] and remove["not_members"] == [nobody, u3]
    assert remove["added"] == [] and remove["diff"]["after"]["removed"] == [u1]
    assert writes(vault) == [("POST", "REMOVE USER FROM USER_GROUP")]

    # Users that are not members are no change; the second user was still a member.
    remove_again = succeeded(run(vault, "vault_user_group", name=group, absent_members=[u1, u3]))
    remove_second = succeeded(run(vault, "vault_user_group", name=group, absent_members=[u2]))
    assert not remove_again["changed"] and remove_again["removed"] == [] and remove_again["not_members"] == [u1, u3]
    assert remove_second["changed"] and remove_second["removed"] == [u2]

    # An unknown member fails before any write (check mode warns).
    vault.forget_requests()
    unknown = run(vault, "vault_user_group", name=group, members=[u1, nobody])
    unknown_check = succeeded(run(vault, "vault_user_group", check_mode=True, name=group, members=[u1, nobody]))
    assert unknown.get("failed") and "users %s do not exist" % nobody in unknown["msg"] and not unknown["changed"]
    assert unknown_check["changed"]
    assert len([w for w in warning_messages(unknown_check) if "users %s do not exist yet" % nobody in w]) == 1
    assert writes(vault) == []

    # purge_members is refused before any request where the build has no user list, before any write without it.
    vault.forget_requests()
    purge_args = dict(name=group, members=[u1], purge_members=True)
    purge = run(vault, "vault_user_group", **purge_args)
    assert purge.get("failed") and vault.requests == []
    assert "purge_members needs the list of every user (GET_USER(S), edition B from build 6320)" in purge["msg"]
    assert "GET_USER(S) (GET /user) needs edition B from build 6320; the vault is edition A build 12450" in purge["msg"]
    unversioned = run_module("vault_user_group", dict(unversioned_connection(vault), **purge_args))
    assert unversioned.get("failed") and "purge_members needs the list of every user" in unversioned["msg"]
    assert "HTTP 404" in unversioned["msg"] and writes(vault) == []

    succeeded(run(vault, "vault_user_group", name=group, state="absent"))


def test_groups_deleted_by_name_and_id(vaults, unique):
    vault = vaults["default"]
    doomed = [unique + "-del1", unique + "-del2", unique + "-del3"]
    ids = [make_group(vault, name) for name in doomed]
    never = unique + "-never"
    deletion = dict(names=[doomed[0], never], ids=[int(ids[1])], state="absent")

    # Check mode named what it would delete and wrote nothing.
    vault.forget_requests()
    check = succeeded(run(vault, "vault_user_group", check_mode=True, **deletion))
    assert check["changed"] and [item["userGroupId"] for item in check["deleted"]] == ids[:2]
    assert [item["userGroupName"] for item in check["deleted"]] == [doomed[0], None]
    assert check["absent"] == [never] and check["diff"]["after"]["user_groups"] == []
    assert len(check["diff"]["before"]["user_groups"]) == 2
    assert writes(vault) == [] and [exists(vault, name) for name in doomed[:2]] == [True, True]

    # Both deleted in one request, with the vault's answer for each; a group that does not exist is no change.
    vault.forget_requests()
    delete = succeeded(run(vault, "vault_user_group", **deletion))
    delete_writes = writes(vault)
    delete_again = succeeded(run(vault, "vault_user_group", name=doomed[0], state="absent"))
    assert delete["changed"] and [item["userGroupId"] for item in delete["deleted"]] == ids[:2]
    assert {item["status"] for item in delete["deleted"]} == {"Success"}
    assert {item["statusCode"] for item in delete["deleted"]} == {20000}
    assert doomed[0] in delete["deleted"][0]["message"] and delete["absent"] == [never]
    assert delete_writes == [("DELETE", "DELETE_USERGROUP")]
    assert not delete_again["changed"] and delete_again["deleted"] == [] and delete_again["absent"] == [doomed[0]]
    assert [exists(vault, name) for name in doomed[:2]] == [False, False]

    # An invalid id fails naming the group, with the vault's statusCode 46000; what was deleted is said.
    invalid = run(vault, "vault_user_group", name=doomed[2], ids=[int(ids[1])], state="absent")
    invalid_only = run(vault, "vault_user_group", ids=[int(ids[1])], state="absent")
    assert invalid.get("failed") and invalid["changed"]
    assert "user group id %s: Invalid user group ID %s (statusCode 46000)" % (ids[1], ids[1]) in invalid["msg"]
    assert "deleted: user group %s (id %s)" % (doomed[2], ids[2]) in invalid["msg"]
    assert invalid_only.get("failed") and not invalid_only["changed"]
    assert "(statusCode 46000)" in invalid_only["msg"]

    # The API cannot create a group, and check mode says where to create it too (the run without it stays in
    # integration).
    missing_check = run(vault, "vault_user_group", check_mode=True, name=never)
    assert missing_check.get("failed")
    assert (
        "user group %s does not exist: the vault's API cannot create user groups; create it in the vault's web "
        "console" % never in missing_check["msg"]
    )


def test_the_argument_spec_refuses_before_any_request(vaults, unique):
    vault = vaults["default"]
    group = unique + "-team"
    refused = [
        (dict(name=group, ids=[1]), "names and ids are for state absent"),
        (dict(ids=[1]), "state is present but all of the following are missing: name"),
        (dict(name=group, purge_members=True), "purge_members is True but all of the following are missing: members"),
        (
            dict(name=group, members=[], absent_members=[], purge_members=True),
            "parameters are mutually exclusive: purge_members|absent_members",
        ),
    ]
    vault.forget_requests()
    for args, message in refused:
        result = run(vault, "vault_user_group", **args)
        assert result.get("failed") and message in result["msg"], (args, result)
    assert vault.requests == []


def test_purge_members_on_edition_b(vaults, unique):
    vault = vaults["edition_b"]
    u1, u2, u3 = users = [unique + "-u1", unique + "-u2", unique + "-u3"]
    group = unique + "-team"
    make_users(vault, *users)
    make_group(vault, group)
    add = succeeded(run(vault, "vault_user_group", name=group, members=[u1, u2]))

    # Check mode read the user list, named everyone else, and wrote nothing.
    vault.forget_requests()
    check = succeeded(run(vault, "vault_user_group", check_mode=True, name=group, members=[u1], purge_members=True))
    assert check["changed"] and check["added"] == [u1]
    assert u2 in check["removed"] and u3 in check["removed"] and "admin" in check["removed"]
    assert u1 not in check["removed"]
    assert len([w for w in warning_messages(check) if "check mode cannot tell which of" in w]) == 1
    assert writes(vault) == [] and operations(vault) == ["GET_USERGROUPID", "GET_USER(S)"]

    # Only the second user was removed, in one request; the second run removed nobody.
    vault.forget_requests()
    purge = succeeded(run(vault, "vault_user_group", name=group, members=[u1], purge_members=True))
    purge_writes = writes(vault)
    purge_again = succeeded(run(vault, "vault_user_group", name=group, members=[u1], purge_members=True))
    assert add["changed"] and purge["changed"]
    assert purge["removed"] == [u2] and purge["diff"]["after"]["removed"] == [u2]
    assert u3 in purge["not_members"] and "admin" in purge["not_members"]
    assert [operation for dummy, operation in purge_writes] == ["ADD USER TO USERGROUP", "REMOVE USER FROM USER_GROUP"]
    assert not purge_again["changed"] and purge_again["removed"] == [] and purge_again["added"] == []

    # The first user was the last member.
    empty = succeeded(run(vault, "vault_user_group", name=group, members=[], purge_members=True))
    empty_again = succeeded(run(vault, "vault_user_group", name=group, members=[], purge_members=True))
    assert empty["changed"] and empty["removed"] == [u1] and empty["added"] == []
    assert not empty_again["changed"] and empty_again["removed"] == []

    succeeded(run(vault, "vault_user_group", name=group, state="absent"))


def test_removal_and_deletion_refused_on_a_12000(vaults, unique):
    vault = vaults["old_a"]
    user, group = unique + "-u1", unique + "-team"
    make_users(vault, user)
    make_group(vault, group)
    add = succeeded(run(vault, "vault_user_group", name=group, members=[user]))
    vault.forget_requests()
    remove = run(vault, "vault_user_group", name=group, absent_members=[user])
    delete = run(vault, "vault_user_group", name=group, state="absent")
    assert add["changed"] and add["added"] == [user]
    assert remove.get("failed") and (
        "REMOVE USER FROM USER_GROUP (POST /user/removeUserFromUserGroup) needs edition A from build 12230 or edition "
        "B from build 6000; the vault is edition A build 12000" in remove["msg"]
    )
    assert (
        delete.get("failed")
        and "DELETE_USERGROUP (DELETE /userGroup) needs edition A from build 12230" in (delete["msg"])
    )
    assert vault.requests == []
