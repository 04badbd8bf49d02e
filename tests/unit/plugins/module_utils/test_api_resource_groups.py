# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The resource group rows of the gateway: the id look-up's None, refusal and unserved answers, the list a vault may
lack, and what the membership calls send."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import resource_groups as resource_groups_api
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultUnsupportedError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

UNSERVED = VaultAPIError("GET RESOURCE GROUP ID failed (HTTP 404): not served", http_status=404)


def test_a_group_name_becomes_its_id_among_the_tokens_own_groups():
    client = ScriptedClient({"get_resource_group_id": {"RESOURCEGROUPID": 4}})
    assert resource_groups_api.get_resource_group_id(client, "web") == "4"
    assert client.calls == [("get_resource_group_id", None, None, {"RESOURCEGROUPNAME": "web"})]


@pytest.mark.parametrize(
    "answer",
    [
        VaultAPIError("GET RESOURCE GROUP ID failed: Resource group web does not exist", http_status=200),
        {"RESOURCEGROUPID": ""},
    ],
)
def test_an_unknown_group_name_is_none(answer):
    assert resource_groups_api.get_resource_group_id(ScriptedClient({"get_resource_group_id": answer}), "web") is None


def test_a_refusal_of_the_token_is_raised_not_taken_as_an_unknown_name():
    refused = VaultAPIError("failed", http_status=200, vault_message="You are not authorized to perform this operation")
    with pytest.raises(VaultAPIError) as failure:
        resource_groups_api.get_resource_group_id(ScriptedClient({"get_resource_group_id": refused}), "web")
    assert failure.value is refused


def test_an_unserved_id_look_up_is_unsupported_not_an_unknown_name():
    with pytest.raises(VaultUnsupportedError, match="the vault does not serve it: GET RESOURCE GROUP ID failed"):
        resource_groups_api.get_resource_group_id(ScriptedClient({"get_resource_group_id": UNSERVED}), "web")


def test_an_unserved_group_list_is_unsupported():
    with pytest.raises(VaultUnsupportedError, match="the vault does not serve it"):
        resource_groups_api.get_resource_groups(ScriptedClient({"get_resource_groups": UNSERVED}))


def test_a_group_list_the_configured_build_lacks_is_refused_before_sending():
    client = ScriptedClient({"get_resource_groups": []}, edition="A", build=12000)
    with pytest.raises(VaultUnsupportedError, match="needs edition A from build 12230"):
        resource_groups_api.get_resource_groups(client)
    assert client.calls == []


@pytest.mark.parametrize(
    "function, key",
    [
        (resource_groups_api.associate_resources, "associate_resources"),
        (resource_groups_api.disassociate_resources, "disassociate_resources"),
    ],
)
def test_membership_changes_send_the_group_in_the_path_and_the_resources_as_numbers(function, key):
    client = ScriptedClient({key: {"1": {"status": "Success"}}})
    response = function(client, "4", [1, 2])
    assert response.details_dict() == {"1": {"status": "Success"}}
    assert client.calls == [(key, {"group_id": "4"}, {"RESOURCEIDS": [1, 2]}, None)]
