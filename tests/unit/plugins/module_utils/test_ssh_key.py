# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""SSH keys and their associations against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

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
        _ssh_key.ensure(client, desired(key_type=key_type, length=length), False)
    assert _ssh_key.ACCEPTED in str(refused.value) or "needs a length" in str(refused.value)
    assert client.calls == []


def test_create_sends_the_spec_fields_and_reads_the_new_key():
    client = ScriptedClient(key_store())
    tracker, key = _ssh_key.ensure(
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
    _ssh_key.ensure(client, desired(name="ed", key_type="ed25519"), False)
    assert "length" not in client.calls[1][2]


def test_check_mode_creates_nothing():
    client = ScriptedClient(key_store())
    tracker, key = _ssh_key.ensure(client, desired(key_type="ecdsa", length=384), True)
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
    tracker, dummy = _ssh_key.ensure(client, desired(key_type="ssh-rsa", length=2048, **options), False)
    assert not tracker.changed and client.writes() == []
    assert [[words for words in expected if words in warning] for warning in tracker.warnings] == [
        [words] for words in expected
    ]
    assert all("Other-phr4se!" not in warning and "deploy" in warning for warning in tracker.warnings)


def test_a_created_or_recreated_key_warns_of_nothing_it_could_not_compare():
    client = ScriptedClient(key_store(dict(RSA_KEY, KeyLength="4096")))
    options = {"key_type": "ssh-rsa", "length": 2048, "passphrase": "x", "comment": "c", "recreate": True}
    tracker, dummy = _ssh_key.ensure(client, desired(**options), False)
    assert tracker.changed and tracker.warnings == []
    tracker, dummy = _ssh_key.ensure(ScriptedClient(key_store()), desired(name="new", **options), False)
    assert tracker.changed and tracker.warnings == []


def test_same_key_is_not_changed_and_comment_warns():
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = _ssh_key.ensure(
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
            "key_type is ssh-rsa in the vault, ecdsa in the task",
        ),
        ({"key_type": "ssh-rsa", "length": 4096, "passphrase": "x"}, "length is 2048 in the vault, 4096 in the task"),
        ({"key_type": "ssh-rsa", "length": 2048}, "passphrase_set is True in the vault, False in the task"),
    ],
)
def test_difference_fails_before_any_write_and_points_to_recreate(options, words):
    client = ScriptedClient(key_store(RSA_KEY))
    with pytest.raises(VaultInputError, match=words) as refused:
        _ssh_key.ensure(client, desired(**options), False)
    assert "recreate: true" in str(refused.value)
    assert client.writes() == []


def test_recreate_deletes_and_creates_again():
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = _ssh_key.ensure(client, desired(key_type="ecdsa", length=521, recreate=True), False)
    assert tracker.changed
    assert client.writes() == ["delete_ssh_key", "create_ssh_key"]
    assert key["KeyType"] == "ecdsa" and key["KeyLength"] == "521"


def test_recreate_in_check_mode_writes_nothing():
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = _ssh_key.ensure(client, desired(key_type="ecdsa", length=521, recreate=True), True)
    assert tracker.changed and key == RSA_KEY
    assert client.writes() == []


@pytest.mark.parametrize(
    "dissociate, sent",
    [(True, {"key_name": "deploy"}), (False, {"key_name": "deploy", "withoutDisassociation": "true"})],
)
def test_delete_maps_dissociate(dissociate, sent):
    client = ScriptedClient(key_store(RSA_KEY))
    tracker, key = _ssh_key.ensure(client, desired(state="absent", dissociate=dissociate), False)
    assert tracker.changed and key == {}
    assert client.calls[-1] == ("delete_ssh_key", None, sent, None)


def test_delete_of_missing_key_is_not_changed():
    client = ScriptedClient(key_store())
    tracker, dummy = _ssh_key.ensure(client, desired(state="absent"), False)
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
    tracker, key = _ssh_key.ensure(client, desired(name="imp", private_key_src=path, passphrase="Imp0rt-pass!"), False)
    assert tracker.changed and key["KeyName"] == "imp"
    assert sent == [{"keyName": "imp", "passphrase": "Imp0rt-pass!"}]
    assert "Imp0rt-pass!" not in repr(tracker.diff())


