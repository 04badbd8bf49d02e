"""User groups: the admin endpoint and flag that create them, membership, id lookup, deletion, listing."""

import re

import pytest
from test_simulator_cli import run_requests

from conformance.scenarios.users_sharing import add_user_group, user_id


def join(vault, user, group, **kwargs):
    return vault.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": user, "USERGROUPNAME": group}, **kwargs)


def members(vault, group_id):
    return vault.store.get("user_group", group_id)["member_ids"]


def test_admin_endpoint_creates_a_group_once(vault):
    response = vault.client.post(
        "/__simulator/user-groups",
        json={"userGroupName": "ops", "description": "Ops"},
        headers={"AUTHTOKEN": vault.token},
    )
    assert response.status_code == 201
    item = response.get_json()
    assert {k: item[k] for k in ("userGroupName", "userGroupId", "description")} == {
        "userGroupName": "ops",
        "userGroupId": 1,
        "description": "Ops",
    }
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}", item["dateCreated"])
    assert add_user_group(vault, "ops") == "1"
    assert len(vault.store.all("user_group")) == 1


@pytest.mark.parametrize("document", [{}, {"userGroupName": " "}, {"userGroupName": "ops", "description": 3}, []])
def test_admin_endpoint_refuses_bad_documents(vault, document):
    response = vault.client.post("/__simulator/user-groups", json=document, headers={"AUTHTOKEN": vault.token})
    assert response.status_code == 400
    assert "userGroupName" in response.get_json()["error"]


def test_admin_endpoint_needs_the_admin_token(vault):
    token = vault.create_api_user("boss", role="Administrator")
    response = vault.client.post(
        "/__simulator/user-groups", json={"userGroupName": "ops"}, headers={"AUTHTOKEN": token}
    )
    assert response.status_code == 401
    assert vault.store.all("user_group") == []


def test_add_user_to_group(vault):
    vault.create_api_user("pat")
    group_id = add_user_group(vault, "ops")
    operation = join(vault, "pat", "ops")
    assert operation["name"] == "ADD USER TO USERGROUP" and "Details" not in operation
    assert operation["result"]["message"] == "User pat has been added to user group ops"
    again = join(vault, "pat", "ops")
    assert again["result"]["message"] == "User pat is already a member of user group ops"
    assert members(vault, group_id) == [user_id(vault, "pat")]


def test_edition_b_answers_the_group_id(make_vault):
    vault = make_vault(edition="B")
    vault.create_api_user("pat")
    add_user_group(vault, "first")
    group_id = add_user_group(vault, "ops")
    assert join(vault, "pat", "ops")["Details"] == {"USERGROUPID": group_id}


@pytest.mark.parametrize(
    "query, message",
    [
        ({"USERNAME": "ghost", "USERGROUPNAME": "ops"}, "User ghost does not exist"),
        ({"USERNAME": "pat", "USERGROUPNAME": "nope"}, "User group nope does not exist"),
        ({"USERNAME": "pat"}, "USERGROUPNAME is required"),
    ],
)
def test_add_user_to_group_failures(vault, query, message):
    vault.create_api_user("pat")
    add_user_group(vault, "ops")
    vault.failed("POST", "/user/addUserToUserGroup", message, query=query)


def test_only_administrators_manage_groups(vault):
    token = vault.create_api_user("pat")
    group_id = add_user_group(vault, "ops")
    vault.failed(
        "POST",
        "/user/addUserToUserGroup",
        "You are not authorized to manage user groups",
        query={"USERNAME": "pat", "USERGROUPNAME": "ops"},
        token=token,
    )
    vault.failed(
        "POST",
        "/user/removeUserFromUserGroup",
        "You are not authorized to manage user groups",
        details={"USERIDS": [2], "USERGROUPIDS": [1]},
        token=token,
    )
    vault.failed(
        "DELETE",
        "/userGroup",
        "You are not authorized to delete user groups",
        details={"userGroupIds": [1]},
        lower_case_details=True,
        token=token,
    )
    assert members(vault, group_id) == []
    assert vault.ok("GET", "/user/getUserGroupId", query={"USERGROUPNAME": "ops"}, token=token)["Details"] == {
        "USERGROUPID": group_id
    }


