"""The two dialects (``--dialect spec``, the default, and ``--dialect real``): every difference the real
dialect imitates, checked in both, through HTTP; and the token restriction to addresses (``allowed_hosts``)."""

import json
import os
import re
import signal
import ssl
import subprocess
import textwrap
import urllib.request
from datetime import datetime

import pytest
from conftest import PKI_ROOT, REST_ROOT, SIMULATOR_DIR
from test_simulator_cli import command, first_line

# Imported to register every conformance scenario.
from conformance import scenarios  # noqa: F401 pylint: disable=unused-import
from conformance.harness import SCENARIOS
from spec_tables import endpoint_rows
from vault_simulator.cli import parse_args
from vault_simulator.core.config import SimulatorConfig
from vault_simulator.core.dialect import DIFFERENCES, REAL_ACCOUNT_ITEM_KEYS, REAL_RESOURCE_KEYS, two_digit_hour
from vault_simulator.core.records import ACCOUNT
from vault_simulator.seed_file import SeedFileError, load_seed_file

DIALECTS = ("spec", "real")
REAL_RESOURCE_DETAIL_KEYS = {
    "RESOURCE ID",
    "RESOURCE NAME",
    "RESOURCE DESCRIPTION",
    "RESOURCE TYPE",
    "DNS NAME",
    "RESOURCE PASSWORD POLICY",
    "DEPARTMENT",
    "LOCATION",
    "RESOURCE URL",
    "RESOURCE OWNER",
    "ACCOUNT LIST",
    "PASSWORDREQUEST_REASON_MANDATORY",
    "IS_LOCAL_ACCOUNTS_AUTOLOGON_RESTRICTED",
    "IS_SSH_RESTRICTED",
    "NEWSSHTERMINAL",
    "DOMAIN NAME",
    "ALLOWOPENURLINBROWSER",
    "ISRDPRESTRICTED",
}
SPEC_RESOURCE_DETAIL_KEYS = {
    "RESOURCE ID",
    "RESOURCE NAME",
    "RESOURCE DESCRIPTION",
    "RESOURCE TYPE",
    "DNS NAME",
    "PASSWORD POLICY",
    "DEPARTMENT",
    "LOCATION",
    "RESOURCE URL",
    "RESOURCE OWNER",
    "CUSTOM FIELD",
    "ACCOUNT LIST",
}
SPEC_ACCOUNT_ITEM_KEYS = {"ACCOUNT ID", "ACCOUNT NAME", "PASSWDID", "ISFAVPASS", "PASSWORD STATUS"}
REAL_ACCOUNT_ITEM_KEY_SET = SPEC_ACCOUNT_ITEM_KEYS | {
    "ACCOUNT_DESCRIPTION",
    "AUTOLOGONLIST",
    "PASSWORDREQUEST_REASON_MANDATORY",
    "ISREMOTEAPPONLY",
    "ACCOUNT PASSWORD POLICY",
    "IS_USER_WITH_COMMAND_CONTROL_ROLE",
    "AUTOLOGONSTATUS",
    "IS_TICKETID_REQD_ACW",
    "IS_COMMAND_CONTROL_CONFIGURED",
    "IS_TICKETID_REQD_MANDATORY",
    "IS_TICKETID_REQD",
    "ISREASONREQUIRED",
}
SPEC_ACCOUNT_DETAIL_KEYS = {
    "DESCRIPTION",
    "LAST ACCESSED TIME",
    "LAST MODIFIED TIME",
    "PASSWORD STATUS",
    "PASSWDID",
    "CUSTOM FIELD",
}
REAL_ACCOUNT_DETAIL_KEYS = (SPEC_ACCOUNT_DETAIL_KEYS - {"CUSTOM FIELD"}) | {
    "EXPIRY STATUS",
    "COMPLIANT STATUS",
    "COMPLIANT REASON",
    "PASSWORDREQUEST_REASON_MANDATORY",
    "PASSWORD POLICY",
}
SPEC_AUDIT_KEYS = {
    "AUDITID",
    "RESOURCENAME",
    "ACCOUNTNAME",
    "OPERATIONTYPE",
    "OPERATEDBY",
    "IPADDRESS",
    "USERNAME",
    "REASON",
    "NAME",
    "CLIENT",
    "LASTACCESSEDTIME",
}
REAL_AUDIT_KEYS = {
    "Audit ID",
    "Resource Name",
    "Resource ID",
    "Operation Type",
    "User Account",
    "User Account ID",
    "User Name",
    "User's Full Name",
    "Operated by",
    "IP Address",
    "Client Type",
    "Reason",
    "Ticket ID",
    "Time Stamp",
    "TIME",
}
SPEC_TIME = re.compile(r"[A-Z][a-z]{2} \d{1,2}, \d{4} ([1-9]|1[0-2]):\d\d [AP]M")
REAL_TIME = re.compile(r"[A-Z][a-z]{2} \d{1,2}, \d{4} (0[1-9]|1[0-2]):\d\d [AP]M")
INVALID_TOKEN_MESSAGE = "API key received is not associated to any user. Authentication failed."
SPEC_INVALID_TOKEN_MESSAGE = "Authentication failed: the AUTHTOKEN is missing or invalid"
HOST_MESSAGE = "User is not allowed to access from this host"
STRONG_PASSWORD = "Kx7#mPq2vR9z"  # complies with the Strong policy


