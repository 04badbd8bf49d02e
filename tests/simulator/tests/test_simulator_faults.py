"""Fault injection: rules from the configuration and from the admin endpoint."""

import http.client
import json
import os
import signal
import ssl
import subprocess
import time

import pytest
from test_simulator_cli import SIMULATOR_DIR, command, first_line

from vault_simulator.core.faults import FAILED_MESSAGE, FaultRule


def set_faults(vault, rules):
    response = vault.client.put("/__simulator/faults", json=rules, headers={"AUTHTOKEN": vault.token})
    return response.status_code, response.get_json()


def test_status_fault_answers_503_and_changes_nothing(vault):
    assert set_faults(vault, [{"kind": "status", "status": 503, "path": "^/restapi/json/v1/resources$"}])[0] == 200
    status, body = vault.call(
        "POST",
        "/resources",
        details={
            "RESOURCENAME": "web01",
            "ACCOUNTNAME": "root",
            "RESOURCETYPE": "Linux",
            "PASSWORD": "pw",
            "OWNERNAME": "admin",
        },
    )
    assert (status, body) == (503, None)
    assert vault.store.all("resource") == []
    assert vault.requests()[-1]["status"] == "FAULT status"
    # Another path is not affected.
    assert vault.call("GET", "/resources/resourcetypes")[0] == 200


def test_method_narrows_a_rule(vault):
    set_faults(vault, [{"kind": "status", "method": "POST", "path": "^/restapi/json/v1/resources$"}])
    assert vault.call("GET", "/resources")[0] == 200
    assert vault.call("POST", "/resources", details={"RESOURCENAME": "x"})[0] == 503


def test_count_limits_a_fault_and_the_rule_reports_what_remains(vault):
    set_faults(vault, [{"kind": "status", "status": 502, "count": 2}])
    statuses = [vault.call("GET", "/resources")[0] for _attempt in range(3)]
    assert statuses == [502, 502, 200]
    rules = vault.client.get("/__simulator/faults", headers={"AUTHTOKEN": vault.token}).get_json()
    assert rules[0]["remaining"] == 0 and rules[0]["kind"] == "status"


def test_rate_draws_are_reproducible_with_a_seed(make_vault):
    def pattern():
        vault = make_vault(seed=7, faults=(FaultRule("status", rate=0.5),))
        return [vault.call("GET", "/resources")[0] for _attempt in range(20)]

    first = pattern()
    assert first == pattern()
    assert set(first) == {200, 503}


def test_malformed_body_and_failed_status(vault):
    set_faults(vault, [{"kind": "malformed", "count": 1}])
    response = vault.send("GET", "/resources")
    assert response.status_code == 200 and response.get_json(silent=True) is None
    with pytest.raises(ValueError):
        json.loads(response.get_data(as_text=True))
    set_faults(vault, [{"kind": "failed", "count": 1}])
    body = vault.failed("GET", "/resources", FAILED_MESSAGE)
    assert body["name"] == "GET RESOURCES"
    vault.ok("GET", "/resources")


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_answers_the_status_and_location_and_changes_nothing(vault, status):
    target = "http://127.0.0.1:9/elsewhere?x=1"
    set_faults(vault, [{"kind": "redirect", "status": status, "location": target, "method": "POST"}])
    response = vault.send(
        "POST",
        "/resources",
        details={
            "RESOURCENAME": "web01",
            "ACCOUNTNAME": "root",
            "RESOURCETYPE": "Linux",
            "PASSWORD": "pw",
            "OWNERNAME": "admin",
        },
    )
    assert (response.status_code, response.headers["Location"]) == (status, target)
    assert vault.store.all("resource") == []
    assert vault.requests()[-1]["status"] == "FAULT redirect"


def test_redirect_defaults_to_302_and_may_have_no_location(vault):
    set_faults(vault, [{"kind": "redirect", "count": 1}])
    response = vault.send("GET", "/resources")
    assert response.status_code == 302 and "Location" not in response.headers
    vault.ok("GET", "/resources")


def test_malformed_on_get_at_a_rate_leaves_writes_alone(make_vault):
    vault = make_vault(seed=3, faults=(FaultRule("malformed", method="GET", rate=0.5),))
    bodies = [vault.send("GET", "/resources").get_json(silent=True) for _attempt in range(20)]
    assert None in bodies and any(body is not None for body in bodies)
    assert vault.call("POST", "/resources", details={"RESOURCENAME": "x"})[1] is not None


def test_latency_delays_then_serves(vault):
    set_faults(vault, [{"kind": "latency", "seconds": 0.2}])
    started = time.monotonic()
    vault.ok("GET", "/resources")
    assert time.monotonic() - started >= 0.2


def test_delete_removes_every_rule(vault):
    set_faults(vault, [{"kind": "status"}])
    assert vault.client.delete("/__simulator/faults", headers={"AUTHTOKEN": vault.token}).status_code == 204
    vault.ok("GET", "/resources")


@pytest.mark.parametrize(
    "rules, message",
    [
        ({"kind": "status"}, "expected a JSON list of fault rules"),
        ([{"kind": "explode"}], "fault kind must be one of"),
        ([{"kind": "status", "status": 500}], "fault status of status must be 502 or 503"),
        ([{"kind": "redirect", "status": 200}], "fault status of redirect must be 301 or 302 or 303 or 307 or 308"),
        ([{"kind": "status", "rate": 2}], "fault rate must be between 0 and 1"),
        ([{"kind": "status", "colour": "red"}], "unknown fault rule keys: colour"),
        ([{"kind": "status", "method": "PATCH"}], "fault method must be"),
    ],
)
def test_bad_rules_are_refused_and_keep_the_old_ones(vault, rules, message):
    set_faults(vault, [{"kind": "failed"}])
    status, body = set_faults(vault, rules)
    assert status == 400 and message in body["error"]
    assert vault.client.get("/__simulator/faults", headers={"AUTHTOKEN": vault.token}).get_json()[0]["kind"] == "failed"


def test_the_faults_endpoint_needs_the_admin_token(vault):
    assert vault.client.put("/__simulator/faults", json=[], headers={"AUTHTOKEN": "nope"}).status_code == 401


@pytest.mark.parametrize(
    "text, expected",
    [
        ("drop", FaultRule("drop")),
        ("status:status=502,rate=0.25,path=^/api", FaultRule("status", path="^/api", rate=0.25, status=502)),
        ("latency:seconds=1.5,count=3", FaultRule("latency", seconds=1.5, count=3)),
        (
            "redirect:status=307,location=https://elsewhere.example/x",
            FaultRule("redirect", status=307, location="https://elsewhere.example/x"),
        ),
    ],
)
def test_cli_fault_syntax(text, expected):
    assert FaultRule.parse(text) == expected


def test_dropped_connection_over_real_https(tmp_path):
    """``--fault drop`` closes the socket: the client sees no HTTP answer at all."""
    env = {**os.environ, "PYTHONPATH": str(SIMULATOR_DIR)}
    process = subprocess.Popen(
        command() + ["--tls-dir", str(tmp_path), "--fault", "drop:count=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        ready = json.loads(first_line(process.stdout))
        host, port = ready["url"][len("https://") :].split(":")
        context = ssl.create_default_context(cafile=ready["ca_path"])

        def get():
            connection = http.client.HTTPSConnection(host, int(port), context=context, timeout=30)
            connection.request("GET", "/restapi/json/v1/resources", headers={"AUTHTOKEN": ready["token"]})
            return connection.getresponse().status

        with pytest.raises((http.client.RemoteDisconnected, ConnectionError, ssl.SSLError)):
            get()
        assert get() == 200
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