def test_user_group_id_lookup(vault):
    add_user_group(vault, "ops")
    group_id = add_user_group(vault, "dba")
    operation = vault.ok("GET", "/user/getUserGroupId", query={"USERGROUPNAME": "dba"})
    assert (operation["name"], operation["Details"]) == ("GET_USERGROUPID", {"USERGROUPID": group_id})
    vault.failed("GET", "/user/getUserGroupId", "User group nope does not exist", query={"USERGROUPNAME": "nope"})


def test_remove_users_from_groups_reports_each_pair(vault):
    vault.create_api_user("pat")
    vault.create_api_user("sam")
    ops, dba = add_user_group(vault, "ops"), add_user_group(vault, "dba")
    join(vault, "pat", "ops")
    join(vault, "sam", "ops")
    join(vault, "sam", "dba")
    pat, sam = int(user_id(vault, "pat")), int(user_id(vault, "sam"))
    operation = vault.ok(
        "POST",
        "/user/removeUserFromUserGroup",
        details={"USERIDS": [pat, sam, 99], "USERGROUPIDS": [int(ops), int(dba)]},
    )
    assert operation["name"] == "REMOVE USER FROM USER_GROUP"
    assert operation["Details"]["RESULT"] == [
        {
            "USERID": pat,
            "USERGROUPID": int(ops),
            "message": "User pat has been removed from user group ops",
            "status": "Success",
        },
        {
            "USERID": pat,
            "USERGROUPID": int(dba),
            "message": "User pat does not exist in user group dba",
            "status": "Failed",
        },
        {
            "USERID": sam,
            "USERGROUPID": int(ops),
            "message": "User sam has been removed from user group ops",
            "status": "Success",
        },
        {
            "USERID": sam,
            "USERGROUPID": int(dba),
            "message": "User sam has been removed from user group dba",
            "status": "Success",
        },
        {"USERID": 99, "USERGROUPID": int(ops), "message": "User with ID 99 does not exist", "status": "Failed"},
        {"USERID": 99, "USERGROUPID": int(dba), "message": "User with ID 99 does not exist", "status": "Failed"},
    ]
    assert members(vault, ops) == members(vault, dba) == []


def test_remove_fails_when_no_pair_was_removed(vault):
    vault.create_api_user("pat")
    add_user_group(vault, "ops")
    operation = vault.operation("POST", "/user/removeUserFromUserGroup", details={"USERIDS": [2], "USERGROUPIDS": [7]})
    assert operation["result"] == {"status": "Failed", "message": "No user was removed from a user group"}
    assert operation["Details"]["RESULT"] == [
        {"USERID": 2, "USERGROUPID": 7, "status": "Failed", "message": "User group with ID 7 does not exist"}
    ]


@pytest.mark.parametrize(
    "details, message",
    [
        ({"USERGROUPIDS": [1]}, "USERIDS must be a non-empty list of numeric ids"),
        ({"USERIDS": [], "USERGROUPIDS": [1]}, "USERIDS must be a non-empty list of numeric ids"),
        ({"USERIDS": [2], "USERGROUPIDS": ["ops"]}, "USERGROUPIDS must be a non-empty list of numeric ids"),
    ],
)
def test_remove_refuses_bad_input(vault, details, message):
    vault.failed("POST", "/user/removeUserFromUserGroup", message, details=details)


def test_delete_user_groups_reports_each_id(vault):
    ops, dba = add_user_group(vault, "ops"), add_user_group(vault, "dba")
    operation = vault.ok("DELETE", "/userGroup", details={"userGroupIds": [int(ops), 42]}, lower_case_details=True)
    assert operation["name"] == "DELETE_USERGROUP"
    assert operation["Details"] == {
        ops: {"message": "User group ops has been deleted successfully", "status": "Success", "statusCode": 20000},
        "42": {"message": "Invalid user group ID 42", "status": "Failed", "statusCode": 46000},
    }
    assert [g["id"] for g in vault.store.all("user_group")] == [dba]
    operation = vault.operation("DELETE", "/userGroup", details={"userGroupIds": [int(ops)]}, lower_case_details=True)
    assert operation["result"] == {"status": "Failed", "message": "No user group was deleted"}
    assert operation["Details"][ops]["statusCode"] == 46000
    vault.failed(
        "DELETE",
        "/userGroup",
        "userGroupIds must be a non-empty list of user group ids",
        details={"userGroupIds": []},
        lower_case_details=True,
    )


