# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VaultModule with a real AnsibleModule: failures after a write report changed, connection options
come from the environment with blank variables unset, validate_certs: false warns once."""

from __future__ import annotations

import json

import pytest
import requests

from ansible_collections.credvault.vault.plugins.module_utils._client import INSECURE_WARNING
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.tests.unit.core_compat import (
    as_controller_takes_it,
    set_module_args,
    warning_messages,
)
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, FakeSession, ok

CONNECTION = {"url": "https://vault.example", "auth_token": "TOKEN-SECRET-1", "retries": 0}
ENVIRONMENT = ("URL", "AUTH_TOKEN", "ORG_NAME", "EDITION", "BUILD", "VALIDATE_CERTS", "CA_PATH", "TIMEOUT", "RETRIES")
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


def run(vault, capsys, work):
    with pytest.raises(SystemExit):
        vault.run(work)
    return as_controller_takes_it(json.loads(capsys.readouterr().out))


def fail(error):
    raise error


def write_then(step):
    def work(vault):
        vault.client.call("edit_account", path={"resource_id": "1", "account_id": "2"}, details={"NOTES": "n"})
        return step(vault)

    return work


@pytest.mark.parametrize(
    "answers, work",
    [
        pytest.param(
            (ok(), FAILED),
            write_then(
                lambda vault: vault.client.call(
                    "change_password",
                    path={"resource_id": "1", "account_id": "2"},
                    details={"NEWPASSWORD": "x", "RESETTYPE": "LOCAL"},
                )
            ),
            id="refused-after-a-write",
        ),
        pytest.param(
            (ok(),), write_then(lambda vault: fail(VaultInputError("later step"))), id="domain-error-after-a-write"
        ),
        pytest.param(
            (requests.exceptions.ReadTimeout("timed out"),),
            lambda vault: vault.client.call("create_resource", details={"RESOURCENAME": "r"}),
            id="write-timed-out",
        ),
        pytest.param(
            (FakeResponse(content=b'{"operation": '),),
            lambda vault: vault.client.call("create_resource", details={"RESOURCENAME": "r"}),
            id="write-answer-unreadable",
        ),
    ],
)
def test_a_failure_after_a_write_reports_changed(module, capsys, answers, work):
    vault = module(CONNECTION, *answers)
    result = run(vault, capsys, lambda: work(vault))
    assert result["failed"] is True and result["changed"] is True


@pytest.mark.parametrize(
    "answers, work",
    [
        pytest.param(
            (ok([]), FAILED),
            lambda vault: [
                vault.client.call("get_resources"),
                vault.client.call(
                    "change_password",
                    path={"resource_id": "1", "account_id": "2"},
                    details={"NEWPASSWORD": "x", "RESETTYPE": "LOCAL"},
                ),
            ],
            id="write-refused",
        ),
        pytest.param(
            (FakeResponse(content=b"<html/>"),), lambda vault: vault.client.call("get_resources"), id="read-unreadable"
        ),
        pytest.param((), lambda vault: fail(VaultInputError("bad input")), id="input-error"),
    ],
)
def test_a_failure_without_a_write_reports_not_changed(module, capsys, answers, work):
    vault = module(CONNECTION, *answers)
    result = run(vault, capsys, lambda: work(vault))
    assert result["failed"] is True and result["changed"] is False


def test_a_config_error_fails_the_task_unchanged(monkeypatch, capsys):
    set_module_args(monkeypatch, dict(CONNECTION, auth_token="TOKEN-SECRET-1\nX"))
    vault = VaultModule({})
    result = run(vault, capsys, lambda: vault.client.call("get_resources"))
    assert result["failed"] and result["changed"] is False and "control character" in result["msg"]
    assert "SECRET" not in json.dumps(result)


def test_validate_certs_false_warns_once_per_task(module, capsys):
    vault = module(dict(CONNECTION, validate_certs=False), ok([]), ok([]))
    result = run(
        vault,
        capsys,
        lambda: [vault.client.call("get_resources"), vault.client.call("get_resources"), {"changed": False}][-1],
    )
    assert vault.warned == [INSECURE_WARNING]
    assert warning_messages(result) == [INSECURE_WARNING]


def test_validate_certs_true_does_not_warn(module, capsys):
    vault = module(CONNECTION, ok([]))
    result = run(vault, capsys, lambda: [vault.client.call("get_resources"), {"changed": False}][-1])
    assert "warnings" not in result and vault.warned == []


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


def test_timeout_accepts_a_float(module):
    assert module(dict(CONNECTION, timeout=0.5)).client.timeout == 0.5
