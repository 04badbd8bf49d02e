"""The audit trail: real operations read back through GET /audit, filtered, paged, guarded."""

import json
import re
from datetime import datetime, timedelta

import pytest

from vault_simulator.core import store as store_module


def audit(vault, audit_type="Resource", **query):
    return vault.ok("GET", "/audit", query={"AUDITTYPE": audit_type, **query})


def operations(vault, audit_type="Resource", **query):
    return [record["OPERATIONTYPE"] for record in audit(vault, audit_type, **query)["Details"]]


def backdate(vault, record_id, days):
    """Move audit record ``record_id`` ``days`` days into the past."""
    record = vault.store.get("audit", record_id)
    record["time"] = (datetime.now() - timedelta(days=days)).isoformat(timespec="milliseconds")
    vault.store.put("audit", record_id, record)


def test_a_password_retrieval_is_audited_with_its_resource_account_and_reason(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.ok("GET", f"/resources/{resource_id}/accounts/{account_id}/password", details={"REASON": "deploy"})
    newest = audit(vault)["Details"][0]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}", newest.pop("LASTACCESSEDTIME"))
    assert newest == {
        "AUDITID": newest["AUDITID"],
        "RESOURCENAME": "web01",
        "ACCOUNTNAME": "root",
        "OPERATIONTYPE": "GET PASSWORD",
        "OPERATEDBY": "admin",
        "IPADDRESS": "127.0.0.1",
        "USERNAME": "admin",
        "REASON": "deploy",
        "NAME": "Administrator",
        "CLIENT": "REST API",
    }


def test_records_come_newest_first_and_users_have_their_own_trail(vault):
    vault.create_resource("web01")
    vault.create_api_user("alice")
    assert operations(vault) == ["GET_RESOURCEACCOUNTID", "CREATE RESOURCE"]
    (created,) = audit(vault, "User")["Details"]
    assert (created["OPERATIONTYPE"], created["USERNAME"], created["RESOURCENAME"]) == ("CREATE_USER", "alice", "N/A")


def test_a_failed_operation_is_audited_as_failed(vault):
    vault.failed("GET", "/resources/9/accounts/1/password", "Resource with ID 9 does not exist")
    assert operations(vault) == ["GET PASSWORD (Failed)"]


def test_the_caller_of_an_operation_is_recorded(vault):
    token = vault.create_api_user("alice")
    vault.create_resource("mine", token=token)
    (record, _lookup) = reversed(audit(vault)["Details"])
    assert (record["OPERATIONTYPE"], record["OPERATEDBY"]) == ("CREATE RESOURCE", "alice")
    assert record["RESOURCENAME"] == "mine"


def test_reading_the_trail_is_not_itself_audited(vault):
    vault.create_resource("web01")
    assert audit(vault)["totalRows"] == audit(vault)["totalRows"] == 2


def test_paging_counts_every_matching_record_in_total_rows(vault):
    for name in ("a", "b", "c"):
        vault.create_resource(name)
    everything = audit(vault)["Details"]
    page = audit(vault, STARTINDEX="1", LIMIT="2")
    assert page["totalRows"] == 6
    assert page["Details"] == everything[1:3]
    assert audit(vault, STARTINDEX="6")["Details"] == []


@pytest.mark.parametrize(
    "duration, days_kept", [("TODAY", [0]), ("YESTERDAY", [1]), ("LAST_7_DAYS", [0, 1, 6]), (None, [0, 1, 6, 7, 30])]
)
def test_duration_selects_calendar_days(vault, duration, days_kept):
    for days in (30, 7, 6, 1, 0):
        vault.create_api_user(f"user{days}")
    for record in vault.store.all("audit"):
        backdate(vault, record["id"], int(record["username"][4:]))
    query = {"DURATION": duration} if duration else {}
    listed = audit(vault, "User", **query)
    assert [record["USERNAME"] for record in listed["Details"]] == [f"user{days}" for days in days_kept]
    assert listed["totalRows"] == len(days_kept)


@pytest.mark.parametrize(
    "query, message",
    [
        ({}, "AUDITTYPE must be Resource or User"),
        ({"AUDITTYPE": "resource"}, "AUDITTYPE must be Resource or User"),
        ({"AUDITTYPE": "User", "STARTINDEX": "-1"}, "STARTINDEX must be a whole number of at least 0"),
        ({"AUDITTYPE": "User", "LIMIT": "0"}, "LIMIT must be a whole number of at least 1"),
        ({"AUDITTYPE": "User", "LIMIT": "ten"}, "LIMIT must be a whole number of at least 1"),
        ({"AUDITTYPE": "User", "DURATION": "LAST_MONTH"}, "DURATION must be one of TODAY, YESTERDAY, LAST_7_DAYS"),
    ],
)
def test_bad_query_values_fail_clearly(vault, query, message):
    vault.failed("GET", "/audit", message, query=query)


def test_a_password_user_may_not_read_the_trail(vault):
    token = vault.create_api_user("alice")
    vault.failed(
        "GET", "/audit", "You are not authorized to view the audit trail", token=token, query={"AUDITTYPE": "Resource"}
    )
    auditor = vault.create_api_user("carol", role="Password Auditor")
    assert audit(vault, "User", token=auditor)["totalRows"] == 2


def add_records(vault, **document):
    return vault.client.post("/__simulator/audit-records", json=document, headers={"AUTHTOKEN": vault.token})


def test_the_admin_endpoint_appends_a_burst_of_records_newest_last(vault):
    vault.create_api_user("alice")
    answer = add_records(vault, count=3, auditType="User", operation="RESET MFA")
    assert answer.status_code == 201
    assert answer.get_json() == {"first": "2", "last": "4"}
    listed = audit(vault, "User")
    assert [record["AUDITID"] for record in listed["Details"]] == ["4", "3", "2", "1"]
    assert len({record["LASTACCESSEDTIME"] for record in listed["Details"][:3]}) == 1
    assert {(r["OPERATIONTYPE"], r["OPERATEDBY"], r["NAME"]) for r in listed["Details"][:3]} == {
        ("RESET MFA", "admin", "Administrator")
    }
    assert add_records(vault, count=2).status_code == 201
    assert operations(vault) == ["GET PASSWORD", "GET PASSWORD"]


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"count": 0},
        {"count": True},
        {"count": "3"},
        {"count": 1, "auditType": "resource"},
        {"count": 1, "operation": " "},
    ],
)
def test_the_admin_endpoint_refuses_what_it_cannot_append(vault, document):
    answer = add_records(vault, **document)
    assert answer.status_code == 400 and "count" in answer.get_json()["error"]
    assert audit(vault)["totalRows"] == 0


def test_a_page_decodes_only_its_own_records(vault, monkeypatch):
    add_records(vault, count=1000)
    decoded = []

    class CountingJson:
        """The store's json module, noting the id of each audit record it decodes."""

        dumps = staticmethod(json.dumps)

        @staticmethod
        def loads(text):
            value = json.loads(text)
            if isinstance(value, dict) and "operated_by" in value:
                decoded.append(value["id"])
            return value

    monkeypatch.setattr(store_module, "json", CountingJson)
    for start in ("0", "990"):
        page = audit(vault, STARTINDEX=start, LIMIT="10", DURATION="LAST_7_DAYS")
        assert page["totalRows"] == 1000
        assert decoded == [record["AUDITID"] for record in page["Details"]]
        decoded.clear()
