# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The converge base: the state switch, missing parents, lost races and the field table, on a toy object."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account, _resource
from ansible_collections.credvault.vault.plugins.module_utils._converge import CreatedMeanwhile, Field, VaultObject
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
)
from ansible_collections.credvault.vault.plugins.module_utils._task import Task
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry


class Toy(VaultObject):
    """An object held in ``store`` (name to detail); ``parent_missing`` makes ``find`` fail like a missing parent.
    ``state`` is the task's (``desired`` holds none)."""

    KIND = "toy"
    FIELDS = (
        Field("colour", read="COLOUR", create="COLOUR", edit="COLOUR"),
        Field("size", read="SIZE", create="SIZE"),
        Field("secret", create="SECRET", edit="SECRET", secret=True),
        Field("label", read="LABEL", edit="LABEL"),
    )

    def __init__(self, desired, check_mode=False, store=None, parent_missing=False, race=False, state="present"):
        super().__init__(Task(ScriptedClient({}), dict(desired, state=state), check_mode))
        self.store = {} if store is None else store
        self.parent_missing = parent_missing
        self.race = race
        self.sent = []

    def find(self):
        if self.parent_missing:
            raise VaultNotFoundError("box b does not exist")
        return self.desired["name"] if self.desired["name"] in self.store else None

    def read(self, handle):
        return dict(self.store[handle])

    def create(self, handle, tracker):
        create, edit = self.creation_input(tracker)
        if self.check_mode:
            return None
        if self.race:
            self.store[self.desired["name"]] = {"COLOUR": "red"}
            raise CreatedMeanwhile(self.desired["name"])
        self.sent.append(("create", create, edit))
        self.store[self.desired["name"]] = dict(create, **edit)
        return self.read(self.desired["name"])

    def write(self, handle, changes):
        self.sent.append(("edit", changes))
        self.store[handle].update(changes)

    def delete(self, handle):
        self.sent.append(("delete", handle))
        del self.store[handle]
        return True


class Boxed(Toy):
    """A toy of box b1: ``find`` returns a handle for a missing toy too, carrying the box ``create`` needs."""

    def find(self):
        return ("b1", self.desired["name"] if self.desired["name"] in self.store else None)

    def exists(self, handle):
        return handle is not None and handle[1] is not None

    def read(self, handle):
        return dict(self.store[handle[1]])

    def create(self, handle, tracker):
        create, dummy_edit = self.creation_input(tracker)
        self.sent.append(("create in", handle[0], create))
        self.store[self.desired["name"]] = create
        return dict(create)


def test_create_sends_create_keys_and_edits_the_rest_after_it():
    toy = Toy({"name": "t", "colour": "red", "label": "x", "secret": "s3"})
    after = toy.ensure()
    tracker = toy.task.tracker
    assert after == {"COLOUR": "red", "SECRET": "s3", "LABEL": "x"}
    assert tracker.changed and toy.sent == [("create", {"COLOUR": "red", "SECRET": "s3"}, {"LABEL": "x"})]
    assert tracker.diff()["after"]["secret"] == "<hidden, changed>" and "s3" not in str(tracker.diff())


def test_an_existing_object_gets_only_what_differs_and_is_read_again():
    toy = Toy({"name": "t", "colour": "blue", "label": "x"}, store={"t": {"COLOUR": "red", "LABEL": "x"}})
    after = toy.ensure()
    tracker = toy.task.tracker
    assert tracker.changed and toy.sent == [("edit", {"COLOUR": "blue"})] and after["COLOUR"] == "blue"
    assert tracker.diff() == {
        "before": {"state": "present", "colour": "red", "label": "x"},
        "after": {"state": "present", "colour": "blue", "label": "x"},
    }
    again = Toy({"name": "t", "colour": "blue", "label": "x"}, store=toy.store)
    again.ensure()
    assert not again.task.tracker.changed and again.sent == []


def test_check_mode_records_but_sends_nothing():
    toy = Toy({"name": "t", "colour": "blue"}, check_mode=True, store={"t": {"COLOUR": "red"}})
    after = toy.ensure()
    assert toy.task.tracker.changed and toy.sent == [] and after == {"COLOUR": "red"}


def test_a_field_the_api_cannot_edit_warns_instead_of_changing():
    toy = Toy({"name": "t", "size": "L"}, store={"t": {"SIZE": "M"}})
    toy.ensure()
    tracker = toy.task.tracker
    assert not tracker.changed and toy.sent == []
    assert tracker.warnings == ["toy t: size is M in the vault, not L, and the API cannot change it"]


