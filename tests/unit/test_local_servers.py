# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/unit/local_servers.py's ConnectProxy: CONNECT tunnels to the scripted HTTPS vault, proxy credentials,
refusals, and a stop that leaves nothing behind."""

from __future__ import annotations

import socket
import threading

import pytest
import requests

from ansible_collections.credvault.vault.tests.unit.local_servers import ConnectProxy, ScriptedVault


@pytest.fixture(scope="module")
def vault(tmp_path_factory):
    server = ScriptedVault(tmp_path_factory.mktemp("tls"))
    server.answer(lambda handler: (200, {"Content-Type": "application/json"}, b'{"through": "the tunnel"}'))
    yield server
    server.close()


def get(vault, proxy_url, **options):
    """GET /ping of the vault through the proxy (the environment's proxy settings and CA bundle ignored)."""
    with requests.Session() as session:
        session.trust_env = False
        return session.get(
            vault.url + "/ping", proxies={"https": proxy_url}, verify=vault.ca_path, timeout=5, **options
        )


def vault_address(vault):
    return vault.url.split("//", 1)[1]


def test_a_tunnel_carries_the_request_and_its_answer(vault):
    with ConnectProxy() as proxy:
        assert proxy.url == "http://127.0.0.1:%d" % proxy.port
        answer = get(vault, proxy.url)
        assert answer.json() == {"through": "the tunnel"}
        assert proxy.tunnels == [vault_address(vault)]
        assert [request["target"] for request in proxy.received] == [vault_address(vault)]
        assert vault.received[-1]["path"] == "/ping"


def test_proxy_credentials_are_demanded(vault):
    with ConnectProxy(credentials=("proxy-user", "proxy-secret")) as proxy:
        with pytest.raises(requests.exceptions.ProxyError, match="407 Proxy Authentication Required"):
            get(vault, proxy.url)
        with pytest.raises(requests.exceptions.ProxyError, match="407"):
            get(vault, proxy.url.replace("//", "//proxy-user:wrong@"))
        assert proxy.tunnels == []
        answer = get(vault, proxy.url.replace("//", "//proxy-user:proxy-secret@"))
        assert answer.json() == {"through": "the tunnel"}
        assert proxy.tunnels == [vault_address(vault)]
        assert "proxy-authorization" not in proxy.received[0]["headers"]
        assert proxy.received[-1]["headers"]["proxy-authorization"].startswith("Basic ")


def test_a_407_asks_for_basic_credentials(vault):
    with ConnectProxy(credentials=("u", "p")) as proxy:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as sock:
            sock.sendall(b"CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % ((vault_address(vault).encode(),) * 2))
            answer = sock.makefile("rb").read()
    assert answer.startswith(b"HTTP/1.1 407 Proxy Authentication Required\r\n")
    assert b'\r\nProxy-Authenticate: Basic realm="test"\r\n' in answer


@pytest.mark.parametrize("status", [403, 502])
def test_a_refusing_proxy_opens_no_tunnel(vault, status):
    with ConnectProxy(refuse=status) as proxy:
        with pytest.raises(requests.exceptions.ProxyError, match=str(status)):
            get(vault, proxy.url)
        assert proxy.tunnels == [] and len(proxy.received) == 1


def test_only_connect_is_served():
    with ConnectProxy() as proxy, requests.Session() as session:
        session.trust_env = False
        answer = session.get("http://127.0.0.1:1/", proxies={"http": proxy.url}, timeout=5)
        assert answer.status_code == 405 and proxy.tunnels == []


def test_an_unreachable_target_is_a_bad_gateway(vault):
    unused = socket.create_server(("127.0.0.1", 0))
    port = unused.getsockname()[1]
    unused.close()
    with ConnectProxy() as proxy:
        with pytest.raises(requests.exceptions.ProxyError, match="502"):
            with requests.Session() as session:
                session.trust_env = False
                session.get("https://127.0.0.1:%d/" % port, proxies={"https": proxy.url}, timeout=5)
        assert proxy.tunnels == []


def test_stop_closes_the_listener_and_open_tunnels(vault):
    before = set(threading.enumerate())
    proxy = ConnectProxy()
    session = requests.Session()
    session.trust_env = False
    try:
        answer = session.get(vault.url + "/ping", proxies={"https": proxy.url}, verify=vault.ca_path, timeout=5)
        assert answer.json() == {"through": "the tunnel"}  # the session keeps its tunnel open
        proxy.stop()
        assert proxy.stopped
        for thread in set(threading.enumerate()) - before:
            thread.join(2)
        assert [thread.name for thread in set(threading.enumerate()) - before if thread.is_alive()] == []
        with pytest.raises(requests.exceptions.ProxyError):
            session.get(vault.url + "/ping", proxies={"https": proxy.url}, verify=vault.ca_path, timeout=5)
    finally:
        session.close()
        proxy.stop()  # twice is harmless
