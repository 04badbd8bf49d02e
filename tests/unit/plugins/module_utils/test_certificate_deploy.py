# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Deploying a certificate against a scripted client: the certificate is resolved first (also in check mode),
the build gate refuses before sending, deployStatus is read whatever its shape, failed servers are named."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_deploy
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import (
    NO_SUCH_CERTIFICATE,
    NOT_YOURS,
    ScriptedClient,
    run_entry,
)

CERTIFICATES = [
    {"CertID": 4, "Common Name": "intranet.example.com", "serialNumber": "0A1B"},
    {"CertID": 5, "Common Name": "twin.example.com", "serialNumber": "01"},
    {"CertID": 6, "Common Name": "twin.example.com", "serialNumber": "02"},
]


class BodyClient(ScriptedClient):
    """A scripted client whose answers may carry keys beside Details (``deployStatus``): a dict answer with
    ``body`` is answered as that body."""

    def call(self, key, path=None, details=None, query=None, files=None):
        self.calls.append((key, path, details, query))
        answer = self.answers[key]
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, dict) and "body" in answer:
            return VaultResponse(
                "DeployCertificate", "Success", answer.get("message"), None, None, None, 200, answer["body"]
            )
        return VaultResponse("OP", "Success", "", None, answer, None, 200, {})


def scripted_client(deploy=None, edition=None, build=None, details=NO_SUCH_CERTIFICATE):
    table = {"get_all_ssl_certificates": CERTIFICATES, "deploy_certificate": deploy, "get_certificate_details": details}
    return BodyClient(table, edition=edition, build=build)


def desired(**options):
    return dict({"common_name": "intranet.example.com", "serial_number": None, "server": None}, **options)


def status(server, state="Success", message="deployed"):
    return {"server": server, "message": message, "status": state}


def test_deploys_to_every_server_with_the_listed_serial():
    client = scripted_client({"body": {"deployStatus": [status("web-01"), status("web-02")]}})
    tracker, values = run_entry(_certificate_deploy.converge, client, desired(), False)
    assert tracker.changed and tracker.diff() == {"before": {"deployment": "not sent"}, "after": {"deployment": "sent"}}
    assert values["certificate"] == {"common_name": "intranet.example.com", "serial_number": "0A1B"}
    assert [s["server"] for s in values["deploy_status"]] == ["web-01", "web-02"]
    assert client.calls[-1][2] == {"common_name": "intranet.example.com", "serial_number": "0A1B"}
    assert tracker.warnings == []


def test_one_server_is_sent_as_server_name():
    client = scripted_client({"body": {"deployStatus": [status("web-01")]}})
    run_entry(_certificate_deploy.converge, client, desired(server="web-01", serial_number="0a:1b"), False)
    assert client.calls[-1][2]["serverName"] == "web-01"


def test_check_mode_resolves_and_sends_nothing():
    client = scripted_client()
    tracker, values = run_entry(_certificate_deploy.converge, client, desired(), True)
    assert tracker.changed and values["deploy_status"] == []
    assert client.writes() == []


@pytest.mark.parametrize("check_mode", [True, False])
def test_a_missing_certificate_fails_before_sending(check_mode):
    client = scripted_client()
    with pytest.raises(VaultNotFoundError, match="nowhere.example.com does not exist"):
        run_entry(_certificate_deploy.converge, client, desired(common_name="nowhere.example.com"), check_mode)
    assert client.writes() == []


def test_an_ambiguous_name_names_the_serials():
    client = scripted_client()
    with pytest.raises(VaultInputError, match="01, 02"):
        run_entry(_certificate_deploy.converge, client, desired(common_name="twin.example.com"), True)


def test_bad_input_is_refused_before_any_request():
    client = scripted_client()
    with pytest.raises(VaultInputError):
        run_entry(_certificate_deploy.converge, client, desired(serial_number="xyz"), False)
    with pytest.raises(VaultInputError):
        run_entry(_certificate_deploy.converge, client, desired(server=" web-01"), False)
    assert client.calls == []


def test_old_builds_are_refused_before_any_request():
    client = scripted_client(edition="A", build=11200)
    with pytest.raises(VaultUnsupportedError, match="edition A from build 11300"):
        run_entry(_certificate_deploy.converge, client, desired(), True)
    assert client.calls == []
    client = scripted_client({"body": {"deployStatus": [status("web-01")]}}, edition="B", build=5300)
    run_entry(_certificate_deploy.converge, client, desired(), False)


def test_failed_servers_are_named_with_the_vault_words():
    answer = {
        "body": {
            "deployStatus": [
                status("web-01"),
                status("web-02", "Failed", "Connection refused by web-02"),
                status(None, "FAILED", None),
            ]
        }
    }
    with pytest.raises(VaultAPIError) as caught:
        run_entry(_certificate_deploy.converge, scripted_client(answer), desired(), False)
    text = str(caught.value)
    assert "web-02 (status Failed: Connection refused by web-02)" in text
    assert "a server the vault did not name" in text
    assert "2 of 3 servers" in text and "deployed to web-01" in text
    assert len(caught.value.to_result()["deploy_status"]) == 3


@pytest.mark.parametrize(
    "deploy_status, expected, skipped",
    [
        (None, [], 0),
        ("junk", [], 1),
        ([1, "x", status("web-01")], ["web-01"], 2),
        ([{"server": 7, "status": "SUCCESS"}], ["7"], 0),
    ],
)
def test_junk_in_deploy_status_is_tolerated(deploy_status, expected, skipped):
    statuses, count = _certificate_deploy.read_statuses(deploy_status)
    assert [s["server"] for s in statuses] == expected
    assert count == skipped


def test_an_answer_without_statuses_warns():
    tracker, values = run_entry(
        _certificate_deploy.converge, scripted_client({"body": {}, "message": "done"}), desired(), False
    )
    assert values["deploy_status"] == []
    assert any("lists no server" in warning for warning in tracker.warnings)


def test_a_refused_call_keeps_the_vault_words():
    refused = VaultAPIError(
        "DeployCertificate failed: Server x is not known", vault_message="Server x is not known", http_status=200
    )
    with pytest.raises(VaultAPIError, match="Server x is not known"):
        run_entry(_certificate_deploy.converge, scripted_client(refused), desired(server="x"), False)


def test_a_certificate_this_token_may_not_access_is_refused_not_missing():
    client = scripted_client(details=NOT_YOURS)
    with pytest.raises(VaultAPIError) as caught:
        run_entry(_certificate_deploy.converge, client, desired(common_name="hidden.example.com"), False)
    message = str(caught.value)
    assert "the vault refused certificate hidden.example.com to this token: You are not authorized" in message
    assert "does not exist" not in message and "nothing was deployed" in message
    assert client.writes() == []
