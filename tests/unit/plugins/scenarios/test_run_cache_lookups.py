# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""run_cache in every lookup, against the default simulator and a broker served by this process: what a second call
costs, what is never cached, and what the actions of the writing modules drop."""

from __future__ import annotations

import os
import threading
import uuid

import pytest

from ansible_collections.credvault.vault.plugins.plugin_utils import _run_cache, _run_cache_action, _run_cache_broker
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_lookup
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run

PASSWORD = "Ut-run-cache-pw-4!"


@pytest.fixture
def broker(monkeypatch):
    """The run's broker, a thread of this process; every lookup of the test connects to it."""
    server = _run_cache_broker.Broker("credvault-test/%s" % uuid.uuid4(), os.getpid())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    name = server.server_address[1:].decode()
    monkeypatch.setattr(
        _run_cache.RunCache, "open", classmethod(lambda cls, start=True: cls(_run_cache._connect(name)))
    )
    yield server
    server.shutdown()
    server.server_close()


def operations(vault):
    return [entry["operation"] for entry in vault.requests]


@pytest.fixture
def account(vaults, unique):
    vault = vaults["default"]
    first = {"name": "root", "password": PASSWORD}
    made = run(vault, "vault_resource", name=unique, type="Linux", owner="admin", first_account=first)
    assert not made.get("failed"), made.get("msg")
    otp = run(vault, "vault_account", resource=unique, name="otp", password=PASSWORD, totp_secret="JBSWY3DPEHPK3PXP")
    assert not otp.get("failed"), otp.get("msg")
    vault.forget_requests()
    return vault, unique


def test_a_password_is_retrieved_once_per_reason(broker, account):
    vault, resource = account
    calls = [{}, {}, {"reason": "Audit 7"}, {"reason": "Audit 7"}, {}]
    for options in calls:
        result = run_lookup("vault_password", ["%s/root" % resource], dict(vault.connection, run_cache=True, **options))
        assert result["value"] == [PASSWORD]
    assert operations(vault).count("GET PASSWORD") == 2
    assert operations(vault).count("GET_RESOURCEACCOUNTID") == 2


def test_without_the_switch_every_call_retrieves(broker, account):
    vault, resource = account
    for dummy in range(2):
        assert run_lookup("vault_password", ["%s/root" % resource], vault.connection)["value"] == [PASSWORD]
    assert operations(vault).count("GET PASSWORD") == 2


def test_a_totp_code_is_never_cached(broker, account):
    vault, resource = account
    for dummy in range(2):
        result = run_lookup(
            "vault_password", ["%s/otp" % resource], dict(vault.connection, run_cache=True, field="totp")
        )
        assert len(result["value"][0]) == 6
    assert operations(vault).count("FETCH_CURRENT_TOTP") == 2


def test_a_missing_account_is_asked_for_again(broker, account):
    vault, resource = account
    terms = ["%s/root" % resource, "%s/nobody" % resource]
    for dummy in range(2):
        result = run_lookup("vault_password", terms, dict(vault.connection, run_cache=True, on_missing="skip"))
        assert result["value"] == [PASSWORD]
    assert operations(vault).count("GET PASSWORD") == 1
    assert len(operations(vault)) > 3  # the missing one is resolved again by the second call


def test_an_ssh_key_is_exported_once(broker, vaults, unique):
    vault = vaults["edition_b"]  # exports public keys (keyExportType)
    assert not run(vault, "vault_ssh_key", name=unique, key_type="ssh-rsa", length=2048).get("failed")
    vault.forget_requests()
    first = run_lookup("vault_ssh_key", [unique], dict(vault.connection, run_cache=True))
    cost = len(vault.requests)
    second = run_lookup("vault_ssh_key", [unique], dict(vault.connection, run_cache=True))
    assert first["value"] == second["value"] and first["value"][0].startswith("ssh-rsa ")
    assert len(vault.requests) == cost == 2  # GetAllSSHKeys and ExportSSHKey, by the first call only
    private = run_lookup("vault_ssh_key", [unique], dict(vault.connection, run_cache=True, private=True))["value"]
    assert "PRIVATE KEY" in private[0]
    assert len(vault.requests) == 2 * cost  # another export type, another export


def test_generated_passwords_are_new_but_the_default_policy_is_found_once(broker, vaults):
    vault = vaults["default"]
    vault.forget_requests()
    generated = [
        run_lookup("vault_generated_password", [], dict(vault.connection, run_cache=True))["value"][0]
        for dummy in range(3)
    ]
    assert len(set(generated)) == 3
    assert operations(vault).count("GET PASSWORD POLICIES") == 1
    assert operations(vault).count("GENERATE PASSWORD") == 3


@pytest.mark.parametrize(
    "module, args, dropped",
    [
        ("vault_account", {"resource": "web", "name": "root"}, [("password", "web", "root")]),
        ("vault_account", {"name": "root"}, [("password", None, "root")]),  # resource from module_defaults
        (
            "vault_accounts",
            {"resource": "web", "accounts": [{"name": "a"}, {"name": "b"}]},
            [("password", "web", "a"), ("password", "web", "b")],
        ),
        ("vault_accounts", {"resource": "web", "accounts": [{"password": "x"}]}, [("password", "web", None)]),
        ("vault_account_password", {"resource": "web", "account": "root"}, [("password", "web", "root")]),
        ("vault_password_request", {"resource": "web", "account": "root"}, [("password", "web", "root")]),
        (
            "vault_remote_password_reset",
            {"resources": ["web", "db"]},
            [("password", "web", None), ("password", "db", None)],
        ),
        ("vault_remote_password_reset", {}, [("password", None, None)]),
        ("vault_resource", {"name": "web", "state": "absent"}, [("password", "web", None)]),
        ("vault_ssh_key", {"name": "deploy"}, [("ssh_key", "deploy", None)]),
    ],
)
def test_what_each_writing_module_drops(module, args, dropped):
    assert _run_cache_action.WRITES[module](args) == dropped


def test_every_writing_module_has_the_action_that_drops(collection_root=None):
    from ansible.plugins.loader import action_loader

    for module in _run_cache_action.WRITES:
        action = action_loader.get(
            "credvault.vault.%s" % module,
            task=None,
            connection=None,
            play_context=None,
            loader=None,
            templar=None,
            shared_loader_obj=None,
        )
        assert isinstance(action, _run_cache_action.DropsWrittenSecrets), module
        assert action.MODULE == module
