# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The client against hostile servers (issue 15): real local HTTPS servers that redirect, answer huge,
never-ending, dripping or stalled bodies, wrong content types, invalid UTF-8, deeply nested JSON, a certificate
for another name, or close after the headers. The token and the bodies go nowhere but the configured origin,
what is read is bounded, and every failure is a ``VaultError`` naming the operation, never a secret sent."""

from __future__ import annotations

import gzip
import itertools
import json
import re
import time

import pytest
import urllib3

from ansible_collections.credvault.vault.plugins.module_utils import _receive
from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultError,
    VaultResponseError,
)
from ansible_collections.credvault.vault.plugins.module_utils._receive import MIB, READ_SIZE
from ansible_collections.credvault.vault.tests.unit.local_servers import Listener, ScriptedVault

TOKEN = "TOKEN-SECRET-1"
NEW_PASSWORD = "N3w-S3cr3t!pw"
IDS = {"resource_id": "1", "account_id": "2"}
READ = ("get_resources", {}, "GET RESOURCES")
WRITE = (
    "change_password",
    {"path": IDS, "details": {"NEWPASSWORD": NEW_PASSWORD, "RESETTYPE": "LOCAL"}},
    "CHANGE PASSWORD",
)
DOWNLOAD = ("download_file", {"path": IDS}, "DOWNLOAD FILE")
CALLS = [pytest.param(READ, id="read"), pytest.param(WRITE, id="write")]
SUCCESS = json.dumps(
    {"operation": {"name": "GET RESOURCES", "result": {"status": "Success", "message": "ok"}, "Details": []}}
).encode()
MAY_HAVE_BEEN_APPLIED = "the write may have been applied"
TIMEOUT = 0.3
# Each attempt of a read: the first and the retries (client_for sets retries=2).
ATTEMPTS = 3


@pytest.fixture(autouse=True)
def forget(elsewhere):
    elsewhere.connections.clear()


@pytest.fixture
def bytes_read(monkeypatch):
    """How many body bytes the client took from its connections (every body read goes through ``read1``)."""
    counted = []
    read1 = urllib3.response.HTTPResponse.read1

    def counting(self, *args, **kwargs):
        data = read1(self, *args, **kwargs)
        counted.append(len(data or b""))
        return data

    monkeypatch.setattr(urllib3.response.HTTPResponse, "read1", counting)
    return counted


def client_for(vault, **options):
    settings = {"url": vault.url, "auth_token": TOKEN, "ca_path": vault.ca_path, "retries": 2, "timeout": 5}
    settings.update(options)
    return VaultClient(sleep=lambda delay: None, **settings)


def failure(client, call, error_class):
    """The error of ``call``: an ``error_class`` (a ``VaultError``) naming the operation, holding no secret."""
    key, kwargs, operation = call
    with pytest.raises(error_class) as caught:
        client.call(key, **kwargs)
    error, message = caught.value, str(caught.value)
    assert isinstance(error, VaultError) and error.operation == operation and message.startswith(operation + ":")
    assert TOKEN not in message and NEW_PASSWORD not in message
    return error


def assert_outcome(client, call, error, attempts_of_a_read=1):
    """A write says it may have been applied and is sent once; a read says nothing of it."""
    message = str(error)
    if call == WRITE:
        assert MAY_HAVE_BEEN_APPLIED in message and client.wrote and client.requests_sent == 1
    else:
        assert MAY_HAVE_BEEN_APPLIED not in message and not client.wrote
        assert client.requests_sent == attempts_of_a_read
        assert ("(after %d attempts)" % attempts_of_a_read in message) == (attempts_of_a_read > 1)


def pieces(size, count=None, pause=0.0):
    """``count`` pieces of ``size`` bytes (endless without a count), ``pause`` seconds apart."""
    for dummy in range(count) if count is not None else itertools.count():
        time.sleep(pause)
        yield b"x" * size


# ---- redirects ----------------------------------------------------------------------------------


def redirect_targets(port):
    """(Location, what the message names): http on the same host, https on another host name."""
    return [
        ("http://127.0.0.1:%d/collect?AUTHTOKEN=%s" % (port, TOKEN), "http://127.0.0.1:%d" % port),
        ("https://localhost:%d/collect?pw=%s" % (port, NEW_PASSWORD), "https://localhost:%d" % port),
    ]


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("target", [0, 1], ids=["http-same-host", "https-another-host"])
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_sends_the_token_and_the_body_nowhere_else(vault, elsewhere, call, target, status):
    location, named = redirect_targets(elsewhere.port)[target]
    vault.answer(lambda handler: (status, {"Location": location}, b"moved"))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "HTTP %d, a redirect to %s;" % (status, named) in str(error) and "redirects are not followed" in str(error)
    assert "collect" not in str(error) and error.http_status == status
    assert_outcome(client, call, error)
    assert [request["headers"]["AUTHTOKEN"] for request in vault.received] == [TOKEN]
    assert elsewhere.nothing_arrived()


@pytest.mark.parametrize("call", CALLS)
def test_a_redirect_with_a_huge_body_is_not_read(vault, elsewhere, bytes_read, call):
    location = "https://localhost:%d/" % elsewhere.port
    vault.answer(lambda handler: (302, {"Location": location, "Connection": "close"}, pieces(READ_SIZE, 1024)))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "a redirect to https://localhost:%d" % elsewhere.port in str(error)
    written, complete = vault.streamed.get(timeout=30)
    assert sum(bytes_read) == 0 and not complete and written < 1024 * READ_SIZE
    assert elsewhere.nothing_arrived()


# ---- huge bodies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("call", CALLS)
def test_a_declared_length_over_the_cap_is_refused_before_reading(vault, bytes_read, call):
    declared = 32 * MIB + 1
    vault.answer(lambda handler: (200, {"Content-Length": str(declared)}, pieces(READ_SIZE, declared // READ_SIZE)))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "the vault's answer is larger than 32 MiB (HTTP 200); it was not read further" in str(error)
    assert_outcome(client, call, error)
    assert sum(bytes_read) == 0 and vault.streamed.get(timeout=30)[1] is False


def test_a_file_may_be_larger_than_a_json_answer_up_to_its_own_cap(vault, bytes_read):
    declared = 256 * MIB + 1
    vault.answer(lambda handler: (200, {"Content-Length": str(declared)}, pieces(READ_SIZE, 1)))
    error = failure(client_for(vault), DOWNLOAD, VaultResponseError)
    assert "larger than 256 MiB" in str(error) and sum(bytes_read) == 0


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("framing", ["chunked", "until-close"])
def test_an_endless_body_is_read_up_to_the_cap_and_no_further(vault, bytes_read, call, framing):
    headers = {"Transfer-Encoding": "chunked"} if framing == "chunked" else {"Connection": "close"}
    vault.answer(lambda handler: (200, headers, pieces(READ_SIZE)))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "the vault's answer is larger than 32 MiB (HTTP 200)" in str(error)
    assert_outcome(client, call, error)
    assert 32 * MIB < sum(bytes_read) <= 32 * MIB + READ_SIZE
    assert vault.streamed.get(timeout=30)[1] is False


@pytest.fixture(scope="module")
def bomb():
    """Under 1 MiB on the wire, 33 MiB once decoded."""
    return gzip.compress(b"\0" * 33 * MIB, compresslevel=1)


@pytest.mark.parametrize("call", CALLS)
def test_a_compressed_body_is_bounded_by_what_it_decodes_to(vault, bytes_read, bomb, call):
    vault.answer(lambda handler: (200, {"Content-Encoding": "gzip", "Content-Type": "application/json"}, bomb))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert len(bomb) < MIB and "the vault's answer is larger than 32 MiB (HTTP 200)" in str(error)
    assert_outcome(client, call, error)
    assert 32 * MIB < sum(bytes_read) <= 32 * MIB + READ_SIZE


def test_the_file_cap_is_the_larger_one(vault, monkeypatch):
    monkeypatch.setattr(_receive, "MAX_ANSWER_MIB", 1)
    monkeypatch.setattr(_receive, "MAX_FILE_MIB", 2)
    headers = {"Transfer-Encoding": "chunked", "Content-Disposition": 'attachment; filename="big.bin"'}
    vault.answer(lambda handler: (200, headers, pieces(MIB // 2, 3)))
    assert len(client_for(vault).call(DOWNLOAD[0], **DOWNLOAD[1]).content) == 3 * MIB // 2
    vault.answer(lambda handler: (200, headers, pieces(MIB // 2, 5)))
    assert "larger than 2 MiB" in str(failure(client_for(vault), DOWNLOAD, VaultResponseError))
    vault.answer(lambda handler: (200, {"Transfer-Encoding": "chunked"}, pieces(MIB // 2, 3)))
    assert "larger than 1 MiB" in str(failure(client_for(vault), READ, VaultResponseError))


def test_the_connection_of_a_refused_body_is_not_reused(vault, monkeypatch):
    monkeypatch.setattr(_receive, "MAX_ANSWER_MIB", 1)
    answers = [
        (200, {}, SUCCESS),
        (200, {}, SUCCESS),
        (200, {"Transfer-Encoding": "chunked"}, pieces(READ_SIZE)),
        (200, {}, SUCCESS),
    ]
    vault.answer(lambda handler: answers.pop(0))
    client = client_for(vault)
    assert client.call("get_resources").ok and client.call("get_resources").ok
    failure(client, READ, VaultResponseError)
    assert client.call("get_resources").ok
    first, kept_alive, refused, after = [request["peer_port"] for request in vault.received]
    assert first == kept_alive == refused and after != refused


# ---- never-ending, dripping and stalled bodies ---------------------------------------------------


SLOW_BODIES = [
    pytest.param(lambda: ({"Transfer-Encoding": "chunked"}, pieces(1024, pause=0.02)), id="never-ending-chunked"),
    pytest.param(lambda: ({"Content-Length": "100000"}, pieces(1, pause=0.02)), id="dripping"),
    pytest.param(lambda: ({"Content-Length": "100"}, pieces(1, 2, pause=2 * TIMEOUT)), id="stalled"),
]


@pytest.mark.parametrize("body", SLOW_BODIES)
def test_a_read_without_a_complete_answer_in_time_fails_after_its_retries(vault, body):
    vault.answer(lambda handler: (200, *body()))
    client = client_for(vault, timeout=TIMEOUT)
    error = failure(client, READ, VaultConnectionError)
    assert "no complete answer within 0.3 s (after 3 attempts)" in str(error)
    assert_outcome(client, READ, error, attempts_of_a_read=ATTEMPTS)
    assert len(vault.received) == ATTEMPTS


@pytest.mark.parametrize("body", SLOW_BODIES)
def test_a_write_without_a_complete_answer_in_time_fails_at_once_and_may_have_been_applied(vault, body):
    vault.answer(lambda handler: (200, *body()))
    client = client_for(vault, timeout=TIMEOUT)
    error = failure(client, WRITE, VaultConnectionError)
    assert "no complete answer within 0.3 s; the write may have been applied" in str(error)
    assert_outcome(client, WRITE, error)
    assert len(vault.received) == 1


@pytest.mark.parametrize("call", CALLS)
def test_a_server_that_closes_after_the_headers_gives_a_cut_off_answer(vault, call):
    vault.answer(lambda handler: (200, {"Content-Length": "100", "Connection": "close"}, b""))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "the vault's answer was cut off or could not be decoded" in str(error)
    assert_outcome(client, call, error, attempts_of_a_read=ATTEMPTS)


# ---- bodies that are not what they say ------------------------------------------------------------


@pytest.mark.parametrize("content_type", ["text/html", "text/plain; charset=iso-8859-1", "application/xml", None])
def test_a_vault_answer_is_taken_by_its_content_whatever_its_content_type(vault, content_type):
    """The spec gives JSON answers no content type: a JSON object that is a vault answer is accepted."""
    headers = {} if content_type is None else {"Content-Type": content_type}
    vault.answer(lambda handler: (200, headers, SUCCESS))
    response = client_for(vault).call("get_resources")
    assert response.ok and response.message == "ok"


HTML_PAGE = b"<html><body><h1>502 Bad Gateway</h1><p>token " + TOKEN.encode() + b"</p></body></html>"


@pytest.mark.parametrize("call", CALLS)
def test_an_html_error_page_is_not_a_json_object(vault, call):
    vault.answer(lambda handler: (500, {"Content-Type": "text/html"}, HTML_PAGE))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "the vault answered HTTP 500 with a body that is not a JSON object" in str(error)
    assert error.http_status == 500
    assert_outcome(client, call, error)


NOT_JSON = [
    pytest.param(b'{"operation": {"name": "GET RESOURCES", "result": {"status": "Succ\xff\xfe"}}}', id="invalid-utf8"),
    pytest.param(b'{"a": ' * 100000 + b"1" + b"}" * 100000, id="objects-100000-deep"),
    pytest.param(b"[" * 100000 + b"]" * 100000, id="arrays-100000-deep"),
]


@pytest.mark.parametrize("body", NOT_JSON)
@pytest.mark.parametrize("call", CALLS)
def test_a_body_that_cannot_be_decoded_is_a_response_error(vault, call, body):
    vault.answer(lambda handler: (200, {"Content-Type": "application/json"}, body))
    client = client_for(vault)
    error = failure(client, call, VaultResponseError)
    assert "the vault answered HTTP 200 with a body that is not a JSON object" in str(error)
    assert_outcome(client, call, error, attempts_of_a_read=ATTEMPTS)


# ---- TLS -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vault_named_elsewhere(tmp_path_factory):
    server = ScriptedVault(tmp_path_factory.mktemp("tls-other-name"), name="vault.other.example")
    yield server
    server.close()


@pytest.mark.parametrize("call", CALLS)
def test_a_certificate_for_another_name_is_a_tls_failure_and_nothing_is_sent(vault_named_elsewhere, call):
    vault_named_elsewhere.answer(lambda handler: (200, {}, SUCCESS))
    client = client_for(vault_named_elsewhere)
    error = failure(client, call, VaultConnectionError)
    assert "TLS verification of %s failed" % vault_named_elsewhere.url in str(error)
    assert "no answer" not in str(error) and MAY_HAVE_BEEN_APPLIED not in str(error)
    assert vault_named_elsewhere.received == [] and not client.wrote


# ---- the vault's words ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", CALLS)
def test_a_failed_answer_echoing_what_was_sent_names_the_operation_without_the_secrets(vault, call):
    sent = [TOKEN, NEW_PASSWORD] if call == WRITE else [TOKEN]
    echo = " ".join(sent)
    body = {"operation": {"name": echo, "result": {"status": "Failed", "message": "refused: " + echo}}}
    vault.answer(lambda handler: (400, {}, json.dumps(body).encode()))
    client = client_for(vault)
    with pytest.raises(VaultAPIError) as caught:
        client.call(call[0], **call[1])
    masked = " ".join("********" for dummy in sent)
    assert str(caught.value) == "%s failed (HTTP 400): refused: %s" % (masked, masked)
    assert caught.value.operation == masked and caught.value.vault_message == "refused: " + masked


# ---- connection failures in plain words ------------------------------------------------------------

# What the libraries' own texts hold and a message must not: class names, object reprs, the pool and its URL.
LIBRARY_TEXT = ("Error", "Exception", "Disconnected", "object at 0x", "HTTPSConnectionPool", "Max retries", "url:")


def assert_plain_words(message):
    assert not [text for text in LIBRARY_TEXT if text in message], message


@pytest.mark.parametrize("call", CALLS)
def test_a_connection_closed_without_an_answer_is_said_in_plain_words(vault, call):
    vault.answer(lambda handler: None)
    client = client_for(vault)
    error = failure(client, call, VaultConnectionError)
    # A TLS server closing with the request unread may reset the connection instead: both are said as such.
    assert re.search("the connection was (closed|reset) before the answer arrived", str(error))
    assert_plain_words(str(error))
    assert_outcome(client, call, error, attempts_of_a_read=ATTEMPTS)


@pytest.mark.parametrize("call", CALLS)
def test_an_answer_later_than_the_timeout_is_said_in_plain_words(vault, call):
    def late(handler):
        time.sleep(TIMEOUT * 3)
        return 200, {}, SUCCESS

    vault.answer(late)
    client = client_for(vault, timeout=TIMEOUT)
    error = failure(client, call, VaultConnectionError)
    assert "no answer within the timeout of %g s" % TIMEOUT in str(error)
    assert_plain_words(str(error))
    assert_outcome(client, call, error, attempts_of_a_read=ATTEMPTS)


def test_a_refused_connection_gives_the_systems_words_and_counts_the_attempts(elsewhere):
    # A port nobody listens on: the listener's, once it is closed.
    closed = Listener()
    closed.close()
    client = VaultClient(
        url="https://127.0.0.1:%d" % closed.port, auth_token=TOKEN, retries=2, timeout=2, sleep=lambda delay: None
    )
    with pytest.raises(VaultConnectionError) as caught:
        client.call(*WRITE[:1], **WRITE[1])
    message = str(caught.value)
    assert message.startswith("CHANGE PASSWORD: no answer from https://127.0.0.1:%d: could not connect" % closed.port)
    assert "Connection refused" in message and "(after 3 attempts)" in message
    assert MAY_HAVE_BEEN_APPLIED not in message and not client.wrote
    assert_plain_words(message.replace("Connection refused", ""))
    assert TOKEN not in message and NEW_PASSWORD not in message


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_lasting_bad_gateway_on_a_read_says_how_often_it_was_tried(vault, status):
    vault.answer(lambda handler: (status, {"Content-Type": "text/plain"}, b"%d from the proxy" % status))
    client = client_for(vault)
    error = failure(client, READ, VaultResponseError)
    assert "HTTP %d" % status in str(error)
    assert_outcome(client, READ, error, attempts_of_a_read=ATTEMPTS)


def test_without_retries_no_attempt_count_is_given(vault):
    vault.answer(lambda handler: (502, {"Content-Type": "text/plain"}, b"bad gateway"))
    client = client_for(vault, retries=0)
    error = failure(client, READ, VaultResponseError)
    assert "attempts" not in str(error)
    assert_outcome(client, READ, error, attempts_of_a_read=1)
