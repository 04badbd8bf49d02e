# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parallel runs of every creating domain: the find and the create hold the object's lock, and a create or change the
vault refuses because a parallel run made it first converges (no failure, no change) after one more read."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization

from ansible_collections.credvault.vault.plugins.module_utils import (
    _certificate,
    _csr,
    _password_request,
    _ssh_key,
    _ssh_key_association,
    _user_group,
)
from ansible_collections.credvault.vault.plugins.module_utils._account import Account
from ansible_collections.credvault.vault.plugins.module_utils._converge import CreatedMeanwhile
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.plugins.module_utils._task import Task
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, lock_held, run_entry
from ansible_collections.credvault.vault.tests.unit.plugins.module_utils import (
    test_certificate,
    test_converge,
    test_csr,
    test_password_request,
    test_ssh_key,
    test_ssh_key_association,
)


def refused(message, operation="OP"):
    return VaultAPIError(
        "%s failed: %s" % (operation, message), operation=operation, http_status=200, vault_message=message
    )


def answered_while_locked(client, kind, identity, answer):
    """An answer that records whether the object's lock was held when the request came."""
    seen = []

    def respond(path, details, query):
        seen.append(lock_held(client, kind, identity))
        return answer(path, details, query) if callable(answer) else answer

    return respond, seen


# --- the converge base (resources, accounts, resource groups, users, SSH keys) --------------------------------------


