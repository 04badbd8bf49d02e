# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""User group members and deletion against a scripted client: what is sent, what counts as a change, what fails."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _user_group
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

USER_IDS = {"alice": "11", "bob": "12", "carol": "13", "admin": "1"}
GROUP_IDS = {"dba": "7", "old": "8", "gone": None}


def no_such(what):
    return VaultAPIError("failed: %s does not exist" % what, http_status=200, vault_message="%s does not exist" % what)


def user_id(path, details, query):
    found = USER_IDS.get(query["USERNAME"])
    return no_such("User %s" % query["USERNAME"]) if found is None else {"USERID": found}


def group_id(path, details, query):
    found = GROUP_IDS.get(query["USERGROUPNAME"])
    return no_such("User group %s" % query["USERGROUPNAME"]) if found is None else {"USERGROUPID": found}


def user_list(count_extra=0):
    """GET_USER(S) pages: the four users, then ``count_extra`` more; the page the details ask for."""
    items = [{"userId": int(i), "userName": name} for name, i in USER_IDS.items()]
    items += [{"userId": 100 + n, "userName": "u%d" % n} for n in range(count_extra)]

    def answer(path, details, query):
        return items[details["startIndex"] : details["startIndex"] + details["limit"]]

    return answer


def pair(user, group, status, message):
    return {"USERID": int(user), "USERGROUPID": int(group), "message": message, "status": status}


def removal(outcomes):
    """A REMOVE USER FROM USER_GROUP answer: ``outcomes`` {user id: (status, message)}, answered Failed when no
    pair succeeded, with the RESULT list, as the simulator does."""

    def answer(path, details, query):
        result = [
            pair(u, g, *outcomes.get(str(u), ("Failed", "User %s does not exist in user group" % u)))
            for u in details["USERIDS"]
            for g in details["USERGROUPIDS"]
        ]
        if not any(item["status"] == "Success" for item in result):
            return VaultAPIError("failed: No user was removed", http_status=200, details={"RESULT": result})
        return {"RESULT": result}

    return answer


def deletion(outcomes):
    """A DELETE_USERGROUP answer keyed by group id: ``outcomes`` {id: Success or a statusCode}."""

    def answer(path, details, query):
        result = {}
        for number in details["userGroupIds"]:
            code = outcomes.get(str(number), 46000)
            if code == "Success":
                result[str(number)] = {"message": "deleted", "status": "Success", "statusCode": 20000}
            else:
                result[str(number)] = {
                    "message": "Invalid user group ID %s" % number,
                    "status": "Failed",
                    "statusCode": code,
                }
        if not any(item["status"] == "Success" for item in result.values()):
            return VaultAPIError("failed: No user group was deleted", http_status=200, details=result)
        return result

    return answer


def scripted_client(edition="B", build=6320, **extra):
    answers = {
        "get_user_id": user_id,
        "get_user_group_id": group_id,
        "get_users": user_list(),
        "add_user_to_group": None,
        "remove_user_from_group": removal({}),
        "delete_user_groups": deletion({}),
    }
    answers.update(extra)
    return ScriptedClient(answers, edition=edition, build=build)


def desired(**options):
    settings = {"name": "dba", "state": "present", "purge_members": False}
    settings.update(options)
    return settings


def keys(client):
    return [key for key, *dummy in client.calls]


def sent(client, key):
    return [(details, query) for name, dummy_path, details, query in client.calls if name == key]


# Members


def test_members_are_sent_each_time_and_count_as_changes():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(members=["bob", "alice", "bob"]), False)
    assert tracker.changed and values["added"] == ["alice", "bob"]
    assert sent(client, "add_user_to_group") == [
        (None, {"USERNAME": "alice", "USERGROUPNAME": "dba"}),
        (None, {"USERNAME": "bob", "USERGROUPNAME": "dba"}),
    ]
    assert values["user_group"] == {"userGroupName": "dba", "userGroupId": "7"}
    assert tracker.diff() == {
        "before": {"state": "present", "added": [], "removed": []},
        "after": {"state": "present", "added": ["alice", "bob"], "removed": []},
    }


