# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""SSH keys against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

RSA_KEY = {
    "KeyName": "deploy",
    "KeyType": "ssh-rsa",
    "KeyLength": "2048",
    "FingerPrint": "aa:bb",
    "CreatedBy": "admin",
    "CreationTime": "2024-05-02 10:11:12.345",
    "isPassphraseAvailable": True,
}


def desired(**options):
    settings = {"name": "deploy", "state": "present", "recreate": False, "dissociate": True}
    settings.update(options)
    return settings


def ssh_key(client, options, check_mode):
    """``(tracker, key)``: ``vault_ssh_key`` run as the module runs it, and the key it returns."""
    tracker, values = run_entry(_ssh_key.converge, client, options, check_mode)
    return tracker, values["key"]


def key_store(*items):
    """Answers for a key store holding ``items``; creating or importing adds the key as the vault lists it."""
    keys = list(items)

    def get_one(path, details, query):
        found = [item for item in keys if item["KeyName"] == details["keyName"]]
        return found or VaultAPIError("SSH key %s does not exist" % details["keyName"], http_status=200)

    def create(path, details, query):
        keys.append(
            {
                "KeyName": details["keyName"],
                "KeyType": details.get("keyType", "ed25519"),
                "KeyLength": details.get("length", "256"),
                "FingerPrint": "cc:dd",
                "isPassphraseAvailable": bool(details.get("passPhrase") or details.get("passphrase")),
            }
        )

    def delete(path, details, query):
        keys[:] = [item for item in keys if item["KeyName"] != details["key_name"]]

    return {
        "get_all_ssh_keys": lambda path, details, query: list(keys),
        "get_ssh_key": get_one,
        "create_ssh_key": create,
        "import_ssh_key": create,
        "delete_ssh_key": delete,
    }


@pytest.mark.parametrize(
    "key_type, length, expected",
    [("ssh-rsa", 1024, 1024), ("ssh-rsa", 4096, 4096), ("ssh-dss", 1024, 1024), ("ed25519", None, 256)]
    + [("ed25519", 256, 256), ("ecdsa", 256, 256), ("ecdsa", 521, 521)],
)
def test_accepted_combinations(key_type, length, expected):
    assert _ssh_key.check_type_and_length(key_type, length) == expected


@pytest.mark.parametrize(
    "key_type, length, words",
    [
        ("ssh-rsa", 3072, "length 3072 is not accepted for key_type ssh-rsa"),
        ("ssh-dss", 2048, "length 2048 is not accepted for key_type ssh-dss"),
        ("ecdsa", 512, "length 512 is not accepted for key_type ecdsa"),
        ("ed25519", 512, "length 512 is not accepted for key_type ed25519"),
        ("ssh-rsa", None, "key_type ssh-rsa needs a length: 1024, 2048, 4096"),
        ("rsa", 2048, "key_type rsa is not one the vault creates"),
    ],
)
def test_impossible_combination_is_refused_before_any_request(key_type, length, words):
    client = ScriptedClient(key_store())
    with pytest.raises(VaultInputError, match=words) as refused:
        ssh_key(client, desired(key_type=key_type, length=length), False)
    assert _ssh_key.ACCEPTED in str(refused.value) or "needs a length" in str(refused.value)
    assert client.calls == []


def test_create_sends_the_spec_fields_and_reads_the_new_key():
    client = ScriptedClient(key_store())
    tracker, key = ssh_key(
        client, desired(key_type="ssh-rsa", length=2048, passphrase="Pass-phr4se!", comment="me@host"), False
    )
    assert tracker.changed
    assert client.calls[1] == (
        "create_ssh_key",
        None,
        {
            "keyName": "deploy",
            "keyType": "ssh-rsa",
            "passPhrase": "Pass-phr4se!",
            "length": "2048",
            "comment": "me@host",
        },
        None,
    )
    assert client.calls[2][0] == "get_ssh_key"
    assert key["KeyName"] == "deploy" and key["KeyLength"] == "2048"
    assert "Pass-phr4se!" not in repr(tracker.diff())