def test_write_only_fields_are_sent_only_on_request():
    toy = Toy({"name": "t", "secret": "s3"})
    assert toy.write_only_input() == {"SECRET": "s3"}


def test_a_create_lost_to_a_parallel_run_converges_on_the_winner():
    toy = Toy({"name": "t", "colour": "red"}, race=True)
    after = toy.ensure()
    assert not toy.task.tracker.changed and after == {"COLOUR": "red"}
    assert toy.task.tracker.diff() == {
        "before": {"state": "present", "colour": "red"},
        "after": {"state": "present", "colour": "red"},
    }


def test_a_missing_object_is_created_with_what_its_search_found_and_find_keeps_nothing():
    toy = Boxed({"name": "t", "colour": "red"})
    before = dict(vars(toy))
    assert not toy.exists(toy.find()) and vars(toy) == before
    assert toy.ensure() == {"COLOUR": "red"}
    assert toy.sent == [("create in", "b1", {"COLOUR": "red"})]
    assert toy.task.tracker.diff()["before"]["state"] == "absent"
    again = Boxed({"name": "t", "colour": "red"}, store=toy.store)
    again.ensure()
    assert again.sent == [] and not again.task.tracker.changed


def test_absent_with_the_handle_of_a_missing_object_deletes_nothing():
    toy = Boxed({"name": "t"}, state="absent")
    assert toy.ensure() is None
    assert toy.sent == [] and not toy.task.tracker.changed
    assert toy.task.tracker.diff() == {"before": {"state": "absent"}, "after": {"state": "absent"}}


@pytest.mark.parametrize("check_mode", [True, False])
def test_absent_with_a_missing_parent_is_ok(check_mode):
    toy = Toy({"name": "t"}, check_mode=check_mode, parent_missing=True, state="absent")
    assert toy.ensure() is None
    assert not toy.task.tracker.changed and toy.sent == []


def test_absent_deletes_an_existing_object_and_returns_none():
    toy = Toy({"name": "t"}, store={"t": {"COLOUR": "red"}}, state="absent")
    assert toy.ensure() is None
    assert toy.task.tracker.changed and toy.sent == [("delete", "t")] and toy.store == {}
    assert toy.task.tracker.diff() == {"before": {"state": "present"}, "after": {"state": "absent"}}


def test_present_with_a_missing_parent_would_be_created_in_check_mode_only():
    toy = Toy({"name": "t"}, check_mode=True, parent_missing=True)
    after = toy.ensure()
    tracker = toy.task.tracker
    assert tracker.changed and after is None
    assert tracker.warnings == [
        "box b does not exist: in check mode that means an earlier task would create it, so "
        "toy t would be created in it"
    ]
    with pytest.raises(VaultNotFoundError):
        Toy({"name": "t"}, parent_missing=True).ensure()


def test_names_are_checked_for_both_states_before_anything():
    for state in ("present", "absent"):
        with pytest.raises(VaultInputError, match="name must not be empty"):
            Toy({"name": ""}, parent_missing=True, state=state).ensure()


def test_a_resource_deleted_meanwhile_by_a_parallel_run_is_not_a_failure():
    state = {"deleted": False}

    def resource_id(path, details, query):
        return VaultAPIError("no such resource") if state["deleted"] else {"RESOURCEID": "7"}

    def delete(path, details, query):
        state["deleted"] = True
        return VaultAPIError("DELETE RESOURCE failed: Resource 7 does not exist", http_status=200)

    client = ScriptedClient({"get_resource_id": resource_id, "get_resources": [], "delete_resource": delete})
    tracker, dummy = run_entry(_resource.converge, client, {"name": "web", "state": "absent"}, False)
    assert not tracker.changed and client.writes() == ["delete_resource"]


def test_an_account_delete_refused_while_the_account_still_exists_fails():
    refusal = VaultAPIError("DELETE ACCOUNT failed: denied", http_status=200)
    client = ScriptedClient(
        {"get_resource_account_ids": {"RESOURCEID": "7", "ACCOUNTID": "3"}, "delete_account": refusal}
    )
    with pytest.raises(VaultAPIError, match="denied"):
        run_entry(_account.converge, client, {"resource": "web", "name": "root", "state": "absent"}, False)
