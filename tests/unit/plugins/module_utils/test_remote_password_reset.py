# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Remote password reset: the input sent, the per-resource results, and what is refused before sending."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _remote_password_reset
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

RESOURCES = {"web-01": "12", "web-02": "13", "jump-01": "20", "win-01": "30"}
ACCOUNTS = {("jump-01", "rotator"): "41"}
# GET RESOURCE ACCOUNTLIST of each resource id: its type and account names.
DETAILS = {
    "12": ("Linux", ["root", "deploy"]),
    "13": ("Linux", ["root", "deploy"]),
    "20": ("Linux", ["rotator"]),
    "30": ("Windows", ["administrator", "deploy"]),
}
CONFIGURED = "Remote password reset configured successfully"


def item(resource_id, status=CONFIGURED, name=""):
    return {"STATUS": status, "RESOURCENAME": name, "RESOURCEID": resource_id}


def all_configured(dummy_path, details, dummy_query):
    return {"CONFIGURATION RESULT": [item(resource_id) for resource_id in details["RESOURCEIDS"]]}


def resource_id(path, dummy_details, dummy_query):
    found = RESOURCES.get(path["resource_name"])
    if found is None:
        return VaultAPIError("GET_RESOURCEID failed: no such resource", operation="GET_RESOURCEID")
    return {"RESOURCEID": found}


def account_ids(dummy_path, dummy_details, query):
    account = ACCOUNTS.get((query["RESOURCENAME"], query["ACCOUNTNAME"]))
    if account is None:
        return VaultAPIError("GET_RESOURCEACCOUNTID failed: no such account", vault_message="no such account")
    return {"RESOURCEID": RESOURCES[query["RESOURCENAME"]], "ACCOUNTID": account}


def resource_detail(path, dummy_details, dummy_query):
    kind, accounts = DETAILS[path["resource_id"]]
    listed = [{"ACCOUNT NAME": name, "ACCOUNT ID": "4%d" % number} for number, name in enumerate(accounts)]
    return {"RESOURCE ID": path["resource_id"], "RESOURCE TYPE": kind, "ACCOUNT LIST": listed}


def reset_client(configure=all_configured, **kwargs):
    return ScriptedClient(
        {
            "get_resource_id": resource_id,
            "get_resources": [{"RESOURCE NAME": name, "RESOURCE ID": rid} for name, rid in RESOURCES.items()],
            "get_resource_account_ids": account_ids,
            "get_account_list": resource_detail,
            "configure_remote_password_reset": configure,
        },
        **kwargs,
    )


def desired(**options):
    """The options as the module hands them over: every option present, defaults applied."""
    base = {
        "resources": ["web-01"],
        "mode": "ssh",
        "port": None,
        "user_prompt": None,
        "root_prompt": None,
        "landing_server": None,
        "resource_identifier": "linux",
        "domain_resource": None,
        "domain_account": None,
        "login_account": "deploy",
        "authentication": "password",
        "elevation": "sudo",
        "root_account": None,
        "resource_type": "Linux",
        "remove_enter": False,
    }
    base.update(options)
    return base


def sent(client):
    return [
        details for key, dummy_path, details, dummy_query in client.calls if key == "configure_remote_password_reset"
    ]


def test_the_defaults_are_sent_and_every_run_that_sends_is_a_change():
    client = reset_client()
    tracker, values = run_entry(_remote_password_reset.converge, client, desired(resources=["web-01", "web-02"]), False)
    assert sent(client) == [
        {
            "REMOTEMODE": "ssh",
            "RESOURCEIDENTIFIER": "linux",
            "AUTHENTICATION": "passauth",
            "ELEVATIONTYPE": "sudo",
            "RESOURCEIDS": ["12", "13"],
            "RESOURCETYPE": "Linux",
            "REMOVEENTER": "false",
            "REMOTELOGINACCOUNT": "deploy",
        }
    ]
    assert client.writes() == ["configure_remote_password_reset"]
    assert tracker.changed
    assert values["results"] == [
        {"resource": "web-01", "resource_id": "12", "status": CONFIGURED, "success": True},
        {"resource": "web-02", "resource_id": "13", "status": CONFIGURED, "success": True},
    ]
    assert values["sent"] == dict(sent(client)[0], RESOURCENAMES=["web-01", "web-02"])
    diff = tracker.diff()
    assert diff["before"] == {} and diff["after"] == values["sent"]
    assert "cannot report" in diff["before_header"]


