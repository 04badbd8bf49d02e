"""The fault kinds drop_after, empty and html: what they answer, and whether the request was served."""

import json
import os
import signal
import subprocess

import pytest
import requests
from test_simulator_cli import SIMULATOR_DIR, command, first_line

from vault_simulator.core.faults import FaultRule

NEW_RESOURCE = {
    "RESOURCENAME": "web01",
    "ACCOUNTNAME": "root",
    "RESOURCETYPE": "Linux",
    "PASSWORD": "pw",
    "OWNERNAME": "admin",
}


def set_faults(vault, rules):
    response = vault.client.put("/__simulator/faults", json=rules, headers={"AUTHTOKEN": vault.token})
    assert response.status_code == 200, response.get_json()


def resource_names(vault):
    return [record["name"] for record in vault.store.all("resource")]


def test_empty_answers_200_without_a_body_and_changes_nothing(vault):
    set_faults(vault, [{"kind": "empty", "count": 1, "method": "POST"}])
    response = vault.send("POST", "/resources", details=NEW_RESOURCE)
    assert (response.status_code, response.get_data()) == (200, b"")
    assert resource_names(vault) == []
    assert vault.requests()[-1]["status"] == "FAULT empty"
    vault.ok("GET", "/resources")


@pytest.mark.parametrize(
    "status, title",
    [(None, "500 Internal Server Error"), (502, "502 Bad Gateway"), (503, "503 Service Unavailable")],
)
def test_html_answers_an_error_page_and_changes_nothing(vault, status, title):
    rule = {"kind": "html", "method": "POST"}
    if status is not None:
        rule["status"] = status
    set_faults(vault, [rule])
    response = vault.send("POST", "/resources", details=NEW_RESOURCE)
    assert response.status_code == (status or 500)
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert page.startswith("<!DOCTYPE html>") and f"<title>{title}</title>" in page
    assert response.get_json(silent=True) is None
    assert resource_names(vault) == []
    assert vault.requests()[-1]["status"] == "FAULT html"


def test_html_refuses_a_status_other_than_500_502_503(vault):
    response = vault.client.put(
        "/__simulator/faults", json=[{"kind": "html", "status": 404}], headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 400
    assert "fault status of html must be 500 or 502 or 503" in response.get_json()["error"]


def test_drop_after_serves_the_request_under_the_test_client(vault):
    """The test client cannot lose a connection: it gets an empty 500, but the write was committed."""
    set_faults(vault, [{"kind": "drop_after", "count": 1, "method": "POST"}])
    response = vault.send("POST", "/resources", details=NEW_RESOURCE)
    assert (response.status_code, response.get_data()) == (500, b"")
    assert resource_names(vault) == ["web01"]
    assert vault.requests()[-1] == {
        "method": "POST",
        "path": "/restapi/json/v1/resources",
        "operation": "CREATE RESOURCE",
        "status": "Success",
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("drop_after:method=POST,count=1", FaultRule("drop_after", method="POST", count=1)),
        ("empty", FaultRule("empty")),
        ("html", FaultRule("html", status=500)),
        ("html:status=502", FaultRule("html", status=502)),
    ],
)
def test_cli_syntax_of_the_new_kinds(text, expected):
    assert FaultRule.parse(text) == expected


@pytest.fixture
def served(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(SIMULATOR_DIR)}
    process = subprocess.Popen(
        command() + ["--tls-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        yield json.loads(first_line(process.stdout))
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


def test_drop_after_commits_the_write_then_closes_the_connection(served):
    """Over real HTTPS: the client gets no answer at all, yet the resource exists afterwards."""
    resources = served["url"] + "/restapi/json/v1/resources"
    form = {"INPUT_DATA": json.dumps({"operation": {"Details": NEW_RESOURCE}})}
    with requests.Session() as session:
        session.trust_env = False
        session.verify = served["ca_path"]
        session.headers["AUTHTOKEN"] = served["token"]
        assert session.get(resources, timeout=30).status_code == 200
        rule = {"kind": "drop_after", "count": 1, "method": "POST", "path": "^/restapi/json/v1/resources$"}
        assert session.put(served["url"] + "/__simulator/faults", json=[rule], timeout=30).status_code == 200
        with pytest.raises(requests.exceptions.ConnectionError):
            session.post(resources, data=form, timeout=30)
        listed = session.get(resources, timeout=30).json()["operation"]["Details"]
        rules = session.get(served["url"] + "/__simulator/faults", timeout=30).json()
    assert [resource["RESOURCE NAME"] for resource in listed] == ["web01"]
    assert rules[0]["remaining"] == 0
