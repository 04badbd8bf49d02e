"""Scenarios of the user administration, user group, organization, sharing and remote-app rows."""

from conformance.harness import scenario

USER_ITEM = "User (list item, edition B)"


def add_user_group(vault, name, description=""):
    """Create a user group through the simulator's admin endpoint (the spec has none); return its id."""
    response = vault.client.post(
        "/__simulator/user-groups",
        json={"userGroupName": name, "description": description},
        headers={"AUTHTOKEN": vault.token},
    )
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["userGroupId"])


def add_remote_app(vault, name, resource_ids):
    response = vault.client.post(
        "/__simulator/remote-apps", json={"name": name, "resourceIds": resource_ids}, headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def user_id(vault, name):
    return vault.ok("GET", "/user/getUserId", query={"USERNAME": name})["Details"]["USERID"]


def member(vault, user_name, group_name):
    """Create API user ``user_name`` and a group ``group_name`` holding it; return both ids."""
    vault.create_api_user(user_name)
    group_id = add_user_group(vault, group_name)
    vault.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": user_name, "USERGROUPNAME": group_name})
    return user_id(vault, user_name), group_id


@scenario("DELETE /user/{user_id}")
def delete_user_by_id(vault):
    vault.create_api_user("pat")
    return vault.exchange("DELETE", f"/user/{user_id(vault, 'pat')}")


@scenario("DELETE /user")
def delete_user_by_name(vault):
    vault.create_api_user("pat")
    return vault.exchange("DELETE", "/user", query={"USERNAME": "pat"})


@scenario("POST /user/addUserToUserGroup")
def add_user_to_group(vault):
    vault.create_api_user("pat")
    add_user_group(vault, "ops")
    return vault.exchange("POST", "/user/addUserToUserGroup", query={"USERNAME": "pat", "USERGROUPNAME": "ops"})


@scenario("PUT /user/lock")
def lock_user(vault):
    vault.create_api_user("pat")
    return vault.exchange("PUT", "/user/lock", query={"USERNAME": "pat"})


@scenario("PUT /user/unlock")
def unlock_user(vault):
    vault.create_api_user("pat")
    vault.ok("PUT", "/user/lock", query={"USERNAME": "pat"})
    return vault.exchange("PUT", "/user/unlock", query={"USERNAME": "pat"})


@scenario("PUT /user/resetMFA")
def reset_mfa(vault):
    vault.ok(
        "POST",
        "/user",
        details={"USERNAME": "carol", "FIRSTNAME": "Carol", "LASTNAME": "Smith", "PASSWORD": "Carol-pw1"},
    )
    return vault.exchange("PUT", "/user/resetMFA", query={"USERNAME": "carol"})


@scenario("GET /user/getUserGroupId")
def user_group_id(vault):
    add_user_group(vault, "ops")
    exchange = vault.exchange("GET", "/user/getUserGroupId", query={"USERGROUPNAME": "ops"})
    assert set(exchange.details) == {"USERGROUPID"}
    return exchange


@scenario("POST /user/removeUserFromUserGroup")
def remove_user_from_group(vault):
    pat_id, group_id = member(vault, "pat", "ops")
    exchange = vault.exchange(
        "POST", "/user/removeUserFromUserGroup", details={"USERIDS": [int(pat_id)], "USERGROUPIDS": [int(group_id)]}
    )
    (pair,) = exchange.details["RESULT"]
    assert set(pair) == {"USERID", "USERGROUPID", "message", "status"} and pair["status"] == "Success"
    return exchange


@scenario("DELETE /userGroup")
def delete_user_group(vault):
    group_id = add_user_group(vault, "ops")
    exchange = vault.exchange(
        "DELETE", "/userGroup", details={"userGroupIds": [int(group_id)]}, lower_case_details=True
    )
    # "Details keyed by group id, each {message, status, statusCode}"
    assert set(exchange.details) == {group_id}
    assert set(exchange.details[group_id]) == {"message", "status", "statusCode"}
    return exchange


@scenario("GET /user")
def list_users(vault):
    vault.create_api_user("pat")
    exchange = vault.exchange("GET", "/user", details={"limit": 10, "startIndex": 0}, lower_case_details=True)
    return exchange.expect(USER_ITEM, *exchange.details)


@scenario("GET /userGroup")
def list_user_groups(vault):
    add_user_group(vault, "ops", "operators")
    exchange = vault.exchange(
        "GET",
        "/userGroup",
        details={"searchValue": "op", "searchColumn": "userGroupName", "searchOperator": "startsWith"},
        lower_case_details=True,
    )
    return exchange.expect("User group", *exchange.details)


@scenario("GET /organizations")
def list_organizations(vault):
    exchange = vault.exchange("GET", "/organizations")
    return exchange.expect("Organization (edition B)", *exchange.details)


@scenario("PUT /resources/{resource_id}/share")
def share_resource_with_user(vault):
    resource_id, _account_id = vault.create_resource("web01")
    vault.create_api_user("pat")
    return vault.exchange(
        "PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")}
    )