def test_every_option_has_its_input_field():
    client = reset_client()
    options = desired(
        mode="telnet",
        port=2222,
        user_prompt="$ ",
        root_prompt="#",
        landing_server="bastion.example.com",
        authentication="key",
        elevation="su",
        root_account="root",
        remove_enter=True,
    )
    run_entry(_remote_password_reset.converge, client, options, False)
    assert sent(client)[0] == {
        "REMOTEMODE": "telnet",
        "LINUX_SSHTELNETPORT": "2222",
        "LINUX_USERPROMPT": "$ ",
        "LINUXROOTUSERPROMPT": "#",
        "LINUX_LANDINGSERVER": "bastion.example.com",
        "RESOURCEIDENTIFIER": "linux",
        "REMOTELOGINACCOUNT": "deploy",
        "AUTHENTICATION": "keyauth",
        "ELEVATIONTYPE": "su",
        "ROOTACCOUNT": "root",
        "RESOURCEIDS": ["12"],
        "RESOURCETYPE": "Linux",
        "REMOVEENTER": "true",
    }


def test_the_login_account_of_another_resource_is_sent_as_ids_with_names_beside():
    client = reset_client()
    options = desired(
        resource_identifier="others", login_account=None, domain_resource="jump-01", domain_account="rotator"
    )
    dummy_tracker, values = run_entry(_remote_password_reset.converge, client, options, False)
    details = sent(client)[0]
    assert (details["WDRESOURCEID"], details["WDACCOUNTID"], details["RESOURCEIDENTIFIER"]) == ("20", "41", "others")
    assert "REMOTELOGINACCOUNT" not in details
    assert values["sent"]["WDRESOURCENAME"] == "jump-01" and values["sent"]["WDACCOUNTNAME"] == "rotator"
    assert not {"RESOURCENAMES", "WDRESOURCENAME", "WDACCOUNTNAME"} & set(details)


def test_duplicate_names_are_sent_once():
    client = reset_client()
    run_entry(_remote_password_reset.converge, client, desired(resources=["web-01", "web-02", "web-01"]), False)
    assert sent(client)[0]["RESOURCEIDS"] == ["12", "13"]


def test_unknown_resources_fail_before_sending_naming_each():
    client = reset_client()
    with pytest.raises(VaultNotFoundError) as raised:
        run_entry(_remote_password_reset.converge, client, desired(resources=["db-01", "web-01", "db-02"]), False)
    assert str(raised.value) == (
        "resources db-01, db-02 do not exist (or are not visible to this token); nothing was changed"
    )
    assert client.writes() == []


def test_an_unknown_domain_account_fails_before_sending():
    client = reset_client()
    options = desired(resource_identifier="others", domain_resource="jump-01", domain_account="nobody")
    with pytest.raises(VaultNotFoundError, match="domain_account: resource jump-01 has no account nobody"):
        run_entry(_remote_password_reset.converge, client, options, False)
    options["domain_resource"] = "nowhere"
    with pytest.raises(VaultNotFoundError, match="domain_resource: resource nowhere does not exist"):
        run_entry(_remote_password_reset.converge, client, options, False)
    assert client.writes() == []


