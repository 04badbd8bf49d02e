"""Sharing certificates and certificate groups with users and user groups, and revoking it."""

import pytest

from conformance.scenarios.certificates import (
    PKI_ROOT,
    api_user,
    create_certificate,
    create_group,
    download,
    pki,
    pki_failed,
    user_group_id,
)

WEB, API = "www.example.com", "api.example.com"


@pytest.fixture
def shop(vault):
    """Certificates www (id 1) and api (id 2) of the admin; Password Users pat (member of user group
    ops) and sam; certificate group "web" holding www."""
    create_certificate(vault, WEB, PASSWORD="Pass-1")
    create_certificate(vault, API)
    vault.pat, vault.pat_id = api_user(vault, "pat")
    vault.sam, vault.sam_id = api_user(vault, "sam")
    vault.ops_id = user_group_id(vault, "ops")
    vault.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": "pat", "USERGROUPNAME": "ops"})
    create_group(vault, "web", "1")
    return vault


def seen(vault, token):
    return [item["Common Name"] for item in pki(vault, "GET", "/getAllSSLCertificates", token=token)["details"]]


def test_nothing_is_shared_at_first(shop):
    assert seen(shop, shop.pat) == [] and seen(shop, shop.sam) == []
    assert seen(shop, shop.token) == [WEB, API]


def test_share_certificate_with_user_and_revoke(shop):
    details = {"common_name": WEB, "userId": shop.pat_id}
    body = pki(shop, "POST", "/shareCertificateToUser", details=details)
    serial = pki(shop, "GET", "/getAllSSLCertificates")["details"][0]["serialNumber"]
    message = f"Certificate {WEB} (serial number {serial}) shared with user pat successfully"
    assert body == {"name": "ShareCertificate", "result": {"status": "Success", "message": message}}
    assert seen(shop, shop.pat) == [WEB] and seen(shop, shop.sam) == []
    assert (
        pki(shop, "GET", "/getCertificatePassphrase", token=shop.pat, details={"common_name": WEB})["result"]["message"]
        == "Pass-1"
    )
    assert download(shop, "/getCertificateKeyStore", token=shop.pat, common_name=WEB).data
    pki(shop, "POST", "/shareCertificateToUser", details=details)  # sharing again changes nothing
    body = pki(shop, "POST", "/revokeCertificateFromUser", details=details)
    assert body["name"] == "RevokeCertificate"
    assert body["result"]["message"] == f"Certificate {WEB} (serial number {serial}) revoked from user pat successfully"
    assert seen(shop, shop.pat) == []
    pki_failed(
        shop,
        "POST",
        "/revokeCertificateFromUser",
        f"Certificate {WEB} (serial number {serial}) is not shared with user pat",
        details=details,
    )


def test_share_certificate_with_user_group(shop):
    details = {"common_name": API, "userGroupId": shop.ops_id}
    pki(shop, "POST", "/shareCertificateToUserGroup", details=details)
    assert seen(shop, shop.pat) == [API] and seen(shop, shop.sam) == []
    shop.ok("POST", "/user/addUserToUserGroup", query={"USERNAME": "sam", "USERGROUPNAME": "ops"})
    assert seen(shop, shop.sam) == [API]
    pki(shop, "POST", "/revokeCertificateFromUserGroup", details=details)
    assert seen(shop, shop.pat) == [] and seen(shop, shop.sam) == []


def test_share_certificate_group(shop):
    pki(shop, "POST", "/shareCertificateGroupToUser", details={"certificate_group_name": "web", "userId": shop.sam_id})
    pki(
        shop,
        "POST",
        "/shareCertificateGroupToUserGroup",
        details={"certificate_group_name": "web", "userGroupId": shop.ops_id},
    )
    assert seen(shop, shop.sam) == [WEB] and seen(shop, shop.pat) == [WEB]
    pki(shop, "POST", "/editCertificateGroup", details={"group_name": "web", "ssl_details": "1,2"})
    assert seen(shop, shop.sam) == [WEB, API]
    body = pki(
        shop,
        "POST",
        "/revokeCertificateGroupFromUser",
        details={"certificate_group_name": "web", "userId": shop.sam_id},
    )
    assert body["result"]["message"] == "Certificate group web revoked from user sam successfully"
    assert seen(shop, shop.sam) == [] and seen(shop, shop.pat) == [WEB, API]
    pki(
        shop,
        "POST",
        "/revokeCertificateGroupFromUserGroup",
        details={"certificate_group_name": "web", "userGroupId": shop.ops_id},
    )
    assert seen(shop, shop.pat) == []
    pki_failed(
        shop,
        "POST",
        "/revokeCertificateGroupFromUserGroup",
        "Certificate group web is not shared with user group ops",
        details={"certificate_group_name": "web", "userGroupId": shop.ops_id},
    )


