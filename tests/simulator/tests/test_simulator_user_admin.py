"""Deleting, locking, unlocking and resetting MFA of users, and listing users (edition B)."""

import re

import pytest

from conformance.scenarios.users_sharing import add_user_group, user_id

PERSON = {"FIRSTNAME": "Carol", "LASTNAME": "Smith", "PASSWORD": "Carol-pw1"}


def user_names(vault, **details):
    operation = vault.ok("GET", "/user", details=details, lower_case_details=True)
    return [item["userName"] for item in operation["Details"]], operation["totalRows"]


def test_delete_user_by_id_and_by_name(vault):
    pat_token = vault.create_api_user("pat")
    vault.create_api_user("sam")
    operation = vault.ok("DELETE", f"/user/{user_id(vault, 'pat')}")
    assert operation["name"] == "DELETE USER"
    assert operation["result"]["message"] == "User pat has been deleted successfully"
    vault.ok("DELETE", "/user", query={"USERNAME": "sam"})
    vault.failed("GET", "/user/getUserId", "User pat does not exist", query={"USERNAME": "pat"})
    vault.failed("GET", "/user/getUserId", "User sam does not exist", query={"USERNAME": "sam"})
    status, body = vault.call("GET", "/resources", token=pat_token)
    assert status == 401 and body["operation"]["result"]["status"] == "Failed"


def test_deleted_user_loses_groups_and_shares_and_its_resources_pass_to_the_deleter(vault):
    pat_token = vault.create_api_user("pat")
    boss = vault.create_api_user("boss", role="Administrator")
    group_id = add_user_group(vault, "ops")
    vault.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": "pat", "USERGROUPNAME": "ops"})
    shared, _account_id = vault.create_resource("shared-box")
    owned, _account_id = vault.create_resource("pat-box", OWNERNAME="pat")
    pat_id = user_id(vault, "pat")
    vault.ok("PUT", f"/resources/{shared}/share", details={"ACCESSTYPE": "view", "USERID": pat_id})
    assert vault.store.all("share")
    vault.ok("DELETE", "/user", query={"USERNAME": "pat"}, token=boss)
    assert vault.store.get("token", pat_token) is None
    assert vault.store.all("share") == []
    assert vault.store.get("user_group", group_id)["member_ids"] == []
    assert vault.ok("GET", f"/resources/{owned}/accounts")["Details"]["RESOURCE OWNER"] == "boss"


@pytest.mark.parametrize(
    "query, message",
    [
        ({"USERNAME": "admin"}, "The built-in administrator admin cannot be deleted"),
        ({"USERNAME": "ghost"}, "User ghost does not exist"),
        ({}, "USERNAME is required"),
    ],
)
def test_delete_user_failures(vault, query, message):
    vault.failed("DELETE", "/user", message, query=query)
    assert len(vault.store.all("user")) == 1


def test_nobody_deletes_themselves(vault):
    boss = vault.create_api_user("boss", role="Administrator")
    vault.failed("DELETE", f"/user/{user_id(vault, 'boss')}", "You cannot delete yourself", token=boss)
    vault.failed("DELETE", "/user/99", "User with ID 99 does not exist")


@pytest.mark.parametrize("role", ["Password User", "Password Auditor", "Password Administrator"])
def test_only_administrators_manage_users(vault, role):
    token = vault.create_api_user("caller", role=role)
    vault.create_api_user("pat")
    for method, path, action in [
        ("DELETE", "/user", "delete users"),
        ("PUT", "/user/lock", "lock users"),
        ("PUT", "/user/unlock", "unlock users"),
        ("PUT", "/user/resetMFA", "reset the two-factor authentication of users"),
    ]:
        vault.failed(method, path, f"You are not authorized to {action}", query={"USERNAME": "pat"}, token=token)
    vault.ok("GET", "/user/getUserId", query={"USERNAME": "pat"}, token=token)


