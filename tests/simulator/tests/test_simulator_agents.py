"""Agent keys, the high-availability status and the agent install key."""

from datetime import datetime, timedelta

import pytest
from conftest import PKI_ROOT

AGENT_KEY = "/agents/agentkey"


def fetch_key(vault, details=None, token=None):
    """POST /agents/agentkey with lower-case ``details``; return the operation (operationName style)."""
    kwargs = {"token": token} if token else {}
    status, body = vault.call("POST", AGENT_KEY, details=details, lower_case_details=True, **kwargs)
    assert status == 200, body
    return body["operation"]


def key_of(vault, details=None):
    operation = fetch_key(vault, details)
    assert operation["result"]["status"] == "Success", operation
    return operation["Details"]


def end_time(details):
    return datetime.strptime(details["agentKeyEndTime"], "%d/%m/%Y %H:%M:%S")


def hours_from_now(details):
    return (end_time(details) - datetime.now()).total_seconds() / 3600


def install_key(vault, token=None):
    kwargs = {"token": token} if token else {}
    status, body = vault.call("POST", "/generateInstallKey", root=PKI_ROOT, **kwargs)
    assert status == 200, body
    return body


# Agent key


def test_without_input_the_first_fetch_generates_a_key_and_later_ones_reuse_it(vault):
    first = fetch_key(vault)
    assert first["operationName"] == "Fetch Agent Key" and "name" not in first
    assert first["result"]["message"] == "Agent key generated successfully"
    second = fetch_key(vault)
    assert second["result"]["message"] == "Agent key fetched successfully"
    assert second["Details"] == first["Details"]
    assert 23.9 < hours_from_now(first["Details"]) <= 24
    assert [key["key"] for key in vault.store.all("agent_key")] == [first["Details"]["agentKey"]]


def test_generate_makes_a_new_key_that_later_fetches_return(vault):
    old = key_of(vault)
    new = key_of(vault, {"generateAgentKey": "true"})
    assert new["agentKey"] != old["agentKey"]
    assert key_of(vault) == new
    assert len(vault.store.all("agent_key")) == 2


def test_validity_period_sets_the_end_time_in_hours(vault):
    details = key_of(vault, {"generateAgentKey": True, "validityPeriod": 3})
    assert 2.9 < hours_from_now(details) <= 3
    assert key_of(vault) == details


def test_an_expired_key_is_not_handed_out(vault):
    old = key_of(vault)
    (record,) = vault.store.all("agent_key")
    record["end_time"] = (datetime.now() - timedelta(minutes=1)).isoformat(timespec="seconds")
    vault.store.put("agent_key", record["id"], record)
    fresh = key_of(vault)
    assert fresh["agentKey"] != old["agentKey"]
    assert end_time(fresh) > datetime.now()


def test_upper_case_details_are_read_too(vault):
    vault.ok("POST", AGENT_KEY, details={"generateAgentKey": "true", "validityPeriod": "5"})
    assert 4.9 < hours_from_now(key_of(vault)) <= 5


def test_the_seed_makes_agent_keys_reproducible(make_vault):
    keys = [key_of(make_vault(seed=seed))["agentKey"] for seed in (7, 7, 8)]
    assert keys[0] == keys[1] != keys[2]


@pytest.mark.parametrize(
    "details, message",
    [
        ({"validityPeriod": 2}, "validityPeriod is given only with generateAgentKey true"),
        ({"generateAgentKey": "false", "validityPeriod": 2}, "validityPeriod is given only with generateAgentKey true"),
        (
            {"generateAgentKey": "true", "validityPeriod": 0},
            "validityPeriod must be a whole number of hours, at least 1",
        ),
        (
            {"generateAgentKey": "true", "validityPeriod": "two"},
            "validityPeriod must be a whole number of hours, at least 1",
        ),
        ({"generateAgentKey": "yes"}, "generateAgentKey must be true or false"),
    ],
)
def test_bad_agent_key_input_fails_and_stores_nothing(vault, details, message):
    operation = fetch_key(vault, details)
    assert operation["result"] == {"status": "Failed", "message": message}
    assert vault.store.all("agent_key") == []


# High availability


def test_a_single_vault_reports_high_availability_not_configured(vault):
    details = vault.ok("GET", "/server/getHighAvailabilityStatus", headers={"Host": "vault.example:8443"})["Details"]
    assert details == {
        "haStatus": "Not Configured",
        "isPrimaryServer": "true",
        "primaryServer": "vault.example",
        "primaryServerStatus": "Running",
        "secondaryServer": "",
        "secondaryServerStatus": "Not Configured",
    }


def test_the_primary_server_is_the_host_the_request_reached(vault):
    details = vault.ok("GET", "/server/getHighAvailabilityStatus", headers={"Host": "[::1]:9000"})["Details"]
    assert details["primaryServer"] == "[::1]"


# Agent install key


def test_the_install_key_is_generated_once_and_kept(vault):
    first = install_key(vault)
    assert first["name"] == "GetAgentInstallKey" and first["totalRows"] == 1
    assert first["result"] == {"status": "Success", "message": "Agent install key fetched successfully"}
    key = first["AgentInstallKey"]
    assert len(key) == 48 and int(key, 16) >= 0
    assert install_key(vault)["AgentInstallKey"] == key


def test_the_seed_makes_the_install_key_reproducible(make_vault):
    keys = [install_key(make_vault(seed=seed))["AgentInstallKey"] for seed in (3, 3, None)]
    assert keys[0] == keys[1] != keys[2]


def test_the_install_key_is_served_from_b_5300(make_vault):
    assert install_key(make_vault(edition="B", build=5300))["result"]["status"] == "Success"
    status, body = make_vault(edition="B", build=5299).call("POST", "/generateInstallKey", root=PKI_ROOT)
    assert (status, body["operation"]["name"]) == (404, "UNSUPPORTED")


# Access


def test_only_administrators_reach_the_agent_and_server_endpoints(vault):
    token = vault.create_api_user("alice")
    assert fetch_key(vault, token=token)["result"] == {
        "status": "Failed",
        "message": "You are not authorized to fetch the agent key",
    }
    vault.failed(
        "GET",
        "/server/getHighAvailabilityStatus",
        "You are not authorized to view the high availability status",
        token=token,
    )
    assert install_key(vault, token=token)["result"] == {
        "status": "Failed",
        "message": "You are not authorized to get the agent install key",
    }
    administrator = vault.create_api_user("bob", role="Administrator")
    assert fetch_key(vault, token=administrator)["result"]["status"] == "Success"