def test_a_group_without_members_given_is_read_only_and_unchanged():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(), False)
    assert not tracker.changed and keys(client) == ["get_user_group_id"]
    assert values["added"] == values["removed"] == values["not_members"] == []


@pytest.mark.parametrize("check_mode", [False, True])
def test_a_group_that_does_not_exist_fails_saying_the_api_cannot_create_it(check_mode):
    client = scripted_client()
    with pytest.raises(VaultNotFoundError) as failure:
        run_entry(_user_group.converge, client, desired(name="gone", members=["alice"]), check_mode)
    assert "user group gone does not exist" in str(failure.value)
    assert "the vault's API cannot create user groups; create it in the vault's web console" in str(failure.value)
    assert "the vault said: User group gone does not exist" in str(failure.value)
    assert client.writes() == []


def test_unknown_members_fail_together_before_any_write():
    client = scripted_client()
    with pytest.raises(VaultNotFoundError, match="users nobody, zed do not exist"):
        run_entry(_user_group.converge, client, desired(members=["alice", "zed", "nobody"]), False)
    assert client.writes() == []


def test_check_mode_takes_unknown_members_as_made_earlier_and_writes_nothing():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(members=["alice", "zed"]), True)
    assert tracker.changed and values["added"] == ["alice", "zed"]
    assert any("users zed do not exist yet" in warning for warning in tracker.warnings)
    assert client.writes() == []


def test_removals_count_only_the_pairs_the_vault_removed():
    client = scripted_client(remove_user_from_group=removal({"11": ("Success", "removed")}))
    tracker, values = run_entry(_user_group.converge, client, desired(absent_members=["alice", "bob", "nobody"]), False)
    assert sent(client, "remove_user_from_group") == [({"USERIDS": [11, 12], "USERGROUPIDS": [7]}, None)]
    assert tracker.changed and values["removed"] == ["alice"]
    assert values["not_members"] == ["bob", "nobody"]
    assert tracker.diff()["after"]["removed"] == ["alice"]


def test_a_removal_of_non_members_only_is_no_change_even_when_the_call_answers_failed():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(absent_members=["alice", "bob"]), False)
    assert not tracker.changed and values["removed"] == [] and values["not_members"] == ["alice", "bob"]
    assert client.writes() == ["remove_user_from_group"]


def test_absent_members_that_are_no_users_send_nothing():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(absent_members=["nobody"]), False)
    assert not tracker.changed and client.writes() == [] and values["not_members"] == ["nobody"]


def test_another_failed_pair_fails_naming_the_user_and_the_group():
    outcomes = {"11": ("Success", "removed"), "12": ("Failed", "Permission denied")}
    client = scripted_client(remove_user_from_group=removal(outcomes))
    with pytest.raises(VaultAPIError) as failure:
        run_entry(_user_group.converge, client, desired(absent_members=["alice", "bob"]), False)
    assert str(failure.value) == (
        "REMOVE USER FROM USER_GROUP: not removed from user group dba - user bob: Permission denied; removed: alice"
    )


def test_a_pair_the_vault_does_not_answer_fails():
    client = scripted_client(remove_user_from_group={"RESULT": [pair("11", "7", "Success", "removed")]})
    with pytest.raises(VaultAPIError, match="user bob: the vault gave no result for it; removed: alice"):
        run_entry(_user_group.converge, client, desired(absent_members=["alice", "bob"]), False)


def test_a_failed_removal_without_per_pair_results_is_raised_as_it_is():
    refusal = VaultAPIError("failed: USERIDS must be a non-empty list", http_status=200, details=None)
    client = scripted_client(remove_user_from_group=refusal)
    with pytest.raises(VaultAPIError) as failure:
        run_entry(_user_group.converge, client, desired(absent_members=["alice"]), False)
    assert failure.value is refusal


