# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every secret a module returns is censored by default (``plugin_utils._secret_handover``): every secret-looking
value a module documents in RETURN is in the registry ``RETURNED_SECRETS`` (or named here as no secret, with the
reason), every module of the registry runs through an action plugin that censors it, a result that carries a secret
is flagged ``_ansible_no_log`` and keeps the value, a failed one never carries it, and ansible-core then hides it from
the callbacks, in a loop too (on every supported version: ``core_compat``)."""

from __future__ import annotations

import ast
import os
import re
from unittest import mock

import pytest
import yaml

from ansible_collections.credvault.vault.plugins.action import vault_account_password, vault_user
from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_files as files
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import (
    RETURNED_SECRETS,
    CensoringAction,
    censor,
)
from ansible_collections.credvault.vault.tests.unit.core_compat import callback_view, loop_callback_view
from ansible_collections.credvault.vault.tests.unit.fakes import scripted_action

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")
MODULES = sorted(
    name[:-3]
    for name in os.listdir(os.path.join(ROOT, "plugins", "modules"))
    if name.endswith(".py") and not name.startswith("_")
)
# The name of a returned value that looks like a secret, or a description that calls it one.
SECRET_NAME = re.compile(r"pass|pwd|token|secret|key|totp|otp|private|credential|psk|community|pin$", re.IGNORECASE)
SECRET_DESCRIPTION = re.compile(r"\bA secret\b|no_log")
# Returned values whose names look like secrets and are none (a documented value and everything it contains).
NOT_SECRETS = {
    ("vault_agent_key", "agent_key_end_time"): "when the key stops being valid",
    ("vault_password_policy_info", "policies"): "the rules of password policies",
    ("vault_password_request", "request.passwd_id"): "the id of the password (PASSWD ID), not the password",
    ("vault_password_request_info", "requests.passwd_id"): "the id of the password (PASSWD ID), not the password",
    ("vault_ssh_key", "key"): "the key's list item: name, type, length, fingerprint, never key material",
    ("vault_ssh_key_info", "key"): "the key's list item: name, type, length, fingerprint, never key material",
    ("vault_ssh_key_info", "ssh_keys"): "the keys' list items: names, types, fingerprints, never key material",
    ("vault_ssh_key_info", "key_names"): "names of keys",
    ("vault_user", "token_dest"): "the path of the file the token was written to",
}
SECRET = "S3CRET-VALUE-0917"


def returns_of(module):
    """``{dotted key: description}`` of the module's RETURN, with the values each one ``contains``."""
    with open(os.path.join(ROOT, "plugins", "modules", module + ".py"), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    documented = next(
        yaml.safe_load(node.value.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "RETURN" for t in node.targets)
    )

    def walk(values, prefix):
        for key, spec in (values or {}).items():
            description = spec.get("description") or ""
            yield prefix + key, " ".join(description) if isinstance(description, list) else description
            yield from walk(spec.get("contains"), prefix + key + ".")

    return dict(walk(documented, ""))


def not_a_secret(module, key):
    parts = key.split(".")
    return any((module, ".".join(parts[:end])) in NOT_SECRETS for end in range(1, len(parts) + 1))


def secret_looking_returns():
    found = []
    for module in MODULES:
        for key, description in returns_of(module).items():
            if SECRET_NAME.search(key.split(".")[-1]) or SECRET_DESCRIPTION.search(description):
                found.append((module, key))
    return found


def test_every_secret_looking_return_value_is_censored_or_named_as_no_secret():
    uncovered = [
        "%s: %s" % (module, key)
        for module, key in secret_looking_returns()
        if key not in RETURNED_SECRETS.get(module, ()) and not not_a_secret(module, key)
    ]
    assert not uncovered, (
        "returned values that look like secrets, neither in RETURNED_SECRETS (plugin_utils/_secret_handover.py: "
        "censored) nor in NOT_SECRETS of this test (with the reason): %s" % ", ".join(uncovered)
    )


def test_the_check_finds_what_it_looks_for():
    found = secret_looking_returns()
    assert ("vault_user", "token") in found and ("vault_account_password", "password") in found
    assert ("vault_password_request", "request.passwd_id") in found


def test_the_registry_and_the_exceptions_name_documented_values_and_the_registry_says_censored():
    for module, keys in RETURNED_SECRETS.items():
        for key in keys:
            description = returns_of(module).get(key)
            assert description is not None, "%s does not document %s" % (module, key)
            assert "censored" in description, "%s: the RETURN of %s does not say it is censored" % (module, key)
    for module, key in NOT_SECRETS:
        assert key in returns_of(module), "NOT_SECRETS names %s: %s, which is not documented" % (module, key)


@pytest.mark.parametrize("module", sorted(RETURNED_SECRETS))
def test_every_module_of_the_registry_runs_through_an_action_plugin_that_censors(module):
    path = os.path.join(ROOT, "plugins", "action", module + ".py")
    assert os.path.exists(path), "%s returns a secret and has no action plugin to censor it" % module
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    assert re.search(r'MODULE = "%s"' % module, source) or 'censor(result, "%s", self._task)' % module in source


def a_task():
    """A task as an action plugin holds it, without ``no_log``."""
    return mock.MagicMock(action="credvault.vault.vault_user", no_log=False)


def test_a_result_with_a_secret_is_flagged_and_keeps_it():
    result = {"changed": True, "password": SECRET}
    flagged = censor(result, "vault_account_password", a_task())
    assert flagged == {"changed": True, "password": SECRET, "_ansible_no_log": True}


def test_a_result_without_a_secret_is_not_censored():
    result = {"changed": True, "resource_id": "1", "password": None}
    task = a_task()
    assert "_ansible_no_log" not in censor(dict(result), "vault_account_password", task)
    assert task.no_log is False


def test_a_failure_never_carries_a_secret():
    failed = {"failed": True, "msg": "CHANGE PASSWORD failed: no", "password": SECRET}
    task = a_task()
    result = censor(dict(failed), "vault_account_password", task)
    assert SECRET not in repr(result) and result["msg"] == failed["msg"] and "_ansible_no_log" not in result
    assert task.no_log is False


def test_the_returned_password_is_censored_in_the_result_and_kept():
    args = {"resource": "db", "account": "root", "rotate_with_policy": "Strong", "return_password": True}
    runner = scripted_action(vault_account_password, args, {"changed": True, "account_id": "2", "password": SECRET})
    assert runner.run(task_vars={}) == {"changed": True, "account_id": "2", "password": SECRET, "_ansible_no_log": True}
    assert runner.module_calls == [("credvault.vault.vault_account_password", args)]


def test_a_rotation_without_return_password_is_shown():
    result = scripted_action(vault_account_password, {}, {"changed": True, "account_id": "2"}).run(task_vars={})
    assert result == {"changed": True, "account_id": "2"}


def test_async_is_refused_since_async_status_would_show_the_secret():
    assert issubclass(vault_account_password.ActionModule, CensoringAction)
    assert vault_account_password.ActionModule._supports_async is False


def test_each_loop_item_with_a_token_is_censored_and_the_registered_results_keep_them():
    created = {"changed": True, "user_id": "7", "calls": ["CREATE_USER"], "token": SECRET}
    existing = {"changed": False, "user_id": "8", "calls": []}
    recreated = {"changed": True, "user_id": "9", "calls": ["DELETE USER", "CREATE_USER"], "token": SECRET + "-2"}
    runners = [scripted_action(vault_user, {"api_user": True}, one) for one in (created, existing, recreated)]
    items = [runner.run(task_vars={}) for runner in runners]
    assert [item.get("_ansible_no_log") for item in items] == [True, None, True]
    assert [item.get("token") for item in items] == [SECRET, None, SECRET + "-2"]
    # Each item as the callbacks get it on its own: hidden when it holds a token, shown otherwise.
    each = [callback_view(runner._task, item) for runner, item in zip(runners, items)]
    assert SECRET not in repr(each) and "censored" in each[0] and "censored" in each[2]
    assert each[1]["user_id"] == "8" and "censored" not in each[1]
    # The loop's whole result (v2_runner_on_ok), as each ansible-core version assembles it from its items.
    shown = loop_callback_view(a_task(), [(runner._task, item) for runner, item in zip(runners, items)])
    assert SECRET not in repr(shown) and "censored" in shown
    assert items[0]["token"] == SECRET


def test_a_token_written_to_token_dest_is_not_censored_there_is_nothing_to_hide(tmp_path):
    dest = tmp_path / "robot.token"
    result = scripted_action(
        vault_user, {"api_user": True, "token_dest": str(dest)}, {"changed": True, "token": SECRET}
    ).run(task_vars={})
    assert result == {"changed": True, "token_dest": str(dest)} and dest.read_text() == SECRET


def test_the_failed_write_of_a_token_never_returns_it(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=PermissionError(13, "Permission denied")))
    dest = tmp_path / "robot.token"
    result = scripted_action(
        vault_user, {"api_user": True, "token_dest": str(dest)}, {"changed": True, "token": SECRET}
    ).run(task_vars={})
    assert result["failed"] and SECRET not in repr(result)


@pytest.mark.parametrize("module", sorted(RETURNED_SECRETS))
def test_the_secrets_of_a_successful_result_are_registered_as_secrets(module, registered):
    result = dict({key: "%s-%s" % (SECRET, key) for key in RETURNED_SECRETS[module]}, changed=True, other="shown")
    censor(result, module, mock.Mock())
    assert registered == ["%s-%s" % (SECRET, key) for key in RETURNED_SECRETS[module]]


def test_a_failed_result_registers_nothing_it_loses_its_secrets(registered):
    censor({"failed": True, "msg": "refused", "token": SECRET}, "vault_user", mock.Mock())
    assert registered == []