def test_a_locked_user_is_refused_until_unlocked(vault):
    pat = vault.create_api_user("pat")
    operation = vault.ok("PUT", "/user/lock", query={"USERNAME": "pat"})
    assert (operation["name"], operation["result"]["message"]) == ("LOCK USER", "The account of user pat is locked")
    status, body = vault.call("GET", "/resources", token=pat)
    assert status == 401
    assert body["operation"]["result"]["message"] == "Authentication failed: the user of this AUTHTOKEN is locked"
    vault.ok("PUT", "/user/lock", query={"USERNAME": "pat"})  # locking again is no error
    operation = vault.ok("PUT", "/user/unlock", query={"USERNAME": "pat"})
    assert (operation["name"], operation["result"]["message"]) == ("UNLOCK USER", "The account of user pat is unlocked")
    vault.ok("GET", "/resources", token=pat)


def test_lock_refuses_the_built_in_admin_yourself_and_unknown_users(vault):
    boss = vault.create_api_user("boss", role="Privileged Administrator")
    vault.failed(
        "PUT",
        "/user/lock",
        "The built-in administrator admin cannot be locked",
        query={"USERNAME": "admin"},
        token=boss,
    )
    vault.failed("PUT", "/user/lock", "You cannot lock your own account", query={"USERNAME": "boss"}, token=boss)
    vault.failed("PUT", "/user/unlock", "User ghost does not exist", query={"USERNAME": "ghost"})
    vault.ok("GET", "/resources", token=boss)


def test_lock_and_unlock_are_audited_against_the_user(vault):
    vault.create_api_user("pat")
    vault.ok("PUT", "/user/lock", query={"USERNAME": "pat"})
    record = vault.store.all("audit")[-1]
    assert (record["operation"], record["username"], record["type"]) == ("LOCK USER", "pat", "User")


def test_reset_mfa(vault):
    vault.ok("POST", "/user", details={"USERNAME": "carol", **PERSON})
    operation = vault.ok("PUT", "/user/resetMFA", query={"USERNAME": "carol"})
    assert operation["name"] == "Reset MFA"
    assert operation["result"]["message"] == "Two-factor authentication of user carol has been reset"
    vault.failed("PUT", "/user/resetMFA", "User ghost does not exist", query={"USERNAME": "ghost"})


@pytest.mark.parametrize(
    "edition, build, served", [("A", 12099, False), ("A", 12100, True), ("B", 5399, False), ("B", 5400, True)]
)
def test_reset_mfa_builds(make_vault, edition, build, served):
    vault = make_vault(edition=edition, build=build)
    vault.create_api_user("pat")
    status, body = vault.call("PUT", "/user/resetMFA", query={"USERNAME": "pat"})
    assert (status, body["operation"]["name"]) == ((200, "Reset MFA") if served else (404, "UNSUPPORTED"))


@pytest.fixture
def vault_b(make_vault):
    return make_vault(edition="B")


def test_user_list_items_have_the_spec_types(vault_b):
    vault_b.ok(
        "POST",
        "/user",
        details={
            "USERNAME": "carol",
            "EMAIL": "carol@example.test",
            "DEPARTMENT": "IT",
            "LOCATION": "Pune",
            "ROLE": "Administrator",
            **PERSON,
        },
    )
    vault_b.ok("PUT", "/user/lock", query={"USERNAME": "carol"})
    operation = vault_b.ok("GET", "/user")
    assert operation["name"] == "GET_USER(S)" and operation["totalRows"] == 2
    admin, carol = operation["Details"]
    assert (admin["userId"], admin["userName"], admin["isApiUser"], admin["isUserLocked"]) == (1, "admin", True, False)
    assert carol == {
        **carol,
        "userId": 2,
        "userName": "carol",
        "role": "Administrator",
        "email": "carol@example.test",
        "department": "IT",
        "location": "Pune",
        "trustScore": "N/A",
        "isApiUser": False,
        "isUserLocked": True,
        "isSuperAdmin": False,
    }
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}", carol["dateCreated"])


