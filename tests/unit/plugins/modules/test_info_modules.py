# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one rule every info module follows: a missing object or parent is an empty answer; names the vault
would trim are refused before sending; refusals and connection errors fail."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import (
    _account,
    _password_policy_info,
    _password_request_info,
    _resource,
    _resource_type,
)
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

UNKNOWN = VaultAPIError("GET_RESOURCEID failed: Resource nowhere does not exist", http_status=200)
NO_RESOURCE = {
    "get_resource_account_ids": UNKNOWN,
    "get_resource_id": UNKNOWN,
    "get_resources": [{"RESOURCE ID": "1", "RESOURCE NAME": "web"}],
}
POLICIES = {
    "ORGANIZATION": "Default Organization",
    "POLICIES": [
        {"POLICYID": "1", "POLICYNAME": "Low", "DEFAULTPOLICY": "false"},
        {"POLICYID": "3", "POLICYNAME": "Strong", "DEFAULTPOLICY": "true"},
    ],
}
TYPES = {"RESOURCETYPES": [], "ORGANIZATIONNAME": "Default Organization"}
REQUESTS = {
    "REQUESTER USERID": "1",
    "REQUESTED BY": "admin",
    "REQUESTED BY FULLNAME": "admin",
    "PASSWORDREQUESTLIST": [],
}


def described(entry, **desired):
    """A read of ``client`` by the module's entry point ``entry`` with the options ``desired``: its values."""
    return lambda client: run_entry(entry, client, desired)[1]


# Each info module's read with names the vault does not know: (answers, call, expected result).
MISSING = {
    "vault_resource_info": (
        NO_RESOURCE,
        described(_resource.describe, name="nowhere"),
        {"exists": False, "resource": {}, "associated_groups": None, "remote_apps": None, "unavailable": {}},
    ),
    "vault_account_info name": (
        NO_RESOURCE,
        described(_account.describe, resource="nowhere", name="root"),
        {"exists": False, "resource_exists": False, "account": {}},
    ),
    "vault_account_info list": (
        NO_RESOURCE,
        described(_account.describe, resource="nowhere", include_details=True),
        {"resource_exists": False, "accounts": []},
    ),
    "vault_password_policy_info": (
        {"get_password_policies": POLICIES},
        described(_password_policy_info.describe, name="Nope"),
        {"organization": "Default Organization", "default_policy": "Strong", "policies": []},
    ),
    "vault_resource_type_info": (
        {"get_resource_types": TYPES},
        described(_resource_type.describe, containing=["Nope"]),
        {"resource_types": [], "organization_name": "Default Organization"},
    ),
    "vault_password_request_info": (
        {
            "get_user_id": VaultAPIError(
                "get_USERID failed: no user nobody", http_status=200, vault_message="no user nobody"
            ),
            "get_password_requests": REQUESTS,
        },
        lambda client: run_entry(
            _password_request_info.describe, client, {"requester": "nobody", "resource": "nowhere", "account": None}
        )[1],
        {"requester": {}, "requests": []},
    ),
}


@pytest.mark.parametrize("module", sorted(MISSING))
def test_a_name_the_vault_does_not_know_is_an_empty_answer(module):
    answers, read, expected = MISSING[module]
    client = ScriptedClient(answers)
    assert read(client) == expected
    assert client.writes() == []


# Each info module's first read, failing: a refusal or a lost connection is never taken for "missing".
FIRST_READ = {
    "vault_resource_info": ("get_resource_id", described(_resource.describe, name="web")),
    "vault_account_info name": ("get_resource_account_ids", described(_account.describe, resource="web", name="root")),
    "vault_account_info list": ("get_resource_id", described(_account.describe, resource="web")),
    "vault_password_policy_info": ("get_password_policies", described(_password_policy_info.describe)),
    "vault_resource_type_info": ("get_resource_types", described(_resource_type.describe)),
    "vault_password_request_info": (
        "get_password_requests",
        lambda client: run_entry(_password_request_info.describe, client, {}),
    ),
}
FAILURES = [
    VaultConnectionError("no answer from the vault"),
    VaultUnsupportedError("needs edition A from build 11300; the vault is edition A build 11000"),
]


@pytest.mark.parametrize("failure", FAILURES)
@pytest.mark.parametrize("module", sorted(FIRST_READ))
def test_refusals_and_connection_errors_fail(module, failure):
    key, read = FIRST_READ[module]
    # The fallback reads (the resource list) fail the same way, so whichever read comes first fails the task.
    client = ScriptedClient({key: failure, "get_resources": failure, "get_resource_id": failure})
    with pytest.raises(type(failure)):
        read(client)


# Each info module's names, padded or empty: refused before any request.
PADDED = {
    "vault_resource_info": described(_resource.describe, name=" web"),
    "vault_account_info resource": described(_account.describe, resource="web ", name="root"),
    "vault_account_info name": described(_account.describe, resource="web", name=""),
    "vault_account_info list": described(_account.describe, resource=" web"),
    "vault_password_request_info": lambda client: run_entry(
        _password_request_info.describe, client, {"requester": "bob "}
    ),
}


@pytest.mark.parametrize("module", sorted(PADDED))
def test_names_the_vault_would_trim_are_refused_before_any_request(module):
    client = ScriptedClient({})
    with pytest.raises(VaultInputError, match="has leading or trailing spaces|must not be empty"):
        PADDED[module](client)
    assert client.calls == []


def test_a_policy_named_is_the_only_one_returned_and_the_default_is_still_named():
    client = ScriptedClient({"get_password_policies": POLICIES})
    tracker, values = run_entry(_password_policy_info.describe, client, {"name": "Low"})
    assert values == {
        "organization": "Default Organization",
        "default_policy": "Strong",
        "policies": [POLICIES["POLICIES"][0]],
    }
    assert not tracker.recorded
    assert run_entry(_password_policy_info.describe, client, {"name": None})[1]["policies"] == POLICIES["POLICIES"]
