# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Associations of SSH keys against a scripted client: what is sent, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key_association
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError, VaultNotFoundError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry


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
    tracker, result = run_entry(
        _ssh_key_association.converge, client, wanted(("k1", "web", "root"), ("k2", "web", "root")), False
    )
    assert tracker.changed
    assert result["added"] == [{"key": "k2", "resource": "web", "user": "root"}] and result["removed"] == []
    assert client.writes() == ["associate_ssh_key"]
    client.calls = []
    tracker, result = run_entry(
        _ssh_key_association.converge, client, wanted(("k1", "web", "root"), ("k2", "web", "root")), False
    )
    assert not tracker.changed and client.writes() == []
    assert [call[0] for call in client.calls] == [
        "get_all_ssh_keys",
        "get_all_associated_users",
        "get_ssh_keys_for_user",
    ]


def test_purge_removes_other_associations_of_the_listed_keys_only():
    client = ScriptedClient(association_store([("k1", "web", "root"), ("k1", "db", "admin"), ("k2", "db", "admin")]))
    tracker, result = run_entry(_ssh_key_association.converge, client, wanted(("k1", "web", "root"), purge=True), False)
    assert tracker.changed
    assert result["removed"] == [{"key": "k1", "resource": "db", "user": "admin"}]
    assert {"key": "k2", "resource": "db", "user": "admin"} in result["associations"]
    assert client.writes() == ["dissociate_ssh_key"]


def test_absent_dissociates_listed_triples_that_exist():
    client = ScriptedClient(association_store([("k1", "web", "root")]))
    tracker, result = run_entry(
        _ssh_key_association.converge,
        client,
        wanted(("k1", "web", "root"), ("k2", "web", "root"), state="absent"),
        False,
    )
    assert tracker.changed and result["removed"] == [{"key": "k1", "resource": "web", "user": "root"}]
    assert client.writes() == ["dissociate_ssh_key"]
    assert client.calls[-1][2] == {"keyName": "k1", "resourceName": "web", "userName": "root"}


def test_association_check_mode_writes_nothing():
    client = ScriptedClient(association_store([("k1", "web", "root")]))
    tracker, result = run_entry(_ssh_key_association.converge, client, wanted(("k2", "web", "root"), purge=True), True)
    assert tracker.changed and client.writes() == []
    assert result["associations"] == [
        {"key": "k1", "resource": "web", "user": "root"},
        {"key": "k2", "resource": "web", "user": "root"},
    ]


def test_unknown_key_fails_before_any_write_and_warns_in_check_mode():
    client = ScriptedClient(association_store([], keys=("k1",)))
    with pytest.raises(
        VaultNotFoundError,
        match=r"^SSH keys nope do not exist \(or are not visible to this token\); nothing was changed$",
    ):
        run_entry(_ssh_key_association.converge, client, wanted(("nope", "web", "root")), False)
    assert client.writes() == []
    tracker, dummy = run_entry(_ssh_key_association.converge, client, wanted(("nope", "web", "root")), True)
    assert tracker.changed and "do not exist yet" in tracker.warnings[0]


def test_purge_with_absent_and_padded_names_are_refused():
    client = ScriptedClient(association_store([]))
    with pytest.raises(VaultInputError, match="purge only applies to state: present"):
        run_entry(
            _ssh_key_association.converge, client, wanted(("k1", "web", "root"), state="absent", purge=True), False
        )
    with pytest.raises(VaultInputError, match="associations 1 user"):
        run_entry(_ssh_key_association.converge, client, wanted(("k1", "web", "root ")), False)
    assert client.calls == []
