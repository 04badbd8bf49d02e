"""Sharing resources, accounts and resource groups, and what a share lets a user do."""

import pytest

from conformance.scenarios.users_sharing import add_remote_app, add_user_group, user_id
from vault_simulator.core.access import can_access, can_access_account


class Shared:
    """admin owns web01 (root, deploy) and db01 (sa); Password User pat owns nothing."""

    def __init__(self, vault):
        self.vault = vault
        self.web, self.root = vault.create_resource("web01", password="root-pw")
        vault.ok(
            "POST",
            f"/resources/{self.web}/accounts",
            details={"ACCOUNTLIST": [{"ACCOUNTNAME": "deploy", "PASSWORD": "deploy-pw"}]},
        )
        self.deploy = vault.ids("web01", "deploy")[1]
        self.db, self.sa = vault.create_resource("db01", account="sa", password="sa-pw")
        self.pat = vault.create_api_user("pat")

    @property
    def pat_id(self):
        return user_id(self.vault, "pat")

    def share_resource(self, resource_id, level, **grantee):
        grantee = grantee or {"USERID": self.pat_id}
        return self.vault.ok("PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": level, **grantee})

    def share_account(self, resource_id, account_id, level, **grantee):
        grantee = grantee or {"USERID": self.pat_id}
        return self.vault.ok(
            "PUT", f"/resources/{resource_id}/accounts/{account_id}/share", details={"ACCESSTYPE": level, **grantee}
        )

    def visible(self, token=None):
        details = self.vault.ok("GET", "/resources", token=token or self.pat)["Details"]
        return [item["RESOURCE NAME"] for item in details]

    def password(self, resource_id, account_id, token=None):
        """The password pat (or ``token``) retrieves, or the failure message."""
        operation = self.vault.operation(
            "GET", f"/resources/{resource_id}/accounts/{account_id}/password", token=token or self.pat
        )
        return operation.get("Details", {}).get("PASSWORD") or operation["result"]["message"]

    def change(self, resource_id, account_id, new_password, token=None):
        operation = self.vault.operation(
            "PUT",
            f"/resources/{resource_id}/accounts/{account_id}/password",
            details={"NEWPASSWORD": new_password, "RESETTYPE": "LOCAL"},
            token=token or self.pat,
        )
        return operation["result"]["message"]


@pytest.fixture
def shared(vault):
    return Shared(vault)


@pytest.fixture
def shared_b(make_vault):
    return Shared(make_vault(edition="B"))


def test_nothing_is_shared_at_first(shared):
    assert shared.visible() == []
    assert shared.password(shared.web, shared.root) == "You are not authorized to retrieve the password of web01/root"


def test_view_share_lists_and_retrieves_but_does_not_change(shared):
    operation = shared.share_resource(shared.web, "view")
    assert operation["name"] == "SHARE RESOURCE"
    assert operation["result"]["message"] == "Resource web01 shared with user pat with view access"
    assert shared.visible() == ["web01"]
    assert shared.password(shared.web, shared.deploy) == "deploy-pw"
    assert shared.change(shared.web, shared.root, "x") == "You are not authorized to change the password of web01/root"
    assert shared.password(shared.db, shared.sa) == "You are not authorized to retrieve the password of db01/sa"


def test_modify_share_changes_passwords_but_does_not_delete(shared):
    shared.share_resource(shared.web, "modify")
    assert shared.change(shared.web, shared.root, "N3w-Shared-pw-8!") == "Password changed successfully"
    assert shared.password(shared.web, shared.root) == "N3w-Shared-pw-8!"
    shared.vault.failed(
        "DELETE", f"/resources/{shared.web}", "You are not authorized to delete resource web01", token=shared.pat
    )


def test_full_access_share_deletes(shared):
    shared.share_resource(shared.web, "fullaccess")
    shared.vault.ok("DELETE", f"/resources/{shared.web}/accounts/{shared.deploy}", token=shared.pat)
    shared.vault.ok("DELETE", f"/resources/{shared.web}", token=shared.pat)
    assert shared.visible(token=shared.vault.token) == ["db01"]


def test_revoke_takes_access_away_and_is_idempotent(shared):
    shared.share_resource(shared.web, "modify")
    operation = shared.share_resource(shared.web, "revoke")
    assert operation["result"]["message"] == "Access to resource web01 has been revoked from user pat"
    assert shared.visible() == []
    assert shared.password(shared.web, shared.root) == "You are not authorized to retrieve the password of web01/root"
    shared.share_resource(shared.web, "revoke")
    assert shared.vault.store.all("share") == []


