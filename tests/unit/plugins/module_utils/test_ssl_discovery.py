# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""SSL discovery against a scripted client: input checked before sending, per-host outcomes read tolerantly."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _ssl_discovery
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._task import FailedOutcome
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

FOUND = ["SUCCESS", "Certificate www (serial number 0a) found at port 443 and added to the vault"]
REFUSED = ["FAILURE", "Connection failed: connection refused, no certificate found at port 443"]


def params(**options):
    settings = {"host": None, "start_address": None, "end_address": None, "port": 443, "discovery_timeout": 10}
    settings.update(options)
    return settings


class TimedClient(ScriptedClient):
    """Records the client timeout each call was sent with."""

    def __init__(self, answers):
        super().__init__(answers)
        self.timeout = 30.0
        self.timeouts = []

    def call(self, key, path=None, details=None, query=None, files=None):
        self.timeouts.append(self.timeout)
        return super().call(key, path, details, query, files)


def test_one_host_sends_the_spec_fields_and_reports_a_change_when_found():
    client = TimedClient({"discover_ssl_single": {"web.example.com": FOUND}})
    tracker, result = run_entry(
        _ssl_discovery.converge, client, params(host="web.example.com", discovery_timeout=300), False
    )
    assert client.calls == [
        ("discover_ssl_single", None, {"HOST": "web.example.com", "PORT": "443", "TIMEOUT": "300"}, None)
    ]
    assert tracker.changed
    assert result["hosts"] == [{"host": "web.example.com", "outcome": "SUCCESS", "text": FOUND[1], "success": True}]
    assert client.timeouts == [330.0] and client.timeout == 30.0


def test_a_failed_host_is_no_change():
    client = TimedClient({"discover_ssl_single": {"127.0.0.1": REFUSED}})
    tracker, result = run_entry(_ssl_discovery.converge, client, params(host="127.0.0.1"), False)
    assert not tracker.changed
    assert result["hosts"][0]["outcome"] == "FAILURE" and result["hosts"][0]["success"] is False
    assert "connection refused" in _ssl_discovery.failure_message(result["hosts"])


def test_fail_on_failure_fails_naming_the_failed_hosts_and_still_returns_every_host():
    answer = {"10.0.0.1": FOUND, "10.0.0.2": REFUSED}
    client = TimedClient({"discover_ssl_range": answer})
    options = params(start_address="10.0.0.1", end_address="10.0.0.2", fail_on_failure=True)
    with pytest.raises(FailedOutcome) as caught:
        run_entry(_ssl_discovery.converge, client, options, False)
    assert str(caught.value).startswith("SSL discovery found no certificate at 1 host: 10.0.0.2: Connection failed")
    assert [item["host"] for item in caught.value.values["hosts"]] == ["10.0.0.1", "10.0.0.2"]
    client = TimedClient({"discover_ssl_single": {"web": FOUND}})
    tracker, result = run_entry(_ssl_discovery.converge, client, params(host="web", fail_on_failure=True), False)
    assert tracker.changed and result["hosts"][0]["success"] is True


def test_range_is_sent_in_order_and_read_in_address_order():
    answer = {"10.0.0.10": REFUSED, "10.0.0.9": FOUND, "10.0.0.2": REFUSED}
    client = TimedClient({"discover_ssl_range": answer})
    tracker, result = run_entry(
        _ssl_discovery.converge,
        client,
        params(start_address="10.0.0.2", end_address="10.0.0.10", port=8443, discovery_timeout=3),
        False,
    )
    assert client.calls[0][2] == {
        "StartIpAddress": "10.0.0.2",
        "EndIpAddress": "10.0.0.10",
        "PORT": "8443",
        "TIMEOUT": "3",
    }
    assert [item["host"] for item in result["hosts"]] == ["10.0.0.2", "10.0.0.9", "10.0.0.10"]
    assert tracker.changed and tracker.diff()["after"] == {"found_at": ["10.0.0.9"]}
    assert client.timeouts == [9 * 3 + 30.0]