@pytest.mark.parametrize(
    "options, message",
    [
        ({"resources": ["web-01", "win-01"]}, "resource win-01 is of type Windows, not Linux: nothing was sent"),
        ({"login_account": "nobody"}, "resource web-01 has no account nobody (login_account;"),
        (
            {"resources": ["web-01", "jump-01"], "elevation": "su", "root_account": "root"},
            "resource jump-01 has no account deploy (login_account; or it is not visible to this token); resource "
            "jump-01 has no account root (root_account;",
        ),
        (
            {"resources": ["web-01"], "elevation": "su", "root_account": "toor"},
            "resource web-01 has no account toor (root_account;",
        ),
        (
            {
                "resources": ["jump-01"],
                "resource_identifier": "others",
                "login_account": None,
                "domain_resource": "jump-01",
                "domain_account": "rotator",
                "elevation": "su",
                "root_account": "root",
            },
            "resource jump-01 has no account root (root_account;",
        ),
    ],
)
def test_a_resource_the_vault_would_refuse_fails_before_sending(options, message):
    client = reset_client()
    with pytest.raises(VaultInputError) as raised:
        run_entry(_remote_password_reset.converge, client, desired(**options), False)
    assert message in str(raised.value)
    assert client.writes() == []


def test_the_login_account_of_another_resource_need_not_be_in_each_resource():
    client = reset_client()
    options = desired(
        resources=["web-01"],
        resource_identifier="others",
        login_account=None,
        domain_resource="jump-01",
        domain_account="rotator",
    )
    run_entry(_remote_password_reset.converge, client, options, False)
    assert client.writes() == ["configure_remote_password_reset"]


def test_check_mode_warns_about_a_resource_the_vault_would_refuse():
    client = reset_client()
    tracker, dummy_values = run_entry(_remote_password_reset.converge, client, desired(resources=["win-01"]), True)
    assert client.writes() == []
    assert any("resource win-01 is of type Windows" in warning for warning in tracker.warnings)


def test_check_mode_sends_nothing_and_takes_missing_names_as_created_earlier():
    client = reset_client()
    options = desired(
        resources=["web-01", "db-01"],
        resource_identifier="others",
        login_account=None,
        domain_resource="jump-01",
        domain_account="nobody",
    )
    tracker, values = run_entry(_remote_password_reset.converge, client, options, True)
    assert client.writes() == []
    assert tracker.changed and values["results"] == []
    assert values["sent"]["RESOURCEIDS"] == ["12", None]
    assert values["sent"]["RESOURCENAMES"] == ["web-01", "db-01"]
    assert (values["sent"]["WDRESOURCEID"], values["sent"]["WDACCOUNTID"]) == ("20", None)
    assert tracker.diff()["after"] == values["sent"]
    assert any("resources db-01 do not exist yet" in warning for warning in tracker.warnings)
    assert any("no account nobody" in warning for warning in tracker.warnings)


def test_a_resource_that_is_not_configured_fails_the_task_naming_it_with_every_result():
    def partly(dummy_path, dummy_details, dummy_query):
        return {
            "CONFIGURATION RESULT": [
                item("12", name="web-01"),
                item("13", "Resource web-02 is of type Windows: only Linux resources can be configured", "web-02"),
            ]
        }

    client = reset_client(partly)
    with pytest.raises(_remote_password_reset.RemoteResetFailed) as raised:
        run_entry(_remote_password_reset.converge, client, desired(resources=["web-01", "web-02"]), False)
    message = str(raised.value)
    assert message == (
        "remote password reset was not configured for 1 of 2 resources - web-02: Resource web-02 is of type "
        "Windows: only Linux resources can be configured (configured: web-01)"
    )
    result = raised.value.to_result()
    assert [entry["success"] for entry in result["results"]] == [True, False]
    assert result["sent"]["RESOURCEIDS"] == ["12", "13"]
    assert result["operation"] == "CONFIGURE REMOTE PASSWORD RESET"


def test_a_failed_answer_with_results_names_each_resource():
    refused = VaultAPIError(
        "CONFIGURE REMOTE PASSWORD RESET failed: Remote password reset was not configured for any resource",
        operation="CONFIGURE REMOTE PASSWORD RESET",
        vault_message="Remote password reset was not configured for any resource",
        details={"CONFIGURATION RESULT": [item("12", "Account deploy does not exist in resource web-01")]},
    )
    with pytest.raises(_remote_password_reset.RemoteResetFailed) as raised:
        run_entry(_remote_password_reset.converge, reset_client(refused), desired(), False)
    assert "web-01: Account deploy does not exist in resource web-01" in str(raised.value)
    assert "the vault said: Remote password reset was not configured for any resource" in str(raised.value)
    assert raised.value.results[0]["success"] is False