@pytest.mark.parametrize(
    "details, expected",
    [
        ({"searchValue": "ro"}, ["robot1", "robot2", "ron"]),
        ({"searchValue": "RO", "searchOperator": "startsWith"}, ["robot1", "robot2", "ron"]),
        ({"searchValue": "t2", "searchOperator": "endsWith"}, ["robot2"]),
        ({"searchValue": "ron", "searchOperator": "equals"}, ["ron"]),
        ({"searchValue": "o", "searchOperator": "doesNotContain"}, ["admin"]),
        ({"searchValue": "admin", "searchOperator": "notEquals"}, ["robot1", "robot2", "ron"]),
        ({"searchValue": "Administrator", "searchColumn": "role", "searchOperator": "equals"}, ["ron"]),
        ({"searchValue": "3", "searchColumn": "userId", "searchOperator": "equals"}, ["robot2"]),
        ({"searchValue": "true", "searchColumn": "isUserLocked", "searchOperator": "equals"}, ["robot1"]),
        (
            {"searchValue": "Default Organization", "searchColumn": "orgName", "searchOperator": "equals"},
            ["admin", "robot1", "robot2", "ron"],
        ),
    ],
)
def test_user_search(vault_b, details, expected):
    vault_b.create_api_user("robot1")
    vault_b.create_api_user("robot2")
    vault_b.create_api_user("ron", role="Administrator")
    vault_b.ok("PUT", "/user/lock", query={"USERNAME": "robot1"})
    assert user_names(vault_b, **details) == (expected, len(expected))


def test_user_paging_and_default_limit(vault_b):
    for number in range(1, 106):
        vault_b.create_api_user(f"user{number:03d}")
    names, total = user_names(vault_b)
    assert (len(names), total) == (100, 106)
    assert user_names(vault_b, startIndex=104, limit=5) == (["user104", "user105"], 106)
    assert user_names(vault_b, startIndex="1", limit="2", searchValue="user") == (["user002", "user003"], 105)


@pytest.mark.parametrize(
    "details, message",
    [
        (
            {"searchColumn": "password", "searchValue": "x"},
            "searchColumn must be one of userId, userName, email, role, "
            "department, location, orgName, isApiUser, isTfaEnabled, "
            "isSuperAdmin, isUserLocked",
        ),
        (
            {"searchOperator": "like", "searchValue": "x"},
            "searchOperator must be one of contains, doesNotContain, equals, notEquals, startsWith, endsWith",
        ),
        ({"limit": 0}, "limit must be a whole number of at least 1"),
        ({"startIndex": "-1"}, "startIndex must be a whole number of at least 0"),
    ],
)
def test_user_list_refuses_bad_input(vault_b, details, message):
    vault_b.failed("GET", "/user", message, details=details, lower_case_details=True)


def test_only_administrators_list_users(vault_b):
    token = vault_b.create_api_user("pat")
    vault_b.failed("GET", "/user", "You are not authorized to list users", token=token)


def test_user_list_is_edition_b_only(make_vault):
    assert make_vault(edition="A").call("GET", "/user")[0] == 404
    assert make_vault(edition="B", build=6310).call("GET", "/user")[0] == 404


def test_organizations_are_listed_for_every_caller(vault_b):
    response = vault_b.client.post(
        "/__simulator/organizations", json={"displayName": "Branch Office"}, headers={"AUTHTOKEN": vault_b.token}
    )
    assert response.status_code == 201
    token = vault_b.create_api_user("pat")
    operation = vault_b.ok("GET", "/organizations", token=token)
    assert (operation["name"], operation["totalRows"]) == ("GET_ORGANIZATIONS", 2)
    assert operation["Details"] == [
        {"name": "defaultorganization", "id": "1", "displayName": "Default Organization"},
        {"name": "branchoffice", "id": "2", "displayName": "Branch Office"},
    ]
    vault_b.ok("GET", "/resources", headers={"orgName": operation["Details"][1]["displayName"]})


def test_organization_list_is_edition_b_only(make_vault):
    assert make_vault(edition="A").call("GET", "/organizations")[0] == 404


def test_deleting_a_user_removes_their_certificate_shares(vault):
    vault.create_api_user("pat")
    pat_id = user_id(vault, "pat")
    vault.store.put(
        "certificate_share",
        "x",
        {"id": "x", "target_kind": "certificate", "target_id": "1", "grantee_kind": "user", "grantee_id": pat_id},
    )
    vault.ok("DELETE", f"/user/{pat_id}")
    assert vault.store.all("certificate_share") == []
