# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""SSH key export and PGP key fetch: what is sent (keyExportType only where the vault has it, the escaped user
identity), refusals before sending, a missing key, and the check of the file's kind."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.plugins.plugin_utils import _pgp_key_export as pgp
from ansible_collections.credvault.vault.plugins.plugin_utils import _ssh_key_export as ssh
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

PRIVATE_FILE = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
PUBLIC_FILE = b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ deploy@example\n"
PGP_PUBLIC = b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxsBNBF\n=AbCd\n-----END PGP PUBLIC KEY BLOCK-----\n"
PGP_PRIVATE = b"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nxcLYBF\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----\n"
KEYS = [{"KeyName": "deploy", "KeyType": "ed25519"}, {"KeyName": "other"}]


def file_client(answers, edition=None, build=None):
    """A ScriptedClient whose answers given as bytes are a file answer (``content``)."""
    return ScriptedClient(
        {
            key: VaultResponse(None, None, None, None, None, None, 200, {}, answer)
            if isinstance(answer, bytes)
            else answer
            for key, answer in answers.items()
        },
        edition,
        build,
    )


def ssh_client(content, edition=None, build=None):
    return file_client({"get_all_ssh_keys": KEYS, "export_ssh_key": content}, edition, build)


def sent(client, key):
    return [details for called, path, details, query in client.calls if called == key]


@pytest.mark.parametrize(
    "edition, build, export_type, content, details",
    [
        ("B", 6320, "public", PUBLIC_FILE, {"keyName": "deploy", "keyExportType": "public"}),
        ("B", 6200, "private", PRIVATE_FILE, {"keyName": "deploy", "keyExportType": "private"}),
        ("B", 6100, "private", PRIVATE_FILE, {"keyName": "deploy"}),
        ("A", 12450, "private", PRIVATE_FILE, {"keyName": "deploy"}),
        (None, None, "private", PRIVATE_FILE, {"keyName": "deploy"}),
        (None, None, "public", PUBLIC_FILE, {"keyName": "deploy", "keyExportType": "public"}),
    ],
)
def test_key_export_type_is_sent_for_public_keys_and_where_the_vault_has_it(
    edition, build, export_type, content, details
):
    client = ssh_client(content, edition, build)
    assert ssh.export_ssh_key(client, "deploy", export_type) == content
    assert sent(client, "export_ssh_key") == [details]
    assert [call[0] for call in client.calls] == ["get_all_ssh_keys", "export_ssh_key"]


@pytest.mark.parametrize("edition, build", [("A", 12450), ("B", 6100)])
def test_a_public_key_without_key_export_type_is_refused_before_sending(edition, build):
    client = ssh_client(PUBLIC_FILE, edition, build)
    with pytest.raises(VaultUnsupportedError, match="field keyExportType needs edition B from build 6200"):
        ssh.export_ssh_key(client, "deploy", "public")
    assert client.calls == []


def test_a_key_the_vault_does_not_list_is_not_found_and_not_exported():
    client = ssh_client(PRIVATE_FILE)
    with pytest.raises(VaultNotFoundError, match="SSH key gone does not exist"):
        ssh.export_ssh_key(client, "gone", "private")
    assert sent(client, "export_ssh_key") == []


def test_a_refused_listing_keeps_the_vaults_words():
    refusal = VaultAPIError("GetAllSSHKeys failed: You are not authorized to view SSH keys")
    client = file_client({"get_all_ssh_keys": refusal, "export_ssh_key": PRIVATE_FILE})
    with pytest.raises(VaultAPIError, match="not authorized to view SSH keys"):
        ssh.export_ssh_key(client, "deploy", "private")


@pytest.mark.parametrize(
    "export_type, content, message",
    [
        ("public", PRIVATE_FILE, "returned a private key file for the public key"),
        ("private", PUBLIC_FILE, "returned no private key file"),
        ("private", b" \n", "returned an empty file"),
    ],
)
def test_a_file_of_the_wrong_kind_is_refused_without_showing_it(export_type, content, message):
    with pytest.raises(VaultResponseError, match=message) as caught:
        ssh.export_ssh_key(ssh_client(content), "deploy", export_type)
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in str(caught.value) and "AAAAC3Nz" not in str(caught.value)


@pytest.mark.parametrize("character", list('()<>[]:;@\\,."'))
def test_every_special_character_of_the_identity_is_escaped(character):
    assert pgp.escape_identity("a%sb" % character) == "a\\%sb" % character


def test_other_characters_are_sent_as_they_are():
    assert pgp.escape_identity("Zoë O'Hara-Smith_2 +ops/é #1!") == "Zoë O'Hara-Smith_2 +ops/é #1!"


def test_the_pgp_key_is_fetched_with_the_escaped_identity():
    client = file_client({"get_pgp_key": PGP_PUBLIC})
    assert pgp.export_pgp_key(client, 'Jane "JD" Doe <jdoe@example.com>', "public") == PGP_PUBLIC
    assert sent(client, "get_pgp_key") == [
        {"User": 'Jane \\"JD\\" Doe \\<jdoe\\@example\\.com\\>', "keyExportType": "public"}
    ]


@pytest.mark.parametrize("export_type, content", [("public", PGP_PUBLIC), ("private", PGP_PRIVATE)])
def test_both_pgp_key_kinds_are_accepted(export_type, content):
    assert pgp.export_pgp_key(file_client({"get_pgp_key": content}), "admin", export_type) == content


def test_a_public_pgp_fetch_holding_a_private_key_is_refused():
    with pytest.raises(VaultResponseError, match="private key file for the public key of the PGP key of admin"):
        pgp.export_pgp_key(file_client({"get_pgp_key": PGP_PRIVATE}), "admin", "public")


@pytest.mark.parametrize("edition, build", [("A", 12450), ("B", 6100)])
def test_the_pgp_key_is_refused_before_sending_where_the_vault_lacks_it(edition, build):
    client = file_client({"get_pgp_key": PGP_PUBLIC}, edition, build)
    with pytest.raises(VaultUnsupportedError, match="needs edition B from build 6200"):
        pgp.export_pgp_key(client, "admin", "public")
    assert client.calls == []
