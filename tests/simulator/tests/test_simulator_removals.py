"""A deleted resource or account takes what belongs to it along."""


def user_id(vault, name):
    return vault.ok("GET", "/user/getUserId", query={"USERNAME": name})["Details"]["USERID"]


def test_deleting_a_resource_removes_its_shares_requests_groups_and_reset_settings(make_vault):
    vault = make_vault(access_control=True)
    pat = vault.create_api_user("pat")
    resource_id, account_id = vault.create_resource("web01", RESOURCEGROUPNAME="web servers")
    vault.ok("PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")})
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")},
    )
    vault.ok("POST", f"/accounts/{account_id}/requestpassword", details={"REASON": "deploy"}, token=pat)
    vault.ok(
        "POST",
        "/resources/configureremotepasswordreset",
        details={"RESOURCEIDS": [resource_id], "REMOTELOGINACCOUNT": "root", "RESOURCETYPE": "Linux"},
    )
    for kind in ("share", "password_request", "remote_reset"):
        assert vault.store.all(kind), kind
    vault.ok("DELETE", f"/resources/{resource_id}")
    for kind in ("share", "password_request", "remote_reset", "account", "resource"):
        assert vault.store.all(kind) == [], kind
    (group,) = vault.store.all("resource_group")
    assert group["resources"] == []


def test_deleting_an_account_removes_its_shares_and_ssh_associations(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.create_api_user("pat")
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")},
    )
    vault.ok("PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")})
    pki = "/api/pki/restapi"
    assert (
        vault.call(
            "POST",
            "/createsshkey",
            root=pki,
            details={"keyName": "deploy-key", "keyType": "ed25519", "comment": "c", "passPhrase": ""},
        )[1]["result"]["status"]
        == "Success"
    )
    assert (
        vault.call(
            "POST",
            "/associateKey",
            root=pki,
            details={"keyName": "deploy-key", "resourceName": "web01", "userName": "root"},
        )[1]["result"]["status"]
        == "SUCCESS"
    )
    vault.ok("DELETE", f"/resources/{resource_id}/accounts/{account_id}")
    assert vault.store.all("ssh_key_association") == []
    assert [s["target_kind"] for s in vault.store.all("share")] == ["resource"]


def test_deleting_a_user_removes_their_password_requests(make_vault):
    vault = make_vault(access_control=True)
    pat = vault.create_api_user("pat")
    resource_id, account_id = vault.create_resource("web01")
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")},
    )
    vault.ok("POST", f"/accounts/{account_id}/requestpassword", details={"REASON": "deploy"}, token=pat)
    vault.ok("DELETE", "/user", query={"USERNAME": "pat"})
    assert vault.store.all("password_request") == []
    assert vault.ok("GET", "/accounts/passwordaccessrequests")
