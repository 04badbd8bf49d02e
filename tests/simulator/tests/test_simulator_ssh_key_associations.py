"""SSH key associations: associateKey, dissociateKey, getSSHkeysforuser, getAllAssociatedUsers, and
what deleting keys, resources and accounts does to them."""

from ssh_key_calls import UPPER_CASE_SUCCESS, associate, create_key, pki, pki_failed, pki_ok

DISSOCIATE = "/dissociateKey"


def keys_of(vault, user="root", resource="web01", **kwargs):
    return pki_ok(vault, "GET", "/getSSHkeysforuser", details={"userName": user, "resourceName": resource}, **kwargs)[
        "details"
    ]


def associated_users(vault, **kwargs):
    body = pki_ok(vault, "GET", "/getAllAssociatedUsers", **kwargs)
    assert body["totalRows"] == len(body["details"])
    return body["details"]


def setup(vault, *key_names):
    vault.create_resource("web01")
    for name in key_names:
        create_key(vault, name)


def test_associate_then_list_keys_of_the_user(vault):
    setup(vault, "deploy", "backup")
    body = associate(vault, "deploy")
    message = "SSH key deploy associated with user root on resource web01 successfully"
    assert body == {"name": "associateKey", "result": {"status": UPPER_CASE_SUCCESS, "message": message}}
    assert keys_of(vault) == "deploy"
    assert associate(vault, "backup")["result"]["status"] == UPPER_CASE_SUCCESS
    assert keys_of(vault) == "deploy,backup"
    assert associated_users(vault) == [{"UserName": "root", "ResourceName": "web01"}]


def test_a_user_without_keys_has_an_empty_list(vault):
    setup(vault)
    assert keys_of(vault) == ""
    assert associated_users(vault) == []


def test_associated_users_are_listed_once_per_user_and_resource(vault):
    setup(vault, "deploy", "backup")
    resource_id, _account_id = vault.ids("web01", "root")
    vault.ok(
        "POST",
        f"/resources/{resource_id}/accounts",
        details={"ACCOUNTLIST": [{"ACCOUNTNAME": "oracle", "PASSWORD": "pw"}]},
    )
    vault.create_resource("db01", account="root")
    for key, resource, user in (
        ("deploy", "web01", "root"),
        ("backup", "web01", "root"),
        ("deploy", "web01", "oracle"),
        ("deploy", "db01", "root"),
    ):
        assert associate(vault, key, resource, user)["result"]["status"] == UPPER_CASE_SUCCESS
    assert associated_users(vault) == [
        {"UserName": "root", "ResourceName": "web01"},
        {"UserName": "oracle", "ResourceName": "web01"},
        {"UserName": "root", "ResourceName": "db01"},
    ]
    assert keys_of(vault, "root", "db01") == "deploy"


def test_the_same_association_twice_fails(vault):
    setup(vault, "deploy")
    associate(vault)
    assert associate(vault)["result"] == {
        "status": "Failed",
        "message": "SSH key deploy is already associated with user root on resource web01",
    }
    assert keys_of(vault) == "deploy"


def test_dissociate(vault):
    setup(vault, "deploy")
    associate(vault)
    body = associate(vault, path=DISSOCIATE)
    message = "SSH key deploy dissociated from user root on resource web01 successfully"
    assert body == {"name": "dissociateKey", "result": {"status": UPPER_CASE_SUCCESS, "message": message}}
    assert keys_of(vault) == ""
    assert associate(vault, path=DISSOCIATE)["result"] == {
        "status": "Failed",
        "message": "SSH key deploy is not associated with user root on resource web01",
    }


def test_the_key_resource_and_account_must_exist(vault):
    setup(vault, "deploy")
    for path in ("/associateKey", DISSOCIATE):
        assert associate(vault, key="nope", path=path)["result"]["message"] == "SSH key nope does not exist"
        assert associate(vault, resource="nope", path=path)["result"]["message"] == "Resource nope does not exist"
        assert associate(vault, user="nobody", path=path)["result"] == {
            "status": "Failed",
            "message": "Account nobody does not exist in resource web01",
        }
    pki_failed(
        vault,
        "GET",
        "/getSSHkeysforuser",
        "Account nobody does not exist in resource web01",
        details={"userName": "nobody", "resourceName": "web01"},
    )
    pki_failed(
        vault, "POST", "/associateKey", "userName is required", details={"keyName": "deploy", "resourceName": "web01"}
    )
    assert associated_users(vault) == []


