"""Who sees and retrieves what: administrators everything, other roles what they own."""

import pytest

from vault_simulator.core.access import can_access


@pytest.fixture
def shared_vault(vault):
    """admin owns "admin-box"; Password User pat owns "pat-box" (created by pat)."""
    vault.create_resource("admin-box")
    vault.pat = vault.create_api_user("pat")
    vault.ok(
        "POST",
        "/resources",
        token=vault.pat,
        details={"RESOURCENAME": "pat-box", "ACCOUNTNAME": "pat", "RESOURCETYPE": "Linux", "PASSWORD": "pat-pw"},
    )
    vault.ok("PUT", "/resources/1/accounts/1", details={"ACCOUNTNAME": "root", "TOTP_SECRET": "JBSWY3DPEHPK3PXP"})
    return vault


def names(vault, token):
    return [item["RESOURCE NAME"] for item in vault.ok("GET", "/resources", token=token)["Details"]]


def test_password_user_sees_only_owned_resources(shared_vault):
    assert names(shared_vault, shared_vault.pat) == ["pat-box"]
    assert shared_vault.ok("GET", "/resources", token=shared_vault.pat)["totalRows"] == 1
    assert names(shared_vault, shared_vault.token) == ["admin-box", "pat-box"]


@pytest.mark.parametrize(
    "role, expected",
    [("Administrator", ["admin-box", "pat-box"]), ("Password Administrator", []), ("Password Auditor", [])],
)
def test_visibility_by_role(shared_vault, role, expected):
    token = shared_vault.create_api_user("someone", role=role)
    assert names(shared_vault, token) == expected


def test_owner_created_resource_without_owner_name(shared_vault):
    assert shared_vault.ok("GET", "/resources/2/accounts")["Details"]["RESOURCE OWNER"] == "pat"


def test_password_user_cannot_retrieve_what_it_does_not_own(shared_vault):
    pat = shared_vault.pat
    shared_vault.failed(
        "GET",
        "/resources/1/accounts/1/password",
        "You are not authorized to retrieve the password of admin-box/root",
        token=pat,
    )
    shared_vault.failed(
        "GET", "/accounts/1/totp", "You are not authorized to retrieve the TOTP of admin-box/root", token=pat
    )
    shared_vault.failed("GET", "/resources/1/accounts", "You are not authorized to view resource admin-box", token=pat)
    shared_vault.failed(
        "PUT",
        "/resources/1/accounts/1/password",
        "You are not authorized to change the password of admin-box/root",
        token=pat,
        details={"NEWPASSWORD": "x", "RESETTYPE": "LOCAL"},
    )
    shared_vault.failed("DELETE", "/resources/1", "You are not authorized to delete resource admin-box", token=pat)
    assert shared_vault.ok("GET", "/resources/2/accounts/2/password", token=pat)["Details"]["PASSWORD"] == "pat-pw"


def test_any_user_resolves_names_to_ids(shared_vault):
    details = shared_vault.ok(
        "GET",
        "/resources/getResourceIdAccountId",
        token=shared_vault.pat,
        query={"RESOURCENAME": "admin-box", "ACCOUNTNAME": "root"},
    )["Details"]
    assert details == {"RESOURCEID": "1", "ACCOUNTID": "1"}


def test_password_administrator_must_name_an_owner(shared_vault):
    token = shared_vault.create_api_user("padmin", role="Password Administrator")
    shared_vault.failed(
        "POST",
        "/resources",
        "OWNERNAME is required when an Administrator, Password "
        "Administrator or Privileged Administrator creates a resource",
        token=token,
        details={"RESOURCENAME": "x", "ACCOUNTNAME": "a", "RESOURCETYPE": "Linux", "PASSWORD": "p"},
    )


def test_can_access_rejects_unknown_levels():
    with pytest.raises(ValueError):
        can_access(None, {"id": "1", "role": "Administrator"}, {"owner_id": "1"}, "own")
