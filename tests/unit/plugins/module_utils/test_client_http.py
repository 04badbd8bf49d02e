# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The client against real local servers: redirects are never followed, the token goes nowhere else,
faults after sending are told apart from faults before, and validate_certs: false stays local."""

from __future__ import annotations

import json
import time
import warnings

import pytest
from urllib3.exceptions import InsecureRequestWarning

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultConnectionError,
    VaultResponseError,
)

TOKEN = "TOKEN-SECRET-1"
NEW_PASSWORD = "N3w-S3cr3t!pw"
SUCCESS = json.dumps(
    {"operation": {"name": "GET RESOURCES", "result": {"status": "Success", "message": "ok"}, "Details": []}}
).encode()
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
# Announces more bytes than it sends, then closes the connection.
CUT_OFF = {"Content-Length": "500", "Connection": "close"}


@pytest.fixture(autouse=True)
def forget(elsewhere):
    elsewhere.connections.clear()


def client_for(vault, **options):
    settings = {"url": vault.url, "auth_token": TOKEN, "ca_path": vault.ca_path, "retries": 2, "timeout": 5}
    settings.update(options)
    return VaultClient(sleep=lambda delay: None, **settings)


def locations(port):
    """(Location header, what the message names, text that must not appear)."""
    return [
        ("http://127.0.0.1:%d/steal?AUTHTOKEN=%s" % (port, TOKEN), "http://127.0.0.1:%d" % port, "steal"),
        (
            "https://127.0.0.1:%d/x?token=%s&pw=%s" % (port, TOKEN, NEW_PASSWORD),
            "https://127.0.0.1:%d" % port,
            "token=",
        ),
        ("http://thief:hunter2@127.0.0.1:%d/login?next=%%2Fadmin" % port, "http://127.0.0.1:%d" % port, "hunter2"),
        ("//127.0.0.1:%d/scheme-relative?q=1" % port, "https://127.0.0.1:%d" % port, "scheme-relative"),
        ("/restapi/json/v1/elsewhere?secret=%s" % TOKEN, "another path of the same host", "elsewhere"),
        (None, "no location", "Location:"),
    ]


def redirect(status, location):
    headers = {} if location is None else {"Location": location}
    return lambda handler: (status, headers, b"moved")


def assert_clean(message, hidden):
    for text in (TOKEN, NEW_PASSWORD, hidden, "thief", "?", "AUTHTOKEN="):
        assert text not in message, text


@pytest.mark.parametrize("status", REDIRECT_STATUSES)
@pytest.mark.parametrize("index", range(6))
def test_a_read_is_never_redirected(vault, elsewhere, status, index):
    location, named, hidden = locations(elsewhere.port)[index]
    vault.answer(redirect(status, location))
    client = client_for(vault)
    with pytest.raises(VaultResponseError) as error:
        client.call("get_password", path={"resource_id": "1", "account_id": "2"}, details={"REASON": "deploy"})
    message = str(error.value)
    assert "HTTP %d" % status in message and "a redirect to %s" % named in message
    assert "redirects are not followed" in message
    assert_clean(message, hidden)
    assert len(vault.received) == 1 and client.requests_sent == 1
    assert elsewhere.nothing_arrived()
    assert not client.wrote and error.value.http_status == status


@pytest.mark.parametrize("status", REDIRECT_STATUSES)
def test_a_write_and_its_body_are_never_redirected(vault, elsewhere, status):
    location = "http://127.0.0.1:%d/collect?AUTHTOKEN=%s" % (elsewhere.port, TOKEN)
    vault.answer(redirect(status, location))
    client = client_for(vault)
    with pytest.raises(VaultResponseError) as error:
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": NEW_PASSWORD, "RESETTYPE": "LOCAL"},
        )
    message = str(error.value)
    assert "HTTP %d" % status in message and "http://127.0.0.1:%d" % elsewhere.port in message
    assert "the write may have been applied" in message and client.wrote
    assert_clean(message, "collect")
    assert len(vault.received) == 1 and vault.received[0]["method"] == "PUT"
    assert elsewhere.nothing_arrived()


def test_the_token_only_goes_to_the_configured_origin(vault):
    vault.answer(lambda handler: (200, {"Content-Type": "application/json"}, SUCCESS))
    client = client_for(vault, auth_token=TOKEN + "\n")
    assert client.call("get_resources").ok
    assert vault.received[0]["headers"]["AUTHTOKEN"] == TOKEN


def test_a_dropped_write_may_have_been_applied_and_is_sent_once(vault):
    vault.answer(lambda handler: None)
    client = client_for(vault)
    with pytest.raises(VaultConnectionError, match="the write may have been applied") as error:
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": NEW_PASSWORD, "RESETTYPE": "LOCAL"},
        )
    assert len(vault.received) == 1 and client.wrote
    assert NEW_PASSWORD not in str(error.value) and TOKEN not in str(error.value)


def test_a_dropped_read_is_retried(vault):
    answers = [None, (200, {}, SUCCESS)]
    vault.answer(lambda handler: answers.pop(0))
    client = client_for(vault)
    assert client.call("get_resources").ok
    assert len(vault.received) == 2 and not client.wrote


def test_a_cut_off_body_is_retried_for_a_read_and_may_have_been_applied_for_a_write(vault):
    answers = [(200, CUT_OFF, SUCCESS[:20]), (200, {}, SUCCESS)]
    vault.answer(lambda handler: answers.pop(0))
    client = client_for(vault)
    assert client.call("get_resources").ok and len(vault.received) == 2
    vault.answer(lambda handler: (200, CUT_OFF, SUCCESS[:20]))
    with pytest.raises(VaultResponseError, match="the write may have been applied"):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert len(vault.received) == 1 and client.wrote


def test_a_write_that_timed_out_may_have_been_applied(vault):
    def slow(handler):
        time.sleep(1)
        return 200, {}, SUCCESS

    vault.answer(slow)
    client = client_for(vault, timeout=0.2)
    with pytest.raises(VaultConnectionError, match="the write may have been applied"):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert len(vault.received) == 1 and client.wrote


def test_validate_certs_false_warns_nowhere_and_leaves_the_process_warnings_alone(vault):
    vault.answer(lambda handler: (200, {}, SUCCESS))
    before = list(warnings.filters)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        client = client_for(vault, validate_certs=False, ca_path=None)
        assert client.call("get_resources").ok
        warnings.warn("another request of the process", InsecureRequestWarning)
    assert [str(w.message) for w in caught if w.category is InsecureRequestWarning] == [
        "another request of the process"
    ]
    assert warnings.filters == before and client.insecure


def test_an_unknown_certificate_authority_is_a_tls_error(vault, tmp_path):
    vault.answer(lambda handler: (200, {}, SUCCESS))
    with pytest.raises(VaultConnectionError, match="TLS verification of .* failed .*ca_path"):
        client_for(vault, ca_path=None).call("get_resources")


def test_a_ca_file_that_is_not_a_certificate_is_a_tls_error(vault, tmp_path):
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    vault.answer(lambda handler: (200, {}, SUCCESS))
    with pytest.raises(VaultConnectionError, match="TLS verification of .* failed .*ca_path"):
        client_for(vault, ca_path=str(junk)).call("get_resources")