def test_imported_key_is_compared_by_fingerprint(tmp_path):
    path = private_key_file(tmp_path, "Imp0rt-pass!")
    fingerprint = _ssh_key.file_fingerprint(open(path, "rb").read(), "Imp0rt-pass!")
    assert fingerprint is not None and len(fingerprint.split(":")) == 16
    same = dict(RSA_KEY, KeyName="imp", KeyType="ed25519", KeyLength="256", FingerPrint=fingerprint)
    client = ScriptedClient(key_store(same))
    tracker, dummy = _ssh_key.ensure(
        client, desired(name="imp", private_key_src=path, passphrase="Imp0rt-pass!"), False
    )
    assert not tracker.changed and tracker.warnings == []
    other = dict(same, FingerPrint="00:11")
    client = ScriptedClient(key_store(other))
    with pytest.raises(VaultInputError, match="fingerprint is 00:11 in the vault, %s in the task" % fingerprint):
        _ssh_key.ensure(client, desired(name="imp", private_key_src=path, passphrase="Imp0rt-pass!"), False)
    assert client.writes() == []


def test_unreadable_import_file_warns_instead_of_comparing(tmp_path):
    path = private_key_file(tmp_path, "Imp0rt-pass!")
    client = ScriptedClient(key_store(dict(RSA_KEY, KeyName="imp")))
    tracker, dummy = _ssh_key.ensure(client, desired(name="imp", private_key_src=path, passphrase="wrong"), False)
    assert not tracker.changed
    assert any("fingerprint of private_key_src could not be computed" in warning for warning in tracker.warnings)


def test_missing_import_file_is_refused_before_any_request(tmp_path):
    client = ScriptedClient(key_store())
    with pytest.raises(VaultInputError, match="private_key_src .*nothing-here cannot be read"):
        _ssh_key.ensure(client, desired(private_key_src=str(tmp_path / "nothing-here")), False)
    assert client.calls == []


def test_import_with_comment_is_refused(tmp_path):
    client = ScriptedClient(key_store())
    with pytest.raises(VaultInputError, match="remove key_type, length and comment"):
        _ssh_key.ensure(client, desired(private_key_src=private_key_file(tmp_path), comment="x"), False)


def test_create_without_type_is_refused():
    with pytest.raises(VaultInputError, match="key_type or private_key_src is needed"):
        _ssh_key.ensure(ScriptedClient(key_store()), desired(), False)


def test_info_lists_reads_one_and_splits_key_names():
    answers = key_store(RSA_KEY)
    answers["get_ssh_keys_for_user"] = lambda path, details, query: "deploy, backup,"
    answers["get_all_associated_users"] = lambda path, details, query: [{"UserName": "root", "ResourceName": "web"}]
    client = ScriptedClient(answers)
    assert _ssh_key.describe(client, {}) == {"ssh_keys": [RSA_KEY]}
    assert _ssh_key.describe(client, {"name": "deploy"}) == {"exists": True, "key": RSA_KEY}
    assert _ssh_key.describe(client, {"name": "gone"}) == {"exists": False, "key": {}}
    assert _ssh_key.describe(client, {"user": "root", "resource": "web"}) == {"key_names": ["deploy", "backup"]}
    assert client.calls[-1] == ("get_ssh_keys_for_user", None, {"userName": "root", "resourceName": "web"}, None)
    assert _ssh_key.describe(client, {"associations": True}) == {
        "associations": [{"UserName": "root", "ResourceName": "web"}]
    }


def test_info_raises_a_refused_read_of_a_listed_key():
    answers = key_store(RSA_KEY)
    answers["get_ssh_key"] = VaultAPIError("not allowed", http_status=200)
    with pytest.raises(VaultAPIError, match="not allowed"):
        _ssh_key.describe(ScriptedClient(answers), {"name": "deploy"})