def test_deleting_a_group_takes_away_what_was_shared_with_it(vault):
    pat = vault.create_api_user("pat")
    group_id = add_user_group(vault, "ops")
    join(vault, "pat", "ops")
    resource_id, account_id = vault.create_resource("web01")
    vault.ok("PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": "view", "USERGROUPID": group_id})
    vault.ok("GET", f"/resources/{resource_id}/accounts/{account_id}/password", token=pat)
    vault.ok("DELETE", "/userGroup", details={"userGroupIds": [int(group_id)]}, lower_case_details=True)
    assert vault.store.all("share") == []
    vault.failed(
        "GET",
        f"/resources/{resource_id}/accounts/{account_id}/password",
        "You are not authorized to retrieve the password of web01/root",
        token=pat,
    )


@pytest.mark.parametrize(
    "edition, build, path", [("A", 11199, "/user/getUserGroupId"), ("B", 5999, "/user/removeUserFromUserGroup")]
)
def test_group_rows_are_gated(make_vault, edition, build, path):
    vault = make_vault(edition=edition, build=build)
    method = "GET" if path.endswith("Id") else "POST"
    assert vault.call(method, path, query={"USERGROUPNAME": "ops"})[0] == 404


@pytest.fixture
def vault_b(make_vault):
    vault = make_vault(edition="B")
    for name, description in [("ops", "Operations"), ("dba", "Database admins"), ("devops", "")]:
        add_user_group(vault, name, description)
    return vault


def group_names(vault, **details):
    operation = vault.ok("GET", "/userGroup", details=details, lower_case_details=True)
    assert operation["operationName"] == "GET_USERGROUP(S)" and "name" not in operation
    return [item["userGroupName"] for item in operation["Details"]], operation["totalRows"]


@pytest.mark.parametrize(
    "details, expected",
    [
        ({}, ["ops", "dba", "devops"]),
        ({"searchValue": "ops"}, ["ops", "devops"]),
        ({"searchValue": "OPS", "searchOperator": "equals"}, ["ops"]),
        ({"searchValue": "admins", "searchColumn": "description", "searchOperator": "endsWith"}, ["dba"]),
        ({"searchValue": "2", "searchColumn": "userGroupId", "searchOperator": "notEquals"}, ["ops", "devops"]),
        ({"searchValue": "d", "searchOperator": "doesNotContain"}, ["ops"]),
    ],
)
def test_user_group_search(vault_b, details, expected):
    assert group_names(vault_b, **details) == (expected, len(expected))


def test_user_group_list_items_and_paging(vault_b):
    operation = vault_b.ok("GET", "/userGroup", details={"startIndex": 1, "limit": 1}, lower_case_details=True)
    assert operation["totalRows"] == 3
    (item,) = operation["Details"]
    assert {k: item[k] for k in ("userGroupName", "userGroupId", "description")} == {
        "userGroupName": "dba",
        "userGroupId": 2,
        "description": "Database admins",
    }
    vault_b.failed(
        "GET",
        "/userGroup",
        "searchColumn must be one of userGroupId, userGroupName, description",
        details={"searchColumn": "userName", "searchValue": "x"},
        lower_case_details=True,
    )


def test_only_administrators_list_user_groups(vault_b):
    token = vault_b.create_api_user("pat")
    operation = vault_b.operation("GET", "/userGroup", token=token)
    assert operation["result"] == {"status": "Failed", "message": "You are not authorized to list user groups"}


def test_cli_flag_adds_user_groups(tmp_path):
    bodies = run_requests(
        tmp_path,
        ["--user-group", "ops", "--user-group", "dba"],
        [("GET", "/user/getUserGroupId?USERGROUPNAME=dba", None, {})],
    )
    assert [body["operation"]["Details"] for body in bodies] == [{"USERGROUPID": "2"}]