@pytest.mark.parametrize(
    "options, words",
    [
        ({"start_address": "10.0.0.9", "end_address": "10.0.0.2"}, "end_address 10.0.0.2 comes before"),
        ({"start_address": "10.0.0.300", "end_address": "10.0.0.2"}, "start_address '10.0.0.300' is not an IPv4"),
        ({"start_address": "::1", "end_address": "::2"}, "start_address '::1' is an IPv6 address"),
        ({"start_address": "10.0.0.1", "end_address": "2001:db8::1"}, "end_address '2001:db8::1' is an IPv6 address"),
        ({"start_address": "2001:db8::1", "end_address": "10.0.0.1"}, "between IPv4 addresses only"),
        ({"start_address": "10.0.0.0", "end_address": "10.255.255.255"}, "holds 16777216 addresses; one discovery"),
        ({"start_address": "10.0.0.0", "end_address": "10.1.0.0"}, "holds 65537 addresses; .* at most 65536"),
        ({"start_address": "10.0.0.1", "end_address": " 10.0.0.2"}, "leading or trailing spaces"),
        ({"start_address": "10.0.0.1"}, "give host, or start_address and end_address"),
        ({"host": "web", "port": 0}, "port must be a port number"),
        ({"host": "web", "port": 70000}, "port must be a port number"),
        ({"host": "web", "discovery_timeout": 0}, "discovery_timeout must be 1 second or more"),
        ({"host": ""}, "host must not be empty"),
        ({"host": "we b"}, "must not hold spaces"),
    ],
)
def test_bad_input_is_refused_before_any_request(options, words):
    client = TimedClient({})
    with pytest.raises(VaultInputError, match=words):
        run_entry(_ssl_discovery.converge, client, params(**options), False)
    assert client.calls == []


def test_the_largest_range_is_sent():
    client = TimedClient({"discover_ssl_range": {"10.0.0.1": FOUND}})
    run_entry(_ssl_discovery.converge, client, params(start_address="10.0.0.0", end_address="10.0.255.255"), False)
    assert client.calls[0][2]["EndIpAddress"] == "10.0.255.255"
    assert _ssl_discovery.MAX_RANGE_ADDRESSES == 65536


def test_check_mode_sends_nothing_reports_a_change_and_warns():
    client = TimedClient({})
    tracker, result = run_entry(_ssl_discovery.converge, client, params(host="web"), True)
    assert client.calls == [] and tracker.changed and result == {"hosts": []}
    assert any("cannot tell" in warning for warning in tracker.warnings)


def test_check_mode_still_refuses_bad_input():
    with pytest.raises(VaultInputError):
        run_entry(
            _ssl_discovery.converge, TimedClient({}), params(start_address="10.0.0.2", end_address="10.0.0.1"), True
        )


@pytest.mark.parametrize(
    "value",
    [None, "SUCCESS", [], [3, "x"], ["MAYBE", "x"], {"outcome": "SUCCESS"}, ["SUCCESS"] * 0],
)
def test_malformed_items_are_failures_with_no_outcome(value):
    (item,) = _ssl_discovery.host_outcomes({"web": value})
    assert item["outcome"] is None and item["success"] is False
    assert "is not [outcome, text]" in item["text"]


def test_tolerated_shapes():
    hosts = _ssl_discovery.host_outcomes([{"b.example": ["failure", 7]}, {"10.0.0.1": ["SUCCESS"]}, "junk"])
    assert hosts == [
        {"host": "10.0.0.1", "outcome": "SUCCESS", "text": "", "success": True},
        {"host": "b.example", "outcome": "FAILURE", "text": "7", "success": False},
    ]
    assert _ssl_discovery.host_outcomes("nothing") == []
    long_text = _ssl_discovery.host_outcomes({"h": ["FAILURE", "x" * 2000]})[0]["text"]
    assert len(long_text) == 500


def test_an_answer_without_hosts_fails():
    client = TimedClient({"discover_ssl_single": {}})
    with pytest.raises(VaultAPIError, match="without any host"):
        run_entry(_ssl_discovery.converge, client, params(host="web"), False)
