# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""proxy_url and the standard proxy variables, client_cert and client_key, end to end: modules and lookups reach a
simulator through a local CONNECT proxy (tests/unit/local_servers.py), or show the simulator of the profile
``client_cert`` the client certificate it demands; a proxy that refuses or cannot be reached, a certificate missing
or refused, each fail with a message that says so, and no message or result holds the proxy's password."""

from __future__ import annotations

import json

import pytest

from ansible_collections.credvault.vault.tests.unit.local_servers import ConnectProxy, write_tls_files
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_lookup
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run

PROXY_PASSWORD = "Pr0xy-pw-5521"
PROXY_VARIABLES = ("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY")


@pytest.fixture(autouse=True)
def no_proxy_variables(monkeypatch):
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def tunnel_to(vault):
    return "127.0.0.1:%d" % vault.port


def test_modules_and_lookups_go_through_proxy_url_with_its_credentials(vaults):
    vault = vaults["default"]
    with ConnectProxy(credentials=("ops", PROXY_PASSWORD)) as proxy:
        proxy_url = proxy.url.replace("http://", "http://ops:%s@" % PROXY_PASSWORD)
        result = run(vault, "vault_server_info", proxy_url=proxy_url)
        assert not result.get("failed"), result.get("msg")
        assert set(proxy.tunnels) == {tunnel_to(vault)}
        looked_up = run_lookup("vault_generated_password", ["Strong"], dict(vault.connection, proxy_url=proxy_url))
        assert looked_up["value"][0]
    assert PROXY_PASSWORD not in json.dumps(result)


def test_a_refusing_proxy_fails_at_once_naming_the_proxy_not_the_vault(vaults):
    vault = vaults["default"]
    with ConnectProxy(credentials=("ops", PROXY_PASSWORD)) as proxy:
        wrong = proxy.url.replace("http://", "http://ops:not-%s@" % PROXY_PASSWORD)
        result = run(vault, "vault_server_info", proxy_url=wrong)
        assert proxy.tunnels == []
    assert result["failed"]
    shown = proxy.url.replace("http://", "http://", 1)
    assert (
        "the proxy %s (proxy_url) refused to connect to %s: it answered 407" % (shown, vault.connection["url"])
        in (result["msg"])
    )
    assert result["msg"].endswith("(its user and password in proxy_url)")
    assert "after" not in result["msg"]  # not retried: the proxy answered
    assert PROXY_PASSWORD not in json.dumps(result)


def test_a_proxy_that_cannot_be_reached_is_named(vaults):
    vault = vaults["default"]
    with ConnectProxy() as proxy:
        url = proxy.url
    result = run(vault, "vault_server_info", proxy_url=url, retries=1)
    assert result["failed"]
    assert (
        "the proxy %s (proxy_url) did not connect to %s: could not connect" % (url, vault.connection["url"])
        in (result["msg"])
    )


def test_the_environment_proxy_applies_unless_no_proxy_names_the_vault(vaults, monkeypatch):
    vault = vaults["default"]
    with ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        assert not run(vault, "vault_server_info").get("failed")
        assert set(proxy.tunnels) == {tunnel_to(vault)}
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        before = len(proxy.tunnels)
        assert not run(vault, "vault_server_info").get("failed")
        assert len(proxy.tunnels) == before
        # proxy_url wins over NO_PROXY
        assert not run(vault, "vault_server_info", proxy_url=proxy.url).get("failed")
        assert len(proxy.tunnels) > before


def test_a_refusal_by_the_environment_proxy_names_it(vaults, monkeypatch):
    vault = vaults["default"]
    with ConnectProxy(refuse=403) as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        result = run(vault, "vault_server_info")
    assert result["failed"]
    assert "the proxy %s (from the environment) refused to connect" % proxy.url in result["msg"]
    assert "it answered 403" in result["msg"]


def test_the_client_certificate_the_vault_demands_is_shown(vaults):
    vault = vaults["client_cert"]
    certificate = dict(client_cert=vault.client_cert, client_key=vault.client_key)
    result = run(vault, "vault_server_info", **certificate)
    assert not result.get("failed"), result.get("msg")
    looked_up = run_lookup("vault_generated_password", ["Strong"], dict(vault.connection, **certificate))
    assert looked_up["value"][0]


def test_without_a_client_certificate_the_message_says_the_vault_demands_one(vaults):
    result = run(vaults["client_cert"], "vault_server_info")
    assert result["failed"]
    assert "demands a TLS client certificate (TLS alert: " in result["msg"]
    assert result["msg"].endswith("set client_cert and client_key")


def test_a_client_certificate_of_another_ca_is_named_as_refused(vaults, tmp_path):
    vault = vaults["client_cert"]
    dummy_ca, cert, key = map(str, write_tls_files(tmp_path))
    result = run(vault, "vault_server_info", client_cert=cert, client_key=key)
    assert result["failed"]
    assert "refused the TLS client certificate client_cert %s (TLS alert: " % cert in result["msg"]
