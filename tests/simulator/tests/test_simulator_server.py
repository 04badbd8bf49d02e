"""The HTTPS server of the real command: kept-alive connections, unread bodies, idle timeout,
the traffic counters of /__simulator/stats, drops, and many clients at once."""

import http.client
import json
import os
import signal
import ssl
import subprocess
import threading
import urllib.parse
from dataclasses import dataclass

import pytest
import requests
from test_simulator_cli import SIMULATOR_DIR, command, first_line

REST_ROOT = "/restapi/json/v1"


@dataclass
class Served:
    url: str
    token: str
    ca_path: str

    @property
    def address(self):
        host, port = urllib.parse.urlsplit(self.url).netloc.rsplit(":", 1)
        return host, int(port)

    def session(self):
        """A requests.Session that keeps its connection (the environment's CA bundle is ignored)."""
        session = requests.Session()
        session.trust_env = False
        session.verify = self.ca_path
        session.headers["AUTHTOKEN"] = self.token
        return session

    def connection(self):
        """One http.client connection (which would reconnect silently: count connections to see it)."""
        context = ssl.create_default_context(cafile=self.ca_path)
        return http.client.HTTPSConnection(*self.address, context=context, timeout=30)

    def stats(self):
        """The counters, read on a connection of its own (counted in what it returns)."""
        with self.session() as session:
            response = session.get(self.url + "/__simulator/stats", timeout=30)
        assert response.status_code == 200, response.text
        return response.json()

    def stats_change(self, before):
        """What was carried since ``before``, less this call's own connection and request."""
        after = self.stats()
        return {key: after[key] - before[key] - 1 for key in ("connections", "requests")}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIMULATOR_DIR), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        command() + ["--tls-dir", str(tmp_path_factory.mktemp("tls"))],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        ready = json.loads(first_line(process.stdout))
        yield Served(ready["url"], ready["token"], ready["ca_path"])
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


def input_data(details):
    return urllib.parse.urlencode({"INPUT_DATA": json.dumps({"operation": {"Details": details}})})


def test_one_session_sends_many_requests_over_one_connection(served):
    before = served.stats()
    with served.session() as session:
        results = [session.get(served.url + REST_ROOT + "/resources", timeout=30) for dummy in range(20)]
    assert [(r.status_code, r.json()["operation"]["result"]["status"]) for r in results] == [(200, "Success")] * 20
    assert served.stats_change(before) == {"connections": 1, "requests": 20}


def test_a_body_left_unread_does_not_break_the_next_request(served):
    """Answers given before the body is read (a refused token, an unknown path, an admin
    endpoint refused without the admin token) leave it unread; the next request on the connection is whole."""
    body = input_data({"RESOURCENAME": "x" * 300_000}).encode()
    before = served.stats()
    connection = served.connection()
    statuses = []
    try:
        for method, path, token in (
            ("POST", REST_ROOT + "/resources", "not-a-token"),
            ("POST", REST_ROOT + "/no/such/endpoint", served.token),
            ("PUT", "/__simulator/faults", "not-a-token"),
            ("POST", REST_ROOT + "/resources", served.token),
        ):
            connection.request(method, path, body=body, headers={"AUTHTOKEN": token})
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.request("GET", REST_ROOT + "/resources", headers={"AUTHTOKEN": served.token})
        last = connection.getresponse()
        assert json.load(last)["operation"]["result"]["status"] == "Success"
    finally:
        connection.close()
    # The body was read at last by CREATE RESOURCE, which refuses the incomplete resource.
    assert statuses == [401, 404, 401, 200]
    assert served.stats_change(before) == {"connections": 1, "requests": 5}


def test_an_idle_connection_is_closed_by_the_server(served):
    connection = served.connection()
    try:
        connection.request("GET", REST_ROOT + "/resources", headers={"AUTHTOKEN": served.token})
        response = connection.getresponse()
        response.read()
        assert response.status == 200 and response.getheader("Connection") != "close"
        try:
            closed = connection.sock.recv(1) == b""  # blocks until the server ends the idle connection
        except ConnectionResetError:
            closed = True
    finally:
        connection.close()
    assert closed


def test_stats_need_the_admin_token(served):
    response = requests.get(served.url + "/__simulator/stats", headers={"AUTHTOKEN": "nope"}, verify=served.ca_path)
    assert response.status_code == 401


def test_stats_without_a_server_stay_zero(vault):
    vault.call("GET", "/resources")
    response = vault.client.get("/__simulator/stats", headers={"AUTHTOKEN": vault.token})
    assert response.get_json() == {"connections": 0, "requests": 0}


def test_a_drop_fault_ends_a_kept_alive_connection(served):
    resources = served.url + REST_ROOT + "/resources"
    faults = served.url + "/__simulator/faults"
    with served.session() as admin, served.session() as client:
        assert client.get(resources, timeout=30).status_code == 200
        rule = {"kind": "drop", "count": 1, "path": "^/restapi/json/v1/resources$"}
        assert admin.put(faults, json=[rule], timeout=30).status_code == 200
        try:
            with pytest.raises(requests.exceptions.ConnectionError):
                client.get(resources, timeout=30)
            assert client.get(resources, timeout=30).status_code == 200
        finally:
            admin.delete(faults, timeout=30)


def test_many_clients_at_once_add_exactly_their_accounts(served):
    """16 threads, each with its own kept-alive session, add 25 accounts each to one resource."""
    threads_count, per_thread = 16, 25
    with served.session() as session:
        details = {"RESOURCENAME": "stress01", "ACCOUNTNAME": "root", "RESOURCETYPE": "Linux", "PASSWORD": "pw"}
        created = session.post(
            served.url + REST_ROOT + "/resources", data=input_data({**details, "OWNERNAME": "admin"})
        )
        assert created.json()["operation"]["result"]["status"] == "Success"
        ids = session.get(
            served.url + REST_ROOT + "/resources/getResourceIdAccountId",
            params={"RESOURCENAME": "stress01", "ACCOUNTNAME": "root"},
        ).json()["operation"]["Details"]
    accounts_url = f"{served.url}{REST_ROOT}/resources/{ids['RESOURCEID']}/accounts"
    outcomes = []

    def add_accounts(thread_number):
        with served.session() as client:
            for index in range(per_thread):
                account = {"ACCOUNTNAME": f"t{thread_number}-{index}", "PASSWORD": "pw"}
                response = client.post(accounts_url, data=input_data({"ACCOUNTLIST": [account]}), timeout=60)
                outcomes.append((response.status_code, response.json()["operation"]["result"]["status"]))

    before = served.stats()
    workers = [threading.Thread(target=add_accounts, args=(number,)) for number in range(threads_count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    change = served.stats_change(before)

    assert outcomes == [(200, "Success")] * (threads_count * per_thread)
    assert change == {"connections": threads_count, "requests": threads_count * per_thread}
    with served.session() as session:
        listed = session.get(accounts_url, timeout=30).json()["operation"]["Details"]["ACCOUNT LIST"]
    expected = {"root"} | {f"t{t}-{i}" for t in range(threads_count) for i in range(per_thread)}
    assert sorted(account["ACCOUNT NAME"] for account in listed) == sorted(expected)
    assert len({account["ACCOUNT ID"] for account in listed}) == len(expected)