@pytest.fixture(params=DIALECTS)
def dialect(request):
    return request.param


def web01(vault, **fields):
    """A Linux resource web-01 with the account root; ``(resource_id, account_id)``."""
    return vault.create_resource("web-01", account="root", password="s3cret", **fields)


def account_list(vault, resource_id, **kwargs):
    return vault.ok("GET", f"/resources/{resource_id}/accounts", **kwargs)


def account_details(vault, resource_id, account_id, **kwargs):
    return vault.ok("GET", f"/resources/{resource_id}/accounts/{account_id}", **kwargs)


def from_address(vault, path, address, token, root=REST_ROOT):
    """GET ``path`` with ``token`` as a caller at ``address``: ``(http_status, body)``."""
    response = vault.client.get(root + path, headers={"AUTHTOKEN": token}, environ_base={"REMOTE_ADDR": address})
    return response.status_code, response.get_json()


# The setting.


def test_the_spec_dialect_is_the_default(make_vault):
    assert SimulatorConfig().dialect == "spec"
    assert make_vault().simulator.config.dialect == "spec"


def test_an_unknown_dialect_is_refused():
    with pytest.raises(ValueError, match="dialect must be one of spec, real"):
        SimulatorConfig(dialect="bogus")


def test_an_operation_without_differences_answers_alike_in_both_dialects(make_vault):
    bodies = [make_vault(dialect=d).call("GET", "/passwords/policies") for d in DIALECTS]
    assert bodies[0] == bodies[1]
    assert bodies[0][1]["operation"]["name"] == "GET PASSWORD POLICIES"


# GET RESOURCE ACCOUNTLIST.