def test_adds_come_before_the_removal():
    client = scripted_client(remove_user_from_group=removal({"13": ("Success", "removed")}))
    run_entry(_user_group.converge, client, desired(members=["alice"], absent_members=["carol"]), False)
    assert client.writes() == ["add_user_to_group", "remove_user_from_group"]


def test_a_user_both_added_and_removed_is_refused_before_any_request():
    client = scripted_client()
    with pytest.raises(VaultInputError, match="users alice are in both members and absent_members"):
        run_entry(_user_group.converge, client, desired(members=["alice"], absent_members=["alice"]), False)
    assert client.calls == []


# purge_members


def test_purge_removes_every_user_not_listed_in_one_call_and_counts_the_removed():
    client = scripted_client(
        get_users=user_list(count_extra=150), remove_user_from_group=removal({"13": ("Success", "ok")})
    )
    tracker, values = run_entry(
        _user_group.converge, client, desired(members=["alice", "bob"], purge_members=True), False
    )
    assert [details["startIndex"] for details, dummy in sent(client, "get_users")] == [0, 100]
    ((details, dummy),) = sent(client, "remove_user_from_group")
    assert details["USERIDS"] == [1, 13] + list(range(100, 250)) and details["USERGROUPIDS"] == [7]
    assert sent(client, "get_user_id") == []
    assert values["added"] == ["alice", "bob"] and values["removed"] == ["carol"]
    assert len(values["not_members"]) == 151 and "admin" in values["not_members"]
    assert client.writes() == ["add_user_to_group", "add_user_to_group", "remove_user_from_group"]


def test_purge_checks_members_against_the_user_list():
    client = scripted_client()
    with pytest.raises(VaultNotFoundError, match="users zed do not exist"):
        run_entry(_user_group.converge, client, desired(members=["zed"], purge_members=True), False)
    assert client.writes() == []


def test_purge_in_check_mode_lists_whom_it_would_send_and_warns():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(members=["alice"], purge_members=True), True)
    assert client.writes() == []
    assert values["removed"] == ["admin", "bob", "carol"] and tracker.changed
    assert any("check mode cannot tell which of admin, bob, carol are members" in w for w in tracker.warnings)


@pytest.mark.parametrize("edition, build", [("A", 12450), ("B", 6300)])
def test_purge_is_refused_before_any_request_where_there_is_no_user_list(edition, build):
    client = scripted_client(edition=edition, build=build)
    with pytest.raises(VaultUnsupportedError) as failure:
        run_entry(_user_group.converge, client, desired(members=["alice"], purge_members=True), False)
    assert "purge_members needs the list of every user (GET_USER(S)" in str(failure.value)
    assert "absent_members instead" in str(failure.value)
    assert client.calls == []


def test_purge_on_a_vault_without_the_user_list_and_no_build_given_is_refused_before_any_write():
    unserved = VaultAPIError("GET_USER(S) failed (HTTP 404): not served", http_status=404)
    client = scripted_client(edition=None, build=None, get_users=unserved)
    with pytest.raises(VaultUnsupportedError, match="purge_members needs the list of every user"):
        run_entry(_user_group.converge, client, desired(members=["alice"], purge_members=True), False)
    assert client.writes() == []


def test_purge_fails_on_other_user_list_failures():
    client = scripted_client(get_users=VaultConnectionError("no answer"))
    with pytest.raises(VaultConnectionError):
        run_entry(_user_group.converge, client, desired(members=[], purge_members=True), False)
    assert client.writes() == []


def test_removals_are_refused_before_any_request_below_their_build():
    client = scripted_client(edition="A", build=12000)
    with pytest.raises(VaultUnsupportedError, match="REMOVE USER FROM USER_GROUP .* needs edition A from build 12230"):
        run_entry(_user_group.converge, client, desired(members=["alice"], absent_members=["bob"]), False)
    assert client.calls == []


def test_members_alone_work_on_old_builds():
    client = scripted_client(edition="A", build=12000)
    tracker, dummy = run_entry(_user_group.converge, client, desired(members=["alice"]), False)
    assert tracker.changed and client.writes() == ["add_user_to_group"]


