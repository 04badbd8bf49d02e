# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The libraries' errors in words (``_connection_errors``): only what is known to be harmless is taken from their
text, found wherever requests and urllib3 wrap it; the rest is said in the collection's own words."""

from __future__ import annotations

import ssl

import pytest
import requests
from urllib3.exceptions import MaxRetryError, NewConnectionError, ProxyError

from ansible_collections.credvault.vault.plugins.module_utils._connection_errors import (
    certificate_refusal,
    not_sent,
    proxy_refusal,
    reason,
    tls_failure,
)

URL = "https://vault.example:7272"
SECRET = "S3cr3t-in-the-url"


def wrapped(cause, outer=requests.exceptions.ConnectionError):
    """``cause`` as requests hands it on: a ``MaxRetryError`` whose ``reason`` is the cause, inside ``outer``."""
    return outer(MaxRetryError(None, "/restapi/json/v1/x?INPUT_DATA=%s" % SECRET, reason=cause))


def refused_connection():
    cause = NewConnectionError(None, "Failed to establish a new connection: [Errno 111] Connection refused")
    return wrapped(cause)


def test_a_refused_connection_keeps_the_systems_words_only():
    assert reason(refused_connection(), [SECRET], 5) == "could not connect: Connection refused"
    assert not_sent(refused_connection())


@pytest.mark.parametrize(
    "error, words, never_left",
    [
        (requests.exceptions.ConnectTimeout("x"), "connecting took longer than the timeout of 2.5 s", True),
        (requests.exceptions.ReadTimeout("x"), "no answer within the timeout of 2.5 s", False),
        (wrapped(ConnectionResetError(104, "reset")), "the connection was reset before the answer arrived", False),
        (requests.exceptions.ConnectionError("closed"), "the connection was closed before the answer arrived", False),
    ],
)
def test_each_way_a_connection_fails_has_its_words(error, words, never_left):
    assert reason(error, [SECRET], 2.5) == words
    assert not_sent(error) is never_left


def test_a_certificate_alert_names_the_certificate_shown_or_asks_for_one():
    error = wrapped(ssl.SSLError(1, "[SSL: TLSV13_ALERT_CERTIFICATE_REQUIRED] tlsv13 alert certificate required"))
    assert certificate_refusal("GET_RESOURCES", URL, None, error) == (
        "GET_RESOURCES: %s demands a TLS client certificate (TLS alert: certificate required): set client_cert and "
        "client_key" % URL
    )
    assert certificate_refusal("GET_RESOURCES", URL, ("/c.pem", "/k.pem"), error) == (
        "GET_RESOURCES: %s refused the TLS client certificate client_cert /c.pem (TLS alert: certificate required)"
        % URL
    )
    assert certificate_refusal("GET_RESOURCES", URL, None, refused_connection()) is None


def test_a_failed_verification_says_which_check_failed_and_never_the_url_of_the_request():
    cause = ssl.SSLCertVerificationError(1, "certificate verify failed")
    cause.verify_message = "unable to get local issuer certificate"
    message = tls_failure("GET_RESOURCES", URL, None, wrapped(cause, requests.exceptions.SSLError))
    assert message == (
        "GET_RESOURCES: TLS verification of %s failed (unable to get local issuer certificate; point ca_path at the "
        "vault's CA certificate)" % URL
    )
    assert SECRET not in message


@pytest.mark.parametrize(
    "answer, hint",
    [("407 Proxy Authentication Required", " (its user and password in proxy_url)"), ("403 Forbidden", "")],
)
def test_a_proxy_that_refused_to_connect_is_quoted(answer, hint):
    error = wrapped(ProxyError("Unable to connect to proxy", OSError("Tunnel connection failed: %s" % answer)))
    assert proxy_refusal("GET_RESOURCES", "http://proxy:3128", URL, error) == (
        "GET_RESOURCES: the proxy http://proxy:3128 refused to connect to %s: it answered %s%s" % (URL, answer, hint)
    )


def test_a_proxy_that_did_not_answer_is_not_a_refusal():
    assert proxy_refusal("GET_RESOURCES", "http://proxy:3128", URL, refused_connection()) is None