def test_sharing_again_replaces_the_level(shared):
    shared.share_resource(shared.web, "modify")
    shared.share_resource(shared.web, "view")
    assert shared.change(shared.web, shared.root, "x") == "You are not authorized to change the password of web01/root"


def test_account_share_covers_only_that_account(shared):
    operation = shared.share_account(shared.web, shared.deploy, "view")
    assert operation["name"] == "SHARE ACCOUNT"
    assert operation["result"]["message"] == "Account web01/deploy shared with user pat with view access"
    assert shared.visible() == ["web01"]
    detail = shared.vault.ok("GET", f"/resources/{shared.web}/accounts", token=shared.pat)["Details"]
    assert [a["ACCOUNT NAME"] for a in detail["ACCOUNT LIST"]] == ["deploy"]
    assert shared.password(shared.web, shared.deploy) == "deploy-pw"
    assert shared.password(shared.web, shared.root) == "You are not authorized to retrieve the password of web01/root"
    shared.vault.failed(
        "GET",
        f"/resources/{shared.web}/accounts/{shared.root}",
        "You are not authorized to view account web01/root",
        token=shared.pat,
    )
    shared.vault.ok("GET", f"/resources/{shared.web}/accounts/{shared.deploy}", token=shared.pat)
    assert (
        shared.change(shared.web, shared.deploy, "x") == "You are not authorized to change the password of web01/deploy"
    )


def test_account_modify_share_edits_the_account(shared):
    shared.share_account(shared.web, shared.deploy, "modify")
    shared.vault.ok(
        "PUT", f"/resources/{shared.web}/accounts/{shared.deploy}", details={"NOTES": "ci"}, token=shared.pat
    )
    assert shared.change(shared.web, shared.deploy, "N3w-Shared-pw-8!") == "Password changed successfully"
    shared.vault.failed(
        "DELETE",
        f"/resources/{shared.web}/accounts/{shared.deploy}",
        "You are not authorized to delete account web01/deploy",
        token=shared.pat,
    )


def test_account_and_resource_shares_are_separate(shared):
    shared.share_resource(shared.web, "view")
    shared.share_account(shared.web, shared.deploy, "modify")
    assert shared.change(shared.web, shared.deploy, "N3w-Shared-pw-8!") == "Password changed successfully"
    shared.share_resource(shared.web, "revoke")
    assert shared.visible() == ["web01"]
    assert shared.password(shared.web, shared.root) == "You are not authorized to retrieve the password of web01/root"


def test_account_share_with_a_user_has_no_full_access(shared):
    shared.vault.failed(
        "PUT",
        f"/resources/{shared.web}/accounts/{shared.root}/share",
        "ACCESSTYPE must be one of view, modify, revoke",
        details={"ACCESSTYPE": "fullaccess", "USERID": shared.pat_id},
    )


def test_group_shares_reach_the_members_until_they_leave(shared):
    group_id = add_user_group(shared.vault, "ops")
    shared.vault.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": "pat", "USERGROUPNAME": "ops"})
    operation = shared.share_resource(shared.web, "view", USERGROUPID=group_id)
    assert operation["result"]["message"] == "Resource web01 shared with user group ops with view access"
    shared.share_account(shared.db, shared.sa, "fullaccess", USERGROUPID=group_id)
    assert shared.visible() == ["web01", "db01"]
    shared.vault.ok("DELETE", f"/resources/{shared.db}/accounts/{shared.sa}", token=shared.pat)
    shared.vault.ok(
        "POST",
        "/user/removeUserFromUserGroup",
        details={"USERIDS": [int(shared.pat_id)], "USERGROUPIDS": [int(group_id)]},
    )
    assert shared.visible() == []


@pytest.mark.parametrize(
    "details, message",
    [
        ({"ACCESSTYPE": "view"}, "Give exactly one of USERID or USERGROUPID"),
        ({"ACCESSTYPE": "view", "USERID": "2", "USERGROUPID": "1"}, "Give exactly one of USERID or USERGROUPID"),
        ({"ACCESSTYPE": "view", "USERID": "99"}, "User with ID 99 does not exist"),
        ({"ACCESSTYPE": "view", "USERGROUPID": "99"}, "User group with ID 99 does not exist"),
        ({"ACCESSTYPE": "own", "USERID": "2"}, "ACCESSTYPE must be one of view, modify, fullaccess, revoke"),
        ({"USERID": "2"}, "ACCESSTYPE must be one of view, modify, fullaccess, revoke"),
    ],
)
def test_share_resource_failures(shared, details, message):
    shared.vault.failed("PUT", f"/resources/{shared.web}/share", message, details=details)
    assert shared.vault.store.all("share") == []