def test_ed25519_is_created_without_a_length():
    client = ScriptedClient(key_store())
    ssh_key(client, desired(name="ed", key_type="ed25519"), False)
    assert "length" not in client.calls[1][2]


def test_check_mode_creates_nothing():
    client = ScriptedClient(key_store())
    tracker, key = ssh_key(client, desired(key_type="ecdsa", length=384), True)
    assert tracker.changed and key == {}
    assert client.writes() == []


PASSPHRASE_WARNING = "the vault reports only whether a key has a passphrase"
COMMENT_WARNING = "does not report a key's comment"


@pytest.mark.parametrize(
    "options, expected",
    [
        pytest.param({"passphrase": "Other-phr4se!"}, [PASSPHRASE_WARNING], id="passphrase-set"),
        pytest.param({"passphrase": "x", "comment": "me@host"}, [COMMENT_WARNING, PASSPHRASE_WARNING], id="both-set"),
        pytest.param({}, [], id="neither-set"),
    ],
)
def test_what_cannot_be_compared_is_warned_only_when_the_task_sets_it(options, expected):
    key = dict(RSA_KEY, isPassphraseAvailable=bool(options.get("passphrase")))
    client = ScriptedClient(key_store(key))
    tracker, dummy = ssh_key(client, desired(key_type="ssh-rsa", length=2048, **options), False)
    assert not tracker.changed and client.writes() == []
    assert [[words for words in expected if words in warning] for warning in tracker.warnings] == [
        [words] for words in expected
    ]
    assert all("Other-phr4se!" not in warning and "deploy" in warning for warning in tracker.warnings)


def test_a_created_or_recreated_key_warns_of_nothing_it_could_not_compare():
    client = ScriptedClient(key_store(dict(RSA_KEY, KeyLength="4096")))
    options = {"key_type": "ssh-rsa", "length": 2048, "passphrase": "x", "comment": "c", "recreate": True}
    tracker, dummy = ssh_key(client, desired(**options), False)
    assert tracker.changed and tracker.warnings == []
    tracker, dummy = ssh_key(ScriptedClient(key_store()), desired(name="new", **options), False)
    assert tracker.changed and tracker.warnings == []


def test_same_key_is_not_changed_and_comment_warns():
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = ssh_key(
        client, desired(key_type="ssh-rsa", length=2048, passphrase="x", comment="new comment"), False
    )
    assert not tracker.changed and key == RSA_KEY
    assert client.writes() == []
    assert any("does not report a key's comment" in warning for warning in tracker.warnings)


@pytest.mark.parametrize(
    "options, words",
    [
        (
            {"key_type": "ecdsa", "length": 256, "passphrase": "x"},
            "key_type is 'ssh-rsa' in the vault, 'ecdsa' in the task",
        ),
        ({"key_type": "ssh-rsa", "length": 4096, "passphrase": "x"}, "length is 2048 in the vault, 4096 in the task"),
        ({"key_type": "ssh-rsa", "length": 2048}, "passphrase_set is True in the vault, False in the task"),
    ],
)
def test_difference_fails_before_any_write_and_points_to_recreate(options, words):
    client = ScriptedClient(key_store(RSA_KEY))
    with pytest.raises(VaultInputError, match=words) as refused:
        ssh_key(client, desired(**options), False)
    assert "recreate: true" in str(refused.value)
    assert client.writes() == []


def test_recreate_deletes_and_creates_again():
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = ssh_key(client, desired(key_type="ecdsa", length=521, recreate=True), False)
    assert tracker.changed
    assert client.writes() == ["delete_ssh_key", "create_ssh_key"]
    assert key["KeyType"] == "ecdsa" and key["KeyLength"] == "521"


def test_recreate_in_check_mode_writes_nothing():
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = ssh_key(client, desired(key_type="ecdsa", length=521, recreate=True), True)
    assert tracker.changed and key == RSA_KEY
    assert client.writes() == []


