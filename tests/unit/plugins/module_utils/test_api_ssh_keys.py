# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The SSH and PGP key rows of the gateway (``_api.ssh_keys``): the Details sent, the key names of a user split
from the vault's comma-separated text, and key files answered as bytes."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import ssh_keys
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultUnsupportedError
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

PGP_PUBLIC = b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxsBNBF\n-----END PGP PUBLIC KEY BLOCK-----\n"


class FileClient(ScriptedClient):
    """A ScriptedClient (as strict as the client) whose rows in ``files`` answer that file (``content``)."""

    def __init__(self, files, **kwargs):
        super().__init__(dict.fromkeys(files), **kwargs)
        self.files = files

    def call(self, key, path=None, details=None, query=None, files=None):
        super().call(key, path, details, query, files)
        return VaultResponse(None, None, None, None, None, None, 200, {}, self.files[key])


def sent(client):
    return [(key, details) for key, dummy_path, details, dummy_query in client.calls]


@pytest.mark.parametrize(
    "details, names",
    [
        ("deploy, backup ,,  ci", ["deploy", "backup", "ci"]),
        ("deploy", ["deploy"]),
        ("", []),
        (None, []),
        (["deploy", " ", "ci"], ["deploy", "ci"]),
    ],
)
def test_the_key_names_of_a_user_are_split_from_the_comma_separated_details(details, names):
    client = ScriptedClient({"get_ssh_keys_for_user": details})
    assert ssh_keys.get_ssh_keys_for_user(client, "root", "web") == names
    assert sent(client) == [("get_ssh_keys_for_user", {"userName": "root", "resourceName": "web"})]


@pytest.mark.parametrize(
    "keep, details",
    [(False, {"key_name": "deploy"}), (True, {"key_name": "deploy", "withoutDisassociation": "true"})],
)
def test_a_delete_keeps_the_associations_only_when_asked(keep, details):
    client = ScriptedClient({"delete_ssh_key": None})
    ssh_keys.delete_ssh_key(client, "deploy", keep_associations=keep)
    assert sent(client) == [("delete_ssh_key", details)]


def test_associate_and_dissociate_send_the_triple():
    client = ScriptedClient({"associate_ssh_key": None, "dissociate_ssh_key": None})
    ssh_keys.associate_ssh_key(client, "deploy", "web", "root")
    ssh_keys.dissociate_ssh_key(client, "deploy", "db", "admin")
    assert sent(client) == [
        ("associate_ssh_key", {"keyName": "deploy", "resourceName": "web", "userName": "root"}),
        ("dissociate_ssh_key", {"keyName": "deploy", "resourceName": "db", "userName": "admin"}),
    ]


def test_one_key_is_asked_by_name_and_its_items_read():
    client = ScriptedClient({"get_ssh_key": [{"KeyName": "deploy"}, "noise"]})
    assert ssh_keys.get_ssh_key(client, "deploy") == [{"KeyName": "deploy"}]
    assert sent(client) == [("get_ssh_key", {"keyName": "deploy"})]


@pytest.mark.parametrize(
    "content, expected", [(b"ssh-ed25519 AAAA deploy\n", b"ssh-ed25519 AAAA deploy\n"), (None, b"")]
)
def test_an_export_is_the_file_answered_or_empty(content, expected):
    client = FileClient({"export_ssh_key": content})
    assert ssh_keys.export_ssh_key(client, {"keyName": "deploy", "keyExportType": "public"}) == expected


def test_a_pgp_key_is_asked_with_user_and_export_type():
    client = FileClient({"get_pgp_key": PGP_PUBLIC}, edition="B", build=6200)
    assert ssh_keys.get_pgp_key(client, r"Ann \<ann\@example\.com\>", "public") == PGP_PUBLIC
    assert sent(client) == [("get_pgp_key", {"User": r"Ann \<ann\@example\.com\>", "keyExportType": "public"})]


def test_a_pgp_key_is_refused_before_b_6200():
    client = FileClient({"get_pgp_key": PGP_PUBLIC}, edition="B", build=6100)
    with pytest.raises(VaultUnsupportedError, match="build 6200"):
        ssh_keys.get_pgp_key(client, "ann", "public")
    assert client.calls == []