def test_share_unknown_resource_or_account(shared):
    shared.vault.failed(
        "PUT",
        "/resources/99/share",
        "Resource with ID 99 does not exist",
        details={"ACCESSTYPE": "view", "USERID": shared.pat_id},
    )
    shared.vault.failed(
        "PUT",
        f"/resources/{shared.web}/accounts/{shared.sa}/share",
        "Account with ID 3 does not exist in resource web01",
        details={"ACCESSTYPE": "view", "USERID": shared.pat_id},
    )


@pytest.mark.parametrize(
    "edition, build, served", [("A", 11199, False), ("A", 11200, True), ("B", 5099, False), ("B", 5100, True)]
)
def test_sharing_with_a_user_group_needs_its_build(make_vault, edition, build, served):
    vault = make_vault(edition=edition, build=build)
    resource_id, account_id = vault.create_resource("web01")
    group_id = add_user_group(vault, "ops")
    for path in (f"/resources/{resource_id}/share", f"/resources/{resource_id}/accounts/{account_id}/share"):
        status, body = vault.call("PUT", path, details={"ACCESSTYPE": "view", "USERGROUPID": group_id})
        if served:
            assert (status, body["operation"]["result"]["status"]) == (200, "Success")
        else:
            assert (status, body["operation"]["name"]) == (404, "UNSUPPORTED")
            assert "with USERGROUPID is not supported" in body["operation"]["result"]["message"]
    assert len(vault.store.all("share")) == (2 if served else 0)
    vault.create_api_user("pat")
    vault.ok("PUT", f"/resources/{resource_id}/share", details={"ACCESSTYPE": "view", "USERID": user_id(vault, "pat")})


def test_an_owner_shares_its_own_resources_only(shared):
    vault = shared.vault
    sam = vault.create_api_user("sam")
    sam_box, _account_id = vault.create_resource("sam-box", OWNERNAME="sam")
    vault.ok("PUT", f"/resources/{sam_box}/share", details={"ACCESSTYPE": "view", "USERID": shared.pat_id}, token=sam)
    assert shared.visible() == ["sam-box"]
    vault.failed(
        "PUT",
        f"/resources/{shared.web}/share",
        "You are not authorized to share resource web01",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "sam")},
        token=sam,
    )
    vault.failed(
        "PUT",
        f"/resources/{shared.web}/accounts/{shared.root}/share",
        "You are not authorized to share account web01/root",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "sam")},
        token=sam,
    )


def test_full_access_lets_a_user_share_further(shared):
    vault = shared.vault
    sam = vault.create_api_user("sam")
    shared.share_resource(shared.web, "modify")
    vault.failed(
        "PUT",
        f"/resources/{shared.web}/share",
        "You are not authorized to share resource web01",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "sam")},
        token=shared.pat,
    )
    shared.share_resource(shared.web, "fullaccess")
    vault.ok(
        "PUT",
        f"/resources/{shared.web}/share",
        details={"ACCESSTYPE": "view", "USERID": user_id(vault, "sam")},
        token=shared.pat,
    )
    assert shared.visible(token=sam) == ["web01"]


def test_shares_are_audited(shared):
    shared.share_account(shared.web, shared.deploy, "view")
    record = shared.vault.store.all("audit")[-1]
    assert (record["operation"], record["resource"], record["account"], record["username"]) == (
        "SHARE ACCOUNT",
        "web01",
        "deploy",
        "pat",
    )


def group_id_of(vault, name):
    return next(g["id"] for g in vault.store.all("resource_group") if g["name"] == name)


def test_resource_group_share_covers_its_members(shared):
    vault = shared.vault
    vault.create_resource("app01", RESOURCEGROUPNAME="Apps")
    vault.create_resource("app02", RESOURCEGROUPNAME="Apps")
    operation = vault.ok(
        "PUT",
        "/resourcegroup/share",
        details={"resourceGroupIds": [group_id_of(vault, "Apps")], "accessType": "view", "userIds": [shared.pat_id]},
    )
    assert operation["operationName"] == "SHARE_RESOURCEGROUP(S)" and "name" not in operation
    assert operation["result"] == {
        "status": "Success",
        "statusCode": 20001,
        "message": "A bulk share action was triggered: Resource groups Apps shared with user pat with view access",
    }
    assert shared.visible() == ["app01", "app02"]
    vault.create_resource("app03", RESOURCEGROUPNAME="Apps")
    assert shared.visible() == ["app01", "app02", "app03"]
    vault.ok(
        "PUT",
        "/resourcegroup/share",
        details={"resourceGroupIds": [group_id_of(vault, "Apps")], "accessType": "revoke", "userIds": [shared.pat_id]},
    )
    assert shared.visible() == []