def test_deleting_a_group_ends_its_shares(shop):
    pki(shop, "POST", "/shareCertificateGroupToUser", details={"certificate_group_name": "web", "userId": shop.sam_id})
    pki(shop, "DELETE", "/deleteCertificateGroup", details={"group_name": "web"})
    create_group(shop, "web", "1")
    assert seen(shop, shop.sam) == []


def test_deleting_a_certificate_ends_its_shares(shop):
    pki(shop, "POST", "/shareCertificateToUser", details={"common_name": API, "userId": shop.sam_id})
    pki(shop, "DELETE", "/deleteCertificate", details={"common_name": API})
    create_certificate(shop, API)
    assert seen(shop, shop.sam) == []


@pytest.mark.parametrize(
    "path, details, message",
    [
        ("/shareCertificateToUser", {"common_name": WEB, "userId": "99"}, "User with ID 99 does not exist"),
        (
            "/shareCertificateToUserGroup",
            {"common_name": WEB, "userGroupId": "99"},
            "User group with ID 99 does not exist",
        ),
        (
            "/shareCertificateToUser",
            {"common_name": "none.example.com", "userId": "1"},
            "Certificate none.example.com does not exist",
        ),
        (
            "/shareCertificateGroupToUser",
            {"certificate_group_name": "mail", "userId": "1"},
            "Certificate group mail does not exist",
        ),
        ("/revokeCertificateGroupFromUser", {"userId": "1"}, "certificate_group_name is required"),
        ("/shareCertificateToUser", {"common_name": WEB}, "userId is required"),
    ],
)
def test_share_input_is_checked(shop, path, details, message):
    pki_failed(shop, "POST", path, message, details=details)


def test_who_may_share(shop):
    pki_failed(
        shop,
        "POST",
        "/shareCertificateToUser",
        f"You are not authorized to access certificate {WEB}",
        token=shop.pat,
        details={"common_name": WEB, "userId": shop.sam_id},
    )
    pki(shop, "POST", "/shareCertificateToUser", details={"common_name": WEB, "userId": shop.pat_id})
    pki_failed(
        shop,
        "POST",
        "/shareCertificateToUser",
        f"You are not authorized to share certificate {WEB}",
        token=shop.pat,
        details={"common_name": WEB, "userId": shop.sam_id},
    )
    pki_failed(
        shop,
        "POST",
        "/shareCertificateGroupToUser",
        "You are not authorized to share certificate group web",
        token=shop.pat,
        details={"certificate_group_name": "web", "userId": shop.sam_id},
    )
    pki(shop, "POST", "/createCertificate", token=shop.pat, details={"CNAME": "pat.example.com", "LEN": "1024"})
    pki(
        shop,
        "POST",
        "/shareCertificateToUser",
        token=shop.pat,
        details={"common_name": "pat.example.com", "userId": shop.sam_id},
    )
    assert seen(shop, shop.sam) == ["pat.example.com"]


@pytest.mark.parametrize("edition, build", [("A", 11299), ("B", 5299)])
def test_sharing_needs_a_11300_or_b_5300(make_vault, edition, build):
    vault = make_vault(edition=edition, build=build)
    create_certificate(vault, WEB)
    status, body = vault.call(
        "POST", "/shareCertificateToUser", root=PKI_ROOT, details={"common_name": WEB, "userId": "1"}
    )
    assert status == 404 and body["operation"]["name"] == "UNSUPPORTED"