def test_a_user_id_that_is_not_a_number_fails_before_any_write():
    client = scripted_client(get_users=lambda path, details, query: [{"userId": "x1", "userName": "eve"}])
    with pytest.raises(VaultResponseError, match="GET_USER\\(S\\) gave user eve an id that is not a number"):
        run_entry(_user_group.converge, client, desired(members=[], purge_members=True), False)
    assert client.writes() == []


# Deletion


def test_groups_by_name_and_id_are_deleted_in_one_call_with_the_per_item_results():
    client = scripted_client(delete_user_groups=deletion({"7": "Success", "8": "Success", "30": "Success"}))
    tracker, values = run_entry(
        _user_group.converge,
        client,
        desired(name=None, names=["dba", "old", "gone"], ids=[30, 7], state="absent"),
        False,
    )
    assert sent(client, "delete_user_groups") == [({"userGroupIds": [7, 8, 30]}, None)]
    assert tracker.changed and values["absent"] == ["gone"]
    assert values["deleted"] == [
        {"userGroupId": i, "userGroupName": n, "status": "Success", "message": "deleted", "statusCode": 20000}
        for i, n in (("7", "dba"), ("8", "old"), ("30", None))
    ]
    assert tracker.diff()["after"] == {"user_groups": []}


def test_deleting_a_group_that_does_not_exist_is_no_change_and_sends_no_write():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(name="gone", state="absent"), False)
    assert not tracker.changed and client.writes() == [] and values == {"deleted": [], "absent": ["gone"]}


def test_an_invalid_id_fails_naming_the_group_with_the_46000_answer():
    client = scripted_client(delete_user_groups=deletion({"7": "Success"}))
    with pytest.raises(VaultAPIError) as failure:
        run_entry(_user_group.converge, client, desired(name="dba", ids=[99], state="absent"), False)
    assert str(failure.value) == (
        "DELETE_USERGROUP: not deleted - user group id 99: Invalid user group ID 99 (statusCode 46000); "
        "deleted: user group dba (id 7)"
    )


def test_every_item_failed_is_read_from_the_failed_answer():
    client = scripted_client()
    with pytest.raises(VaultAPIError, match="user group id 99: Invalid user group ID 99 \\(statusCode 46000\\)$"):
        run_entry(_user_group.converge, client, desired(name=None, ids=[99], state="absent"), False)


def test_a_group_deleted_meanwhile_by_another_run_is_no_change():
    lookups = iter([{"USERGROUPID": "7"}, no_such("User group dba")])
    client = scripted_client(get_user_group_id=lambda path, details, query: next(lookups))
    tracker, values = run_entry(_user_group.converge, client, desired(name="dba", state="absent"), False)
    assert not tracker.changed and values == {"deleted": [], "absent": ["dba"]}


def test_a_group_by_name_the_vault_refused_to_delete_fails_naming_it():
    client = scripted_client(delete_user_groups=deletion({"7": 46001}))
    with pytest.raises(
        VaultAPIError, match="user group dba \\(id 7\\): Invalid user group ID 7 \\(statusCode 46001\\)"
    ):
        run_entry(_user_group.converge, client, desired(name="dba", state="absent"), False)


def test_an_answer_without_the_group_fails():
    client = scripted_client(delete_user_groups={"8": {"status": "Success"}, "7": "nonsense"})
    with pytest.raises(VaultAPIError, match="user group dba \\(id 7\\): the vault gave no result for it"):
        run_entry(_user_group.converge, client, desired(name="dba", state="absent"), False)


def test_check_mode_deletion_resolves_names_and_writes_nothing():
    client = scripted_client()
    tracker, values = run_entry(_user_group.converge, client, desired(name="dba", ids=[30], state="absent"), True)
    assert tracker.changed and client.writes() == []
    assert values["deleted"] == [
        {"userGroupId": "7", "userGroupName": "dba"},
        {"userGroupId": "30", "userGroupName": None},
    ]


