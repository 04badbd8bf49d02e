# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Calls that differ by edition with the edition unset (GetSSHKey: GET in A, POST in B), and what the client
remembers of the writes it sent, for the message of a task that fails after writing."""

from __future__ import annotations

import dataclasses
import json

import pytest
import requests

from ansible_collections.credvault.vault.plugins.module_utils import _catalogue, _ssh_key, _ssh_key_info
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultResponseError,
)
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import CONNECTION_OPTIONS
from ansible_collections.credvault.vault.tests.unit.core_compat import as_controller_takes_it, set_module_args
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, FakeSession, ok, run_entry

KEY = {"KeyName": "k", "KeyType": "ed25519", "KeyLength": "256", "isPassphraseAvailable": False}


def pki_ok(details, name="GetSSHKey"):
    return FakeResponse(body={"name": name, "result": {"status": "Success", "message": "done"}, "details": details})


def unsupported(status=404):
    """How the simulator answers a call this edition does not serve (and a real vault may answer 404 or 405)."""
    message = "GET /api/pki/restapi/getSSHKey is not supported by this vault (edition B build 6320)"
    return FakeResponse(
        status=status, body={"operation": {"name": "UNSUPPORTED", "result": {"status": "Failed", "message": message}}}
    )


def methods(client):
    return [call["method"] for call in client.session.calls]


def get_key(client):
    return client.call("get_ssh_key", details={"keyName": "k"})


@pytest.mark.parametrize(
    "refusal",
    [unsupported(404), unsupported(405), FakeResponse(status=405, content=b""), FakeResponse(status=404, content=b"")],
    ids=["404-unsupported", "405-unsupported", "405-empty", "404-empty"],
)
def test_an_unset_edition_sends_edition_a_then_b_method_and_learns_edition_b(make_client, refusal):
    client = make_client(refusal, pki_ok([KEY]), pki_ok([KEY]), pki_ok([KEY]))
    assert get_key(client).details_list() == [KEY]
    assert methods(client) == ["GET", "POST"] and client.learned_edition == "B"
    post = client.session.calls[1]
    assert json.loads(post["data"]["INPUT_DATA"]) == {"operation": {"Details": {"keyName": "k"}}}
    assert "INPUT_DATA" not in post["params"]
    get_key(client)
    get_key(client)
    assert methods(client) == ["GET", "POST", "POST", "POST"] and client.requests_sent == 4
    assert client.wrote is False and client.written == []


def test_edition_a_answering_the_get_is_asked_once(make_client):
    client = make_client(pki_ok([KEY]), pki_ok([KEY]))
    get_key(client)
    get_key(client)
    assert methods(client) == ["GET", "GET"] and client.learned_edition is None


def test_a_key_that_does_not_exist_is_not_taken_for_another_edition(make_client):
    missing = FakeResponse(body={"name": "GetSSHKey", "result": {"status": "Failed", "message": "no key k"}})
    client = make_client(missing)
    with pytest.raises(VaultAPIError, match="no key k"):
        get_key(client)
    assert methods(client) == ["GET"] and client.learned_edition is None


def test_edition_b_answering_a_failure_on_post_is_learned_and_its_failure_raised(make_client):
    missing = FakeResponse(body={"name": "GetSSHKey", "result": {"status": "Failed", "message": "no key k"}})
    client = make_client(unsupported(), missing, pki_ok([KEY]))
    with pytest.raises(VaultAPIError, match="no key k"):
        get_key(client)
    get_key(client)
    assert methods(client) == ["GET", "POST", "POST"] and client.learned_edition == "B"


def test_a_vault_serving_neither_method_raises_the_first_answer_and_learns_nothing(make_client):
    client = make_client(unsupported(404), unsupported(405))
    with pytest.raises(VaultAPIError) as error:
        get_key(client)
    assert error.value.http_status == 404
    assert "POST /getSSHKey was not served either" in str(error.value)
    assert methods(client) == ["GET", "POST"] and client.learned_edition is None


@pytest.mark.parametrize("edition, method", [("A", "GET"), ("B", "POST")])
def test_a_configured_edition_is_never_second_guessed(make_client, edition, method):
    client = make_client(unsupported(), edition=edition)
    with pytest.raises(VaultAPIError):
        get_key(client)
    assert methods(client) == [method]


def test_other_failures_of_the_first_method_are_not_a_reason_to_try_the_other(make_client):
    client = make_client(*[FakeResponse(status=503, content=b"")] * 3, retries=2)
    with pytest.raises(VaultResponseError):
        get_key(client)
    assert methods(client) == ["GET", "GET", "GET"]


def test_operation_names_follow_the_learned_edition(make_client):
    client = make_client(unsupported(), pki_ok([KEY]), requests.exceptions.ReadTimeout("slow"), retries=0)
    assert client._operation(_catalogue.CATALOGUE["create_csr"]) == "CreateCSR"
    get_key(client)
    with pytest.raises(VaultConnectionError, match="^CreateCertificate: no answer"):
        client.call("create_csr", details={"CNAME": "www.example.com"})


def test_a_write_whose_method_differs_by_edition_is_sent_once(make_client, monkeypatch):
    """No write row differs by method today; one that did must never be sent twice on a guess."""
    row = dataclasses.replace(_catalogue.CATALOGUE["associate_ssh_key"], method_in_b="PUT")
    monkeypatch.setitem(_catalogue.CATALOGUE, "associate_ssh_key", row)
    client = make_client(unsupported(405))
    with pytest.raises(VaultAPIError):
        client.call("associate_ssh_key", details={"keyName": "k", "resourceName": "r", "userName": "u"})
    assert methods(client) == ["POST"] and client.learned_edition is None
    assert "set edition" in client.failure_message(VaultAPIError("x", http_status=405))


def test_only_reads_differ_by_method_in_the_catalogue():
    """The fallback above is for reads: a write row with an edition-specific method would need a decision."""
    differing = [row.key for row in _catalogue.CATALOGUE.values() if row.method_in_b]
    assert differing == ["get_ssh_key"]
    assert all(_catalogue.CATALOGUE[key].is_read for key in differing)


# ---- what was written ------------------------------------------------------------------------


def test_each_write_is_described_by_operation_and_names_never_secrets(make_client):
    client = make_client(pki_ok(None, "CreateSSHKey"), ok([]), ok({}, name="ADD ACCOUNTS"), pki_ok([KEY]))
    client.call(
        "create_ssh_key",
        details={"keyName": "web", "keyType": "ed25519", "passPhrase": "Phr4se-SECRET", "comment": "c"},
    )
    client.call("get_resources")
    client.call(
        "add_accounts",
        path={"resource_id": "12"},
        details={"ACCOUNTLIST": [{"ACCOUNTNAME": "root", "PASSWORD": "Pw-SECRET", "NOTES": "n"}]},
    )
    client.call("get_ssh_key", details={"keyName": "web"})
    assert client.written == ["CreateSSHKey (keyName web)", "ADD ACCOUNTS (resource_id 12; ACCOUNTNAME root)"]
    assert "SECRET" not in json.dumps(client.written)


def test_a_refused_write_is_not_described_and_a_lost_answer_is(make_client):
    refused = FakeResponse(body={"name": "CreateSSHKey", "result": {"status": "Failed", "message": "exists"}})
    client = make_client(refused, requests.exceptions.ReadTimeout("slow"), retries=0)
    with pytest.raises(VaultAPIError):
        client.call("create_ssh_key", details={"keyName": "a", "keyType": "ed25519"})
    assert client.written == [] and client.wrote is False
    with pytest.raises(VaultConnectionError):
        client.call("create_ssh_key", details={"keyName": "b", "keyType": "ed25519"})
    assert client.written == ["CreateSSHKey (keyName b; its answer was lost: it may have been applied)"]


def test_a_name_that_holds_a_secret_is_scrubbed_and_many_names_are_cut(make_client):
    client = make_client(ok({}, name="ADD ACCOUNTS"))
    accounts = [{"ACCOUNTNAME": "a%d" % number, "PASSWORD": "pw-%d" % number} for number in range(8)]
    accounts[0]["ACCOUNTNAME"] = "pw-7"
    client.call("add_accounts", path={"resource_id": "1"}, details={"ACCOUNTLIST": accounts})
    assert client.written == [
        "ADD ACCOUNTS (resource_id 1; ACCOUNTNAME ********; ACCOUNTNAME a1; ACCOUNTNAME a2; ACCOUNTNAME a3; ...)"
    ]


def test_the_failure_message_names_the_writes_and_hints_at_the_edition(make_client):
    client = make_client(pki_ok(None, "CreateSSHKey"))
    client.call("create_ssh_key", details={"keyName": "web", "keyType": "ed25519", "passPhrase": "SECRET"})
    message = client.failure_message(VaultAPIError("UNSUPPORTED failed (HTTP 404): no", http_status=404))
    assert message.startswith("UNSUPPORTED failed (HTTP 404): no. Hint: ")
    assert "set edition" in message
    assert message.endswith("This task had already written to the vault: CreateSSHKey (keyName web)")
    assert "SECRET" not in message


def test_a_failure_that_names_its_writes_itself_gets_no_second_list(make_client):
    client = make_client(pki_ok(None, "CreateSSHKey"))
    client.call("create_ssh_key", details={"keyName": "web", "keyType": "ed25519"})
    error = VaultAPIError("share of r2 failed; sent before it, and applied: share of r1", http_status=200)
    error.names_its_writes = True
    assert client.failure_message(error) == "share of r2 failed; sent before it, and applied: share of r1"


@pytest.mark.parametrize("status", [200, 500, None])
def test_no_edition_hint_for_other_failures_or_a_configured_edition(make_client, status):
    assert make_client().failure_message(VaultAPIError("boom", http_status=status)) == "boom"
    assert make_client(edition="B").failure_message(VaultAPIError("boom", http_status=404)) == "boom"


# ---- the SSH key modules' domain code on edition B with the edition unset --------------------


def test_an_ssh_key_is_created_and_read_back_on_edition_b_with_the_edition_unset(make_client):
    client = make_client(pki_ok([], "GetAllSSHKeys"), pki_ok(None, "CreateSSHKey"), unsupported(), pki_ok([KEY]))
    tracker, values = run_entry(_ssh_key.converge, client, {"name": "k", "key_type": "ed25519", "state": "present"})
    assert tracker.changed and values == {"key": KEY}
    assert methods(client) == ["GET", "POST", "GET", "POST"]


def test_an_ssh_key_is_described_on_edition_b_with_the_edition_unset(make_client):
    client = make_client(unsupported(), pki_ok([KEY]))
    assert run_entry(_ssh_key_info.describe, client, {"name": "k"})[1] == {"exists": True, "key": KEY}


# ---- the module's failure message ------------------------------------------------------------


@pytest.fixture
def module_run(monkeypatch, capsys):
    """``module_run(work, *answers)``: the failed result of a VaultModule whose client answers are scripted."""
    for name in CONNECTION_OPTIONS:
        monkeypatch.delenv("CREDVAULT_%s" % name.upper(), raising=False)

    def run(work, *answers, **options):
        args = dict({"url": "https://vault.example", "auth_token": "TOKEN-SECRET-1", "retries": 0}, **options)
        set_module_args(monkeypatch, args)
        vault = VaultModule({})
        vault.client.session = FakeSession(answers)
        with pytest.raises(SystemExit):
            vault.run(lambda task: work(task.client))
        return as_controller_takes_it(json.loads(capsys.readouterr().out))

    return run


def create_then_read(client):
    client.call("create_ssh_key", details={"keyName": "web", "keyType": "ed25519", "passPhrase": "Phr4se-SECRET"})
    return client.call("get_all_ssh_keys")


def test_a_task_failing_after_a_write_names_it_and_never_its_secrets(module_run):
    refused = FakeResponse(body={"name": "GetAllSSHKeys", "result": {"status": "Failed", "message": "busy"}})
    result = module_run(create_then_read, pki_ok(None, "CreateSSHKey"), refused)
    assert result["failed"] and result["changed"]
    assert result["msg"] == (
        "GetAllSSHKeys failed: busy. This task had already written to the vault: CreateSSHKey (keyName web)"
    )
    assert "SECRET" not in json.dumps(result)


def test_a_call_not_served_with_the_edition_unset_says_to_set_it(module_run):
    result = module_run(create_then_read, pki_ok(None, "CreateSSHKey"), unsupported())
    assert result["changed"] and "Hint: the vault did not serve a call" in result["msg"]
    assert "set edition and build" in result["msg"] and result["msg"].endswith("CreateSSHKey (keyName web)")
    result = module_run(create_then_read, pki_ok(None, "CreateSSHKey"), unsupported(), edition="A", build=12450)
    assert "Hint" not in result["msg"]


def test_a_task_failing_without_a_write_says_only_its_error(module_run):
    result = module_run(lambda client: client.call("get_all_ssh_keys"), unsupported(500))
    assert not result["changed"] and "written" not in result["msg"] and "Hint" not in result["msg"]