def test_account_list_resource_keys(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    resource_id, _account_id = web01(vault)
    operation = account_list(vault, resource_id)
    details = operation["Details"]
    assert operation["name"] == "GET RESOURCE ACCOUNTLIST"
    assert operation["result"]["message"] == "Resource details with account list fetched successfully"
    if dialect == "spec":
        assert set(details) == SPEC_RESOURCE_DETAIL_KEYS
        assert details["PASSWORD POLICY"] == "Strong"
        assert details["CUSTOM FIELD"] == []
    else:
        assert set(details) == REAL_RESOURCE_DETAIL_KEYS
        assert set(REAL_RESOURCE_KEYS) <= set(details)
        assert details["RESOURCE PASSWORD POLICY"] == "Strong"
        assert "PASSWORD POLICY" not in details and "CUSTOM FIELD" not in details
        assert details["DOMAIN NAME"] == ""
        assert details["PASSWORDREQUEST_REASON_MANDATORY"] == "false"
        assert details["ISRDPRESTRICTED"] == "true"  # a Linux resource
        assert all(isinstance(details[key], str) for key in REAL_RESOURCE_KEYS)


def test_account_list_items(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    resource_id, account_id = web01(vault, NOTES="the root account", ACCOUNTPASSWORDPOLICY="Medium")
    (item,) = account_list(vault, resource_id)["Details"]["ACCOUNT LIST"]
    assert item["ACCOUNT ID"] == account_id and item["ACCOUNT NAME"] == "root"
    if dialect == "spec":
        assert set(item) == SPEC_ACCOUNT_ITEM_KEYS
        assert item["PASSWORD STATUS"] == "*****"
    else:
        assert set(item) == REAL_ACCOUNT_ITEM_KEY_SET
        assert set(REAL_ACCOUNT_ITEM_KEYS) <= set(item)
        assert item["PASSWORD STATUS"] == "****"
        assert item["ACCOUNT_DESCRIPTION"] == "the root account"
        assert item["ACCOUNT PASSWORD POLICY"] == "Medium"
        assert item["AUTOLOGONLIST"] == ["SSH", "Telnet"]
        assert item["AUTOLOGONSTATUS"] == "ALLOWED"
        flags = ("PASSWORDREQUEST_REASON_MANDATORY", "ISREASONREQUIRED", "IS_TICKETID_REQD", "IS_TICKETID_REQD_ACW")
        assert {key: item[key] for key in flags} == dict.fromkeys(flags, "false")


@pytest.mark.parametrize(
    "settings, expected",
    [
        ({"require_reason": True}, {"ISREASONREQUIRED": "true", "IS_TICKETID_REQD": "false"}),
        ({"require_ticket": True}, {"ISREASONREQUIRED": "false", "IS_TICKETID_REQD": "true"}),
        (
            {"require_ticket": True, "access_control": True},
            {"IS_TICKETID_REQD": "true", "IS_TICKETID_REQD_MANDATORY": "true", "IS_TICKETID_REQD_ACW": "true"},
        ),
    ],
)
def test_real_account_list_flags_follow_the_reason_and_ticket_settings(make_vault, settings, expected):
    vault = make_vault(dialect="real", **settings)
    resource_id, _account_id = web01(vault)
    details = account_list(vault, resource_id)["Details"]
    (item,) = details["ACCOUNT LIST"]
    assert {key: item[key] for key in expected} == expected
    reason = "true" if settings.get("require_reason") else "false"
    assert item["PASSWORDREQUEST_REASON_MANDATORY"] == details["PASSWORDREQUEST_REASON_MANDATORY"] == reason


@pytest.mark.parametrize(
    "resource_type, sessions, rdp_restricted",
    [
        ("Linux", ["SSH", "Telnet"], "true"),
        ("Windows", ["Windows Remote Desktop", "RDP Console Session"], "false"),
        ("File Store", [], "true"),
    ],
)
def test_real_account_list_autologons_by_resource_type(make_vault, resource_type, sessions, rdp_restricted):
    vault = make_vault(dialect="real")
    resource_id, _account_id = web01(vault, resource_type=resource_type)
    details = account_list(vault, resource_id)["Details"]
    assert details["ACCOUNT LIST"][0]["AUTOLOGONLIST"] == sessions
    assert details["ISRDPRESTRICTED"] == rdp_restricted


def test_account_list_custom_fields_are_shown_when_there_are_some(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    custom = [{"CUSTOMLABEL": "Usage", "CUSTOMVALUE": "Development"}]
    resource_id, _account_id = web01(vault, RESOURCECUSTOMFIELD=custom)
    details = account_list(vault, resource_id)["Details"]
    assert [field["CUSTOMFIELDLABEL"] for field in details["CUSTOM FIELD"]] == ["Usage"]


def test_account_list_password_in_use(make_vault, dialect):
    """``[In Use]`` is the same in both dialects."""
    vault = make_vault(dialect=dialect)
    resource_id, account_id = web01(vault)
    account = vault.store.get(ACCOUNT, account_id)
    vault.store.put(ACCOUNT, account_id, {**account, "in_use": True})
    (item,) = account_list(vault, resource_id)["Details"]["ACCOUNT LIST"]
    assert item["PASSWORD STATUS"] == "[In Use]"


# GET RESOURCE ACCOUNT DETAILS.


def test_account_details_of_a_new_account(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    resource_id, account_id = web01(vault)
    operation = account_details(vault, resource_id, account_id)
    details = operation["Details"]
    assert operation["result"]["message"] == "Account details fetched successfully"
    assert details["LAST ACCESSED TIME"] == "N/A"
    if dialect == "spec":
        assert set(details) == SPEC_ACCOUNT_DETAIL_KEYS
        assert details["DESCRIPTION"] == ""
        assert SPEC_TIME.fullmatch(details["LAST MODIFIED TIME"])
        assert details["PASSWORD STATUS"] == "*****"
        assert details["CUSTOM FIELD"] == []
    else:
        assert set(details) == REAL_ACCOUNT_DETAIL_KEYS
        assert details["DESCRIPTION"] == "N/A"
        assert details["LAST MODIFIED TIME"] == "N/A"
        assert details["PASSWORD STATUS"] == "****"
        assert details["EXPIRY STATUS"] == "Valid"
        assert details["PASSWORD POLICY"] == "Strong"
        assert details["PASSWORDREQUEST_REASON_MANDATORY"] == "false"
        # "s3cret" breaks the Strong policy.
        assert details["COMPLIANT STATUS"] == "Non-Compliant"
        assert details["COMPLIANT REASON"] == "Minimum length must be 10"


def test_account_details_after_use(make_vault, dialect):
    """Notes, a changed password, a retrieval and custom fields, in each dialect's way."""
    vault = make_vault(dialect=dialect, require_reason=True)
    custom = [{"CUSTOMLABEL": "Owner team", "CUSTOMVALUE": "web"}]
    resource_id, account_id = web01(vault, NOTES="the root account", ACCOUNTCUSTOMFIELD=custom)
    path = f"/resources/{resource_id}/accounts/{account_id}"
    vault.ok("PUT", path + "/password", details={"NEWPASSWORD": STRONG_PASSWORD, "RESETTYPE": "LOCAL"})
    vault.ok("GET", path + "/password", details={"REASON": "deploy"})
    details = account_details(vault, resource_id, account_id)["Details"]
    assert details["DESCRIPTION"] == "the root account"
    assert [field["CUSTOMFIELDLABEL"] for field in details["CUSTOM FIELD"]] == ["Owner team"]
    time = SPEC_TIME if dialect == "spec" else REAL_TIME
    assert time.fullmatch(details["LAST MODIFIED TIME"]), details
    assert time.fullmatch(details["LAST ACCESSED TIME"]), details
    if dialect == "real":
        assert details["COMPLIANT STATUS"] == "Compliant"
        assert details["COMPLIANT REASON"] == "-"
        assert details["PASSWORDREQUEST_REASON_MANDATORY"] == "true"
    else:
        assert "COMPLIANT STATUS" not in details and "PASSWORD POLICY" not in details


@pytest.mark.parametrize(
    "password, reason",
    [
        ("s3cret", "Minimum length must be 10"),
        ("kx7#mpq2vr9z", "Password must have mixed case alphabets"),
        ("Kx7mPq2vR9zw", "Password must contain at least 1 special character"),
        ("Kx7#mPq2vR9z", "-"),
    ],
)
def test_real_account_details_compliance(make_vault, password, reason):
    vault = make_vault(dialect="real")
    resource_id, account_id = vault.create_resource("web-01", account="root", password=password)
    details = account_details(vault, resource_id, account_id)["Details"]
    assert details["COMPLIANT REASON"] == reason
    assert details["COMPLIANT STATUS"] == ("Compliant" if reason == "-" else "Non-Compliant")


@pytest.mark.parametrize(
    "dialect_name, expected", [("spec", "Dec 1, 2021 9:05 PM"), ("real", "Dec 1, 2021 09:05 PM")], ids=DIALECTS
)
def test_account_details_hours_before_ten(make_vault, dialect_name, expected):
    vault = make_vault(dialect=dialect_name)
    resource_id, account_id = web01(vault)
    account = vault.store.get(ACCOUNT, account_id)
    moment = "2021-12-01T21:05:00.000"
    vault.store.put(
        ACCOUNT, account_id, {**account, "last_accessed": moment, "last_modified": moment, "password_changed": moment}
    )
    details = account_details(vault, resource_id, account_id)["Details"]
    assert details["LAST ACCESSED TIME"] == details["LAST MODIFIED TIME"] == expected


def test_two_digit_hour():
    assert two_digit_hour("Dec 1, 2021 9:00 PM") == "Dec 1, 2021 09:00 PM"
    assert two_digit_hour("Dec 1, 2021 11:59 AM") == "Dec 1, 2021 11:59 AM"
    assert two_digit_hour("N/A") == "N/A"


# GET_AUDIT.


def test_audit_records(make_vault, dialect):
    vault = make_vault(dialect=dialect, require_ticket=True)
    resource_id, account_id = web01(vault)
    path = f"/resources/{resource_id}/accounts/{account_id}/password"
    vault.ok("GET", path, details={"REASON": "deploy", "TICKETID": "T-42"})
    operation = vault.ok("GET", "/audit", query={"AUDITTYPE": "Resource"})
    retrieval, creation = operation["Details"][0], operation["Details"][-1]
    # CREATE RESOURCE, GET_RESOURCEACCOUNTID (web01 looks the ids up), GET PASSWORD.
    assert operation["totalRows"] == 3
    if dialect == "spec":
        assert operation["result"]["message"] == "Audit records fetched successfully"
        assert set(retrieval) == SPEC_AUDIT_KEYS
        assert (retrieval["ACCOUNTNAME"], retrieval["RESOURCENAME"], retrieval["REASON"]) == (
            "root",
            "web-01",
            "deploy",
        )
        assert retrieval["OPERATIONTYPE"] == "GET PASSWORD"
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}", retrieval["LASTACCESSEDTIME"])
    else:
        assert operation["result"]["message"] == "Audits fetched successfully."
        assert set(retrieval) == REAL_AUDIT_KEYS
        assert retrieval["User Account"] == "root" and retrieval["Resource Name"] == "web-01"
        assert (retrieval["Resource ID"], retrieval["User Account ID"]) == (resource_id, account_id)
        assert (retrieval["Reason"], retrieval["Ticket ID"]) == ("deploy", "T-42")
        assert retrieval["Operation Type"] == "GET PASSWORD"
        assert (retrieval["Operated by"], retrieval["User Name"], retrieval["User's Full Name"]) == (
            "admin",
            "admin",
            "Administrator",
        )
        assert retrieval["IP Address"] == "127.0.0.1"
        stamp = datetime.strptime(retrieval["Time Stamp"], "%Y-%m-%d %H:%M:%S.%f")
        assert retrieval["TIME"] == str(round(stamp.timestamp() * 1000))
        # Not relevant: N/A (names, reason) and 0 (ids), an empty ticket "".
        assert (creation["Reason"], creation["Ticket ID"], creation["User Account ID"]) == ("N/A", "", account_id)
        assert creation["Resource ID"] == resource_id  # CREATE RESOURCE names it; its id is looked up


def test_real_audit_ids_where_none_applies(make_vault):
    vault = make_vault(dialect="real")
    vault.ok("POST", "/user", details={"USERNAME": "ci", "ISAPIUSER": "true"})
    (record,) = vault.ok("GET", "/audit", query={"AUDITTYPE": "User"})["Details"]
    assert (record["Resource Name"], record["User Account"]) == ("N/A", "N/A")
    assert (record["Resource ID"], record["User Account ID"], record["Ticket ID"]) == ("0", "0", "")
    assert record["User Name"] == "ci"


# Messages.


def message_cases():
    """(operation, request sender, spec message, real message) of the operations whose wording differs."""

    def add_accounts(vault, ids):
        items = [{"ACCOUNTNAME": "deploy", "PASSWORD": "x"}]
        return vault.ok("POST", f"/resources/{ids[0]}/accounts", details={"ACCOUNTLIST": items})

    def get_password(vault, ids):
        return vault.ok("GET", f"/resources/{ids[0]}/accounts/{ids[1]}/password")

    def change_password(vault, ids):
        details = {"NEWPASSWORD": STRONG_PASSWORD, "RESETTYPE": "LOCAL"}
        return vault.ok("PUT", f"/resources/{ids[0]}/accounts/{ids[1]}/password", details=details)

    def edit_account(vault, ids):
        return vault.ok("PUT", f"/resources/{ids[0]}/accounts/{ids[1]}", details={"NOTES": "n"})

    def edit_resource(vault, ids):
        return vault.ok("PUT", f"/resources/{ids[0]}", details={"LOCATION": "Rack 4"})

    def create_resource(vault, ids):
        details = {"RESOURCENAME": "db-01", "ACCOUNTNAME": "sa", "RESOURCETYPE": "Linux", "PASSWORD": "x"}
        return vault.ok("POST", "/resources", details={**details, "OWNERNAME": "admin"})

    def resource_account_id(vault, ids):
        query = {"RESOURCENAME": "web-01", "ACCOUNTNAME": "root"}
        return vault.ok("GET", "/resources/getResourceIdAccountId", query=query)

    def resources(vault, ids):
        return vault.ok("GET", "/resources")

    return [
        ("ADD ACCOUNTS", add_accounts, "1 of 1 accounts added to resource web-01", "Account(s) added successfully"),
        ("GET PASSWORD", get_password, "Password fetched successfully", "Password fetched successfully"),
        ("CHANGE PASSWORD", change_password, "Password changed successfully", "Password changed successfully"),
        (
            "EDIT ACCOUNT",
            edit_account,
            "Account root has been modified successfully",
            "Account root modified successfully",
        ),
        (
            "EDIT RESOURCE",
            edit_resource,
            "Resource web-01 has been modified successfully",
            "Resource  modified successfully.",
        ),
        (
            "CREATE RESOURCE",
            create_resource,
            "Resource db-01 has been added successfully",
            "Resource db-01 has been added successfully",
        ),
        (
            "GET_RESOURCEACCOUNTID",
            resource_account_id,
            "Resource ID and account ID fetched successfully",
            "Resource ID and account ID fetched successfully for the given resource name and account name.",
        ),
        ("GET RESOURCES", resources, "Resources fetched successfully", "Resources fetched successfully"),
    ]


@pytest.mark.parametrize(
    "op, send, spec_message, real_message", [pytest.param(*case, id=case[0]) for case in message_cases()]
)
def test_message_wording(make_vault, dialect, op, send, spec_message, real_message):
    vault = make_vault(dialect=dialect)
    ids = web01(vault)
    operation = send(vault, ids)
    assert operation["name"] == op
    assert operation["result"]["message"] == (spec_message if dialect == "spec" else real_message)


def test_every_declared_message_is_tested():
    tested = {case[0] for case in message_cases()} | {
        "GET RESOURCE ACCOUNTLIST",
        "GET RESOURCE ACCOUNT DETAILS",
        "GET_AUDIT",
    }
    assert {op for op, difference in DIFFERENCES.items() if difference.message is not None} <= tested


def test_add_accounts_per_account_status(make_vault, dialect):
    """An added account's STATUS is the recorded one in both dialects; a duplicate's is the recorded one in the
    real dialect; the failure of the whole keeps the simulator's words in both."""
    vault = make_vault(dialect=dialect)
    resource_id, _account_id = web01(vault)
    items = [{"ACCOUNTNAME": "deploy", "PASSWORD": "x"}]
    added = vault.ok("POST", f"/resources/{resource_id}/accounts", details={"ACCOUNTLIST": items})
    assert added["Details"] == [{"deploy": {"STATUS": "Account added successfully"}}]
    items.append({"ACCOUNTNAME": "backup", "PASSWORD": "x"})
    mixed = vault.ok("POST", f"/resources/{resource_id}/accounts", details={"ACCOUNTLIST": items})
    duplicate = (
        "Account deploy already exists in resource web-01"
        if dialect == "spec"
        else "Account is not added  as it already exists"
    )
    assert mixed["Details"] == [{"deploy": {"STATUS": duplicate}, "backup": {"STATUS": "Account added successfully"}}]
    again = vault.operation("POST", f"/resources/{resource_id}/accounts", details={"ACCOUNTLIST": items[:1]})
    assert again["result"] == {"status": "Failed", "message": "No account was added to resource web-01"}
    assert again["Details"] == [{"deploy": {"STATUS": duplicate}}]


def test_failure_messages_are_not_reworded(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    resource_id, _account_id = web01(vault)
    vault.failed(
        "PUT", f"/resources/{resource_id}/accounts/999", "Account with ID 999 does not exist in resource web-01"
    )


# Empty lists.


def empty_lists():
    """(edition, method, path, query, root, details key) of list operations answered empty on a fresh vault."""
    return [
        ("A", "GET", "/resources", None, REST_ROOT, "Details"),
        ("A", "GET", "/resourcegroup", None, REST_ROOT, "Details"),
        ("A", "GET", "/audit", {"AUDITTYPE": "Resource"}, REST_ROOT, "Details"),
        ("B", "GET", "/userGroup", None, REST_ROOT, "Details"),
        (
            "B",
            "GET",
            "/user",
            {"INPUT_DATA": '{"operation": {"details": {"searchValue": "nobody"}}}'},
            REST_ROOT,
            "Details",
        ),
        ("A", "GET", "/getAllSSHKeys", None, PKI_ROOT, "details"),
        ("A", "GET", "/getAllAssociatedUsers", None, PKI_ROOT, "details"),
        ("A", "GET", "/getAllSSLCertificates", None, PKI_ROOT, "details"),
        ("A", "GET", "/getAllSSLCertsExpiryDate", None, PKI_ROOT, "details"),
        ("A", "GET", "/getCSRList", None, PKI_ROOT, "details"),
    ]


@pytest.mark.parametrize(
    "edition, method, path, query, root, key",
    empty_lists(),
    ids=lambda v: v if isinstance(v, str) and v.startswith("/") else None,
)
def test_an_empty_list(make_vault, dialect, edition, method, path, query, root, key):
    vault = make_vault(dialect=dialect, edition=edition)
    response = vault.send(method, path, query=query, root=root)
    body = response.get_json()
    wrapper = body["operation"] if root == REST_ROOT else body
    assert response.status_code == 200 and wrapper["result"]["status"] == "Success", body
    assert wrapper["totalRows"] == 0
    if dialect == "spec":
        assert wrapper[key] == []
    else:
        assert key not in wrapper


def test_a_list_with_items_keeps_its_details_in_the_real_dialect(make_vault):
    vault = make_vault(dialect="real")
    web01(vault)
    operation = vault.ok("GET", "/resources")
    assert operation["totalRows"] == 1 and len(operation["Details"]) == 1


# Authentication.


@pytest.mark.parametrize(
    "method, path, root, op",
    [
        ("GET", "/resources", REST_ROOT, "GET RESOURCES"),
        ("POST", "/resources", REST_ROOT, "CREATE RESOURCE"),
        ("GET", "/audit", REST_ROOT, "GET_AUDIT"),
        ("GET", "/getAllSSHKeys", PKI_ROOT, "GetAllSSHKeys"),
        ("GET", "/no/such/path", REST_ROOT, "AUTHENTICATION"),
    ],
)
@pytest.mark.parametrize("token", ["NOT-A-TOKEN", None], ids=["unknown token", "no token"])
def test_an_invalid_token(make_vault, dialect, method, path, root, op, token):
    vault = make_vault(dialect=dialect)
    response = vault.send(method, path, token=token, root=root)
    body = response.get_json()
    if dialect == "spec":
        assert response.status_code == 401
        assert body == {
            "operation": {"name": op, "result": {"status": "Failed", "message": SPEC_INVALID_TOKEN_MESSAGE}}
        }
    else:
        assert response.status_code == 200
        assert body == {
            "operation": {"name": "Authentication", "result": {"status": "Failed", "message": INVALID_TOKEN_MESSAGE}}
        }
    assert vault.requests()[-1]["status"] == "Failed"


@pytest.mark.parametrize(
    "where", ["query AUTHTOKEN", "header APP_AUTHTOKEN"], ids=["query AUTHTOKEN", "header APP_AUTHTOKEN"]
)
def test_where_the_token_is_read(make_vault, dialect, where):
    """The spec: the header AUTHTOKEN only. The real servers also take it from the query or PAM360's header."""
    vault = make_vault(dialect=dialect)
    if where == "query AUTHTOKEN":
        response = vault.send("GET", "/resources", token=None, query={"AUTHTOKEN": vault.token})
    else:
        response = vault.send("GET", "/resources", token=None, headers={"APP_AUTHTOKEN": vault.token, "APP_TYPE": "17"})
    result = response.get_json()["operation"]["result"]
    if dialect == "spec":
        assert (response.status_code, result["message"]) == (401, SPEC_INVALID_TOKEN_MESSAGE)
    else:
        assert (response.status_code, result["status"]) == (200, "Success")


def test_the_header_token_comes_first(make_vault):
    vault = make_vault(dialect="real")
    response = vault.send("GET", "/resources", query={"AUTHTOKEN": "NOT-A-TOKEN"})
    assert response.get_json()["operation"]["result"]["status"] == "Success"


def test_a_locked_user(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    token = vault.create_api_user("ci")
    vault.ok("PUT", "/user/lock", query={"USERNAME": "ci"})
    status, body = vault.call("GET", "/resources", token=token)
    assert body["operation"]["result"]["status"] == "Failed"
    assert (status, body["operation"]["name"]) == (
        (401, "GET RESOURCES") if dialect == "spec" else (200, "Authentication")
    )


# Tokens restricted to addresses.


def restrict(vault, user, hosts):
    response = vault.client.put(
        f"/__simulator/users/{user}/allowed-hosts", json={"hosts": hosts}, headers={"AUTHTOKEN": vault.token}
    )
    return response.status_code, response.get_json()


def assert_host_refused(dialect, status, body, op="GET RESOURCES"):
    expected_op = op if dialect == "spec" else "Authentication"
    assert status == (403 if dialect == "spec" else 200)
    assert body == {"operation": {"name": expected_op, "result": {"status": "Failed", "message": HOST_MESSAGE}}}


def test_a_token_restricted_by_the_admin_interface(make_vault, dialect):
    vault = make_vault(dialect=dialect)
    token = vault.create_api_user("ci")
    assert restrict(vault, "ci", ["10.0.0.5"]) == (200, {"hosts": ["10.0.0.5/32"]})
    assert from_address(vault, "/resources", "10.0.0.5", token)[0] == 200
    assert from_address(vault, "/resources", "10.0.0.5", token)[1]["operation"]["result"]["status"] == "Success"
    assert_host_refused(dialect, *from_address(vault, "/resources", "10.0.0.6", token))
    assert_host_refused(dialect, *from_address(vault, "/resources", "127.0.0.1", token))
    # PKI operations are refused alike (spec: with their own name, in the REST shape of every refusal).
    status, body = from_address(vault, "/getAllSSHKeys", "10.0.0.6", token, root=PKI_ROOT)
    assert_host_refused(dialect, status, body, op="GetAllSSHKeys")
    # Another user's token is not restricted; an empty list lifts the restriction.
    assert from_address(vault, "/resources", "10.0.0.6", vault.token)[1]["operation"]["result"]["status"] == "Success"
    assert restrict(vault, "ci", []) == (200, {"hosts": []})
    assert from_address(vault, "/resources", "10.0.0.6", token)[1]["operation"]["result"]["status"] == "Success"


def test_a_token_restricted_to_a_network(make_vault):
    vault = make_vault()
    token = vault.create_api_user("ci")
    assert restrict(vault, "ci", ["10.0.0.0/24", "::1"]) == (200, {"hosts": ["10.0.0.0/24", "::1/128"]})
    assert from_address(vault, "/resources", "10.0.0.77", token)[0] == 200
    assert from_address(vault, "/resources", "::1", token)[0] == 200
    assert from_address(vault, "/resources", "10.0.1.1", token)[0] == 403


def test_the_admin_interface_for_allowed_hosts(make_vault):
    vault = make_vault()
    vault.create_api_user("ci")
    assert restrict(vault, "ci", ["not-an-address"]) == (
        400,
        {"error": "'not-an-address' is not an IP address or network"},
    )
    assert restrict(vault, "nobody", ["10.0.0.5"]) == (404, {"error": "no user nobody"})
    response = vault.client.put(
        "/__simulator/users/ci/allowed-hosts", json=["10.0.0.5"], headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 400
    response = vault.client.put("/__simulator/users/ci/allowed-hosts", json={"hosts": []}, headers={"AUTHTOKEN": "x"})
    assert response.status_code == 401
    restrict(vault, "ci", ["10.0.0.5"])
    response = vault.client.get("/__simulator/users/ci/allowed-hosts", headers={"AUTHTOKEN": vault.token})
    assert response.get_json() == {"hosts": ["10.0.0.5/32"]}


SEED = """\
users:
  - name: ci
    token: CI-TOKEN
    allowed_hosts: [10.0.0.5]
resources:
  - name: web-01
    type: Linux
    accounts:
      - name: deploy
        password: "deploy-Secret-2"
        shares: [{user: ci, access: view}]
"""


def test_a_token_restricted_by_the_seed_file(make_vault, tmp_path, dialect):
    path = tmp_path / "seed.yml"
    path.write_text(SEED, encoding="utf-8")
    vault = make_vault(dialect=dialect)
    load_seed_file(path).apply_to(vault.simulator)
    resource_id, account_id = vault.ids("web-01", "deploy")
    password = f"/resources/{resource_id}/accounts/{account_id}/password"
    status, body = from_address(vault, password, "10.0.0.5", "CI-TOKEN")
    assert (status, body["operation"]["Details"]) == (200, {"PASSWORD": "deploy-Secret-2"})
    status, body = from_address(vault, password, "127.0.0.1", "CI-TOKEN")
    assert_host_refused(dialect, status, body, op="GET PASSWORD")


@pytest.mark.parametrize(
    "hosts, error",
    [
        ("10.0.0.5", "'allowed_hosts' must be a list of IP addresses or networks"),
        ("[10.0.0.5, 7]", "'allowed_hosts' must be a list of IP addresses or networks"),
        ("[web-01.example.com]", "'allowed_hosts': 'web-01.example.com' is not an IP address or network"),
    ],
)
def test_a_seed_file_with_bad_allowed_hosts(tmp_path, hosts, error):
    path = tmp_path / "seed.yml"
    path.write_text(
        textwrap.dedent(f"""\
        users:
          - name: ci
            allowed_hosts: {hosts}
        """),
        encoding="utf-8",
    )
    with pytest.raises(SeedFileError) as raised:
        load_seed_file(path)
    assert str(raised.value) == f"seed file {path}, line 3: users[0]: {error}"


def test_the_restriction_is_kept_in_the_state(make_vault, tmp_path):
    state = str(tmp_path / "state.db")
    vault = make_vault(state_path=state, admin_token="ADMIN")
    token = vault.create_api_user("ci")
    restrict(vault, "ci", ["10.0.0.5"])
    vault.store.close()
    again = make_vault(state_path=state, admin_token="ADMIN")
    assert from_address(again, "/resources", "127.0.0.1", token)[0] == 403
    assert json.dumps(from_address(again, "/resources", "10.0.0.5", token)[1]).count("Success") == 1


def conformance_cases():
    return [
        pytest.param(SCENARIOS[row.row_id], edition, id=f"{edition}: {row.row_id}")
        for row in endpoint_rows()
        for edition in row.editions
    ]


@pytest.mark.parametrize("scenario, edition", conformance_cases())
def test_every_operation_succeeds_in_the_real_dialect(make_vault, scenario, edition):
    """The conformance scenario of every endpoint row reaches a successful call in the real dialect too."""
    exchange = scenario(make_vault(edition=edition, dialect="real"))
    assert exchange.http_status == 200
    if exchange.body is not None:
        result = exchange.operation["result"]
        assert (result.get("status") or result.get("Status")).lower() == "success", exchange.body


# The command.


def test_cli_parses_the_dialect():
    assert parse_args([]).dialect == "spec"
    assert parse_args(["--dialect", "real"]).dialect == "real"


def test_cli_with_dialect_real_answers_as_the_real_servers(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        command() + ["--dialect", "real", "--tls-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        ready = json.loads(first_line(process.stdout))
        context = ssl.create_default_context(cafile=ready["ca_path"])
        request = urllib.request.Request(ready["url"] + REST_ROOT + "/resources", headers={"AUTHTOKEN": "NOT-A-TOKEN"})
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            assert response.status == 200
            body = json.load(response)
        assert body["operation"]["name"] == "Authentication"
        assert body["operation"]["result"]["message"] == INVALID_TOKEN_MESSAGE
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert process.returncode == 0


def test_cli_refuses_an_unknown_dialect():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(
        command() + ["--dialect", "bogus"], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "argument --dialect: invalid choice: 'bogus' (choose from" in result.stderr
