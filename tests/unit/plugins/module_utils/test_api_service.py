# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The audit, agent and service rows of the gateway (``_api.service``): the audit query, answers without the key
asked for, and the HA status of a vault that lacks it."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import service
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

KEY = "5e1d0c9b8a7f6e5d4c3b2a1908f7e6d5"


class BodyClient(ScriptedClient):
    """A ScriptedClient (as strict as the client) whose rows in ``bodies`` answer that body, keys beside ``result``
    included, as operation ``name``."""

    def __init__(self, bodies, name="OP", **kwargs):
        super().__init__(dict.fromkeys(bodies), **kwargs)
        self.bodies = bodies
        self.name = name

    def call(self, key, path=None, details=None, query=None, files=None):
        super().call(key, path, details, query, files)
        body = self.bodies[key]
        return VaultResponse(self.name, "Success", "", None, body.get("Details"), None, 200, body)


def test_a_page_of_the_audit_trail_is_asked_by_the_four_query_parameters():
    client = ScriptedClient({"get_audit": [{"AUDITID": "7"}]})
    response = service.get_audit(client, "Resource", 100, 50, "TODAY")
    assert response.details_list() == [{"AUDITID": "7"}]
    assert client.calls == [
        ("get_audit", None, None, {"AUDITTYPE": "Resource", "STARTINDEX": 100, "LIMIT": 50, "DURATION": "TODAY"})
    ]


def test_an_agent_key_answer_is_its_details():
    answer = {"agentKey": KEY, "agentKeyEndTime": "30/11/2026 09:05:01"}
    client = ScriptedClient({"get_agent_key": answer})
    assert service.get_agent_key(client, {"generateAgentKey": "true"}) == answer
    assert client.calls == [("get_agent_key", None, {"generateAgentKey": "true"}, None)]


@pytest.mark.parametrize("details", [{}, {"agentKey": ""}, {"agentKey": 5}, {"agentKeyEndTime": "30/11/2026 09:05:01"}])
def test_an_agent_key_answer_without_a_key_fails_naming_the_operation(details):
    client = BodyClient({"get_agent_key": {"Details": details}}, name="Fetch Agent Key")
    with pytest.raises(VaultResponseError, match="^Fetch Agent Key answered success without an agent key$") as caught:
        service.get_agent_key(client)
    assert caught.value.operation == "Fetch Agent Key"


def test_the_install_key_is_read_beside_result():
    client = BodyClient({"generate_install_key": {"operation": {"AgentInstallKey": KEY}}})
    assert service.generate_install_key(client) == KEY


@pytest.mark.parametrize("body", [{}, {"AgentInstallKey": ""}, {"AgentInstallKey": ["x"]}])
def test_an_install_key_answer_without_the_key_fails(body):
    client = BodyClient({"generate_install_key": body}, name=None)
    with pytest.raises(VaultResponseError, match="^GetAgentInstallKey answered success without AgentInstallKey$") as e:
        service.generate_install_key(client)
    assert e.value.operation == "GetAgentInstallKey"


def test_the_ha_status_is_its_details():
    client = ScriptedClient({"get_ha_status": {"haStatus": "Not Configured", "isPrimaryServer": "true"}})
    assert service.get_ha_status(client) == {"haStatus": "Not Configured", "isPrimaryServer": "true"}


def test_an_ha_status_the_vault_does_not_serve_is_unsupported():
    unserved = VaultAPIError("Get HA Status failed (HTTP 404): not found", operation="Get HA Status", http_status=404)
    client = ScriptedClient({"get_ha_status": unserved})
    with pytest.raises(VaultUnsupportedError, match=r"^the vault does not serve it: Get HA Status failed \(HTTP 404\)"):
        service.get_ha_status(client)


def test_an_ha_status_the_configured_build_lacks_is_unsupported_before_sending():
    client = ScriptedClient({"get_ha_status": {}}, edition="B", build=5900)
    with pytest.raises(VaultUnsupportedError, match="edition B from build 6000"):
        service.get_ha_status(client)
    assert client.calls == []


def test_another_failure_of_the_ha_status_is_raised_as_it_is():
    failure = VaultAPIError("Get HA Status failed (HTTP 500): boom", operation="Get HA Status", http_status=500)
    with pytest.raises(VaultAPIError, match="HTTP 500") as caught:
        service.get_ha_status(ScriptedClient({"get_ha_status": failure}))
    assert not isinstance(caught.value, VaultUnsupportedError)
