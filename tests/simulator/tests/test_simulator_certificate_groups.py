"""Certificate groups: create, edit, delete."""

import pytest

from conformance.scenarios.certificates import PKI_ROOT, create_certificate, create_group, pki, pki_failed

CREATE, EDIT, DELETE = "/createCertificateGroup", "/editCertificateGroup", "/deleteCertificateGroup"


@pytest.fixture
def certified(vault):
    """Certificates 1 (www), 2 (api) and 3 (mail)."""
    for name in ("www.example.com", "api.example.com", "mail.example.com"):
        create_certificate(vault, name)
    return vault


def current(vault, name):
    """The group as it is now (an edit that changes nothing answers it)."""
    (group,) = pki(vault, "POST", EDIT, details={"group_name": name})["details"]
    return group


def test_create_answers_the_group(certified):
    body = pki(
        certified,
        "POST",
        CREATE,
        details={
            "group_name": "web",
            "group_description": "front ends",
            "group_mail": "pki@example.com",
            "ssl_details": "2, 1,2",
        },
    )
    assert body["name"] == "createCertificateGroup"
    assert body["result"]["message"] == "Certificate group web created successfully"
    assert body["details"] == [
        {"group_name": "web", "group_description": "front ends", "group_mail": "pki@example.com", "ssl_details": "2,1"}
    ]


@pytest.mark.parametrize(
    "details, message",
    [
        ({"group_name": ""}, "group_name is required"),
        ({"group_name": "web", "group_mail": "not-an-address"}, "group_mail not-an-address is not an e-mail address"),
        ({"group_name": "web", "ssl_details": "1,9"}, "Certificate with ID 9 does not exist"),
        ({"group_name": "web", "ssl_details": "1;2"}, "ssl_details must be comma-separated certificate ids, not 1;2"),
    ],
)
def test_create_checks_the_input(certified, details, message):
    pki_failed(certified, "POST", CREATE, message, details=details)
    pki_failed(certified, "DELETE", DELETE, "Certificate group web does not exist", details={"group_name": "web"})


def test_group_names_are_unique(certified):
    create_group(certified, "web")
    pki_failed(certified, "POST", CREATE, "Certificate group web already exists", details={"group_name": "web"})
    create_group(certified, "mail", "3")
    pki_failed(
        certified,
        "POST",
        EDIT,
        "Certificate group mail already exists",
        details={"old_group_name": "web", "group_name": "mail"},
    )


def test_edit_renames_and_changes_only_what_is_given(certified):
    create_group(certified, "web", "1,2")
    body = pki(
        certified, "POST", EDIT, details={"old_group_name": "web", "group_name": "frontends", "ssl_details": "3"}
    )
    assert body["name"] == "editCertificateGroup"
    assert body["details"] == [
        {
            "group_name": "frontends",
            "group_description": "web servers",
            "group_mail": "pki@example.com",
            "ssl_details": "3",
        }
    ]
    pki_failed(certified, "POST", EDIT, "Certificate group web does not exist", details={"group_name": "web"})
    pki(certified, "POST", EDIT, details={"group_name": "frontends", "group_description": "", "group_mail": ""})
    assert current(certified, "frontends") == {
        "group_name": "frontends",
        "group_description": "",
        "group_mail": "",
        "ssl_details": "3",
    }
    pki_failed(
        certified,
        "POST",
        EDIT,
        "group_mail nobody is not an e-mail address",
        details={"group_name": "frontends", "group_mail": "nobody"},
    )


def test_deleting_a_certificate_takes_it_out_of_groups(certified):
    create_group(certified, "web", "1,2")
    pki(certified, "DELETE", "/deleteCertificate", details={"common_name": "www.example.com"})
    assert current(certified, "web")["ssl_details"] == "2"


def test_delete_keeps_the_certificates(certified):
    create_group(certified, "web", "1,2")
    body = pki(certified, "DELETE", DELETE, details={"group_name": "web"})
    assert body["name"] == "deleteCertificateGroup"
    assert body["result"]["message"] == "Certificate group web deleted successfully"
    pki_failed(certified, "POST", EDIT, "Certificate group web does not exist", details={"group_name": "web"})
    assert pki(certified, "GET", "/getAllSSLCertificates")["totalRows"] == 3
    create_group(certified, "web", "1")


@pytest.mark.parametrize("role", ["Password User", "Password Administrator"])
def test_only_administrators_manage_groups(certified, role):
    token = certified.create_api_user("someone", role=role)
    pki_failed(
        certified,
        "POST",
        CREATE,
        "You are not authorized to create certificate groups",
        token=token,
        details={"group_name": "web"},
    )
    create_group(certified, "web")
    pki_failed(
        certified,
        "POST",
        EDIT,
        "You are not authorized to edit certificate groups",
        token=token,
        details={"group_name": "web"},
    )
    pki_failed(
        certified,
        "DELETE",
        DELETE,
        "You are not authorized to delete certificate groups",
        token=token,
        details={"group_name": "web"},
    )


@pytest.mark.parametrize("edition, build", [("A", 11299), ("B", 5299)])
def test_groups_need_a_11300_or_b_5300(make_vault, edition, build):
    vault = make_vault(edition=edition, build=build)
    status, body = vault.call("POST", CREATE, root=PKI_ROOT, details={"group_name": "web"})
    assert status == 404 and body["operation"]["name"] == "UNSUPPORTED"
    assert (
        make_vault(edition=edition, build=build + 1).call("POST", CREATE, root=PKI_ROOT, details={"group_name": "web"})[
            1
        ]["result"]["status"]
        == "Success"
    )