class Watched(test_converge.Toy):
    """The toy object, noting whether its lock is held when it finds and creates."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.held = []

    def find(self):
        self.held.append(("find", lock_held(self.client, self.KIND, ("t1",))))
        return super().find()

    def create(self, handle, tracker):
        self.held.append(("create", lock_held(self.client, self.KIND, ("t1",))))
        return super().create(handle, tracker)


def test_the_base_holds_the_lock_over_find_and_create_and_releases_it():
    toy = Watched({"name": "t1", "colour": "red"})
    after = toy.ensure()
    assert toy.task.tracker.changed and after == {"COLOUR": "red"}
    assert toy.held == [("find", True), ("create", True)]
    assert not lock_held(toy.client, "toy", ("t1",))


def test_check_mode_takes_no_lock():
    toy = Watched({"name": "t1", "colour": "red"}, check_mode=True)
    toy.ensure()
    assert toy.held == [("find", False), ("create", False)]


def test_a_refused_create_is_created_meanwhile_when_the_object_is_found_then():
    toy = test_converge.Toy({"name": "t1"}, store={"t1": {}})
    found = toy.created_meanwhile(refused("Toy t1 already exists"))
    assert isinstance(found, CreatedMeanwhile) and found.handle == "t1"
    gone = test_converge.Toy({"name": "t1"})
    refusal = refused("Toy t1 already exists")
    assert gone.created_meanwhile(refusal) is refusal
    not_yours = VaultAPIError("no", http_status=403, vault_message="You are not authorized")
    assert toy.created_meanwhile(not_yours) is not_yours


def test_the_account_lock_names_its_resource():
    account = Account(Task(ScriptedClient({}), {"resource": "web", "name": "root"}, False))
    assert account.lock_identity == ("web", "root")


# --- SSH keys and their associations -------------------------------------------------------------------------------


def test_an_ssh_key_created_meanwhile_is_found_not_failed():
    answers = test_ssh_key.key_store()
    create = answers["create_ssh_key"]

    def lost(path, details, query):
        create(path, details, query)  # the other run's key
        return refused("SSH key deploy already exists", "CreateSSHKey")

    answers["create_ssh_key"] = lost
    client = ScriptedClient(answers)
    tracker, values = run_entry(_ssh_key.converge, client, test_ssh_key.desired(key_type="ssh-rsa", length=2048))
    assert not tracker.changed and values["key"]["KeyName"] == "deploy"


def test_an_ssh_key_refused_for_another_reason_fails():
    answers = test_ssh_key.key_store()
    answers["create_ssh_key"] = refused("The key length is not allowed", "CreateSSHKey")
    with pytest.raises(VaultAPIError, match="not allowed"):
        run_entry(_ssh_key.converge, ScriptedClient(answers), test_ssh_key.desired(key_type="ssh-rsa", length=2048))


def test_the_ssh_key_is_created_under_its_lock():
    client = ScriptedClient(test_ssh_key.key_store())
    client.answers["create_ssh_key"], seen = answered_while_locked(
        client, "SSH key", ("deploy",), client.answers["create_ssh_key"]
    )
    run_entry(_ssh_key.converge, client, test_ssh_key.desired(key_type="ssh-rsa", length=2048))
    assert seen == [True]


def test_an_association_made_meanwhile_is_no_failure_and_no_change():
    answers = test_ssh_key_association.association_store([])
    associate = answers["associate_ssh_key"]

    def lost(path, details, query):
        associate(path, details, query)  # the other run's association
        return refused("SSH key k1 is already associated with user root on resource web", "associateKey")

    answers["associate_ssh_key"] = lost
    client = ScriptedClient(answers)
    tracker, result = run_entry(
        _ssh_key_association.converge, client, test_ssh_key_association.wanted(("k1", "web", "root")), False
    )
    assert not tracker.changed and result["added"] == []
    assert result["associations"] == [{"key": "k1", "resource": "web", "user": "root"}]


def test_a_dissociation_made_meanwhile_is_no_failure_and_no_change():
    answers = test_ssh_key_association.association_store([("k1", "web", "root")])
    dissociate = answers["dissociate_ssh_key"]

    def lost(path, details, query):
        dissociate(path, details, query)
        return refused("SSH key k1 is not associated with user root on resource web", "dissociateKey")

    answers["dissociate_ssh_key"] = lost
    client = ScriptedClient(answers)
    wanted = test_ssh_key_association.wanted(("k1", "web", "root"), state="absent")
    tracker, result = run_entry(_ssh_key_association.converge, client, wanted, False)
    assert not tracker.changed and result["removed"] == [] and result["associations"] == []


def test_a_refused_association_that_is_not_there_then_fails():
    answers = test_ssh_key_association.association_store([])
    answers["associate_ssh_key"] = refused("User root does not exist on resource web", "associateKey")
    with pytest.raises(VaultAPIError, match="does not exist"):
        run_entry(
            _ssh_key_association.converge,
            ScriptedClient(answers),
            test_ssh_key_association.wanted(("k1", "web", "root")),
            False,
        )


def test_associations_are_read_and_made_under_their_locks():
    client = ScriptedClient(test_ssh_key_association.association_store([]))
    triples = [("k1", "web", "root"), ("k2", "web", "root")]
    for key in ("get_all_associated_users", "associate_ssh_key"):
        client.answers[key], seen = answered_while_locked(
            client, "SSH key association", triples[0], client.answers[key]
        )
        client.answers[key], seen_too = answered_while_locked(
            client, "SSH key association", triples[1], client.answers[key]
        )
        run_entry(
            _ssh_key_association.converge, client, test_ssh_key_association.wanted(*triples, state="absent"), False
        )
        run_entry(_ssh_key_association.converge, client, test_ssh_key_association.wanted(*triples), False)
        assert seen and all(seen) and all(seen_too), key


# --- certificates ---------------------------------------------------------------------------------------------------


def test_a_certificate_from_fields_is_found_and_created_under_its_lock():
    client = test_certificate.scripted_client()
    seen = {}
    for key in ("get_all_ssl_certificates", "create_certificate"):
        client.answers[key], seen[key] = answered_while_locked(
            client, "certificate", ("www.example.com",), client.answers[key]
        )
    run_entry(_certificate.converge, client, test_certificate.params(common_name="WWW.example.com"), False)
    assert seen["get_all_ssl_certificates"] and all(seen["get_all_ssl_certificates"])
    assert seen["create_certificate"] == [True]
    assert not lock_held(client, "certificate", ("www.example.com",))


def test_a_certificate_file_added_meanwhile_is_unchanged(tmp_path):
    path = tmp_path / "c.pem"
    path.write_bytes(test_certificate.self_signed()[1].public_bytes(serialization.Encoding.PEM))
    client = test_certificate.scripted_client()

    def lost(path, details, query):
        client.store.append(test_certificate.listed("file.example.com", serial="abc"))  # the other run's
        return refused("Certificate file.example.com (serial number abc) is already in the vault", "AddCertificate")

    client.answers["add_certificate"] = lost
    options = test_certificate.params(common_name="file.example.com", src=str(path))
    tracker, values = run_entry(_certificate.converge, client, options, False)
    assert not tracker.changed and values["certificate"]["serialNumber"] == "abc" and not tracker.warnings


def test_a_certificate_file_refused_as_a_duplicate_but_not_listed_fails(tmp_path):
    path = tmp_path / "c.pem"
    path.write_bytes(test_certificate.self_signed()[1].public_bytes(serialization.Encoding.PEM))
    client = test_certificate.scripted_client()
    client.answers["add_certificate"] = lambda p, d, q: refused("Certificate is already in the vault")
    with pytest.raises(VaultAPIError, match="already in the vault"):
        run_entry(
            _certificate.converge, client, test_certificate.params(common_name="file.example.com", src=str(path)), False
        )


def test_a_csr_is_found_created_and_signed_under_its_lock():
    vault = test_csr.Vault()
    client = ScriptedClient(vault.answers())
    seen = {}
    for key in ("get_csr_list", "create_csr", "sign_csr"):
        client.answers[key], seen[key] = answered_while_locked(client, "CSR", ("www.example.com",), client.answers[key])
    run_entry(
        _csr.converge, client, test_csr.params(common_name="www.Example.com", state="signed", **test_csr.SIGNING), False
    )
    assert seen["get_csr_list"] and all(seen["get_csr_list"]) and seen["create_csr"] == seen["sign_csr"] == [True]


def test_a_csr_signed_meanwhile_is_no_failure_and_no_change():
    vault = test_csr.Vault([test_csr.listed(5)])
    client = ScriptedClient(vault.answers())

    def lost(path, details, query):
        vault.sign(path, details, query)  # the other run's signing
        return refused("CSR 5 has already been signed", "SignCSR")

    client.answers["sign_csr"] = lost
    tracker, result = run_entry(_csr.converge, client, test_csr.params(state="signed", **test_csr.SIGNING), False)
    assert not tracker.changed and result["certificate"]["serial_number"] == "a0"


def test_a_signing_refused_for_another_reason_fails():
    vault = test_csr.Vault([test_csr.listed(5)])
    client = ScriptedClient(vault.answers())
    client.answers["sign_csr"] = refused("CA Issuing CA is not reachable", "SignCSR")
    with pytest.raises(VaultAPIError, match="not reachable"):
        run_entry(_csr.converge, client, test_csr.params(state="signed", **test_csr.SIGNING), False)


# --- password requests ----------------------------------------------------------------------------------------------


def test_a_request_made_meanwhile_is_no_failure_and_no_change():
    listings = [test_password_request.listing(None), test_password_request.listing("WAITING FOR APPROVAL")]
    client = test_password_request.scripted_client(
        get_password_requests=lambda p, d, q: listings.pop(0),
        request_password=refused("You have already requested the password of web/root", "REQUEST_PASSWORD"),
    )
    tracker, result = run_entry(_password_request.converge, client, test_password_request.desired("requested"), False)
    assert not tracker.changed and result["state"] == "requested"


def test_a_refused_request_still_missing_fails():
    client = test_password_request.scripted_client(request_password=refused("A reason is required", "REQUEST_PASSWORD"))
    with pytest.raises(VaultAPIError, match="cannot request the password for web/root"):
        run_entry(_password_request.converge, client, test_password_request.desired("requested"), False)


def test_the_request_is_read_and_made_under_its_lock():
    client = test_password_request.scripted_client()
    identity = ("web", "root", "")
    seen = {}
    for key in ("get_password_requests", "request_password"):
        client.answers[key], seen[key] = answered_while_locked(
            client, "password request", identity, client.answers[key]
        )
    run_entry(_password_request.converge, client, test_password_request.desired("requested"), False)
    assert seen == {"get_password_requests": [True], "request_password": [True]}


# --- user group membership ------------------------------------------------------------------------------------------


class Answering(ScriptedClient):
    """A ScriptedClient whose ``add_user_to_group`` answers with ``message``."""

    def __init__(self, answers, message):
        super().__init__(answers)
        self.message = message

    def call(self, key, path=None, details=None, query=None, files=None):
        response = super().call(key, path, details, query, files)
        if key != "add_user_to_group":
            return response
        return VaultResponse("ADD USER TO USERGROUP", "Success", self.message, None, None, None, 200, {})


@pytest.mark.parametrize(
    "message, added",
    [
        ("User alice is already a member of user group team", []),
        ("User alice has been added to user group team", ["alice"]),
    ],
)
def test_a_member_added_meanwhile_is_no_change(message, added):
    answers = {"get_user_group_id": {"USERGROUPID": "4"}, "get_user_id": {"USERID": "9"}, "add_user_to_group": None}
    client = Answering(answers, message)
    desired = {"name": "team", "state": "present", "members": ["alice"], "absent_members": None}
    tracker, result = run_entry(_user_group.converge, client, desired, False)
    assert tracker.changed == bool(added) and result["added"] == added
    assert client.writes() == ["add_user_to_group"]
