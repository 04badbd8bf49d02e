# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The service's information: the HA status (optional), and the endpoints an edition and build have, computed from
the catalogue without any request."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _server_info
from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

HA = {
    "haStatus": "Not Configured",
    "isPrimaryServer": "true",
    "primaryServer": "vault01",
    "primaryServerStatus": "Running",
    "secondaryServer": "",
    "secondaryServerStatus": "Not Configured",
}


class GatedClient(ScriptedClient):
    """A scripted client whose ``call`` refuses what the configured edition and build lack, as the client does."""

    def call(self, key, path=None, details=None, query=None, files=None):
        self.check_supported(key, details)
        return super().call(key, path, details, query, files)


def by_key(rows):
    return {row["key"]: row for row in rows}


def test_every_catalogue_row_is_listed_once_in_order():
    rows = _server_info.available_endpoints("A", 12450)
    assert [row["key"] for row in rows] == list(CATALOGUE)


def test_a_row_tells_method_full_path_operation_and_build():
    rows = by_key(_server_info.available_endpoints("A", 12450))
    assert rows["get_ha_status"] == {
        "key": "get_ha_status",
        "method": "GET",
        "path": "/restapi/json/v1/server/getHighAvailabilityStatus",
        "operation": "Get HA Status",
        "build": "A 12230 / B 6000",
        "available": True,
        "fields": {},
    }
    assert rows["generate_install_key"]["path"] == "/api/pki/restapi/generateInstallKey"


def test_edition_b_method_and_operation_are_used():
    rows = by_key(_server_info.available_endpoints("B", 6320))
    assert rows["get_ssh_key"]["method"] == "POST"
    assert by_key(_server_info.available_endpoints("A", 12450))["get_ssh_key"]["method"] == "GET"
    create_csr = CATALOGUE.get("create_csr")
    if create_csr is not None and create_csr.operation_in_b:
        assert rows["create_csr"]["operation"] == create_csr.operation_in_b


@pytest.mark.parametrize(
    "edition, build, key, available",
    [
        ("A", 12000, "get_ha_status", False),
        ("A", 12230, "get_ha_status", True),
        ("B", 5999, "get_agent_key", False),
        ("B", 6000, "get_agent_key", True),
        ("A", 11299, "generate_install_key", False),
        ("A", 11300, "generate_install_key", True),
        ("A", 1, "get_audit", True),
        ("A", None, "get_audit", True),
        ("A", None, "get_ha_status", None),
        (None, None, "get_audit", True),
        (None, None, "get_ha_status", None),
        ("A", 99999, "get_users", False),
        ("B", 6320, "get_users", True),
        ("B", 6319, "get_users", False),
    ],
)
def test_availability_follows_the_gates(edition, build, key, available):
    rows = by_key(_server_info.available_endpoints(edition, build))
    assert rows[key]["available"] is available


def test_gated_fields_are_told_apart():
    assert by_key(_server_info.available_endpoints("B", 6200))["export_ssh_key"]["fields"] == {"keyExportType": True}
    assert by_key(_server_info.available_endpoints("B", 6100))["export_ssh_key"]["fields"] == {"keyExportType": False}
    assert by_key(_server_info.available_endpoints("A", 12450))["export_ssh_key"]["fields"] == {"keyExportType": False}
    assert by_key(_server_info.available_endpoints(None, None))["export_ssh_key"]["fields"] == {"keyExportType": None}


def described(client):
    """What ``vault_server_info`` returns: its entry point, run as the module runs it (it records nothing)."""
    tracker, values = run_entry(_server_info.describe, client, {})
    assert not tracker.recorded and tracker.warnings == []
    return values


def test_the_ha_status_gains_a_boolean():
    client = ScriptedClient({"get_ha_status": HA}, edition="A", build=12450)
    found = described(client)
    assert found["high_availability"] == dict(HA, is_primary_server=True)
    assert found["unavailable"] == {} and found["edition"] == "A" and found["build"] == 12450
    assert by_key(found["endpoints"])["get_ha_status"]["available"] is True
    assert [call[0] for call in client.calls] == ["get_ha_status"]


@pytest.mark.parametrize(
    "value, boolean", [("false", False), ("TRUE", True), (True, True), ("yes", None), (None, None)]
)
def test_is_primary_server_reads_only_true_and_false(value, boolean):
    client = ScriptedClient({"get_ha_status": dict(HA, isPrimaryServer=value)})
    assert described(client)["high_availability"]["is_primary_server"] is boolean


def test_an_old_build_is_not_asked_and_says_why():
    client = GatedClient({}, edition="A", build=12000)
    found = described(client)
    assert client.calls == [] and found["high_availability"] == {}
    assert found["unavailable"] == {
        "high_availability": "Get HA Status (GET /server/getHighAvailabilityStatus) needs edition A from build 12230 "
        "or edition B from build 6000; the vault is edition A build 12000"
    }


def test_a_vault_answering_404_lacks_it():
    client = ScriptedClient({"get_ha_status": VaultAPIError("Get HA Status failed (HTTP 404): nope", http_status=404)})
    found = described(client)
    assert found["high_availability"] == {} and "does not serve it" in found["unavailable"]["high_availability"]
    assert found["edition"] is None and found["build"] is None


def test_other_refusals_fail():
    client = ScriptedClient({"get_ha_status": VaultAPIError("Get HA Status failed: not authorized", http_status=200)})
    with pytest.raises(VaultAPIError, match="not authorized"):
        described(client)


def test_an_answer_without_details_is_an_empty_status():
    client = ScriptedClient({"get_ha_status": None})
    assert described(client)["high_availability"] == {"is_primary_server": None}
