"""The generic store, and state kept across two app instances with the same --state file."""

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
