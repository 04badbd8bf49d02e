"""Accounts: list, details, add, edit (with the build-gated fields), delete."""

import re

import pytest

VAULT_TIME = re.compile(r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4} \d{1,2}:\d{2} (AM|PM)")
SECRET = "JBSWY3DPEHPK3PXP"


@pytest.fixture
def web01(vault):
    return vault.create_resource("web01", password="first-pw", NOTES="root notes")


def test_account_list_is_the_resource_detail(vault, web01):
    operation = vault.ok("GET", "/resources/1/accounts")
    assert operation["name"] == "GET RESOURCE ACCOUNTLIST"
    assert operation["Details"] == {
        "RESOURCE ID": "1",
        "RESOURCE NAME": "web01",
        "RESOURCE DESCRIPTION": "",
        "RESOURCE TYPE": "Linux",
        "DNS NAME": "web01",
        "PASSWORD POLICY": "Strong",
        "DEPARTMENT": "",
        "LOCATION": "",
        "RESOURCE URL": "",
        "RESOURCE OWNER": "admin",
        "CUSTOM FIELD": [],
        "ACCOUNT LIST": [
            {
                "ACCOUNT ID": "1",
                "ACCOUNT NAME": "root",
                "PASSWDID": "1",
                "ISFAVPASS": "false",
                "PASSWORD STATUS": "*****",
            }
        ],
    }


def test_account_list_of_unknown_resource(vault):
    vault.failed("GET", "/resources/7/accounts", "Resource with ID 7 does not exist")


def test_account_details_never_show_the_password(vault, web01):
    operation = vault.ok("GET", "/resources/1/accounts/1")
    assert operation["name"] == "GET RESOURCE ACCOUNT DETAILS"
    details = operation["Details"]
    assert set(details) == {
        "DESCRIPTION",
        "LAST ACCESSED TIME",
        "LAST MODIFIED TIME",
        "PASSWORD STATUS",
        "PASSWDID",
        "CUSTOM FIELD",
    }
    assert details["DESCRIPTION"] == "root notes"
    assert details["LAST ACCESSED TIME"] == "N/A"
    assert VAULT_TIME.fullmatch(details["LAST MODIFIED TIME"])
    assert details["PASSWORD STATUS"] == "*****" and details["PASSWDID"] == "1"
    assert "first-pw" not in str(operation)


def test_last_accessed_time_is_set_by_retrieval(vault, web01):
    vault.ok("GET", "/resources/1/accounts/1/password")
    assert VAULT_TIME.fullmatch(vault.ok("GET", "/resources/1/accounts/1")["Details"]["LAST ACCESSED TIME"])


def test_account_of_another_resource_is_not_found(vault, web01):
    vault.create_resource("web02")
    vault.failed("GET", "/resources/1/accounts/2", "Account with ID 2 does not exist in resource web01")


def test_add_accounts(vault, web01):
    operation = vault.ok(
        "POST",
        "/resources/1/accounts",
        details={
            "ACCOUNTLIST": [
                {
                    "ACCOUNTNAME": "deploy",
                    "PASSWORD": "pw1",
                    "NOTES": "ci",
                    "ACCOUNTPASSWORDPOLICY": "Medium",
                    "ACCOUNTCUSTOMFIELD": [{"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"}],
                },
                {"ACCOUNTNAME": "backup", "PASSWORD": "pw2"},
            ]
        },
    )
    assert operation["name"] == "ADD ACCOUNTS"
    assert operation["Details"] == [
        {"deploy": {"STATUS": "Account added successfully"}, "backup": {"STATUS": "Account added successfully"}}
    ]
    names = [a["ACCOUNT NAME"] for a in vault.ok("GET", "/resources/1/accounts")["Details"]["ACCOUNT LIST"]]
    assert names == ["root", "deploy", "backup"]
    deploy = vault.store.get("account", "2")
    assert (deploy["notes"], deploy["policy"], deploy["password"]) == ("ci", "Medium", "pw1")


