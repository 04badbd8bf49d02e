# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The open password requests vault_password_request_info lists, against a scripted client."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _password_request_info
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import run_entry
from ansible_collections.credvault.vault.tests.unit.plugins.module_utils.test_password_request import (
    keys,
    scripted_client,
)


def read_requests(client, requester=None, resource=None, account=None):
    """``(values, warnings)`` of ``vault_password_request_info`` with these options, run as the module runs it; a
    read records nothing."""
    options = {"requester": requester, "resource": resource, "account": account}
    tracker, values = run_entry(_password_request_info.describe, client, options)
    assert not tracker.recorded and not tracker.changed
    return values, tracker.warnings


def test_read_requests_is_structured_and_filtered_by_names():
    client = scripted_client("APPROVED")
    found, warnings = read_requests(client, "bob", resource="web", account="root")
    assert keys(client) == ["get_user_id", "get_password_requests"] and warnings == []
    assert found["requester"] == {"user_id": "12", "user_name": "bob", "full_name": "Bob B"}
    assert found["requests"] == [
        {
            "account_id": "3",
            "account_name": "root",
            "resource_id": "7",
            "resource_name": "web",
            "passwd_id": "3",
            "status": "APPROVED",
            "requested_time": "Nov 22, 2026 8:48 AM",
            "reason": "deploy",
            "state": "approved",
        }
    ]
    assert read_requests(scripted_client("APPROVED"), account="other") == (
        {"requester": found["requester"], "requests": []},
        [],
    )


def test_read_requests_without_requester_is_one_read():
    client = scripted_client()
    found, warnings = read_requests(client)
    assert keys(client) == ["get_password_requests"] and found["requests"] == [] and warnings == []


def test_an_unknown_requester_lists_no_requests_with_a_warning():
    unknown = VaultAPIError(
        "get_USERID failed: User carol does not exist", http_status=200, vault_message="User carol does not exist"
    )
    client = scripted_client(get_user_id=unknown)
    found, warnings = read_requests(client, "carol")
    assert found == {"requester": {}, "requests": []} and keys(client) == ["get_user_id"]
    assert warnings == [
        "the vault gave no user id for requester carol, so no requests are listed: User carol does not exist"
    ]


@pytest.mark.parametrize(
    "failure",
    [
        VaultAPIError("get_USERID failed (HTTP 500): boom", http_status=500),
        VaultConnectionError("get_USERID: no answer"),
    ],
)
def test_other_failures_of_the_requester_lookup_fail(failure):
    with pytest.raises(type(failure)):
        read_requests(scripted_client(get_user_id=failure), "carol")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"requester": " bob"}, "requester ' bob'"),
        ({"resource": "web "}, "resource 'web '"),
        ({"account": ""}, "account must not be empty"),
    ],
)
def test_read_requests_refuses_names_the_vault_would_trim(options, message):
    client = scripted_client()
    with pytest.raises(VaultInputError, match=message):
        read_requests(client, **options)
    assert client.calls == []


def test_listing_the_requests_of_a_resource_that_does_not_exist_is_empty():
    found, warnings = read_requests(scripted_client("APPROVED"), resource="nowhere")
    assert found["requests"] == [] and warnings == []
