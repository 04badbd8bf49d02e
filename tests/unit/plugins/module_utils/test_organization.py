# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The organization list: one request, the vault's keys as options, one organization picked by name."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _organization
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

LISTED = [
    {"name": "defaultorganization", "id": "1", "displayName": "Default Organization"},
    {"name": "branchoffice", "id": "2", "displayName": "Branch office"},
    # A name that is another organization's display name: the display name wins.
    {"name": "Branch office", "id": 3, "displayName": "Annex"},
    "noise",
]
DEFAULT = {"name": "defaultorganization", "id": "1", "display_name": "Default Organization"}
BRANCH = {"name": "branchoffice", "id": "2", "display_name": "Branch office"}
ANNEX = {"name": "Branch office", "id": "3", "display_name": "Annex"}


def scripted_client(answer=None, edition="B", build=6320):
    return ScriptedClient({"get_organizations": LISTED if answer is None else answer}, edition=edition, build=build)


def described(client, name=None):
    """What ``vault_organization_info`` returns for ``name``: its entry point, run as the module runs it."""
    tracker, values = run_entry(_organization.describe, client, {"name": name})
    assert not tracker.recorded and tracker.warnings == []
    return values


def test_every_organization_in_one_request():
    client = scripted_client()
    assert described(client) == {"organizations": [DEFAULT, BRANCH, ANNEX]}
    assert client.calls == [("get_organizations", None, None, None)]


@pytest.mark.parametrize("name, found", [("Branch office", BRANCH), ("defaultorganization", DEFAULT), ("Annex", ANNEX)])
def test_one_organization_by_display_name_or_else_name(name, found):
    answer = described(scripted_client(), name)
    assert answer["exists"] is True and answer["organization"] == found
    assert len(answer["organizations"]) == 3


def test_an_unknown_name_is_an_empty_answer():
    answer = described(scripted_client(), "branch office")
    assert answer["exists"] is False and answer["organization"] == {}


@pytest.mark.parametrize("name", [" Annex", ""])
def test_names_the_vault_would_trim_are_refused_before_any_request(name):
    client = scripted_client()
    with pytest.raises(VaultInputError):
        described(client, name)
    assert client.calls == []


def test_a_refusal_fails():
    client = scripted_client(answer=VaultAPIError("GET_ORGANIZATIONS failed (HTTP 404): not served", http_status=404))
    with pytest.raises(VaultAPIError):
        described(client)


def test_details_that_are_not_a_list_are_no_organizations():
    assert described(scripted_client(answer={"name": "x"})) == {"organizations": []}