def test_a_refused_request_without_results_is_the_vaults_failure():
    refused = VaultAPIError(
        "CONFIGURE REMOTE PASSWORD RESET failed: LINUX_SSHTELNETPORT must be a port number",
        operation="CONFIGURE REMOTE PASSWORD RESET",
        vault_message="LINUX_SSHTELNETPORT must be a port number",
    )
    with pytest.raises(VaultAPIError) as raised:
        run_entry(_remote_password_reset.converge, reset_client(refused), desired(), False)
    assert raised.value is refused


def test_a_refusal_whose_items_all_say_success_is_the_vaults_failure():
    refused = VaultAPIError(
        "CONFIGURE REMOTE PASSWORD RESET failed: license expired",
        vault_message="license expired",
        details={"CONFIGURATION RESULT": [item("12")]},
    )
    with pytest.raises(VaultAPIError) as raised:
        run_entry(_remote_password_reset.converge, reset_client(refused), desired(), False)
    assert raised.value is refused


def test_a_resource_the_answer_does_not_mention_is_a_failure():
    client = reset_client(lambda *dummy: {"CONFIGURATION RESULT": [item("12")]})
    with pytest.raises(_remote_password_reset.RemoteResetFailed, match="web-02: the vault reported nothing"):
        run_entry(_remote_password_reset.converge, client, desired(resources=["web-01", "web-02"]), False)


def test_a_build_without_the_call_is_refused_before_any_request():
    client = reset_client(edition="A", build=11199)
    with pytest.raises(VaultUnsupportedError, match="needs edition A from build 11200 or edition B from build 5100"):
        run_entry(_remote_password_reset.converge, client, desired(), True)
    assert client.calls == []
    client = reset_client(edition="B", build=5100)
    run_entry(_remote_password_reset.converge, client, desired(), False)
    assert client.writes() == ["configure_remote_password_reset"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"resources": []}, "resources must name at least one resource"),
        ({"resources": ["web-01 "]}, "resources 1 'web-01 ' has leading or trailing spaces"),
        ({"resources": ["web-01", ""]}, "resources 2 must not be empty"),
        ({"port": 0}, "port must be a port number from 1 to 65535, not 0"),
        ({"port": 65536}, "port must be a port number from 1 to 65535, not 65536"),
        ({"mode": "rdp"}, "mode must be one of ssh, telnet, not rdp"),
        ({"login_account": None}, "login_account is required with resource_identifier linux"),
        ({"login_account": " deploy"}, "login_account ' deploy' has leading or trailing spaces"),
        ({"elevation": "su"}, "root_account is required with elevation su"),
        ({"resource_identifier": "others", "domain_resource": "jump-01"}, "domain_resource and domain_account are"),
        ({"domain_resource": "jump-01", "domain_account": "rotator"}, "only apply with resource_identifier others"),
        ({"user_prompt": ""}, "user_prompt must not be empty"),
        ({"resource_type": ""}, "resource_type must not be empty"),
        ({"resource_type": "Windows"}, "resource_type must be Linux: remote password reset is configured for Linux"),
    ],
)
def test_bad_input_is_refused_before_any_request(options, message):
    client = reset_client()
    with pytest.raises(VaultInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run_entry(_remote_password_reset.converge, client, desired(**options), False)
    assert client.calls == []


@pytest.mark.parametrize(
    "status, success",
    [
        ("Remote password reset configured successfully", True),
        ("Success", True),
        ("SUCCESS", True),
        ("Unsuccessful: host unreachable", False),
        ("Resource with ID 9 does not exist", False),
        ("Remote password reset not configured successfully", False),
        ("Failed", False),
        ("", False),
        (None, False),
    ],
)
def test_what_counts_as_a_success(status, success):
    assert _remote_password_reset.is_success(status) is success
