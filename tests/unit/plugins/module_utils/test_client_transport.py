# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 38 item 5: what is the same for every request of a client is worked out once per client (_transport).
The CA file and the client certificate are loaded into one TLS context at the client's first request, not per
request or connection; the environment (proxy variables, REQUESTS_CA_BUNDLE, ~/.netrc) is read when the client is
made, not per request. What they decide stays what requests decides per request: NO_PROXY, proxy_url over the
environment, ca_path over REQUESTS_CA_BUNDLE, validate_certs false verifying nothing, a CA file that cannot serve
failing the request."""

from __future__ import annotations

import json
import os
import ssl

import pytest
import requests

from ansible_collections.credvault.vault.plugins.module_utils import _transport
from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConnectionError, VaultInputError
from ansible_collections.credvault.vault.tests.unit.local_servers import ConnectProxy, ScriptedVault, write_tls_files

TOKEN = "TOKEN-SECRET-1"
SUCCESS = json.dumps(
    {"operation": {"name": "GET RESOURCES", "result": {"status": "Success", "message": "ok"}, "Details": []}}
).encode()
PROXY_VARIABLES = ("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY")
# A CA bundle that does not hold the local servers' CA: the machine's own bundle is in REQUESTS_CA_BUNDLE.
FOREIGN_BUNDLE = requests.certs.where()


@pytest.fixture(autouse=True)
def environment(monkeypatch, tmp_path):
    """No proxy variable of the machine, REQUESTS_CA_BUNDLE trusting nothing local, an empty ~/.netrc."""
    for name in PROXY_VARIABLES + ("CURL_CA_BUNDLE",):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", FOREIGN_BUNDLE)
    netrc = tmp_path / "netrc"
    netrc.write_text("")
    monkeypatch.setenv("NETRC", str(netrc))


@pytest.fixture(scope="module")
def closing_vault(tmp_path_factory):
    """A vault that closes the connection after each answer: every request opens a connection of its own."""
    server = ScriptedVault(tmp_path_factory.mktemp("closing"))
    server.answer(lambda handler: (200, {"Connection": "close"}, SUCCESS))
    yield server
    server.close()


@pytest.fixture(scope="module")
def other_name_vault(tmp_path_factory):
    """A vault whose certificate, signed by its CA, names another host than the address it answers on."""
    server = ScriptedVault(tmp_path_factory.mktemp("other-name"), name="vault.other.example")
    server.answer(lambda handler: (200, {}, SUCCESS))
    yield server
    server.close()


@pytest.fixture(scope="module")
def certificate_vault(tmp_path_factory):
    """A vault that demands a client certificate signed by the CA of ``client_files`` (ca, cert, key), and closes
    each connection after its answer."""
    client_files = write_tls_files(tmp_path_factory.mktemp("client"))
    server = ScriptedVault(tmp_path_factory.mktemp("demanding"), client_ca=client_files[0])
    server.answer(lambda handler: (200, {"Connection": "close"}, SUCCESS))
    server.client_files = client_files
    yield server
    server.close()


def client_for(vault, **options):
    settings = {"url": vault.url, "auth_token": TOKEN, "ca_path": vault.ca_path, "retries": 0, "timeout": 5}
    settings.update(options)
    return VaultClient(**settings)


def send(client, times=1):
    for dummy in range(times):
        client.call("get_resources")


@pytest.fixture
def loads(monkeypatch):
    """Every CA file (or directory) and certificate file loaded into a TLS context: ``[(what, path)]``."""
    loaded = []
    verify_locations, cert_chain = ssl.SSLContext.load_verify_locations, ssl.SSLContext.load_cert_chain

    def load_verify_locations(context, cafile=None, capath=None, cadata=None):
        loaded.append(("ca", cafile or capath))
        return verify_locations(context, cafile, capath, cadata)

    def load_cert_chain(context, certfile, keyfile=None, password=None):
        loaded.append(("cert", certfile))
        return cert_chain(context, certfile, keyfile, password)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", load_verify_locations)
    monkeypatch.setattr(ssl.SSLContext, "load_cert_chain", load_cert_chain)
    return loaded


def test_the_ca_file_is_loaded_once_per_client_whatever_the_connections(closing_vault, loads):
    client = client_for(closing_vault)
    assert loads == []  # nothing before the first request
    send(client, 4)
    assert len({request["peer_port"] for request in closing_vault.received[-4:]}) == 4  # four connections
    assert loads == [("ca", closing_vault.ca_path)]
    send(client_for(closing_vault), 2)
    assert loads == [("ca", closing_vault.ca_path)] * 2  # another client, its own context


def test_the_client_certificate_is_loaded_once_with_the_ca(certificate_vault, loads):
    dummy_ca, cert, key = certificate_vault.client_files
    client = client_for(certificate_vault, client_cert=cert, client_key=key)
    assert loads == [("cert", cert)]  # the check when the client is made (_client_certificate)
    send(client, 3)
    assert len({request["peer_port"] for request in certificate_vault.received[-3:]}) == 3
    assert loads == [("cert", cert), ("ca", certificate_vault.ca_path), ("cert", cert)]


def test_a_vault_demanding_a_certificate_refuses_the_client_without_one(certificate_vault):
    with pytest.raises(VaultConnectionError, match="demands a TLS client certificate"):
        send(client_for(certificate_vault))


def test_no_file_is_looked_at_per_request(closing_vault, monkeypatch):
    client = client_for(closing_vault)
    send(client)
    looked_at = []
    for name in ("exists", "isdir", "isfile"):
        check = getattr(os.path, name)
        monkeypatch.setattr(os.path, name, lambda path, check=check: looked_at.append(str(path)) or check(path))
    send(client, 3)
    assert looked_at == []


def test_the_environment_is_read_when_the_client_is_made_not_per_request(closing_vault, monkeypatch):
    reads = []
    environ_proxies = requests.sessions.get_environ_proxies
    monkeypatch.setattr(
        requests.sessions, "get_environ_proxies", lambda *args, **kwargs: reads.append(args) or environ_proxies(*args)
    )
    client = client_for(closing_vault)
    assert len(reads) == 1
    with ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        send(client, 3)
        assert proxy.tunnels == []  # set after the client was made: not seen by it
    assert len(reads) == 1


def test_the_environment_proxy_carries_every_request(closing_vault, monkeypatch):
    with ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        client = client_for(closing_vault)
        send(client, 3)
        assert proxy.tunnels == ["127.0.0.1:%s" % closing_vault.url.rsplit(":", 1)[1]] * 3
    assert client.proxy == "%s (from the environment)" % proxy.url


@pytest.mark.parametrize("no_proxy", ["127.0.0.1", "localhost,127.0.0.1", "*"])
def test_no_proxy_naming_the_vault_sends_it_straight(closing_vault, monkeypatch, no_proxy):
    with ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        monkeypatch.setenv("NO_PROXY", no_proxy)
        send(client_for(closing_vault), 2)
        assert proxy.tunnels == []
    assert closing_vault.received[-1]["method"] == "GET"


def test_proxy_url_wins_over_no_proxy_and_the_environment_proxy(closing_vault, monkeypatch):
    with ConnectProxy() as proxy, ConnectProxy() as environment_proxy:
        monkeypatch.setenv("HTTPS_PROXY", environment_proxy.url)
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        send(client_for(closing_vault, proxy_url=proxy.url), 2)
        assert len(proxy.tunnels) == 2 and environment_proxy.tunnels == []


def test_requests_ca_bundle_serves_a_client_without_ca_path(closing_vault, monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", closing_vault.ca_path)
    send(client_for(closing_vault, ca_path=None))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", FOREIGN_BUNDLE)
    with pytest.raises(VaultConnectionError, match="TLS verification of .* failed"):
        send(client_for(closing_vault, ca_path=None))


def test_ca_path_wins_over_requests_ca_bundle(closing_vault):
    send(client_for(closing_vault))  # REQUESTS_CA_BUNDLE does not trust the vault


def test_validate_certs_false_verifies_neither_the_ca_nor_the_name(other_name_vault):
    with pytest.raises(VaultConnectionError, match="IP address mismatch"):
        send(client_for(other_name_vault))
    with pytest.raises(VaultConnectionError, match="unable to get local issuer certificate"):
        send(client_for(other_name_vault, ca_path=None))
    send(client_for(other_name_vault, validate_certs=False, ca_path=None))
    # An insecure client's context is its own: the next client verifies again.
    with pytest.raises(VaultConnectionError, match="IP address mismatch"):
        send(client_for(other_name_vault))


def test_a_ca_file_that_is_no_certificate_fails_the_request_as_requests_does(closing_vault, tmp_path):
    garbage = tmp_path / "ca.pem"
    garbage.write_text("not a certificate\n")
    client = client_for(closing_vault, ca_path=str(garbage))
    for dummy in range(2):
        with pytest.raises(VaultConnectionError, match="TLS verification of %s failed" % closing_vault.url):
            send(client)


def test_a_netrc_login_for_the_vault_is_sent_as_requests_sends_it(closing_vault, tmp_path, monkeypatch):
    netrc = tmp_path / "netrc-with-login"
    netrc.write_text("machine 127.0.0.1 login ops password Netrc-pw\n")
    monkeypatch.setenv("NETRC", str(netrc))
    client = client_for(closing_vault)
    netrc.write_text("")  # read when the client was made
    send(client, 2)
    expected = requests.auth._basic_auth_str("ops", "Netrc-pw")
    assert [request["headers"].get("Authorization") for request in closing_vault.received[-2:]] == [expected] * 2


@pytest.mark.parametrize(
    "proxy, shared",
    [
        (None, True),
        ("http://proxy.example:3128", True),
        ("https://proxy.example:3128", False),
        ("socks5://p:1080", False),
    ],
)
def test_one_context_serves_direct_connections_and_http_proxies_only(closing_vault, proxy, shared):
    tls = _transport.SharedTLS(closing_vault.ca_path, None, proxy)
    assert (tls.context() is not None) is shared
    assert tls.context() is tls.context()


@pytest.mark.parametrize("variable", ["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"])
def test_a_ca_bundle_the_environment_names_that_does_not_exist_is_a_clear_error(closing_vault, monkeypatch, variable):
    monkeypatch.delenv("REQUESTS_CA_BUNDLE")
    monkeypatch.setenv(variable, "/nonexistent/ca-bundle.pem")
    with pytest.raises(
        VaultInputError, match=r"\(REQUESTS_CA_BUNDLE or CURL_CA_BUNDLE\) does not exist: /nonexistent/"
    ):
        client_for(closing_vault, ca_path=None)
    assert client_for(closing_vault).proxy is None  # ca_path set: the environment's bundle is not used
