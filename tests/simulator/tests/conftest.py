"""Fixtures: simulator apps driven through the Flask test client."""

import json
import sys
from pathlib import Path

import pytest

from conformance.harness import Exchange

# Test the working tree, whether or not (or however) the package is installed.
SIMULATOR_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SIMULATOR_DIR))
# The parser of the spec's tables, shared with the collection's catalogue test.
SPEC_DIR = SIMULATOR_DIR.parent / "spec"
sys.path.insert(0, str(SPEC_DIR))

from vault_simulator.core.app import create_app  # noqa: E402
from vault_simulator.core.config import SimulatorConfig  # noqa: E402
from vault_simulator.core.simulator import simulator_of  # noqa: E402

REST_ROOT = "/restapi/json/v1"
PKI_ROOT = "/api/pki/restapi"
ADMIN = object()  # "send the admin token"


class Vault:
    """A simulator app plus helpers that speak its REST API."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.simulator = simulator_of(app)
        self.store = self.simulator.store
        self.token = self.simulator.admin_token

    def call(self, method, path, **kwargs):
        """Send a request; return ``(http_status, json_body)``."""
        response = self.send(method, path, **kwargs)
        return response.status_code, response.get_json(silent=True)

    def exchange(self, method, path, **kwargs):
        """Send a request; return a ``conformance.harness.Exchange``."""
        response = self.send(method, path, **kwargs)
        return Exchange(
            method, response.request.path, response.status_code, response.get_json(silent=True), response.get_data()
        )

    def send(
        self,
        method,
        path,
        details=None,
        token=ADMIN,
        via=None,
        query=None,
        files=None,
        headers=None,
        root=REST_ROOT,
        lower_case_details=False,
    ):
        """Send a request; return the test client's response.

        ``details`` becomes INPUT_DATA, sent as a query parameter (``via="query"``,
        the default for GET and DELETE) or a form field (``via="form"``).
        """
        headers = dict(headers or {})
        if token is not None:
            headers["AUTHTOKEN"] = self.token if token is ADMIN else token
        query, form = dict(query or {}), dict(files or {})
        if details is not None:
            key = "details" if lower_case_details else "Details"
            document = json.dumps({"operation": {key: details}})
            via = via or ("query" if method in ("GET", "DELETE") else "form")
            (query if via == "query" else form)["INPUT_DATA"] = document
        return self.client.open(root + path, method=method, query_string=query, data=form or None, headers=headers)

    def operation(self, method, path, **kwargs):
        """The ``operation`` object of an HTTP 200 answer."""
        status, body = self.call(method, path, **kwargs)
        assert status == 200, body
        return body["operation"]

    def ok(self, method, path, **kwargs):
        operation = self.operation(method, path, **kwargs)
        assert operation["result"]["status"] == "Success", operation
        return operation

    def failed(self, method, path, message, **kwargs):
        operation = self.operation(method, path, **kwargs)
        assert operation["result"] == {"status": "Failed", "message": message}, operation
        return operation

    def create_resource(
        self, name, account="root", password="s3cret", resource_type="Linux", token=ADMIN, headers=None, **fields
    ):
        """Create a resource (owner ``admin`` unless OWNERNAME is given); return its id."""
        details = {
            "RESOURCENAME": name,
            "ACCOUNTNAME": account,
            "RESOURCETYPE": resource_type,
            "PASSWORD": password,
            **fields,
        }
        if token is ADMIN:
            details.setdefault("OWNERNAME", "admin")
        self.ok("POST", "/resources", details=details, token=token, headers=headers)
        return self.ids(name, account, headers=headers)

    def ids(self, resource_name, account_name, headers=None):
        """``(resource_id, account_id)`` by names."""
        details = self.ok(
            "GET",
            "/resources/getResourceIdAccountId",
            headers=headers,
            query={"RESOURCENAME": resource_name, "ACCOUNTNAME": account_name},
        )["Details"]
        return details["RESOURCEID"], details["ACCOUNTID"]

    def create_api_user(self, name, role="Password User"):
        """Create an API user; return its AUTHTOKEN."""
        details = {"USERNAME": name, "ROLE": role, "ISAPIUSER": "true"}
        return self.ok("POST", "/user", details=details)["Details"]["AUTHTOKEN"]

    def requests(self):
        response = self.client.get("/__simulator/requests", headers={"AUTHTOKEN": self.token})
        assert response.status_code == 200
        return response.get_json()


@pytest.fixture
def make_vault():
    """``make_vault(edition="B", build=6000, require_reason=True, ...)`` -> Vault."""
    vaults = []

    def make(**settings):
        vault = Vault(create_app(SimulatorConfig(**settings)))
        vaults.append(vault)
        return vault

    yield make
    for vault in vaults:
        vault.store.close()


@pytest.fixture
def vault(make_vault):
    """Edition A, build 12450 (the default), in memory."""
    return make_vault()
