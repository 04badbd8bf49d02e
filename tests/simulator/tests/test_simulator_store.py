"""The generic store, and state kept across two app instances with the same --state file."""

import sqlite3

import pytest

from vault_simulator.core.replies import Failure
from vault_simulator.core.store import Store


def test_store_api():
    store = Store()
    assert store.next_id("thing") == "1" and store.next_id("thing") == "2" and store.next_id("other") == "1"
    store.put("thing", "1", {"n": 1})
    store.put("thing", "2", {"n": 2})
    store.put("thing", "1", {"n": 10})
    assert store.get("thing", "1") == {"n": 10}
    assert store.all("thing") == [{"n": 10}, {"n": 2}]
    assert store.delete("thing", "1") is True and store.delete("thing", "1") is False
    assert store.get("thing", "1") is None
    store.close()


def test_where_keeps_the_objects_whose_fields_match_oldest_first():
    store = Store()
    store.put("account", "3", {"resource_id": "1", "name": "b"})
    store.put("account", "1", {"resource_id": "1", "name": "a"})
    store.put("account", "2", {"resource_id": "2", "name": "a"})
    store.put("account", "4", {"resource_id": 1, "name": "a"})  # a number is not the text "1"
    store.put("other", "5", {"resource_id": "1", "name": "a"})
    assert store.where("account", resource_id="1") == [
        {"resource_id": "1", "name": "b"},
        {"resource_id": "1", "name": "a"},
    ]
    assert store.where("account", resource_id="1", name="a") == [{"resource_id": "1", "name": "a"}]
    assert store.where("account", resource_id="3") == []
    with pytest.raises(TypeError):
        store.where("account", resource_id=1)
    store.close()


def ids(records):
    return [record["id"] for record in records]


def test_where_ignoring_case_folds_as_python_does():
    store = Store()
    names = ["www.example.com", "WWW.Example.COM", "\u00c9t\u00e9.example", "\u212a.example", "api.example.com", 5]
    for number, common_name in enumerate(names, start=1):
        store.put("certificate", str(number), {"id": str(number), "common_name": common_name})

    assert ids(store.where_ignoring_case("certificate", common_name="www.EXAMPLE.com")) == ["1", "2"]
    assert ids(store.where_ignoring_case("certificate", common_name="\u00e9T\u00c9.example")) == ["3"]
    assert ids(store.where_ignoring_case("certificate", common_name="k.EXAMPLE")) == ["4"]  # the Kelvin sign
    assert store.where_ignoring_case("certificate", common_name="5") == []  # a number is not the text "5"
    assert store.where("certificate", common_name="www.EXAMPLE.com") == []


def test_text_sqlite_reads_otherwise_is_compared_as_python_compares_it():
    """SQLite's JSON ends a string at NUL, and cannot take a lone surrogate (a JSON escape can make one)."""
    store = Store()
    for number, name in enumerate(["a\x00b", "a", "x\ud800", "X\ud800"], start=1):
        store.put("thing", str(number), {"id": str(number), "name": name})

    assert ids(store.where("thing", name="a\x00b")) == ["1"]
    assert ids(store.where("thing", name="a")) == ["2"]
    assert ids(store.where("thing", name="x\ud800")) == ["3"]
    assert ids(store.where_ignoring_case("thing", name="A\x00B")) == ["1"]
    assert ids(store.where_ignoring_case("thing", name="x\ud800")) == ["3", "4"]


def test_lookups_by_name_and_by_common_name_use_an_index(tmp_path):
    state = str(tmp_path / "state.sqlite")
    store = Store(state)
    statements = []
    store.trace(statements.append)
    store.where("resource", name="web-01")
    store.where("account", resource_id="1", name="root")
    store.where("account", resource_id="1")
    store.where_ignoring_case("ssl_certificate", common_name="www.example.com")
    store.trace(None)
    reader = sqlite3.connect(state)
    # The schema's index calls python_lower: SQLite needs a function of that name to plan, not to run it.
    reader.create_function("python_lower", 1, lambda utf8: None, deterministic=True)

    plans = [" ".join(step[3] for step in reader.execute("EXPLAIN QUERY PLAN " + sql)) for sql in statements]

    assert len(plans) == 4 and all("USING INDEX objects_by_" in plan for plan in plans), plans
    reader.close()


