# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every message of the plugin names the AWX field that would change the outcome, never an option of the
collection (``ca_path``, ``timeout``, ``CREDVAULT_URL`` ...); a ``ca_cert`` that is not a PEM certificate is refused
as such before any connection."""

from __future__ import annotations

import ast
import inspect
import re
import ssl
import subprocess
from pathlib import Path

import credvault_awx
import pytest
import requests
from conftest import PASSWORD, source_inputs
from credvault_awx import _messages

from ansible_collections.credvault.vault.plugins.module_utils import (
    _account,
    _client,
    _connection_errors,
    _gates,
    _redaction,
    _settings,
    _write_log,
)

NOT_PEM = "credvault_vault: ca_cert is not a PEM certificate"
# The collection's words that no AWX field carries.
COLLECTION_ONLY = re.compile(r"\b(ca_path|CREDVAULT_URL|CREDVAULT_AUTH_TOKEN|retries|pool_size)\b|\btimeout\b(?! of)")


def _names_a_field(message):
    return any(re.search(r"\b%s\b" % field, message) for field in _messages.FIELD_IDS)


def failure(**inputs):
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**inputs)
    message = str(caught.value)
    assert not COLLECTION_ONLY.search(message), message
    assert _names_a_field(message), message
    assert PASSWORD not in message
    return message


@pytest.fixture
def no_requests(monkeypatch):
    """Fails the test when any HTTP request is sent."""

    def refuse(*args, **kwargs):
        raise AssertionError("a request was sent")

    monkeypatch.setattr(requests.Session, "send", refuse)


def test_every_client_option_is_a_field_renamed_or_fixed():
    options = set(inspect.signature(_client.VaultClient.__init__).parameters) - {"self"}
    unknown = options - set(_messages.FIELD_IDS) - set(_messages.RENAMED) - set(_messages.FIXED)
    assert not unknown, "the client has options the plugin's messages do not account for: %s" % sorted(unknown)


def _message_texts(module):
    """Every string constant of ``module`` that is not a docstring: the texts its messages are made of."""
    tree = ast.parse(Path(inspect.getsourcefile(module)).read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
        if isinstance(node.body[0], ast.Expr)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


# The modules the client's messages (and their parts) come from, and the account functions.
MESSAGE_MODULES = [_client, _settings, _gates, _connection_errors, _redaction, _write_log, _account]


@pytest.mark.parametrize("module", MESSAGE_MODULES, ids=lambda module: module.__name__.rsplit(".", 1)[-1])
def test_collection_messages_are_translated(module):
    """Every text of the client's and the account functions' messages, whatever path raises it, reads in AWX
    terms; the ones about options the plugin never passes (``FIXED``) cannot reach it."""
    texts = [text for text in _message_texts(module) if " " in text]
    reachable = [text for text in texts if not text.startswith(_messages.FIXED)]
    assert module not in (_client, _settings) or any("ca_path" in text for text in reachable)
    for text in reachable:
        assert not COLLECTION_ONLY.search(_messages.in_awx_terms(text)), text


def test_tls_failure_names_ca_cert(simulators, vault):
    message = failure(**source_inputs(simulators["default"], ca_cert=""), resource=vault["plain"], account="root")
    assert "TLS verification" in message and "ca_cert" in message


def _other_ca(tmp_path):
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=other-ca", "-days", "1"]
        + ["-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
        check=True,
        capture_output=True,
    )
    return (tmp_path / "cert.pem").read_text(), (tmp_path / "key.pem").read_text()


def test_a_ca_that_does_not_sign_the_vault_names_ca_cert_and_url(simulators, vault, tmp_path):
    other, _key = _other_ca(tmp_path)
    message = failure(**source_inputs(simulators["default"], ca_cert=other), resource=vault["plain"], account="r")
    assert "TLS verification" in message and "ca_cert" in message and "(url)" in message


def _not_pem_inputs(tmp_path):
    other, key = _other_ca(tmp_path)
    der = ssl.PEM_cert_to_DER_cert(other)
    return {
        "garbage": "this is not a certificate",
        "private key": key,
        "certificate and its key": other + key,
        "DER bytes": der,
        "DER as text": der.decode("latin-1"),
        "empty PEM block": "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n",
        "broken base64": other.replace(other.splitlines()[2], "!!!!"),
    }


def test_ca_cert_that_is_not_pem_is_refused_before_any_connection(simulators, tmp_path, no_requests):
    for what, ca_cert in _not_pem_inputs(tmp_path).items():
        message = failure(**source_inputs(simulators["default"], ca_cert=ca_cert), resource="r", account="a")
        assert message.startswith(NOT_PEM), (what, message)
        assert "TLS" not in message, (what, message)
        if isinstance(ca_cert, str):
            assert "PRIVATE KEY" not in message and ca_cert.strip().splitlines()[-1] not in message, what


def test_a_pem_bundle_is_accepted(simulators, vault, tmp_path):
    default = simulators["default"]
    other, _key = _other_ca(tmp_path)
    bundle = "# the vault's CA, then another\n" + Path(default["ca_path"]).read_text() + other
    inputs = source_inputs(default, ca_cert=bundle)
    assert credvault_awx.backend(**inputs, resource=vault["plain"], account="root") == PASSWORD


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"url": ""}, "url"),
        ({"url": "http://vault.example"}, "url"),
        ({"url": "https://vault.example/restapi"}, "url"),
        ({"auth_token": ""}, "auth_token"),
        ({"auth_token": "tok\nen"}, "auth_token"),
        ({"org_name": "org\r\nX-Injected: 1"}, "org_name"),
        ({"edition": "C"}, "edition"),
        ({"build": "12x"}, "build"),
        ({"validate_certs": "yes"}, "validate_certs"),
    ],
)
def test_unusable_source_inputs_name_their_field(simulators, inputs, field, no_requests):
    message = failure(**source_inputs(simulators["default"], **inputs), resource="r", account="a")
    assert re.match(r"credvault_vault: %s\b" % field, message), message


def test_unset_url_and_token_name_no_environment_variable(simulators, no_requests):
    inputs = source_inputs(simulators["default"])
    del inputs["url"]
    assert failure(**inputs, resource="r", account="a") == "credvault_vault: url is required"
    inputs = source_inputs(simulators["default"])
    del inputs["auth_token"]
    assert failure(**inputs, resource="r", account="a") == "credvault_vault: auth_token is required"


def test_no_answer_names_url(simulators):
    message = failure(**source_inputs(simulators["default"], url="https://127.0.0.1:1"), resource="r", account="a")
    assert "could not connect" in message and "(url)" in message


def test_vault_failures_name_the_fields_that_decide_them(simulators, vault):
    default, strict = simulators["default"], simulators["strict"]
    missing = failure(**source_inputs(default), resource=vault["plain"], account="nobody")
    assert "resource %s has no account nobody" % vault["plain"] in missing
    refused = failure(
        **source_inputs(default, auth_token=vault["password_user_token"]), resource=vault["plain"], account="root"
    )
    assert "refused" in refused
    wrong_token = failure(**source_inputs(default, auth_token="not-a-token"), resource=vault["plain"], account="r")
    assert "(auth_token)" in wrong_token
    no_ticket = failure(**source_inputs(strict), resource=vault["strict"], account="root", reason="AWX job 42")
    assert "(ticket_id)" in no_ticket
    no_totp = failure(
        **source_inputs(default, edition="B", build="6320"), resource=vault["plain"], account="root", field="totp"
    )
    assert "(field)" in no_totp