def test_add_accounts_fails_per_item(vault, web01):
    operation = vault.ok(
        "POST",
        "/resources/1/accounts",
        details={
            "ACCOUNTLIST": [
                {"ACCOUNTNAME": "root", "PASSWORD": "pw"},
                {"ACCOUNTNAME": "new", "PASSWORD": "pw"},
                {"ACCOUNTNAME": "nopw"},
            ]
        },
    )
    assert operation["result"]["message"] == "1 of 3 accounts added to resource web01"
    assert operation["Details"] == [
        {
            "root": {"STATUS": "Account root already exists in resource web01"},
            "new": {"STATUS": "Account added successfully"},
            "nopw": {"STATUS": "PASSWORD is required"},
        }
    ]


def test_add_accounts_fails_when_none_is_added(vault, web01):
    operation = vault.operation(
        "POST",
        "/resources/1/accounts",
        details={
            "ACCOUNTLIST": [
                {"ACCOUNTNAME": "root", "PASSWORD": "pw"},
                {"ACCOUNTNAME": "bad", "PASSWORD": "pw", "ACCOUNTPASSWORDPOLICY": "Nope"},
            ]
        },
    )
    assert operation["result"] == {"status": "Failed", "message": "No account was added to resource web01"}
    assert operation["Details"][0]["bad"] == {"STATUS": "Password policy Nope does not exist"}
    assert len(vault.store.all("account")) == 1


def test_add_accounts_needs_a_list(vault, web01):
    vault.failed(
        "POST",
        "/resources/1/accounts",
        "ACCOUNTLIST must be a non-empty list of accounts",
        details={"ACCOUNTLIST": {"ACCOUNTNAME": "x"}},
    )


def test_edit_account(vault, web01):
    vault.create_resource("other", account="taken")
    vault.ok("POST", "/resources/1/accounts", details={"ACCOUNTLIST": [{"ACCOUNTNAME": "taken", "PASSWORD": "p"}]})
    vault.ok(
        "PUT",
        "/resources/1/accounts/1",
        details={
            "ACCOUNTCUSTOMFIELD": [
                {"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"},
                {"CUSTOMLABEL": "Tier", "CUSTOMVALUE": "1"},
            ]
        },
    )
    operation = vault.ok(
        "PUT",
        "/resources/1/accounts/1",
        details={
            "ACCOUNTNAME": "administrator",
            "NOTES": "new notes",
            "ACCOUNTPASSWORDPOLICY": "Low",
            "ACCOUNTCUSTOMFIELD": [{"CUSTOMLABEL": "Tier", "CUSTOMVALUE": "2"}],
        },
    )
    assert operation["name"] == "EDIT ACCOUNT"
    details = vault.ok("GET", "/resources/1/accounts/1")["Details"]
    assert details["DESCRIPTION"] == "new notes"
    assert [(f["CUSTOMFIELDLABEL"], f["CUSTOMFIELDVALUE"]) for f in details["CUSTOM FIELD"]] == [
        ("Team", "ops"),
        ("Tier", "2"),
    ]
    assert vault.ids("web01", "administrator") == ("1", "1")
    assert vault.store.get("account", "1")["policy"] == "Low"
    vault.failed(
        "PUT",
        "/resources/1/accounts/1",
        "Account taken already exists in resource web01",
        details={"ACCOUNTNAME": "taken"},
    )


FLAGS = {
    "RECORD_RDP_SESSIONS": True,
    "RECORD_CLI_SESSIONS": False,
    "DISABLE_PASSWORD_RESETS": True,
    "CONFIGURE_PASSWORD_RESET": False,
    "IIS_WEB_CONFIG_RESET": True,
    "IIS_APP_POOL_RESTART": False,
    "IIS_APP_POOL_RESET": True,
    "SERVICES_RESTART": False,
    "SERVICES_RESET": True,
    "SCHEDULED_TASK_RESET": False,
}


@pytest.mark.parametrize(
    "edition, build, kept", [("A", 12230, True), ("A", 12229, False), ("B", 6000, True), ("B", 5999, False)]
)
def test_session_and_reset_flags_are_build_gated(make_vault, edition, build, kept):
    vault = make_vault(edition=edition, build=build)
    vault.create_resource("web01", RESOURCEGROUPNAME="Group")
    vault.ok("PUT", "/resources/1/accounts/1", details={**FLAGS, "ACCOUNT_RESOURCE_GROUP_IDS": ["1"]})
    account = vault.store.get("account", "1")
    assert account["flags"] == (FLAGS if kept else {})
    assert account["resource_group_ids"] == (["1"] if kept else [])