def test_resource_group_share_failures(shared):
    vault = shared.vault
    vault.create_resource("app01", RESOURCEGROUPNAME="Apps")
    apps = group_id_of(vault, "Apps")
    vault.failed(
        "PUT",
        "/resourcegroup/share",
        "Resource group with ID 99 does not exist",
        details={"resourceGroupIds": [apps, "99"], "accessType": "view", "userIds": [shared.pat_id]},
    )
    vault.failed(
        "PUT",
        "/resourcegroup/share",
        "User with ID 99 does not exist",
        details={"resourceGroupIds": [apps], "accessType": "view", "userIds": [shared.pat_id, "99"]},
    )
    vault.failed(
        "PUT",
        "/resourcegroup/share",
        "Give exactly one of userIds or userGroupIds",
        details={"resourceGroupIds": [apps], "accessType": "view"},
    )
    vault.failed(
        "PUT",
        "/resourcegroup/share",
        "resourceGroupIds must be a non-empty list of ids",
        details={"resourceGroupIds": [], "accessType": "view", "userIds": [shared.pat_id]},
    )
    vault.failed(
        "PUT",
        "/resourcegroup/share",
        "You are not authorized to share resource groups",
        details={"resourceGroupIds": [apps], "accessType": "view", "userIds": [shared.pat_id]},
        token=shared.pat,
    )
    assert vault.store.all("share") == []


def test_resource_group_share_to_a_user_group(shared):
    vault = shared.vault
    vault.create_resource("app01", RESOURCEGROUPNAME="Apps")
    group_id = add_user_group(vault, "ops")
    vault.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": "pat", "USERGROUPNAME": "ops"})
    vault.ok(
        "PUT",
        "/resourcegroup/share",
        details={"resourceGroupIds": [group_id_of(vault, "Apps")], "accessType": "modify", "userGroupIds": [group_id]},
    )
    app01, root = vault.ids("app01", "root")
    assert shared.change(app01, root, "N3w-Shared-pw-8!") == "Password changed successfully"


def test_bulk_resource_share(shared_b):
    vault = shared_b.vault
    operation = vault.ok(
        "PUT",
        "/resources/share",
        details={"resourceIds": [shared_b.web, shared_b.db], "accessType": "view", "userIds": [shared_b.pat_id]},
    )
    assert operation["operationName"] == "SHARE_RESOURCE(S)"
    assert operation["result"]["message"] == "Resources web01, db01 shared with user pat with view access"
    assert shared_b.visible() == ["web01", "db01"]
    vault.failed(
        "PUT",
        "/resources/share",
        "Resource with ID 99 does not exist",
        details={"resourceIds": [shared_b.web, "99"], "accessType": "revoke", "userIds": [shared_b.pat_id]},
    )
    assert shared_b.visible() == ["web01", "db01"]


def test_bulk_resource_share_checks_every_resource(shared_b):
    vault = shared_b.vault
    sam = vault.create_api_user("sam")
    sam_box, _account_id = vault.create_resource("sam-box", OWNERNAME="sam")
    vault.failed(
        "PUT",
        "/resources/share",
        "You are not authorized to share resource web01",
        details={"resourceIds": [sam_box, shared_b.web], "accessType": "view", "userIds": [shared_b.pat_id]},
        token=sam,
    )
    assert shared_b.visible() == []


def test_bulk_account_share(shared_b):
    vault = shared_b.vault
    operation = vault.ok(
        "PUT",
        "/accounts/share",
        details={"accountIds": [shared_b.root, shared_b.sa], "accessType": "modify", "userIds": [shared_b.pat_id]},
    )
    assert operation["operationName"] == "SHARE_ACCOUNTS(S)"
    assert shared_b.change(shared_b.db, shared_b.sa, "N3w-Shared-pw-8!") == "Password changed successfully"
    assert (
        shared_b.password(shared_b.web, shared_b.deploy)
        == "You are not authorized to retrieve the password of web01/deploy"
    )
    vault.failed(
        "PUT",
        "/accounts/share",
        "accessType must be one of view, modify, remoteapponly, revoke",
        details={"accountIds": [shared_b.root], "accessType": "fullaccess", "userIds": [shared_b.pat_id]},
    )
    vault.failed(
        "PUT",
        "/accounts/share",
        "Account with ID 99 does not exist",
        details={"accountIds": ["99"], "accessType": "view", "userIds": [shared_b.pat_id]},
    )