def test_newest_first_pages_by_time_then_numeric_id_and_counts_every_match():
    store = Store()
    times = {"9": "2026-11-27T09:00:00.000", "10": "2026-11-27T09:00:00.000", "11": "2026-11-26T23:59:59.999"}
    for object_id, time in times.items():
        store.put("audit", object_id, {"id": object_id, "type": "Resource", "time": time})
    store.put("audit", "12", {"id": "12", "type": "User", "time": "2026-11-28T00:00:00.000"})
    store.put("other", "13", {"id": "13", "type": "Resource", "time": "2026-11-27T10:00:00.000"})

    def ids(start, limit, since=None, until=None):
        page, total = store.newest_first("audit", start, limit, since, until, type="Resource")
        return [item["id"] for item in page], total

    assert ids(0, 10) == (["10", "9", "11"], 3)
    assert ids(1, 1) == (["9"], 3)
    assert ids(3, 5) == ([], 3)
    assert ids(0, 10, since="2026-11-27", until="2026-11-28") == (["10", "9"], 2)
    assert ids(0, 10, until="2026-11-27") == (["11"], 1)
    with pytest.raises(TypeError):
        store.newest_first("audit", 0, 1, type=1)
    store.close()


def test_nested_transaction_undoes_only_its_own_work():
    store = Store()
    with store.transaction():
        store.put("thing", "kept", {})
        with pytest.raises(Failure):
            with store.transaction():
                store.put("thing", "undone", {})
                raise Failure("no")
    assert [store.get("thing", key) for key in ("kept", "undone")] == [{}, None]
    with pytest.raises(Failure):
        with store.transaction():
            store.put("thing", "outer", {})
            raise Failure("no")
    assert store.get("thing", "outer") is None


def test_state_survives_a_restart(make_vault, tmp_path):
    state = str(tmp_path / "vault.sqlite")
    first = make_vault(state_path=state)
    first.create_resource(
        "web01", password="kept-pw", RESOURCECUSTOMFIELD=[{"CUSTOMLABEL": "Env", "CUSTOMVALUE": "prod"}]
    )
    robot = first.create_api_user("robot")
    first.store.close()

    second = make_vault(state_path=state)
    assert second.token == first.token
    assert second.ok("GET", "/resources/1/accounts/1/password")["Details"]["PASSWORD"] == "kept-pw"
    assert second.ok("GET", "/user/getUserId", query={"USERNAME": "robot"})["Details"]["USERID"] == "2"
    second.ok("GET", "/resources", token=robot)
    second.create_resource("web02", RESOURCECUSTOMFIELD=[{"CUSTOMLABEL": "Zone", "CUSTOMVALUE": "eu"}])
    assert second.ids("web02", "root") == ("2", "2")
    fields = second.ok("GET", "/resources/2/accounts")["Details"]["CUSTOM FIELD"]
    assert fields[0]["CUSTOMFIELDCOLUMNNAME"] == "COLUMN_CHAR2"


def test_a_given_admin_token_replaces_the_stored_one(make_vault, tmp_path):
    state = str(tmp_path / "vault.sqlite")
    first = make_vault(state_path=state)
    old_token = first.token
    first.store.close()
    second = make_vault(state_path=state, admin_token="NEW-TOKEN")
    assert second.token == "NEW-TOKEN"
    assert second.call("GET", "/resources", token=old_token)[0] == 401
    second.ok("GET", "/resources", token="NEW-TOKEN")
    assert len(second.store.all("user")) == 1
