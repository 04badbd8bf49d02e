"""POST /user (CREATE_USER) and GET /user/getUserId (get_USERID)."""

import pytest

PERSON = {
    "USERNAME": "carol",
    "FIRSTNAME": "Carol",
    "LASTNAME": "Smith",
    "PASSWORD": "Carol-pw1",
    "EMAIL": "carol@example.test",
    "ROLE": "Password Administrator",
}


def test_api_user_token_works_at_once(vault):
    operation = vault.ok("POST", "/user", details={"USERNAME": "robot", "ISAPIUSER": "true"})
    assert operation["name"] == "CREATE_USER"
    assert set(operation["Details"]) == {"AUTHTOKEN"}
    token = operation["Details"]["AUTHTOKEN"]
    vault.ok("GET", "/resources", token=token)


def test_edition_b_adds_the_user_id(make_vault):
    vault = make_vault(edition="B")
    details = vault.ok("POST", "/user", details={"USERNAME": "robot", "ISAPIUSER": True})["Details"]
    assert details["USERID"] == "2"
    assert details["AUTHTOKEN"]
    assert vault.ok("POST", "/user", details={"USERNAME": "dave", "FIRSTNAME": "D", "LASTNAME": "E"})["Details"] == {
        "USERID": "3"
    }


def test_person_user_in_edition_a(vault):
    operation = vault.ok("POST", "/user", details=PERSON)
    assert operation["result"]["message"] == "User carol has been added successfully"
    assert "Details" not in operation
    user = vault.store.get("user", "2")
    assert (user["name"], user["role"], user["email"], user["is_api_user"]) == (
        "carol",
        "Password Administrator",
        "carol@example.test",
        False,
    )


def test_edition_a_requires_names_and_password(vault):
    vault.failed(
        "POST",
        "/user",
        "FIRSTNAME, PASSWORD required to create a user who is not an API user",
        details={"USERNAME": "x", "LASTNAME": "y"},
    )


def test_edition_b_does_not_require_a_password(make_vault):
    vault = make_vault(edition="B")
    vault.failed(
        "POST",
        "/user",
        "LASTNAME required to create a user who is not an API user",
        details={"USERNAME": "x", "FIRSTNAME": "y"},
    )
    vault.ok("POST", "/user", details={"USERNAME": "x", "FIRSTNAME": "y", "LASTNAME": "z"})


@pytest.mark.parametrize(
    "details, message",
    [
        ({"ISAPIUSER": "true"}, "USERNAME is required"),
        ({"USERNAME": "admin", "ISAPIUSER": "true"}, "User admin already exists"),
        (
            {"USERNAME": "x", "ISAPIUSER": "true", "ROLE": "Superhero"},
            "ROLE must be one of Password User, Password Auditor, Password Administrator, Administrator, "
            "Privileged Administrator",
        ),
        ({"USERNAME": "x", "ISAPIUSER": "yes"}, "ISAPIUSER must be true or false"),
        (
            {"USERNAME": "x", "ISAPIUSER": "true", "EXPIRYDATE": "tomorrow"},
            "EXPIRYDATE must be yyyy-mm-dd or NeverExpires",
        ),
        ({"USERNAME": "x", "ISAPIUSER": "true", "POLICY": "Nope"}, "Password policy Nope does not exist"),
    ],
)
def test_create_user_failures(vault, details, message):
    vault.failed("POST", "/user", message, details=details)
    assert len(vault.store.all("user")) == 1


def test_default_role_is_password_user(vault):
    vault.ok("POST", "/user", details={"USERNAME": "robot", "ISAPIUSER": "true"})
    assert vault.store.get("user", "2")["role"] == "Password User"


@pytest.mark.parametrize("role", ["Password User", "Password Auditor", "Password Administrator"])
def test_only_administrators_create_users(vault, role):
    token = vault.create_api_user("caller", role=role)
    vault.failed(
        "POST",
        "/user",
        "You are not authorized to create users",
        details={"USERNAME": "x", "ISAPIUSER": "true"},
        token=token,
    )


def test_an_administrator_creates_users(vault):
    token = vault.create_api_user("boss", role="Administrator")
    vault.ok("POST", "/user", details={"USERNAME": "x", "ISAPIUSER": "true"}, token=token)


def test_user_id_by_name(vault):
    vault.create_api_user("robot")
    operation = vault.ok("GET", "/user/getUserId", query={"USERNAME": "robot"})
    assert operation["name"] == "get_USERID"
    assert operation["Details"] == {"USERID": "2"}
    vault.failed("GET", "/user/getUserId", "User ghost does not exist", query={"USERNAME": "ghost"})
    vault.failed("GET", "/user/getUserId", "USERNAME is required")
