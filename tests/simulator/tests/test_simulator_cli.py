"""The real ``vault-simulator`` command, over real HTTPS."""

import http.client
import json
import os
import queue
import signal
import ssl
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from pathlib import Path

SIMULATOR_DIR = Path(__file__).resolve().parents[1]
SECRET_REASON = "reason-that-must-not-be-logged"


def command():
    """The installed console script when there is one, else the same entry point via ``-m``."""
    script = Path(sys.executable).with_name("vault-simulator")
    return [str(script)] if script.exists() else [sys.executable, "-m", "vault_simulator"]


def first_line(stream, timeout=30):
    lines = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    return lines.get(timeout=timeout)


def test_cli_announces_itself_and_serves_https(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        command()
        + [
            "--edition",
            "A",
            "--build",
            "12300",
            "--port",
            "0",
            "--admin-token",
            "CLI-TOKEN",
            "--tls-dir",
            str(tmp_path / "tls"),
            "--require-reason",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        ready = json.loads(first_line(process.stdout))
        assert set(ready) == {"url", "token", "ca_path", "edition", "build", "client_cert", "client_key"}
        assert ready["url"].startswith("https://127.0.0.1:") and int(ready["url"].rsplit(":", 1)[1]) > 0
        assert (ready["token"], ready["edition"], ready["build"]) == ("CLI-TOKEN", "A", 12300)
        assert ready["ca_path"] == str(tmp_path / "tls" / "ca.pem")
        assert ready["client_cert"] == str(tmp_path / "tls" / "client.pem")
        assert ready["client_key"] == str(tmp_path / "tls" / "client-key.pem")

        input_data = json.dumps({"operation": {"Details": {"REASON": SECRET_REASON}}})
        url = ready["url"] + "/restapi/json/v1/resources?" + urllib.parse.urlencode({"INPUT_DATA": input_data})
        request = urllib.request.Request(url, headers={"AUTHTOKEN": ready["token"]})
        context = ssl.create_default_context(cafile=ready["ca_path"])
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            body = json.load(response)
        assert body["operation"]["name"] == "GET RESOURCES"
        assert body["operation"]["result"]["status"] == "Success"
    finally:
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 0
    assert stdout == ""  # nothing after the ready line
    assert "/restapi/json/v1/resources" in stderr
    assert SECRET_REASON not in stderr and "CLI-TOKEN" not in stderr


def run_requests(tmp_path, flags, requests_to_send):
    """Start the command with ``flags``, send ``(method, path, details, headers)`` requests, return the bodies."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        command() + ["--tls-dir", str(tmp_path)] + flags,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        ready = json.loads(first_line(process.stdout))
        context = ssl.create_default_context(cafile=ready["ca_path"])
        bodies = []
        for method, path, details, headers in requests_to_send:
            data = (
                urllib.parse.urlencode({"INPUT_DATA": json.dumps({"operation": {"Details": details}})}).encode()
                if details
                else None
            )
            request = urllib.request.Request(
                ready["url"] + "/restapi/json/v1" + path,
                data=data,
                method=method,
                headers={"AUTHTOKEN": ready["token"], **headers},
            )
            with urllib.request.urlopen(request, context=context, timeout=30) as response:
                bodies.append(json.load(response))
        return bodies
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


def test_cli_seed_reproduces_tokens_across_runs(tmp_path):
    create = ("POST", "/user", {"USERNAME": "api1", "ISAPIUSER": "true"}, {})
    first = run_requests(tmp_path / "one", ["--seed", "11", "--admin-token", "T"], [create])
    second = run_requests(tmp_path / "two", ["--seed", "11", "--admin-token", "T"], [create])
    token = first[0]["operation"]["Details"]["AUTHTOKEN"]
    assert token == second[0]["operation"]["Details"]["AUTHTOKEN"]


def test_cli_organization_is_selected_by_org_name(tmp_path):
    bodies = run_requests(
        tmp_path,
        ["--organization", "Branch Office"],
        [
            ("GET", "/resources", None, {"orgName": "Branch Office"}),
            ("GET", "/resources", None, {"orgName": "Elsewhere"}),
        ],
    )
    assert bodies[0]["operation"]["result"]["status"] == "Success"
    assert bodies[1]["operation"]["result"] == {"status": "Failed", "message": "Organization Elsewhere does not exist"}


def test_cli_reads_a_urlencoded_body_labelled_text_json_or_not_labelled(tmp_path):
    """What a published client sends (``Content-Type: text/json``), and a body with no Content-Type."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        command() + ["--tls-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        ready = json.loads(first_line(process.stdout))
        host, port = urllib.parse.urlsplit(ready["url"]).netloc.rsplit(":", 1)
        context = ssl.create_default_context(cafile=ready["ca_path"])
        results = []
        for name, content_type in (("web01", "text/json"), ("web02", None)):
            details = {
                "RESOURCENAME": name,
                "ACCOUNTNAME": "root",
                "RESOURCETYPE": "Linux",
                "PASSWORD": "s3cret",
                "OWNERNAME": "admin",
            }
            body = urllib.parse.urlencode({"INPUT_DATA": json.dumps({"operation": {"Details": details}})})
            headers = {"AUTHTOKEN": ready["token"], **({"Content-Type": content_type} if content_type else {})}
            connection = http.client.HTTPSConnection(host, int(port), context=context, timeout=30)
            try:
                connection.request("POST", "/restapi/json/v1/resources", body=body.encode(), headers=headers)
                results.append(json.load(connection.getresponse())["operation"]["result"])
            finally:
                connection.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert results == [
        {"status": "Success", "message": "Resource web01 has been added successfully"},
        {"status": "Success", "message": "Resource web02 has been added successfully"},
    ]