def test_remote_app_only_gives_no_password(shared_b):
    vault = shared_b.vault
    app_id = add_remote_app(vault, "PuTTY", [shared_b.web])
    shared_b.share_account(shared_b.web, shared_b.root, "view")
    operation = vault.ok(
        "PUT",
        "/accounts/share",
        details={
            "accountIds": [shared_b.root],
            "accessType": "remoteapponly",
            "userIds": [shared_b.pat_id],
            "remoteAppIds": [app_id],
            "resourceId": int(shared_b.web),
        },
    )
    assert operation["result"]["message"] == "Accounts web01/root shared with user pat with remoteapponly access"
    assert (
        shared_b.password(shared_b.web, shared_b.root)
        == "You are not authorized to retrieve the password of web01/root"
    )
    assert shared_b.visible() == []
    (share,) = vault.store.all("share")
    assert (share["level"], share["remote_app_ids"]) == ("remoteapponly", [app_id])


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"remoteAppIds": ["1"]}, "resourceId is required"),
        ({"remoteAppIds": [], "resourceId": 1}, "remoteAppIds must be a non-empty list of ids"),
        ({"remoteAppIds": ["2"], "resourceId": 1}, "Remote app with ID 2 is not associated with resource web01"),
        ({"remoteAppIds": ["1"], "resourceId": 2}, "Account with ID 1 does not exist in resource db01"),
    ],
)
def test_remote_app_only_needs_apps_of_the_accounts_resource(shared_b, extra, message):
    vault = shared_b.vault
    add_remote_app(vault, "PuTTY", [shared_b.web])
    add_remote_app(vault, "SSMS", [shared_b.db])
    vault.failed(
        "PUT",
        "/accounts/share",
        message,
        details={"accountIds": [shared_b.root], "accessType": "remoteapponly", "userIds": [shared_b.pat_id], **extra},
    )


@pytest.mark.parametrize("path", ["/resources/share", "/accounts/share"])
def test_bulk_resource_and_account_shares_are_edition_b_6320(make_vault, path):
    details = {"resourceIds": ["1"], "accountIds": ["1"], "accessType": "view", "userIds": ["1"]}
    for vault in (make_vault(edition="A"), make_vault(edition="B", build=6310)):
        vault.create_resource("web01")
        status, body = vault.call("PUT", path, details=details)
        assert (status, body["operation"]["name"]) == (404, "UNSUPPORTED")
        assert vault.store.all("share") == []


def test_account_checks_reject_unknown_levels():
    with pytest.raises(ValueError):
        can_access_account(None, {"id": "1", "role": "Administrator"}, {"owner_id": "1"}, {"id": "1"}, "own")
    with pytest.raises(ValueError):
        can_access(None, {"id": "1", "role": "Administrator"}, {"owner_id": "1"}, "remoteapponly")


def test_an_account_share_reaches_no_other_account_of_the_resource(vault):
    pat = vault.create_api_user("pat")
    pat_id = vault.ok("GET", "/user/getUserId", query={"USERNAME": "pat"})["Details"]["USERID"]
    resource_id, root_id = vault.create_resource("web01")
    vault.ok(
        "POST",
        f"/resources/{resource_id}/accounts",
        details={"ACCOUNTLIST": [{"ACCOUNTNAME": "app", "PASSWORD": "App-pw-5521!"}]},
    )
    app_id = vault.ids("web01", "app")[1]
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{app_id}",
        details={"ACCOUNTNAME": "app", "TOTP_SECRET": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"},
    )
    vault.ok(
        "PUT", f"/resources/{resource_id}/accounts/{root_id}/share", details={"ACCESSTYPE": "view", "USERID": pat_id}
    )
    assert vault.ok("GET", f"/resources/{resource_id}/accounts/{root_id}/password", token=pat)
    vault.failed(
        "GET", f"/accounts/{app_id}/totp", "You are not authorized to retrieve the TOTP of web01/app", token=pat
    )
    vault.failed(
        "GET",
        f"/resources/{resource_id}/accounts/{app_id}/downloadfile",
        "You are not authorized to download the file of web01/app",
        token=pat,
    )
    vault.failed(
        "POST",
        f"/accounts/{app_id}/requestpassword",
        "You are not authorized to request the password of web01/app",
        token=pat,
        details={"REASON": "deploy"},
    )