def association_store(triples, keys=("k1", "k2")):
    """Answers for associations ``triples`` (key, resource, user); associate and dissociate change them."""
    held = [list(triple) for triple in triples]

    def pairs(path, details, query):
        found = []
        for dummy_key, resource, user in held:
            if {"UserName": user, "ResourceName": resource} not in found:
                found.append({"UserName": user, "ResourceName": resource})
        return found

    def of_user(path, details, query):
        return ",".join(k for k, r, u in held if (r, u) == (details["resourceName"], details["userName"]))

    def associate(path, details, query):
        held.append([details["keyName"], details["resourceName"], details["userName"]])

    def dissociate(path, details, query):
        held.remove([details["keyName"], details["resourceName"], details["userName"]])

    return {
        "get_all_ssh_keys": [{"KeyName": name} for name in keys],
        "get_all_associated_users": pairs,
        "get_ssh_keys_for_user": of_user,
        "associate_ssh_key": associate,
        "dissociate_ssh_key": dissociate,
    }


def wanted(*triples, **options):
    settings = {"state": "present", "purge": False}
    settings.update(options)
    settings["associations"] = [{"key": k, "resource": r, "user": u} for k, r, u in triples]
    return settings


def test_associate_the_missing_triples_only_then_converged():
    client = ScriptedClient(association_store([("k1", "web", "root")]))
    tracker, result = _ssh_key.converge_associations(
        client, wanted(("k1", "web", "root"), ("k2", "web", "root")), False
    )
    assert tracker.changed
    assert result["added"] == [{"key": "k2", "resource": "web", "user": "root"}] and result["removed"] == []
    assert client.writes() == ["associate_ssh_key"]
    client.calls = []
    tracker, result = _ssh_key.converge_associations(
        client, wanted(("k1", "web", "root"), ("k2", "web", "root")), False
    )
    assert not tracker.changed and client.writes() == []
    assert [call[0] for call in client.calls] == [
        "get_all_ssh_keys",
        "get_all_associated_users",
        "get_ssh_keys_for_user",
    ]


def test_purge_removes_other_associations_of_the_listed_keys_only():
    client = ScriptedClient(association_store([("k1", "web", "root"), ("k1", "db", "admin"), ("k2", "db", "admin")]))
    tracker, result = _ssh_key.converge_associations(client, wanted(("k1", "web", "root"), purge=True), False)
    assert tracker.changed
    assert result["removed"] == [{"key": "k1", "resource": "db", "user": "admin"}]
    assert {"key": "k2", "resource": "db", "user": "admin"} in result["associations"]
    assert client.writes() == ["dissociate_ssh_key"]


def test_absent_dissociates_listed_triples_that_exist():
    client = ScriptedClient(association_store([("k1", "web", "root")]))
    tracker, result = _ssh_key.converge_associations(
        client, wanted(("k1", "web", "root"), ("k2", "web", "root"), state="absent"), False
    )
    assert tracker.changed and result["removed"] == [{"key": "k1", "resource": "web", "user": "root"}]
    assert client.writes() == ["dissociate_ssh_key"]
    assert client.calls[-1][2] == {"keyName": "k1", "resourceName": "web", "userName": "root"}


def test_association_check_mode_writes_nothing():
    client = ScriptedClient(association_store([("k1", "web", "root")]))
    tracker, result = _ssh_key.converge_associations(client, wanted(("k2", "web", "root"), purge=True), True)
    assert tracker.changed and client.writes() == []
    assert result["associations"] == [
        {"key": "k1", "resource": "web", "user": "root"},
        {"key": "k2", "resource": "web", "user": "root"},
    ]


def test_unknown_key_fails_before_any_write_and_warns_in_check_mode():
    client = ScriptedClient(association_store([], keys=("k1",)))
    with pytest.raises(VaultNotFoundError, match="SSH keys nope do not exist"):
        _ssh_key.converge_associations(client, wanted(("nope", "web", "root")), False)
    assert client.writes() == []
    tracker, dummy = _ssh_key.converge_associations(client, wanted(("nope", "web", "root")), True)
    assert tracker.changed and "do not exist yet" in tracker.warnings[0]


def test_purge_with_absent_and_padded_names_are_refused():
    client = ScriptedClient(association_store([]))
    with pytest.raises(VaultInputError, match="purge only applies to state: present"):
        _ssh_key.converge_associations(client, wanted(("k1", "web", "root"), state="absent", purge=True), False)
    with pytest.raises(VaultInputError, match="associations 1 user"):
        _ssh_key.converge_associations(client, wanted(("k1", "web", "root ")), False)
    assert client.calls == []
