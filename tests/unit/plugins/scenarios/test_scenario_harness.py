# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scenario vaults are the profiles they are named after."""

from __future__ import annotations

import pytest
import requests

from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, writes


@pytest.mark.parametrize(
    "profile, edition, build", [("default", "A", 12450), ("edition_b", "B", 6320), ("old_a", "A", 12000)]
)
def test_each_profile_is_its_edition_and_build(vaults, profile, edition, build):
    result = run(vaults[profile], "vault_server_info")
    assert not result.get("failed"), result
    assert (result["edition"], result["build"]) == (edition, build)


def test_a_write_is_in_the_log(vaults, unique):
    vault = vaults["default"]
    vault.forget_requests()
    account = {"name": "root", "password": "Ut-harness-pw-1!"}
    result = run(vault, "vault_resource", name=unique, type="Linux", owner="admin", first_account=account)
    assert result["changed"], result.get("msg")
    assert ("POST", "CREATE RESOURCE") in writes(vault)


def test_the_client_cert_profile_demands_the_vaults_client_certificate(vaults):
    """``client_cert``: the TLS handshake wants ``vault.client_cert`` and ``vault.client_key``, which the vault's
    connection leaves out (every vault has them)."""
    vault = vaults["client_cert"]
    assert "client_cert" not in vault.connection and "client_key" not in vault.connection
    assert vaults["default"].client_cert.endswith("client.pem")
    assert vaults["default"].client_key.endswith("client-key.pem")
    url = vault.connection["url"] + "/restapi/json/v1/resources"
    options = {"headers": {"AUTHTOKEN": vault.connection["auth_token"]}, "verify": vault.connection["ca_path"]}
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(url, timeout=10, **options)
    answer = requests.get(url, cert=(vault.client_cert, vault.client_key), timeout=10, **options)
    assert answer.json()["operation"]["result"]["status"] == "Success"
    assert run(vault, "vault_server_info").get("failed")  # without a certificate, the module's client is refused