def test_unknown_resource_group_id_fails(vault, web01):
    vault.failed(
        "PUT",
        "/resources/1/accounts/1",
        "Resource group with ID 42 does not exist",
        details={"ACCOUNT_RESOURCE_GROUP_IDS": ["42"]},
    )


def test_flag_must_be_boolean(vault, web01):
    vault.failed(
        "PUT",
        "/resources/1/accounts/1",
        "RECORD_RDP_SESSIONS must be true or false",
        details={"RECORD_RDP_SESSIONS": "maybe"},
    )


def test_totp_fields_set_and_remove(vault, web01):
    vault.ok(
        "PUT",
        "/resources/1/accounts/1",
        details={
            "ACCOUNTNAME": "root",
            "TOTP_SECRET": SECRET,
            "TOTP_ALGORITHM": "SHA256",
            "TOTP_DIGITS": "8",
            "TOTP_VALIDITY": "60",
        },
    )
    assert vault.store.get("account", "1")["totp"] == {
        "secret": SECRET,
        "algorithm": "SHA256",
        "digits": 8,
        "validity": 60,
    }
    vault.ok("PUT", "/resources/1/accounts/1", details={"ACCOUNTNAME": "root", "TOTP_SECRET": ""})
    assert vault.store.get("account", "1")["totp"] is None


def test_totp_defaults(vault, web01):
    vault.ok(
        "POST",
        "/resources/1/accounts",
        details={"ACCOUNTLIST": [{"ACCOUNTNAME": "mfa", "PASSWORD": "pw", "TOTP_SECRET": SECRET}]},
    )
    assert vault.store.get("account", "2")["totp"] == {
        "secret": SECRET,
        "algorithm": "SHA1",
        "digits": 6,
        "validity": 30,
    }


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"TOTP_SECRET": "not base32!"}, "TOTP_SECRET is not a valid base32 secret"),
        ({"TOTP_SECRET": SECRET, "TOTP_ALGORITHM": "MD5"}, "TOTP_ALGORITHM must be SHA1, SHA256 or SHA512"),
        ({"TOTP_SECRET": SECRET, "TOTP_DIGITS": "7"}, "TOTP_DIGITS must be 6 or 8"),
        ({"TOTP_SECRET": SECRET, "TOTP_VALIDITY": "0"}, "TOTP_VALIDITY must be a positive number of seconds"),
        ({"TOTP_DIGITS": "8"}, "TOTP_SECRET is required to configure TOTP"),
    ],
)
def test_invalid_totp_fields_fail(vault, web01, fields, message):
    vault.failed("PUT", "/resources/1/accounts/1", message, details={"ACCOUNTNAME": "root", **fields})
    assert vault.store.get("account", "1")["totp"] is None


@pytest.mark.parametrize("edition, build", [("B", 6320), ("A", 12429)])
def test_totp_fields_ignored_without_totp(make_vault, edition, build):
    vault = make_vault(edition=edition, build=build)
    vault.create_resource("web01")
    vault.ok("PUT", "/resources/1/accounts/1", details={"ACCOUNTNAME": "root", "TOTP_SECRET": "not base32!"})
    assert vault.store.get("account", "1")["totp"] is None


def test_delete_account(vault, web01):
    vault.ok("POST", "/resources/1/accounts", details={"ACCOUNTLIST": [{"ACCOUNTNAME": "temp", "PASSWORD": "p"}]})
    operation = vault.ok("DELETE", "/resources/1/accounts/2")
    assert operation["name"] == "DELETE ACCOUNT"
    assert operation["result"]["message"] == "Account temp has been deleted successfully"
    assert vault.ok("GET", "/resources")["Details"][0]["NOOFACCOUNTS"] == "1"
    vault.failed("DELETE", "/resources/1/accounts/2", "Account with ID 2 does not exist in resource web01")
