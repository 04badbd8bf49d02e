"""configureremotepasswordreset, and CHANGE PASSWORD with RESETTYPE REMOTE afterwards.

What a remote change does on the host: ``test_simulator_remote_ssh``.
"""

import pytest
from fake_ssh_host import FakeHost

CONFIGURE = "/resources/configureremotepasswordreset"


def configure(vault, resource_ids, token=None, **details):
    status, body = vault.call(
        "POST", CONFIGURE, details={"RESOURCEIDS": resource_ids, **details}, **({"token": token} if token else {})
    )
    assert status == 200
    return body["operation"]


def remote_change(vault, resource_id, account_id):
    return vault.call(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/password",
        details={"NEWPASSWORD": "Rem0te-pw-77!", "RESETTYPE": "REMOTE"},
    )[1]["operation"]["result"]


@pytest.fixture
def host():
    """A host where root (password s3cret, as create_resource stores it) and jumper may sudo chpasswd."""
    fake = FakeHost().start()
    fake.users.update({"root": "s3cret", "jumper": "s3cret"})
    fake.sudo_rules.update({"root": "password", "jumper": "password"})
    yield fake
    fake.stop()


def test_configured_resources_accept_remote_changes_and_others_do_not(vault, host):
    web = vault.create_resource("web01", RESOURCEURL="127.0.0.1")
    db = vault.create_resource("db01", RESOURCEURL="127.0.0.1")
    operation = configure(vault, [web[0]], LINUX_SSHTELNETPORT=str(host.port))
    assert operation["name"] == "CONFIGURE REMOTE PASSWORD RESET"
    assert operation["result"]["status"] == "Success"
    assert operation["Details"] == {
        "CONFIGURATION RESULT": [
            {"STATUS": "Remote password reset configured successfully", "RESOURCENAME": "web01", "RESOURCEID": "1"}
        ]
    }
    assert remote_change(vault, *web) == {"status": "Success", "message": "Password changed successfully"}
    assert vault.ok("GET", "/resources/1/accounts/1/password")["Details"]["PASSWORD"] == "Rem0te-pw-77!"
    assert host.users["root"] == "Rem0te-pw-77!"
    assert remote_change(vault, *db) == {
        "status": "Failed",
        "message": "Remote password reset is not configured for resource db01",
    }
    assert host.connections == 1


def test_each_resource_succeeds_or_fails_on_its_own(vault):
    vault.create_resource("web01")
    vault.create_resource("win01", resource_type="Windows")
    operation = configure(vault, ["1", "2", "9"])
    assert operation["result"] == {
        "status": "Success",
        "message": "Remote password reset configured for 1 of 3 resources",
    }
    assert operation["Details"]["CONFIGURATION RESULT"] == [
        {"STATUS": "Remote password reset configured successfully", "RESOURCENAME": "web01", "RESOURCEID": "1"},
        {
            "STATUS": "Resource win01 is of type Windows: only Linux resources can be configured",
            "RESOURCENAME": "win01",
            "RESOURCEID": "2",
        },
        {"STATUS": "Resource with ID 9 does not exist", "RESOURCENAME": "", "RESOURCEID": "9"},
    ]


def test_nothing_configured_is_a_failure_with_the_reasons(vault):
    vault.create_resource("win01", resource_type="Windows")
    operation = configure(vault, ["1"])
    assert operation["result"] == {
        "status": "Failed",
        "message": "Remote password reset was not configured for any resource",
    }
    assert operation["Details"]["CONFIGURATION RESULT"][0]["RESOURCENAME"] == "win01"
    assert vault.store.all("remote_reset") == []


def test_the_caller_needs_full_access_to_each_resource(vault):
    vault.create_resource("admin-box")
    pat = vault.create_api_user("pat")
    vault.ok(
        "POST",
        "/resources",
        token=pat,
        details={"RESOURCENAME": "pat-box", "ACCOUNTNAME": "pat", "RESOURCETYPE": "Linux", "PASSWORD": "pat-pw"},
    )
    items = configure(vault, ["1", "2"], token=pat)["Details"]["CONFIGURATION RESULT"]
    assert [item["STATUS"] for item in items] == [
        "You are not authorized to configure remote password reset for resource admin-box",
        "Remote password reset configured successfully",
    ]


