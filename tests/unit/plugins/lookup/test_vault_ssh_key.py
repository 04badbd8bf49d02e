# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_ssh_key: public by default, private only when asked, default= for a missing key only,
"not found" and "refused" keeping the vault's words, no key material in any message."""

from __future__ import annotations

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultConnectionError
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit import fakes
from ansible_collections.credvault.vault.tests.unit.plugins.plugin_utils.test_key_export import (
    KEYS,
    PRIVATE_FILE,
    PUBLIC_FILE,
)

CONNECTION = {"url": "https://vault.example:7272", "auth_token": "TOKEN-SECRET-78"}
UNSUPPORTED = VaultAPIError(
    "UNSUPPORTED failed (HTTP 404): POST /api/pki/restapi/exportSSHKey with keyExportType is not supported",
    http_status=404,
    vault_message="POST /api/pki/restapi/exportSSHKey with keyExportType is not supported",
)


def export(path, details, query):
    """The key file of ``details``: the private key unless keyExportType is public."""
    return PUBLIC_FILE if details.get("keyExportType") == "public" else PRIVATE_FILE


@pytest.fixture
def lookup(lookup_plugin, vault, monkeypatch):
    """``lookup(*terms, **kwargs)``: run() against a vault holding the keys ``KEYS``; file answers are bytes."""
    scripted_call = fakes.ScriptedClient.call

    def call(self, key, path=None, details=None, query=None, files=None):
        self.check_supported(key, details)
        answer = self.answers[key]
        answer = answer(path, details, query) if callable(answer) else answer
        if not isinstance(answer, bytes):
            return scripted_call(self, key, path, details, query, files)
        self.calls.append((key, path, details, query))
        return VaultResponse(None, None, None, None, None, None, 200, {}, answer)

    monkeypatch.setattr(fakes.ScriptedClient, "call", call)
    vault.answers.update({"get_all_ssh_keys": KEYS, "export_ssh_key": export})

    def run(*terms, **kwargs):
        return lookup_plugin("vault_ssh_key").run(list(terms), variables={}, **dict(CONNECTION, **kwargs))

    return run


def failure(run, *terms, **kwargs):
    with pytest.raises(AnsibleLookupError) as caught:
        run(*terms, **kwargs)
    message = str(caught.value)
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in message and "AAAAC3Nz" not in message and "TOKEN-SECRET" not in message
    return message


def exported(vault):
    return [details for key, path, details, query in vault.calls if key == "export_ssh_key"]


def test_the_public_key_line_is_returned_by_default(lookup, vault):
    assert lookup("deploy") == [PUBLIC_FILE.decode().strip()]
    assert exported(vault) == [{"keyName": "deploy", "keyExportType": "public"}]


@pytest.mark.parametrize("kwargs", [{"private": True}, {"type": "private"}])
def test_the_private_key_only_when_asked(lookup, vault, kwargs):
    assert lookup("deploy", **kwargs) == [PRIVATE_FILE.decode()]
    assert exported(vault) == [{"keyName": "deploy"}]


def test_several_keys_and_lists_in_one_session(lookup, vault):
    assert lookup("deploy", ["other"]) == [PUBLIC_FILE.decode().strip()] * 2
    assert len(vault.clients) == 1 and vault.clients[0].closed


def test_a_missing_key_is_not_found_or_the_default(lookup, vault):
    assert "not found: SSH key gone does not exist" in failure(lookup, "gone")
    assert lookup("gone", "deploy", default="") == ["", PUBLIC_FILE.decode().strip()]
    assert [details["keyName"] for details in exported(vault)] == ["deploy"]


def test_a_refusal_keeps_the_vaults_words_and_ignores_the_default(lookup, vault):
    vault.answers["export_ssh_key"] = UNSUPPORTED
    message = failure(lookup, "deploy", default="")
    assert "the vault refused the public key of deploy" in message
    assert "exportSSHKey with keyExportType is not supported" in message


def test_a_refused_listing_is_a_refusal_not_a_missing_key(lookup, vault):
    vault.answers["get_all_ssh_keys"] = VaultAPIError("GetAllSSHKeys failed: You are not authorized to view SSH keys")
    assert "refused the public key of deploy: GetAllSSHKeys failed: You are not" in failure(
        lookup, "deploy", default=""
    )


def test_a_public_export_holding_a_private_key_is_never_returned(lookup, vault):
    vault.answers["export_ssh_key"] = PRIVATE_FILE
    assert "returned a private key file for the public key of SSH key deploy" in failure(lookup, "deploy")


def test_an_unreachable_vault_fails(lookup, vault):
    vault.answers["get_all_ssh_keys"] = VaultConnectionError("cannot reach the vault")
    assert "could not read the public key of deploy: cannot reach the vault" in failure(lookup, "deploy", default="")


@pytest.mark.parametrize("terms, message", [((), "no SSH key given"), ((3,), "a term must be a string")])
def test_bad_terms_fail(lookup, terms, message):
    assert message in failure(lookup, *terms)


def test_a_private_key_returned_is_registered_as_a_secret(lookup, registered):
    assert registered == [] and lookup("deploy", private=True) == [PRIVATE_FILE.decode()]
    assert registered == [CONNECTION["auth_token"], PRIVATE_FILE.decode()]


def test_a_public_key_is_no_secret_and_is_not_registered(lookup, registered):
    assert lookup("deploy") == [PUBLIC_FILE.decode().strip()]
    assert registered == [CONNECTION["auth_token"]]


def test_the_default_of_a_missing_private_key_is_not_registered(lookup, registered):
    assert lookup("deploy", "missing", private=True, default="-") == [PRIVATE_FILE.decode(), "-"]
    assert registered == [CONNECTION["auth_token"], PRIVATE_FILE.decode()]