def test_resources_are_looked_up_in_the_selected_organization(vault):
    setup(vault, "deploy")
    response = vault.client.post(
        "/__simulator/organizations", json={"displayName": "Branch"}, headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 201
    branch = {"orgName": "Branch"}
    assert associate(vault, headers=branch)["result"]["message"] == "Resource web01 does not exist"
    associate(vault)
    assert associated_users(vault, headers=branch) == []
    assert associated_users(vault) == [{"UserName": "root", "ResourceName": "web01"}]


def test_deleting_a_key_dissociates_it_unless_told_not_to(vault):
    setup(vault, "deploy", "backup")
    associate(vault, "deploy")
    associate(vault, "backup")
    body = pki_ok(vault, "DELETE", "/deleteSSHKey", details={"key_name": "deploy"})
    assert body["result"]["message"] == "SSH key deploy dissociated from 1 user(s) and deleted successfully"
    assert keys_of(vault) == "backup"
    body = pki_ok(vault, "DELETE", "/deleteSSHKey", details={"key_name": "backup", "withoutDisassociation": True})
    assert body["result"]["message"] == "SSH key backup deleted successfully"
    assert keys_of(vault) == "" and associated_users(vault) == []
    create_key(vault, "deploy")
    assert keys_of(vault) == "", "a new key of the same name inherits no association"


def test_associations_follow_the_resource_and_account(vault):
    setup(vault, "deploy")
    resource_id, account_id = vault.ids("web01", "root")
    associate(vault)
    vault.ok("PUT", f"/resources/{resource_id}", details={"RESOURCENAME": "web02"})
    assert associated_users(vault) == [{"UserName": "root", "ResourceName": "web02"}]
    assert keys_of(vault, resource="web02") == "deploy"
    vault.ok("DELETE", f"/resources/{resource_id}/accounts/{account_id}")
    assert associated_users(vault) == []


def test_a_password_user_manages_associations_of_its_own_resources_only(vault):
    token = vault.create_api_user("pat")
    setup(vault, "deploy")
    vault.create_resource("own01", token=token)
    assert associate(vault, resource="own01", token=token)["result"]["status"] == UPPER_CASE_SUCCESS
    assert associate(vault, token=token)["result"] == {
        "status": "Failed",
        "message": "You are not authorized to associate SSH keys with users of resource web01",
    }
    associate(vault)
    assert (
        associate(vault, path=DISSOCIATE, token=token)["result"]["message"]
        == "You are not authorized to dissociate SSH keys from users of resource web01"
    )
    pki_failed(
        vault,
        "GET",
        "/getSSHkeysforuser",
        "You are not authorized to view the SSH keys of users of resource web01",
        details={"userName": "root", "resourceName": "web01"},
        token=token,
    )
    assert keys_of(vault, resource="own01", token=token) == "deploy"
    assert associated_users(vault, token=token) == [{"UserName": "root", "ResourceName": "own01"}]
    assert len(associated_users(vault)) == 2


def test_associations_are_audited_with_resource_and_account(vault):
    setup(vault, "deploy")
    associate(vault)
    pki(vault, "GET", "/getAllAssociatedUsers")
    record = next(r for r in vault.store.all("audit") if r["operation"] == "associateKey")
    assert (record["resource"], record["account"], record["status"]) == ("web01", "root", UPPER_CASE_SUCCESS)


def test_a_shared_account_can_get_keys_at_the_shared_level(vault):
    token = vault.create_api_user("pat")
    user_id = vault.ok("GET", "/user/getUserId", query={"USERNAME": "pat"})["Details"]["USERID"]
    setup(vault, "deploy")
    resource_id, account_id = vault.ids("web01", "root")
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "view", "USERID": user_id},
    )
    associate(vault)
    assert keys_of(vault, token=token) == "deploy"
    assert associate(vault, path=DISSOCIATE, token=token)["result"]["status"] == "Failed"
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/share",
        details={"ACCESSTYPE": "modify", "USERID": user_id},
    )
    assert associate(vault, path=DISSOCIATE, token=token)["result"]["status"] == UPPER_CASE_SUCCESS