def test_deletion_is_refused_before_any_request_below_its_build():
    client = scripted_client(edition="A", build=12000)
    with pytest.raises(VaultUnsupportedError, match="DELETE_USERGROUP .* needs edition A from build 12230"):
        run_entry(_user_group.converge, client, desired(name="dba", state="absent"), True)
    assert client.calls == []


@pytest.mark.parametrize(
    "options, message",
    [
        ({"members": ["alice"], "state": "absent"}, "members: only with state present"),
        ({"purge_members": True, "state": "absent"}, "purge_members: only with state present"),
        ({"names": ["old"]}, "names and ids are for state absent"),
        ({"name": " dba"}, "has leading or trailing spaces"),
        ({"members": ["alice "]}, "members entry 'alice ' has leading or trailing spaces"),
        ({"names": [""], "name": None, "state": "absent"}, "names entry must not be empty"),
    ],
)
def test_input_is_refused_before_any_request(options, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_user_group.converge, client, desired(**options), False)
    assert client.calls == []


# Reading


def test_a_group_is_read_by_name():
    client = scripted_client()
    assert _user_group.look_up_user_group(client, "dba") == {
        "exists": True,
        "user_group": {"userGroupName": "dba", "userGroupId": "7"},
        "vault_message": None,
    }
    gone = _user_group.look_up_user_group(client, "gone")
    assert gone["exists"] is False and gone["user_group"] == {} and "doubt" not in gone
    assert "does not exist" in gone["vault_message"]
    assert client.writes() == []


def test_a_failure_whose_words_do_not_say_missing_is_absent_with_a_doubt():
    failed = VaultAPIError("GET_USERGROUPID failed: busy", http_status=200, vault_message="busy")
    described = _user_group.look_up_user_group(scripted_client(get_user_group_id=failed), "dba")
    assert described["exists"] is False and described["vault_message"] == "busy"
    assert (
        "GET_USERGROUPID failed for user group dba with words that do not say it is missing (busy)"
        in described["doubt"]
    )


def test_vault_user_group_info_warns_the_doubt_and_returns_the_rest():
    failed = VaultAPIError("GET_USERGROUPID failed: busy", http_status=200, vault_message="busy")
    tracker, values = run_entry(
        _user_group.describe, scripted_client(get_user_group_id=failed), {"name": "dba", "search": None}
    )
    assert values == {"exists": False, "user_group": {}, "vault_message": "busy"}
    assert len(tracker.warnings) == 1 and "with words that do not say it is missing (busy)" in tracker.warnings[0]
    assert not tracker.recorded


def test_vault_user_group_info_without_a_name_lists_the_groups():
    items = [{"userGroupId": 7, "userGroupName": "dba"}]
    client = scripted_client(
        get_user_groups=lambda path, details, query: items[details["startIndex"] :][: details["limit"]]
    )
    tracker, values = run_entry(_user_group.describe, client, {"name": None, "search": None})
    assert values == {"user_groups": items} and tracker.warnings == [] and client.writes() == []


def test_a_refusal_of_the_name_lookup_over_http_fails():
    client = scripted_client(get_user_group_id=VaultAPIError("failed (HTTP 403): forbidden", http_status=403))
    with pytest.raises(VaultAPIError, match="forbidden"):
        _user_group.look_up_user_group(client, "dba")


def test_the_list_is_searched_and_read_whole():
    items = [{"userGroupId": n, "userGroupName": "g%d" % n} for n in range(120)]
    client = scripted_client(
        get_user_groups=lambda path, details, query: items[details["startIndex"] :][: details["limit"]]
    )
    search = {"value": "g", "column": "userGroupName", "operator": "startsWith"}
    assert _user_group.list_user_groups(client, search) == items
    assert [details for dummy_key, dummy_path, details, dummy_query in client.calls] == [
        {
            "searchValue": "g",
            "searchColumn": "userGroupName",
            "searchOperator": "startsWith",
            "limit": 100,
            "startIndex": s,
        }
        for s in (0, 100)
    ]
