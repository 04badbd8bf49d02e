# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""client_cert, client_key and proxy_url as the client takes them, before any request: the certificate files
checked (readable, a certificate and the key that matches it, the key not encrypted), the proxy named without its
user information and its password scrubbed."""

from __future__ import annotations

import os

import pytest
from cryptography.hazmat.primitives import serialization

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._client_certificate import client_certificate
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConfigError
from ansible_collections.credvault.vault.plugins.module_utils._options import connection_secrets
from ansible_collections.credvault.vault.plugins.module_utils._proxy import proxy_label, proxy_password
from ansible_collections.credvault.vault.tests.unit.local_servers import write_tls_files

VAULT = "https://vault.example:7272"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Paths: cert, key (its key), other_key, encrypted (its key, passphrase-protected), both (cert and key in one
    file), garbage."""
    directory = tmp_path_factory.mktemp("client-certificate")
    (directory / "one").mkdir()
    (directory / "other").mkdir()
    dummy_ca, cert, key = map(str, write_tls_files(directory / "one"))
    other_key = str(write_tls_files(directory / "other")[2])
    with open(key, "rb") as handle:
        key_pem = handle.read()
    with open(cert, "rb") as handle:
        cert_pem = handle.read()
    encrypted = serialization.load_pem_private_key(key_pem, None).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"passphrase-1"),
    )
    paths = {"cert": cert, "key": key, "other_key": other_key}
    for name, content in (("encrypted", encrypted), ("both", cert_pem + key_pem), ("garbage", b"not a certificate\n")):
        paths[name] = str(directory / ("%s.pem" % name))
        with open(os.open(paths[name], os.O_WRONLY | os.O_CREAT, 0o600), "wb") as handle:
            handle.write(content)
    return paths


def test_a_certificate_and_its_key_are_given_to_requests(files):
    assert client_certificate(files["cert"], files["key"]) == (files["cert"], files["key"])
    assert client_certificate(files["both"], None) == files["both"]
    assert client_certificate(None, None) is None


@pytest.mark.parametrize(
    "cert, key, message",
    [
        (None, "key", "client_key is set without client_cert: set client_cert to the certificate file"),
        ("missing", None, "client_cert {missing} does not exist or is not a file"),
        ("cert", "missing", "client_key {missing} does not exist or is not a file"),
        ("cert", "other_key", "client_cert {cert} and client_key {other_key} do not match"),
        (
            "cert",
            None,
            "client_cert {cert} and client_key (in the same file) are not a PEM certificate and private key",
        ),
        ("garbage", "key", "client_cert {garbage} and client_key {key} are not a PEM certificate and private key"),
        ("cert", "encrypted", "the private key in {encrypted} is encrypted: give client_key an unencrypted key file"),
    ],
)
def test_certificate_files_that_cannot_serve_are_refused_naming_them(files, tmp_path, cert, key, message):
    paths = dict(files, missing=str(tmp_path / "missing.pem"))
    with pytest.raises(VaultConfigError) as refused:
        client_certificate(paths.get(cert), paths.get(key))
    assert str(refused.value).startswith(message.format(**paths))


def test_the_client_refuses_a_bad_certificate_before_any_request(files):
    with pytest.raises(VaultConfigError, match="do not match"):
        VaultClient(VAULT, "TOKEN-1", client_cert=files["cert"], client_key=files["other_key"])


def test_proxy_url_is_named_without_its_user_information():
    assert proxy_label("http://ops:Pr0xy-pw@proxy.example:3128", None) == "http://proxy.example:3128 (proxy_url)"
    assert proxy_password("http://ops:Pr0xy-pw@proxy.example:3128") == "Pr0xy-pw"
    assert proxy_password("http://proxy.example:3128") is None


@pytest.mark.parametrize("url", ["proxy.example:3128", "ftp://proxy.example", "http://:3128", "http://p.example:port"])
def test_a_proxy_url_that_is_no_http_url_is_refused_without_showing_it(url):
    with pytest.raises(VaultConfigError) as refused:
        proxy_label(url, None)
    assert str(refused.value).startswith("proxy_url must be http://HOST:PORT or https://HOST:PORT")
    assert url not in str(refused.value)


def test_the_environment_proxy_applies_unless_no_proxy_names_the_vault(monkeypatch):
    for name in ("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert VaultClient(VAULT, "TOKEN-1").proxy is None
    monkeypatch.setenv("HTTPS_PROXY", "http://ops:Env-pw@envproxy.example:8080")
    assert VaultClient(VAULT, "TOKEN-1").proxy == "http://envproxy.example:8080 (from the environment)"
    monkeypatch.setenv("ALL_PROXY", "http://allproxy.example:8080")
    assert VaultClient(VAULT, "TOKEN-1").proxy == "http://envproxy.example:8080 (from the environment)"
    monkeypatch.delenv("HTTPS_PROXY")
    assert VaultClient(VAULT, "TOKEN-1").proxy == "http://allproxy.example:8080 (from the environment)"
    monkeypatch.setenv("NO_PROXY", "vault.example")
    assert VaultClient(VAULT, "TOKEN-1").proxy is None


def test_proxy_url_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", "http://envproxy.example:8080")
    client = VaultClient(VAULT, "TOKEN-1", proxy_url="http://proxy.example:3128")
    assert client.session.trust_env is False
    assert client.session.proxies == {"http": "http://proxy.example:3128", "https": "http://proxy.example:3128"}
    assert VaultClient(VAULT, "TOKEN-1").session.proxies["https"] == "http://envproxy.example:8080"


def test_the_proxy_password_is_a_connection_secret():
    options = {"auth_token": "TOKEN-1", "proxy_url": "http://ops:Pr0xy-pw@proxy.example:3128"}
    assert connection_secrets(options.get) == ["TOKEN-1", "Pr0xy-pw"]
    assert connection_secrets({"auth_token": "TOKEN-1", "proxy_url": None}.get) == ["TOKEN-1"]
