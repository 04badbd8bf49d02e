# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VaultModule with a real AnsibleModule: failures after a write report changed, connection options
come from the environment with blank variables unset, validate_certs: false warns once."""

from __future__ import annotations

import json

import pytest
import requests

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import CONNECTION_OPTIONS
from ansible_collections.credvault.vault.plugins.module_utils._settings import INSECURE_WARNING
from ansible_collections.credvault.vault.plugins.module_utils._task import FailedOutcome
from ansible_collections.credvault.vault.tests.unit.core_compat import (
    as_controller_takes_it,
    set_module_args,
    warning_messages,
)
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, FakeSession, ok

CONNECTION = {"url": "https://vault.example", "auth_token": "TOKEN-SECRET-1", "retries": 0}
ENVIRONMENT = tuple(name.upper() for name in CONNECTION_OPTIONS)
FAILED = FakeResponse(
    body={"operation": {"name": "CHANGE PASSWORD", "result": {"status": "Failed", "message": "policy"}}}
)


@pytest.fixture
def module(monkeypatch):
    """``module(args, *answers)``: a VaultModule whose client answers are scripted."""
    for name in ENVIRONMENT:
        monkeypatch.delenv("CREDVAULT_%s" % name, raising=False)

    def factory(args, *answers):
        set_module_args(monkeypatch, args)
        vault = VaultModule({})
        vault.warned = []
        warn = vault.module.warn
        vault.module.warn = lambda message: [vault.warned.append(message), warn(message)]
        vault.client.real_session = vault.client.session
        vault.client.session = FakeSession(answers)
        return vault

    return factory


def run(vault, capsys, entry, **services):
    """Run the entry point ``entry(task)`` as a module does; returns the result the controller takes."""
    with pytest.raises(SystemExit):
        vault.run(entry, **services)
    return as_controller_takes_it(json.loads(capsys.readouterr().out))


def fail(error):
    raise error


def write_then(step):
    def entry(task):
        task.client.call("edit_account", path={"resource_id": "1", "account_id": "2"}, details={"NOTES": "n"})
        return step(task)

    return entry


@pytest.mark.parametrize(
    "answers, work",
    [
        pytest.param(
            (ok(), FAILED),
            write_then(
                lambda task: task.client.call(
                    "change_password",
                    path={"resource_id": "1", "account_id": "2"},
                    details={"NEWPASSWORD": "x", "RESETTYPE": "LOCAL"},
                )
            ),
            id="refused-after-a-write",
        ),
        pytest.param(
            (ok(),), write_then(lambda task: fail(VaultInputError("later step"))), id="domain-error-after-a-write"
        ),
        pytest.param(
            (requests.exceptions.ReadTimeout("timed out"),),
            lambda task: task.client.call("create_resource", details={"RESOURCENAME": "r"}),
            id="write-timed-out",
        ),
        pytest.param(
            (FakeResponse(content=b'{"operation": '),),
            lambda task: task.client.call("create_resource", details={"RESOURCENAME": "r"}),
            id="write-answer-unreadable",
        ),
    ],
)
def test_a_failure_after_a_write_reports_changed(module, capsys, answers, work):
    vault = module(CONNECTION, *answers)
    result = run(vault, capsys, work)
    assert result["failed"] is True and result["changed"] is True


@pytest.mark.parametrize(
    "answers, work",
    [
        pytest.param(
            (ok([]), FAILED),
            lambda task: [
                task.client.call("get_resources"),
                task.client.call(
                    "change_password",
                    path={"resource_id": "1", "account_id": "2"},
                    details={"NEWPASSWORD": "x", "RESETTYPE": "LOCAL"},
                ),
            ],
            id="write-refused",
        ),
        pytest.param(
            (FakeResponse(content=b"<html/>"),), lambda task: task.client.call("get_resources"), id="read-unreadable"
        ),
        pytest.param((), lambda task: fail(VaultInputError("bad input")), id="input-error"),
    ],
)
def test_a_failure_without_a_write_reports_not_changed(module, capsys, answers, work):
    vault = module(CONNECTION, *answers)
    result = run(vault, capsys, work)
    assert result["failed"] is True and result["changed"] is False


def test_a_config_error_fails_the_task_unchanged(monkeypatch, capsys):
    set_module_args(monkeypatch, dict(CONNECTION, auth_token="TOKEN-SECRET-1\nX"))
    vault = VaultModule({})
    result = run(vault, capsys, lambda task: task.client.call("get_resources"))
    assert result["failed"] and result["changed"] is False and "control character" in result["msg"]
    assert "SECRET" not in json.dumps(result)


def test_validate_certs_false_warns_once_per_task(module, capsys):
    vault = module(dict(CONNECTION, validate_certs=False), ok([]), ok([]))
    result = run(
        vault, capsys, lambda task: [task.client.call("get_resources"), task.client.call("get_resources"), {}][-1]
    )
    assert vault.warned == [INSECURE_WARNING]
    assert warning_messages(result) == [INSECURE_WARNING]


def test_validate_certs_true_does_not_warn(module, capsys):
    vault = module(CONNECTION, ok([]))
    result = run(vault, capsys, lambda task: [task.client.call("get_resources"), {}][-1])
    assert "warnings" not in result and vault.warned == []
    assert result["changed"] is False and "diff" not in result


def test_the_result_holds_the_entry_values_and_what_the_tracker_recorded(module, capsys):
    def entry(task):
        task.tracker.record("state", "absent", "present", True)
        return {"thing": {"NAME": "t"}}

    result = run(module(CONNECTION), capsys, entry, finish=lambda result: dict(result, finished=True))
    assert result["thing"] == {"NAME": "t"} and result["changed"] is True and result["finished"] is True
    assert result["diff"] == {"before": {"state": "absent"}, "after": {"state": "present"}}


def test_the_task_holds_the_options_and_the_services_given(module, capsys):
    seen = {}

    def entry(task):
        seen.update(desired=task.desired, check_mode=task.check_mode, write_file=task.write_file)
        return {}

    def write_file(path, content):
        pass  # only its identity is compared

    run(module(CONNECTION), capsys, entry, write_file=write_file)
    assert seen["desired"]["url"] == "https://vault.example" and seen["check_mode"] is False
    assert seen["write_file"] is write_file


def test_warnings_recorded_before_a_failure_are_warned(module, capsys):
    def entry(task):
        task.warn("first warning")
        task.warn("second warning")
        raise VaultInputError("later step")

    vault = module(CONNECTION)
    result = run(vault, capsys, entry)
    assert result["failed"] is True and result["msg"] == "later step"
    assert vault.warned == ["first warning", "second warning"]
    assert warning_messages(result) == ["first warning", "second warning"]


def test_warnings_of_a_task_that_succeeds_are_warned(module, capsys):
    vault = module(CONNECTION)
    result = run(vault, capsys, lambda task: [task.warn("careful"), {}][-1])
    assert vault.warned == ["careful"] and warning_messages(result) == ["careful"] and result["changed"] is False


def test_a_failed_outcome_fails_with_its_values_and_what_the_tracker_recorded(module, capsys):
    """A task that ran to its end and fails on its outcome (``FailedOutcome``): its own message, its values, and
    ``changed`` from the tracker, not from the writes sent (a discovery is a POST that found nothing)."""

    def entry(task):
        task.client.call("edit_account", path={"resource_id": "1", "account_id": "2"}, details={"NOTES": "n"})
        task.tracker.record("found_at", [], [], False)
        task.warn("careful")
        raise FailedOutcome("nothing found at 2 hosts", {"hosts": ["a", "b"]})

    vault = module(CONNECTION, ok())
    result = run(vault, capsys, entry)
    assert result["failed"] is True and result["msg"] == "nothing found at 2 hosts"
    assert result["changed"] is False and result["hosts"] == ["a", "b"]
    assert result["diff"] == {"before": {"found_at": []}, "after": {"found_at": []}}
    assert vault.warned == ["careful"]


@pytest.mark.parametrize("blank", ["", "   "])
def test_blank_environment_variables_count_as_unset(module, monkeypatch, blank):
    for name in ("ORG_NAME", "EDITION", "BUILD", "VALIDATE_CERTS", "CA_PATH", "TIMEOUT", "RETRIES"):
        monkeypatch.setenv("CREDVAULT_%s" % name, blank)
    vault = module({"url": "https://vault.example", "auth_token": "TOKEN-SECRET-1"})
    names = ("org_name", "edition", "build", "validate_certs", "ca_path", "timeout", "retries")
    params = {name: vault.params[name] for name in names}
    assert params == {
        "org_name": None,
        "edition": None,
        "build": None,
        "validate_certs": True,
        "ca_path": None,
        "timeout": 30,
        "retries": 3,
    }
    assert (vault.client.verify, vault.client.timeout, vault.client.retries) == (True, 30.0, 3)


def test_environment_variables_that_are_set_are_used(module, monkeypatch, tmp_path):
    ca_file = tmp_path / "ca.pem"
    ca_file.write_text("PEM")
    values = {
        "URL": "https://env.example",
        "AUTH_TOKEN": "ENV-TOKEN\n",
        "ORG_NAME": "Acme",
        "EDITION": "B",
        "BUILD": "6320",
        "CA_PATH": str(ca_file),
        "TIMEOUT": "2.5",
        "RETRIES": "0",
    }
    for name, value in values.items():
        monkeypatch.setenv("CREDVAULT_%s" % name, value)
    client = module({}).client
    assert (client.base_url, client.edition, client.build, client.verify, client.timeout, client.retries) == (
        "https://env.example",
        "B",
        6320,
        str(ca_file),
        2.5,
        0,
    )
    assert client.real_session.headers["orgName"] == "Acme"
    assert client.real_session.headers["AUTHTOKEN"] == "ENV-TOKEN"


def test_a_blank_url_in_the_environment_is_missing(module, monkeypatch, capsys):
    monkeypatch.setenv("CREDVAULT_URL", "")
    with pytest.raises(SystemExit):
        module({"auth_token": "TOKEN-SECRET-1"})
    assert "missing required arguments: url" in json.loads(capsys.readouterr().out)["msg"]


def test_the_token_can_come_from_a_private_file_and_is_masked_as_auth_token_is(module, monkeypatch, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("FILE-TOKEN-SECRET-9\n")
    token_file.chmod(0o600)
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN_FILE", str(token_file))
    vault = module({"url": "https://vault.example"})
    assert vault.client.real_session.headers["AUTHTOKEN"] == "FILE-TOKEN-SECRET-9"
    assert "FILE-TOKEN-SECRET-9" in vault.module.no_log_values


@pytest.mark.parametrize(
    "token_options, words",
    [
        ({}, "auth_token or auth_token_file is required"),
        ({"auth_token": "TOKEN-SECRET-1", "auth_token_file": "/etc/hostname"}, "both set as options"),
        ({"auth_token_file": "/nonexistent/token"}, "auth_token_file /nonexistent/token does not exist"),
    ],
)
def test_a_token_that_cannot_be_had_fails_the_task_before_any_request(monkeypatch, capsys, token_options, words):
    for name in ENVIRONMENT:
        monkeypatch.delenv("CREDVAULT_%s" % name, raising=False)
    set_module_args(monkeypatch, dict({"url": "https://vault.example"}, **token_options))
    result = run(VaultModule({}), capsys, lambda task: task.client.call("get_resources"))
    assert result["failed"] and result["changed"] is False and words in result["msg"]
    assert "SECRET" not in json.dumps(result)


def test_timeout_accepts_a_float(module):
    assert module(dict(CONNECTION, timeout=0.5)).client.timeout == 0.5
