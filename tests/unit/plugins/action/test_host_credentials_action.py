# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The vault_host_credentials action: one read per account (one for an account named twice), a censored result
holding the passwords, failures naming the resource, the account and its use without any password."""

from __future__ import annotations

from unittest import mock

import pytest
from ansible.errors import AnsibleActionFail

from ansible_collections.credvault.vault.plugins.action import vault_host_credentials
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_task
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

CONNECTION = {"url": "https://vault.example:7272", "auth_token": "TOKEN-SECRET-78"}
IDS = {"deploy": "11", "root": "12"}
PASSWORDS = {"11": "Deploy-Pw-5521!", "12": "Root-Pw-7730!"}


def account_ids(path, details, query):
    if query["ACCOUNTNAME"] not in IDS:
        return VaultAPIError("no such account", vault_message="Account %s does not exist" % query["ACCOUNTNAME"])
    return {"RESOURCEID": "5", "ACCOUNTID": IDS[query["ACCOUNTNAME"]]}


def password(path, details, query):
    if path["account_id"] == "12" and not (details or {}).get("REASON"):
        return VaultAPIError("GET PASSWORD failed: A reason is required", operation="GET PASSWORD", http_status=200)
    return {"PASSWORD": PASSWORDS[path["account_id"]]}


def run(args, check_mode=False, written_as="credvault.vault.vault_host_credentials"):
    task = mock.MagicMock()
    task.action = written_as
    task.args = dict(CONNECTION, **args)
    task.async_val = 0
    task.check_mode = check_mode
    task.no_log = False
    plugin = vault_host_credentials.ActionModule(
        task, mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), None
    )
    # Set by the plugin loader: the action's Python module, which ansible-core names in the message of an unknown option.
    plugin._load_name = "ansible_collections.credvault.vault.plugins.action.vault_host_credentials"
    client = ScriptedClient(
        {
            "get_resource_account_ids": account_ids,
            "get_password": password,
            "get_resource_id": {"RESOURCEID": "5"},
            "get_account_list": {
                "ACCOUNT LIST": [{"ACCOUNT NAME": name, "ACCOUNT ID": id} for name, id in IDS.items()]
            },
        }
    )
    client.close = mock.Mock()
    client.insecure = False
    client.failure_message = str
    with mock.patch.object(_controller_task, "client_from_options", return_value=client):
        return plugin.run(task_vars={}), client


def reads(client):
    return [key for key, *rest in client.calls if key == "get_password"]


def test_both_passwords_in_one_censored_result_two_requests_each():
    result, client = run({"resource": "web-01", "login_account": "deploy", "become_account": "root", "reason": "R"})
    assert result["login_password"] == "Deploy-Pw-5521!" and result["become_password"] == "Root-Pw-7730!"
    assert result["_ansible_no_log"] is True and result["changed"] is False
    assert len(client.calls) == 4 and client.close.called
    assert [details for key, path, details, query in client.calls if key == "get_password"] == [{"REASON": "R"}] * 2


def test_one_account_for_login_and_become_is_read_once():
    result, client = run({"resource": "web-01", "login_account": "deploy", "become_account": "deploy"})
    assert result["login_password"] == result["become_password"] == "Deploy-Pw-5521!"
    assert len(reads(client)) == 1


def test_check_mode_reads_too_and_reports_no_change():
    result, dummy = run({"resource": "web-01", "login_account": "deploy"}, check_mode=True)
    assert result["login_password"] == "Deploy-Pw-5521!" and "become_password" not in result
    assert result["changed"] is False


@pytest.mark.parametrize(
    "args, expected",
    [
        (
            {"login_account": "deploy", "become_account": "root"},
            "cannot fetch the become password of web-01/root: GET PASSWORD failed: A reason is required",
        ),
        (
            {"login_account": "nobody"},
            "cannot fetch the login password of web-01/nobody: resource web-01 has no account",
        ),
    ],
)
def test_a_failure_names_the_resource_the_account_and_its_use_and_carries_no_password(args, expected):
    result, dummy = run(dict(args, resource="web-01"))
    assert result["failed"] and result["msg"].startswith(expected)
    assert "_ansible_no_log" not in result
    assert not any(secret in repr(result) for secret in PASSWORDS.values())


def test_no_account_named_fails_before_any_request():
    result, client = run({"resource": "web-01"})
    assert result["failed"] and "login_account, become_account or both" in result["msg"]
    assert client.calls == []


@pytest.mark.parametrize("written_as", ["credvault.vault.vault_host_credentials", "vault_host_credentials"])
def test_an_unknown_option_fails_as_a_module_would_naming_the_module_as_the_task_does(written_as):
    with pytest.raises(AnsibleActionFail) as raised:
        run({"resource": "web-01", "login_account": "deploy", "password": "x"}, written_as=written_as)
    message = str(raised.value.message)
    assert message.startswith("Unsupported parameters for (%s) module: password." % written_as)
    assert "plugins.action" not in message