@pytest.mark.parametrize(
    "dissociate, sent",
    [(True, {"key_name": "deploy"}), (False, {"key_name": "deploy", "withoutDisassociation": "true"})],
)
def test_delete_maps_dissociate(dissociate, sent):
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = ssh_key(client, desired(state="absent", dissociate=dissociate), False)
    assert tracker.changed and key == {}
    assert client.calls[-1] == ("delete_ssh_key", None, sent, None)


def test_delete_of_missing_key_is_not_changed():
    client = ScriptedClient(key_store())
    tracker, dummy = ssh_key(client, desired(state="absent"), False)
    assert not tracker.changed and client.writes() == []


def private_key_file(tmp_path, passphrase=None):
    key = ed25519.Ed25519PrivateKey.generate()
    encryption = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    path = tmp_path / "id_test"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption))
    return str(path)


def test_import_sends_the_file_and_the_passphrase(tmp_path):
    path = private_key_file(tmp_path, "Imp0rt-pass!")
    client = ScriptedClient(key_store())
    sent = []
    client.answers["import_ssh_key"] = lambda path_, details, query: sent.append(details)
    client.answers["get_ssh_key"] = lambda path_, details, query: [dict(RSA_KEY, KeyName="imp")]
    tracker, key = ssh_key(client, desired(name="imp", src=path, passphrase="Imp0rt-pass!"), False)
    assert tracker.changed and key["KeyName"] == "imp"
    assert sent == [{"keyName": "imp", "passphrase": "Imp0rt-pass!"}]
    assert "Imp0rt-pass!" not in repr(tracker.diff())


def test_imported_key_is_compared_by_fingerprint(tmp_path):
    path = private_key_file(tmp_path, "Imp0rt-pass!")
    fingerprint = _ssh_key.file_fingerprint(open(path, "rb").read(), "Imp0rt-pass!")
    assert fingerprint is not None and len(fingerprint.split(":")) == 16
    same = dict(RSA_KEY, KeyName="imp", KeyType="ed25519", KeyLength="256", FingerPrint=fingerprint)
    client = ScriptedClient(key_store(same))
    tracker, dummy = ssh_key(client, desired(name="imp", src=path, passphrase="Imp0rt-pass!"), False)
    assert not tracker.changed and tracker.warnings == []
    other = dict(same, FingerPrint="00:11")
    client = ScriptedClient(key_store(other))
    with pytest.raises(VaultInputError, match="fingerprint is '00:11' in the vault, '%s' in the task" % fingerprint):
        ssh_key(client, desired(name="imp", src=path, passphrase="Imp0rt-pass!"), False)
    assert client.writes() == []


def test_unreadable_import_file_warns_instead_of_comparing(tmp_path):
    path = private_key_file(tmp_path, "Imp0rt-pass!")
    client = ScriptedClient(key_store(dict(RSA_KEY, KeyName="imp")))
    tracker, dummy = ssh_key(client, desired(name="imp", src=path, passphrase="wrong"), False)
    assert not tracker.changed
    assert any("fingerprint of src could not be computed" in warning for warning in tracker.warnings)


def test_missing_import_file_is_refused_before_any_request(tmp_path):
    client = ScriptedClient(key_store())
    with pytest.raises(VaultInputError, match="src .*nothing-here cannot be read"):
        ssh_key(client, desired(src=str(tmp_path / "nothing-here")), False)
    assert client.calls == []


def test_import_with_comment_is_refused(tmp_path):
    client = ScriptedClient(key_store())
    with pytest.raises(VaultInputError, match="remove key_type, length and comment"):
        ssh_key(client, desired(src=private_key_file(tmp_path), comment="x"), False)


def test_create_without_type_is_refused():
    with pytest.raises(VaultInputError, match="key_type or src is needed"):
        ssh_key(ScriptedClient(key_store()), desired(), False)