@scenario("PUT /resources/{resource_id}/accounts/{account_id}/share")
def share_account_with_user(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.create_api_user("pat")
    return vault.exchange(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "modify", "USERID": user_id(vault, "pat")},
    )


@scenario("PUT /resources/{resource_id}/share by USERGROUPID")
def share_resource_with_group(vault):
    resource_id, _account_id = vault.create_resource("web01")
    _pat_id, group_id = member(vault, "pat", "ops")
    return vault.exchange(
        "PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": "fullaccess", "USERGROUPID": group_id}
    )


@scenario("PUT /resources/{resource_id}/accounts/{account_id}/share by USERGROUPID")
def share_account_with_group(vault):
    resource_id, account_id = vault.create_resource("web01")
    _pat_id, group_id = member(vault, "pat", "ops")
    return vault.exchange(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "fullaccess", "USERGROUPID": group_id},
    )


@scenario("PUT /resourcegroup/share")
def share_resource_group(vault):
    vault.create_resource("web01", RESOURCEGROUPNAME="Web servers")
    (group,) = [g for g in vault.store.all("resource_group") if g["name"] == "Web servers"]
    vault.create_api_user("pat")
    return vault.exchange(
        "PUT",
        "/resourcegroup/share",
        details={"resourceGroupIds": [group["id"]], "accessType": "view", "userIds": [user_id(vault, "pat")]},
    )


@scenario("PUT /resources/share")
def share_resources(vault):
    first, _account_id = vault.create_resource("web01")
    second, _account_id = vault.create_resource("web02")
    _pat_id, group_id = member(vault, "pat", "ops")
    return vault.exchange(
        "PUT",
        "/resources/share",
        details={"resourceIds": [first, second], "accessType": "modify", "userGroupIds": [group_id]},
    )


@scenario("PUT /accounts/share")
def share_accounts(vault):
    resource_id, account_id = vault.create_resource("web01")
    app_id = add_remote_app(vault, "PuTTY", [resource_id])
    vault.create_api_user("pat")
    return vault.exchange(
        "PUT",
        "/accounts/share",
        details={
            "accountIds": [account_id],
            "accessType": "remoteapponly",
            "userIds": [user_id(vault, "pat")],
            "remoteAppIds": [app_id],
            "resourceId": int(resource_id),
        },
    )


@scenario("GET /resources/{resource_id}/associated-remote-apps")
def associated_remote_apps(vault):
    resource_id, _account_id = vault.create_resource("web01")
    add_remote_app(vault, "PuTTY", [resource_id])
    add_remote_app(vault, "WinSCP", [resource_id])
    exchange = vault.exchange("GET", f"/resources/{resource_id}/associated-remote-apps")
    return exchange.expect("Remote app (edition B)", *exchange.details)
