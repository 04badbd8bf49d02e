# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 15, access: a TLS verification failure says which check failed (OpenSSL's verify message: another host
name, an unknown CA), and nothing of the request URL beyond the vault's base URL."""

from __future__ import annotations

import json

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConnectionError
from ansible_collections.credvault.vault.tests.unit.local_servers import ScriptedVault

TOKEN = "tls-reason-token-5521"
SUCCESS = json.dumps({"operation": {"name": "GET RESOURCES", "result": {"status": "Success", "message": "ok"}}})


@pytest.fixture(scope="module")
def vault_named_elsewhere(tmp_path_factory):
    server = ScriptedVault(tmp_path_factory.mktemp("tls-reason-name"), name="vault.other.example")
    yield server
    server.close()


@pytest.fixture(scope="module")
def other_vault(tmp_path_factory):
    server = ScriptedVault(tmp_path_factory.mktemp("tls-reason-ca"))
    yield server
    server.close()


def tls_failure(url, ca_path):
    client = VaultClient(url=url, auth_token=TOKEN, ca_path=ca_path, retries=0, timeout=5)
    with pytest.raises(VaultConnectionError) as caught:
        client.call("get_account_details", path={"resource_id": "7", "account_id": "secret-path-part"})
    return str(caught.value)


def test_another_host_name_is_named(vault_named_elsewhere):
    message = tls_failure(vault_named_elsewhere.url, vault_named_elsewhere.ca_path)
    assert message.startswith(
        "GET RESOURCE ACCOUNT DETAILS: TLS verification of %s failed (" % vault_named_elsewhere.url
    )
    assert "mismatch, certificate is not valid for '127.0.0.1'" in message
    assert message.endswith("; point ca_path at the vault's CA certificate)")
    assert "secret-path-part" not in message and TOKEN not in message


def test_another_ca_is_named(vault_named_elsewhere, other_vault):
    message = tls_failure(other_vault.url, vault_named_elsewhere.ca_path)
    assert "TLS verification of %s failed (" % other_vault.url in message
    assert "mismatch" not in message
    assert "certificate" in message.split("failed (", 1)[1]
    assert "secret-path-part" not in message and TOKEN not in message