def test_defaults_are_stored_with_the_configuration(vault):
    vault.create_resource("web01")
    configure(vault, ["1"])
    stored = vault.store.get("remote_reset", "1")
    assert {
        key: stored[key]
        for key in (
            "REMOTEMODE",
            "RESOURCEIDENTIFIER",
            "AUTHENTICATION",
            "ELEVATIONTYPE",
            "LINUX_SSHTELNETPORT",
            "REMOVEENTER",
        )
    } == {
        "REMOTEMODE": "ssh",
        "RESOURCEIDENTIFIER": "linux",
        "AUTHENTICATION": "passauth",
        "ELEVATIONTYPE": "sudo",
        "LINUX_SSHTELNETPORT": "22",
        "REMOVEENTER": False,
    }
    configure(vault, ["1"], REMOTEMODE="telnet", REMOVEENTER="true")
    stored = vault.store.get("remote_reset", "1")
    assert (stored["LINUX_SSHTELNETPORT"], stored["REMOVEENTER"]) == ("23", True)


@pytest.mark.parametrize(
    "details, message",
    [
        ({"RESOURCEIDS": []}, "RESOURCEIDS must list at least one resource id"),
        ({"RESOURCEIDS": "1"}, "RESOURCEIDS must be a list"),
        ({"REMOTEMODE": "rdp"}, "REMOTEMODE must be one of ssh, telnet"),
        ({"RESOURCEIDENTIFIER": "windows"}, "RESOURCEIDENTIFIER must be one of linux, others"),
        ({"AUTHENTICATION": "token"}, "AUTHENTICATION must be one of passauth, keyauth"),
        ({"ELEVATIONTYPE": "doas"}, "ELEVATIONTYPE must be one of sudo, su"),
        ({"REMOVEENTER": "maybe"}, "REMOVEENTER must be true or false"),
        (
            {"RESOURCETYPE": "Windows"},
            "RESOURCETYPE must be Linux: remote password reset is configured for Linux resources",
        ),
        ({"LINUX_SSHTELNETPORT": "70000"}, "LINUX_SSHTELNETPORT must be a port number"),
        ({"ELEVATIONTYPE": "su"}, "ROOTACCOUNT is required when ELEVATIONTYPE is su"),
        (
            {"RESOURCEIDENTIFIER": "others"},
            "WDRESOURCEID and WDACCOUNTID are required when RESOURCEIDENTIFIER is others",
        ),
        ({"RESOURCEIDENTIFIER": "others", "WDRESOURCEID": "1", "WDACCOUNTID": "9"}, "Account with ID 9 does not exist"),
        (
            {"RESOURCEIDENTIFIER": "others", "WDRESOURCEID": "2", "WDACCOUNTID": "1"},
            "Account with ID 1 does not belong to resource with ID 2",
        ),
    ],
)
def test_invalid_input_configures_nothing(vault, details, message):
    vault.create_resource("web01")
    vault.failed("POST", CONFIGURE, message, details={"RESOURCEIDS": ["1"], **details})
    assert vault.store.all("remote_reset") == []


def test_login_and_root_accounts_must_exist_on_each_resource(vault):
    vault.create_resource("web01", account="root")
    vault.create_resource("web02", account="admin")
    items = configure(vault, ["1", "2"], ELEVATIONTYPE="su", ROOTACCOUNT="root")["Details"]["CONFIGURATION RESULT"]
    assert [item["STATUS"] for item in items] == [
        "Remote password reset configured successfully",
        "Account root does not exist in resource web02",
    ]
    items = configure(vault, ["2"], REMOTELOGINACCOUNT="deploy")["Details"]["CONFIGURATION RESULT"]
    assert items[0]["STATUS"] == "Account deploy does not exist in resource web02"


def test_a_login_account_of_another_resource(vault, host):
    vault.create_resource("jump01", account="jumper")
    vault.create_resource("web01", RESOURCEURL="127.0.0.1")
    operation = configure(
        vault,
        ["2"],
        RESOURCEIDENTIFIER="others",
        WDRESOURCEID="1",
        WDACCOUNTID="1",
        REMOTELOGINACCOUNT="not-checked-here",
        LINUX_SSHTELNETPORT=str(host.port),
    )
    assert operation["result"]["status"] == "Success"
    assert remote_change(vault, "2", "2")["status"] == "Success"
    assert host.logins == [("jumper", "password")]


def test_resources_of_another_organization_are_unknown(make_vault):
    vault = make_vault(edition="B")
    vault.client.post("/__simulator/organizations", json={"displayName": "Branch"}, headers={"AUTHTOKEN": vault.token})
    vault.create_resource("web01", headers={"orgName": "Branch"})
    items = configure(vault, ["1"])["Details"]["CONFIGURATION RESULT"]
    assert items == [{"STATUS": "Resource with ID 1 does not exist", "RESOURCENAME": "", "RESOURCEID": "1"}]
