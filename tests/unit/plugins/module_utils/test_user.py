# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Users against a scripted vault: lookups, what a creation sends, comparison where the vault lists users, warnings
where it does not, memberships, and the token of an API user."""

from __future__ import annotations

import ast
import pathlib

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _user
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
    VaultNotFoundError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

TOKEN = "5EC2E7-T0KEN-0F-R0B0T"
PASSWORD = "Us3r-F1rst-pw!"
UNSERVED = VaultAPIError("UNSUPPORTED failed (HTTP 404): not served", http_status=404)


def item(user_id, name, **values):
    user = {
        "userId": user_id,
        "userName": name,
        "role": "Password User",
        "location": "",
        "department": "",
        "email": "",
        "isApiUser": False,
        "isSuperAdmin": False,
        "isUserLocked": False,
    }
    user.update(values)
    return user


class Vault:
    """A scripted vault with users and user groups; ``listed`` False plays one without GET_USER(S) and
    GET_USERGROUP(S) (HTTP 404). ``client.calls`` records what was sent."""

    def __init__(self, users=(), groups=None, listed=True, edition=None, build=None, **answers):
        self.users = [dict(user) for user in users]
        self.groups = dict(groups or {"ops": 31, "dev": 32})
        self.listed = listed
        self.next_id = 100
        table = {
            "get_users": self.list_users,
            "get_user_id": self.user_id,
            "create_user": self.create,
            "create_api_user": self.create,
            "delete_user_by_name": self.delete_by_name,
            "delete_user": self.delete_by_id,
            "lock_user": self.lock(True),
            "unlock_user": self.lock(False),
            "reset_mfa": None,
            "add_user_to_group": self.add,
            "get_user_group_id": self.group_id,
            "get_user_groups": self.list_groups,
            "remove_user_from_group": self.remove_answer({}),
        }
        table.update(answers)
        self.client = ScriptedClient(table, edition=edition, build=build)

    def named(self, name):
        return next((user for user in self.users if user["userName"] == name), None)

    def list_users(self, path, details, query):
        if not self.listed:
            return UNSERVED
        wanted = str(details.get("searchValue", "")).lower()
        column = details.get("searchColumn", "userName")
        return [user for user in self.users if not wanted or str(user[column]).lower() == wanted]

    def list_groups(self, path, details, query):
        if not self.listed:
            return UNSERVED
        return [{"userGroupName": name, "userGroupId": group_id} for name, group_id in self.groups.items()]

    def user_id(self, path, details, query):
        user = self.named(query["USERNAME"])
        if user is None:
            message = "User %s does not exist" % query["USERNAME"]
            return VaultAPIError("get_USERID failed: " + message, http_status=200, vault_message=message)
        return {"USERID": str(user["userId"])}

    def group_id(self, path, details, query):
        name = query["USERGROUPNAME"]
        if name not in self.groups:
            message = "User group %s does not exist" % name
            return VaultAPIError("GET_USERGROUPID failed: " + message, http_status=200, vault_message=message)
        return {"USERGROUPID": str(self.groups[name])}

    def create(self, path, details, query):
        new_id, self.next_id = self.next_id, self.next_id + 1
        self.users.append(
            item(
                new_id,
                details["USERNAME"],
                role=details.get("ROLE", "Password User"),
                email=details.get("EMAIL", ""),
                isApiUser=details.get("ISAPIUSER") == "true",
            )
        )
        return {"AUTHTOKEN": TOKEN} if details.get("ISAPIUSER") == "true" else {"USERID": str(new_id)}

    def delete_by_name(self, path, details, query):
        self.users.remove(self.named(query["USERNAME"]))

    def delete_by_id(self, path, details, query):
        user = next((user for user in self.users if str(user["userId"]) == path["user_id"]), None)
        if user is None:
            message = "User with ID %s does not exist" % path["user_id"]
            return VaultAPIError("DELETE USER failed: " + message, http_status=200, vault_message=message)
        self.users.remove(user)

    def lock(self, locked):
        def answer(path, details, query):
            self.named(query["USERNAME"])["isUserLocked"] = locked

        return answer

    def add(self, path, details, query):
        return None

    @staticmethod
    def remove_answer(outcomes):
        """REMOVE USER FROM USER_GROUP answering ``{group id: (status, message)}``; a pair not named is Success."""

        def answer(path, details, query):
            pairs = [
                {
                    "USERID": user_id,
                    "USERGROUPID": group_id,
                    "status": outcomes.get(group_id, ("Success", "removed"))[0],
                    "message": outcomes.get(group_id, ("Success", "removed"))[1],
                }
                for user_id in details["USERIDS"]
                for group_id in details["USERGROUPIDS"]
            ]
            if all(pair["status"] != "Success" for pair in pairs):
                return VaultAPIError(
                    "REMOVE USER FROM USER_GROUP failed: No user was removed",
                    http_status=200,
                    details={"RESULT": pairs},
                )
            return {"RESULT": pairs}

        return answer


def desired(**options):
    settings = {"name": "bob", "state": "present", "reset_mfa": False, "purge_groups": False, "recreate": False}
    settings.update(options)
    return settings


def keys(client):
    return [key for key, *dummy in client.calls]


def sent(client, key):
    return [(path, details, query) for name, path, details, query in client.calls if name == key]


# find_user_id / require_user_id


def test_find_user_id_answers_the_id_as_text():
    client = ScriptedClient({"get_user_id": {"USERID": 12}})
    assert _user.find_user_id(client, "bob") == ("12", None)
    assert client.calls == [("get_user_id", None, None, {"USERNAME": "bob"})]


@pytest.mark.parametrize("status", [200, None])
def test_a_failed_result_is_no_such_user_with_the_vaults_words(status):
    failure = VaultAPIError("get_USERID failed: nope", http_status=status, vault_message="User bob does not exist")
    client = ScriptedClient({"get_user_id": failure})
    assert _user.find_user_id(client, "bob") == (None, "User bob does not exist")
    with pytest.raises(VaultNotFoundError, match="user bob does not exist; the vault said: User bob does not exist"):
        _user.require_user_id(client, "bob")


@pytest.mark.parametrize(
    "failure", [VaultAPIError("get_USERID failed (HTTP 500): boom", http_status=500), VaultConnectionError("down")]
)
def test_http_errors_and_lost_connections_are_raised(failure):
    with pytest.raises(type(failure)):
        _user.find_user_id(ScriptedClient({"get_user_id": failure}), "bob")


@pytest.mark.parametrize("details", [{}, {"USERID": ""}, None])
def test_an_answer_without_userid_is_unreadable(details):
    with pytest.raises(VaultResponseError, match="get_USERID for user bob returned no USERID"):
        _user.require_user_id(ScriptedClient({"get_user_id": details}), "bob")


def test_require_user_id_answers_the_id():
    assert _user.require_user_id(ScriptedClient({"get_user_id": {"USERID": "7"}}), "bob") == "7"


# Creation


def test_a_new_user_is_created_with_every_field_of_the_create_user_input():
    vault = Vault(listed=False)
    options = desired(
        first_name="Bob",
        last_name="Builder",
        full_name="Bob the Builder",
        email="bob@example.com",
        password_policy="Strong",
        role="Administrator",
        super_admin=False,
        password=PASSWORD,
        department="Ops",
        location="Paris",
        api_user=False,
        host_name="ws-01",
        expiry_date="2030-12-31",
    )
    tracker, after = run_entry(_user.converge, vault.client, options, False)
    assert tracker.changed and after["user_id"] == "100" and "token" not in after
    assert sent(vault.client, "create_user") == [
        (
            None,
            {
                "USERNAME": "bob",
                "FIRSTNAME": "Bob",
                "LASTNAME": "Builder",
                "FULLNAME": "Bob the Builder",
                "EMAIL": "bob@example.com",
                "POLICY": "Strong",
                "ROLE": "Administrator",
                "ISSUPERADMIN": "false",
                "PASSWORD": PASSWORD,
                "DEPARTMENT": "Ops",
                "LOCATION": "Paris",
                "ISAPIUSER": "false",
                "HOSTNAME": "ws-01",
                "EXPIRYDATE": "2030-12-31",
            },
            None,
        )
    ]
    assert tracker.diff()["after"]["password"] == "<hidden, changed>"
    assert PASSWORD not in repr(tracker.diff()) + repr(tracker.warnings) + repr(after)
    assert after["calls"] == ["CREATE_USER"]


def test_without_the_list_a_new_user_is_found_again_by_name():
    vault = Vault(listed=False)
    run_entry(_user.converge, vault.client, desired(first_name="B", last_name="B", password=PASSWORD), False)
    assert keys(vault.client) == ["get_users", "get_user_id", "create_user", "get_user_id"]


def test_on_edition_b_the_new_user_is_read_from_the_list():
    vault = Vault(edition="B", build=6320)
    tracker, after = run_entry(_user.converge, vault.client, desired(first_name="B", last_name="B", email="b@x"), False)
    assert keys(vault.client) == ["get_users", "create_user", "get_users"]
    assert after["user"]["userName"] == "bob" and after["user"]["email"] == "b@x"


def test_an_api_user_returns_its_token_once_and_never_in_the_diff():
    vault = Vault(listed=False)
    tracker, after = run_entry(_user.converge, vault.client, desired(api_user=True, role="Administrator"), False)
    assert after["token"] == TOKEN
    assert sent(vault.client, "create_api_user") == [
        (None, {"USERNAME": "bob", "ROLE": "Administrator", "ISAPIUSER": "true"}, None)
    ]
    assert TOKEN not in repr(tracker.diff()) + repr(tracker.warnings)
    vault.client.calls.clear()
    tracker, again = run_entry(_user.converge, vault.client, desired(api_user=True, role="Administrator"), False)
    assert not tracker.changed and "token" not in again and vault.client.writes() == []


@pytest.mark.parametrize("option", ["first_name", "last_name", "password"])
def test_an_api_user_with_person_fields_is_refused_before_any_request(option):
    vault = Vault()
    with pytest.raises(VaultInputError, match="an API user is created without .*remove %s" % option):
        run_entry(_user.converge, vault.client, desired(api_user=True, **{option: "x"}), False)
    assert vault.client.calls == []


def test_token_dest_without_api_user_is_refused_before_any_request():
    vault = Vault()
    with pytest.raises(VaultInputError, match="token_dest is only for API users"):
        run_entry(_user.converge, vault.client, desired(token_dest="/tmp/t"), False)
    assert vault.client.calls == []


def test_an_api_user_created_without_a_token_in_the_answer_fails_saying_it_was_created():
    vault = Vault(listed=False, create_api_user={"USERID": "5"})
    with pytest.raises(_user.CreatedButFailed, match="user bob was created, then: CREATE_USER returned no AUTHTOKEN"):
        run_entry(_user.converge, vault.client, desired(api_user=True), False)


def test_a_failure_after_the_creation_of_an_api_user_carries_its_token():
    refused = VaultAPIError("ADD USER TO USERGROUP failed: no", http_status=200, operation="ADD USER TO USERGROUP")
    vault = Vault(listed=False, add_user_to_group=refused)
    with pytest.raises(_user.CreatedButFailed) as failure:
        run_entry(_user.converge, vault.client, desired(api_user=True, groups=["ops"]), False)
    assert "user bob was created (an API user), then: ADD USER" in str(failure.value) and TOKEN not in str(
        failure.value
    )
    assert failure.value.to_result()["token"] == TOKEN
    assert failure.value.to_result()["operation"] == "ADD USER TO USERGROUP"


def test_a_setting_the_vault_dropped_on_creation_fails_the_creating_run_and_keeps_the_token():
    vault = Vault()
    with pytest.raises(_user.CreatedButFailed) as failure:
        # The scripted vault stores no department: it reports "" for it, as a vault that dropped it would.
        run_entry(_user.converge, vault.client, desired(api_user=True, department="Ops"), False)
    message = str(failure.value)
    assert "user bob was created (an API user), then: the vault did not apply department (it reports '')" in message
    assert failure.value.to_result()["token"] == TOKEN and TOKEN not in message
    assert vault.client.writes() == ["create_api_user"]


def test_edition_a_needs_a_password_for_a_person_before_any_request():
    vault = Vault(listed=False, edition="A", build=12450)
    with pytest.raises(VaultInputError, match="edition A creates a user who is not an API user only with a password"):
        run_entry(_user.converge, vault.client, desired(first_name="B", last_name="B"), False)
    assert vault.client.writes() == []


def test_edition_b_creates_a_person_without_a_password():
    vault = Vault(edition="B", build=6320)
    tracker, dummy = run_entry(_user.converge, vault.client, desired(first_name="B", last_name="B"), False)
    assert tracker.changed and "PASSWORD" not in sent(vault.client, "create_user")[0][1]


@pytest.mark.parametrize("value", ["2030-02-30", "31-12-2030", "2030-1-1", "never", ""])
def test_a_bad_expiry_date_is_refused_before_any_request(value):
    vault = Vault()
    with pytest.raises(VaultInputError, match="expiry_date must be a date yyyy-mm-dd or NeverExpires"):
        run_entry(_user.converge, vault.client, desired(expiry_date=value), False)
    assert vault.client.calls == []


@pytest.mark.parametrize("value", ["NeverExpires", "2030-02-28"])
def test_good_expiry_dates_are_sent(value):
    vault = Vault(listed=False)
    run_entry(_user.converge, vault.client, desired(password=PASSWORD, expiry_date=value), False)
    assert sent(vault.client, "create_user")[0][1]["EXPIRYDATE"] == value


@pytest.mark.parametrize("options", [{"name": " bob"}, {"name": ""}, {"groups": ["ops "]}])
def test_names_the_vault_would_trim_are_refused_before_any_request(options):
    vault = Vault()
    with pytest.raises(VaultInputError, match="has leading or trailing spaces|must not be empty"):
        run_entry(_user.converge, vault.client, desired(**options), False)
    assert vault.client.calls == []


def test_check_mode_creation_writes_nothing_and_names_what_it_would_send():
    vault = Vault(listed=False)
    tracker, after = run_entry(
        _user.converge, vault.client, desired(password=PASSWORD, locked=True, reset_mfa=True, groups=["ops"]), True
    )
    assert tracker.changed and vault.client.writes() == [] and "token" not in after
    assert after == {
        "user_id": None,
        "user": {},
        "calls": ["CREATE_USER", "LOCK USER", "Reset MFA", "ADD USER TO USERGROUP ops"],
    }
    assert tracker.diff()["after"]["password"] == "<hidden, changed>"


def test_a_create_refused_because_a_parallel_run_created_the_user_converges():
    vault = Vault(listed=False)

    def meanwhile(path, details, query):
        vault.create(path, details, query)
        return VaultAPIError("CREATE_USER failed: User bob already exists", http_status=200)

    vault.client.answers["create_user"] = meanwhile
    tracker, after = run_entry(_user.converge, vault.client, desired(password=PASSWORD), False)
    assert not tracker.changed and after["user_id"] == "100"


# Existing users where the vault lists them (B 6320)

BOB = item(5, "bob", email="bob@x", department="Ops", location="Paris")


def test_an_existing_user_with_the_same_settings_sends_one_read():
    vault = Vault([item(6, "BOB"), BOB], edition="B", build=6320)
    options = desired(email="bob@x", department="Ops", location="Paris", role="Password User", super_admin=False)
    tracker, after = run_entry(_user.converge, vault.client, dict(options, api_user=False, locked=False), False)
    assert not tracker.changed and keys(vault.client) == ["get_users"] and tracker.warnings == []
    assert sent(vault.client, "get_users")[0][1] == {
        "searchValue": "bob",
        "searchColumn": "userName",
        "searchOperator": "equals",
        "limit": 100,
        "startIndex": 0,
    }
    assert after["user_id"] == "5" and after["user"] == BOB


def test_settings_that_differ_fail_before_any_write_and_point_to_recreate():
    vault = Vault([BOB], edition="B", build=6320)
    with pytest.raises(VaultInputError) as failure:
        run_entry(
            _user.converge, vault.client, desired(email="new@x", super_admin=True, api_user=True, locked=True), False
        )
    message = str(failure.value)
    assert "email is 'bob@x' in the vault, 'new@x' in the task" in message
    assert "super_admin is False in the vault, True in the task" in message
    assert "api_user is False in the vault, True in the task" in message
    assert message.endswith(
        "The API cannot edit it: change the task, or set recreate: true to delete it and create it again"
    )
    assert vault.client.writes() == []


def test_recreate_deletes_and_creates_with_the_reported_settings_kept():
    vault = Vault([BOB], edition="B", build=6320)
    options = desired(role="Administrator", first_name="Bob", last_name="B", groups=["ops"], recreate=True)
    tracker, after = run_entry(_user.converge, vault.client, options, False)
    assert vault.client.writes() == ["delete_user_by_name", "create_user", "add_user_to_group"]
    created = sent(vault.client, "create_user")[0][1]
    assert created["ROLE"] == "Administrator" and created["EMAIL"] == "bob@x" and created["LOCATION"] == "Paris"
    assert tracker.diff()["before"]["role"] == "Password User" and tracker.diff()["after"]["recreated"] is True
    assert any("loses its group memberships" in warning for warning in tracker.warnings)
    assert after["user_id"] == "100" and after["user"]["role"] == "Administrator"


def test_an_api_user_recreated_gets_a_new_token_handled_like_a_creation():
    vault = Vault([item(5, "bob", isApiUser=True)], edition="B", build=6320)
    tracker, after = run_entry(_user.converge, vault.client, desired(role="Administrator", recreate=True), False)
    assert after["token"] == TOKEN and vault.client.writes() == ["delete_user_by_name", "create_api_user"]


def test_a_person_is_not_recreated_without_first_and_last_name():
    vault = Vault([BOB], edition="B", build=6320)
    with pytest.raises(VaultInputError, match="needs first_name and last_name"):
        run_entry(_user.converge, vault.client, desired(role="Administrator", recreate=True), False)
    assert vault.client.writes() == []


def test_recreate_in_check_mode_writes_nothing():
    vault = Vault([BOB], edition="B", build=6320)
    options = desired(role="Administrator", first_name="B", last_name="B", api_user=False, recreate=True)
    tracker, after = run_entry(_user.converge, vault.client, options, True)
    assert tracker.changed and vault.client.writes() == [] and after["calls"] == ["DELETE USER", "CREATE_USER"]


def test_what_follows_a_recreation_is_planned_against_the_new_user():
    """The user found is locked, and so is the task's: the new user is not, so the recreation locks it."""
    vault = Vault([item(5, "bob", isUserLocked=True)], edition="B", build=6320)
    options = desired(role="Administrator", first_name="B", last_name="B", locked=True, groups=["ops"], recreate=True)
    tracker, after = run_entry(_user.converge, vault.client, options, True)
    assert after["calls"] == ["DELETE USER", "CREATE_USER", "LOCK USER", "ADD USER TO USERGROUP ops"]
    assert after["user_id"] == "5" and after["user"]["role"] == "Password User" and vault.client.writes() == []
    tracker, after = run_entry(_user.converge, vault.client, options, False)
    assert vault.client.writes() == ["delete_user_by_name", "create_user", "lock_user", "add_user_to_group"]
    assert tracker.diff()["before"]["locked"] is False and tracker.diff()["after"]["locked"] is True
    assert after["user_id"] == "100" and after["user"]["isUserLocked"] is True


def test_a_failed_creation_after_the_deletion_says_the_user_was_deleted():
    refused = VaultAPIError("CREATE_USER failed: ROLE must be one of ...", http_status=200)
    vault = Vault([BOB], edition="B", build=6320, create_user=refused)
    options = desired(role="Nobody", first_name="B", last_name="B", recreate=True)
    with pytest.raises(VaultAPIError, match="user bob was deleted, not recreated: CREATE_USER failed"):
        run_entry(_user.converge, vault.client, options, False)


@pytest.mark.parametrize("stored, wanted, sent_key", [(False, True, "lock_user"), (True, False, "unlock_user")])
def test_locked_is_compared_with_is_user_locked(stored, wanted, sent_key):
    vault = Vault([item(5, "bob", isUserLocked=stored)], edition="B", build=6320)
    tracker, after = run_entry(_user.converge, vault.client, desired(locked=wanted), False)
    assert tracker.changed and vault.client.writes() == [sent_key]
    assert tracker.diff() == {"before": {"state": "present", **_reported(stored)}, "after": _after(wanted)}
    assert after["user"]["isUserLocked"] is wanted
    vault.client.calls.clear()
    tracker, dummy = run_entry(_user.converge, vault.client, desired(locked=wanted), False)
    assert not tracker.changed and vault.client.writes() == []


def _reported(locked):
    return {
        "email": "",
        "role": "Password User",
        "super_admin": False,
        "department": "",
        "location": "",
        "api_user": False,
        "locked": locked,
    }


def _after(locked):
    return dict(_reported(locked), state="present")


def test_the_user_supplies_hooks_only():
    """The state machine is the base's (``VaultObject.ensure``): no step of it is overridden."""
    steps = {"converge", "ensure", "_update", "_ensure_present", "_ensure_absent"}
    assert steps & set(vars(_user.User)) == set()


# Existing users where the vault has no list


def test_without_the_list_an_existing_user_warns_once_what_it_could_not_compare():
    vault = Vault([BOB], listed=False)
    options = desired(email="other@x", role="Administrator", password=PASSWORD, expiry_date="2030-01-01", locked=True)
    tracker, after = run_entry(_user.converge, vault.client, options, False)
    assert len(tracker.warnings) == 1
    warning = tracker.warnings[0]
    assert warning.startswith("user bob exists; not compared with the vault: email, role, locked")
    assert "the vault has no user list: the vault does not serve it" in warning
    assert "locked is sent as given and counted as a change)" in warning
    assert "password, expiry_date (sent on creation only" in warning and PASSWORD not in warning
    assert tracker.changed and vault.client.writes() == ["lock_user"] and after["calls"] == ["LOCK USER"]
    assert tracker.diff()["before"]["locked"] is None and tracker.diff()["after"]["locked"] is True


def test_without_the_list_a_converged_user_sends_reads_only_and_does_not_warn():
    vault = Vault([BOB], listed=False)
    tracker, after = run_entry(_user.converge, vault.client, desired(), False)
    assert not tracker.changed and tracker.warnings == [] and vault.client.writes() == []
    assert after == {"user_id": "5", "user": {}, "calls": []}


def test_a_configured_edition_a_is_not_asked_for_the_list():
    vault = Vault([BOB], edition="A", build=12450)
    run_entry(_user.converge, vault.client, desired(), False)
    assert keys(vault.client) == ["get_user_id"]


# Reset MFA


def test_reset_mfa_is_an_action_reported_as_a_change_every_time():
    vault = Vault([BOB], edition="B", build=6320)
    for dummy in range(2):
        tracker, after = run_entry(_user.converge, vault.client, desired(reset_mfa=True), False)
        assert tracker.changed and after["calls"] == ["Reset MFA"]
    assert sent(vault.client, "reset_mfa") == [(None, None, {"USERNAME": "bob"})] * 2


@pytest.mark.parametrize("edition, build", [("A", 12000), ("B", 5300)])
def test_reset_mfa_is_refused_before_any_request_on_older_builds(edition, build):
    vault = Vault([BOB], edition=edition, build=build)
    with pytest.raises(VaultUnsupportedError, match="Reset MFA .* needs edition A from build 12100 or edition B"):
        run_entry(_user.converge, vault.client, desired(reset_mfa=True), True)
    assert vault.client.calls == []


# Memberships


def test_every_group_asked_for_is_added_and_counts_as_a_change():
    vault = Vault([BOB], listed=False)
    tracker, after = run_entry(_user.converge, vault.client, desired(groups=["ops", "dev", "ops"]), False)
    assert sent(vault.client, "add_user_to_group") == [
        (None, None, {"USERNAME": "bob", "USERGROUPNAME": "ops"}),
        (None, None, {"USERNAME": "bob", "USERGROUPNAME": "dev"}),
    ]
    assert tracker.changed and tracker.diff()["after"]["added_to_groups"] == ["ops", "dev"]


def test_a_group_the_vault_says_the_user_is_in_already_is_no_change():
    vault = Vault([BOB], listed=False)
    members = {"ops"}

    def add(path, details, query):
        group = query["USERGROUPNAME"]
        message = "User bob is already a member of user group %s" % group if group in members else "added"
        members.add(group)
        return VaultResponse("ADD USER TO USERGROUP", "Success", message, None, None, None, 200, {})

    vault.client.answers["add_user_to_group"] = add
    vault.client.call = _passing_responses(vault.client)
    tracker, after = run_entry(_user.converge, vault.client, desired(groups=["ops", "dev"]), False)
    assert tracker.changed and tracker.diff()["after"]["added_to_groups"] == ["dev"]
    tracker, after = run_entry(_user.converge, vault.client, desired(groups=["ops", "dev"]), False)
    assert not tracker.changed and tracker.diff()["after"]["added_to_groups"] == []
    assert len(sent(vault.client, "add_user_to_group")) == 4


def test_check_mode_counts_every_group_and_warns_that_it_cannot_tell_members():
    vault = Vault([BOB], listed=False)
    tracker, after = run_entry(_user.converge, vault.client, desired(groups=["ops"]), True)
    assert tracker.changed and tracker.diff()["after"]["added_to_groups"] == ["ops"]
    assert any("check mode cannot tell whether bob is a member" in warning for warning in tracker.warnings)
    assert vault.client.writes() == []


def _passing_responses(client):
    """``client.call`` that hands a ``VaultResponse`` answer through as it is (the ScriptedClient wraps details)."""
    scripted = type(client).call

    def call(key, path=None, details=None, query=None, files=None):
        answer = client.answers[key]
        if key == "add_user_to_group":
            client.calls.append((key, path, details, query))
            return answer(path, details, query)
        return scripted(client, key, path, details, query, files)

    return call


def test_unknown_groups_fail_together_before_any_write():
    vault = Vault(listed=False)
    with pytest.raises(VaultNotFoundError, match="user groups nope, gone do not exist"):
        run_entry(_user.converge, vault.client, desired(password=PASSWORD, groups=["ops", "nope", "gone"]), False)
    assert vault.client.writes() == []


def test_purge_removes_the_user_from_every_other_group_in_one_request():
    vault = Vault([BOB], groups={"ops": 31, "dev": 32, "qa": 33}, edition="B", build=6320)
    vault.client.answers["remove_user_from_group"] = Vault.remove_answer(
        {33: ("Failed", "User bob does not exist in user group qa")}
    )
    tracker, after = run_entry(_user.converge, vault.client, desired(groups=["ops"], purge_groups=True), False)
    assert sent(vault.client, "remove_user_from_group") == [(None, {"USERIDS": [5], "USERGROUPIDS": [32, 33]}, None)]
    assert tracker.diff()["after"]["removed_from_groups"] == ["dev"]
    assert after["calls"] == ["ADD USER TO USERGROUP ops", "REMOVE USER FROM USER_GROUP dev, qa"]


def test_a_purge_that_removed_nothing_is_no_change_even_when_the_call_failed():
    vault = Vault([BOB], groups={"ops": 31, "dev": 32}, edition="B", build=6320)
    vault.client.answers["remove_user_from_group"] = Vault.remove_answer(
        {31: ("Failed", "User bob does not exist in user group ops"), 32: ("Failed", "User bob does not exist in dev")}
    )
    tracker, dummy = run_entry(_user.converge, vault.client, desired(groups=[], purge_groups=True), False)
    assert not tracker.changed and vault.client.writes() == ["remove_user_from_group"]


@pytest.mark.parametrize(
    "outcome, message",
    [
        (("Failed", "You are not authorized"), r"dev \(You are not authorized\)"),
        (None, r"dev \(no outcome reported for it\)"),
    ],
)
def test_any_other_refused_pair_fails_naming_the_group(outcome, message):
    vault = Vault([BOB], groups={"ops": 31, "dev": 32}, edition="B", build=6320)
    if outcome is None:
        vault.client.answers["remove_user_from_group"] = {"RESULT": []}
    else:
        vault.client.answers["remove_user_from_group"] = Vault.remove_answer({32: outcome})
    with pytest.raises(VaultAPIError, match="the user was not removed from user groups " + message):
        run_entry(_user.converge, vault.client, desired(groups=["ops"], purge_groups=True), False)


def test_a_failed_removal_without_per_pair_results_is_raised():
    refused = VaultAPIError("REMOVE USER FROM USER_GROUP failed: denied", http_status=200)
    vault = Vault([BOB], edition="B", build=6320, remove_user_from_group=refused)
    with pytest.raises(VaultAPIError, match="denied"):
        run_entry(_user.converge, vault.client, desired(groups=[], purge_groups=True), False)


@pytest.mark.parametrize("edition, build", [("A", 12450), ("B", 6300)])
def test_purge_is_refused_before_any_request_where_the_group_list_is_missing(edition, build):
    vault = Vault([BOB], edition=edition, build=build)
    with pytest.raises(VaultUnsupportedError, match="purge_groups needs the user group list"):
        run_entry(_user.converge, vault.client, desired(groups=["ops"], purge_groups=True), False)
    assert vault.client.calls == []


def test_purge_on_a_vault_that_does_not_serve_the_group_list_is_refused_before_any_write():
    vault = Vault([BOB], listed=False)
    with pytest.raises(VaultUnsupportedError, match="purge_groups needs .* the vault does not serve it"):
        run_entry(_user.converge, vault.client, desired(groups=["ops"], purge_groups=True), False)
    assert vault.client.writes() == []


def test_purge_in_check_mode_warns_and_writes_nothing():
    vault = Vault([BOB], edition="B", build=6320)
    tracker, after = run_entry(_user.converge, vault.client, desired(groups=["ops"], purge_groups=True), True)
    assert vault.client.writes() == [] and after["calls"][-1] == "REMOVE USER FROM USER_GROUP dev"
    assert any("check mode cannot tell which of the user groups dev" in warning for warning in tracker.warnings)


def test_a_new_user_is_in_no_group_to_purge():
    vault = Vault(edition="B", build=6320)
    run_entry(
        _user.converge, vault.client, desired(first_name="B", last_name="B", groups=["ops"], purge_groups=True), False
    )
    assert vault.client.writes() == ["create_user", "add_user_to_group"]


# Deletion


def test_delete_by_name_and_again():
    vault = Vault([BOB], listed=False)
    tracker, after = run_entry(_user.converge, vault.client, desired(state="absent"), False)
    assert tracker.changed and sent(vault.client, "delete_user_by_name") == [(None, None, {"USERNAME": "bob"})]
    assert after == {"user_id": None, "user": {}, "calls": ["DELETE USER"]}
    tracker, after = run_entry(_user.converge, vault.client, desired(state="absent"), False)
    assert not tracker.changed and after["calls"] == []


def test_check_mode_deletes_nothing():
    vault = Vault([BOB], edition="B", build=6320)
    tracker, after = run_entry(_user.converge, vault.client, desired(state="absent"), True)
    assert tracker.changed and vault.client.writes() == [] and after["calls"] == ["DELETE USER"]


def test_delete_by_id_looks_the_id_up_in_the_list():
    vault = Vault([BOB, item(15, "carol")], edition="B", build=6320)
    options = {"name": None, "user_id": "5", "state": "absent"}
    tracker, dummy = run_entry(_user.converge, vault.client, options, False)
    assert tracker.changed and sent(vault.client, "delete_user") == [({"user_id": "5"}, None, None)]
    assert sent(vault.client, "get_users")[0][1]["searchColumn"] == "userId"
    tracker, dummy = run_entry(_user.converge, vault.client, options, False)
    assert not tracker.changed and vault.client.writes() == ["delete_user"]


def test_delete_by_id_without_the_list_takes_a_refusal_as_absent_with_the_vaults_words():
    vault = Vault([], listed=False)
    tracker, dummy = run_entry(_user.converge, vault.client, {"user_id": "5", "state": "absent"}, False)
    assert not tracker.changed and vault.client.writes() == ["delete_user"]
    assert any("whether the user exists is known only by deleting it" in warning for warning in tracker.warnings)
    assert any("User with ID 5 does not exist" in warning for warning in tracker.warnings)


def test_a_user_id_that_is_not_a_number_is_refused_before_any_request():
    vault = Vault()
    with pytest.raises(VaultInputError, match="user_id must be a number"):
        run_entry(_user.converge, vault.client, {"user_id": "5; drop", "state": "absent"}, False)
    assert vault.client.calls == []


def test_a_refused_delete_of_a_user_that_still_exists_fails():
    refused = VaultAPIError("DELETE USER failed: You cannot delete yourself", http_status=200)
    vault = Vault([BOB], listed=False, delete_user_by_name=refused)
    with pytest.raises(VaultAPIError, match="You cannot delete yourself"):
        run_entry(_user.converge, vault.client, desired(state="absent"), False)


# vault_user_info


def test_describe_user_answers_the_id_and_the_item_whose_name_is_exact():
    vault = Vault([item(6, "BOB"), BOB], edition="B", build=6320)
    assert _user.look_up_user(vault.client, "bob") == {
        "exists": True,
        "user_id": "5",
        "user": BOB,
        "vault_message": None,
    }


def test_describe_user_without_the_list_answers_the_id_only():
    vault = Vault([BOB], listed=False)
    assert _user.look_up_user(vault.client, "bob") == {
        "exists": True,
        "user_id": "5",
        "user": {},
        "vault_message": None,
    }


def test_describe_an_unknown_user_is_an_empty_answer_checked_against_the_list():
    vault = Vault([BOB], edition="B", build=6320)
    assert _user.look_up_user(vault.client, "nobody") == {
        "exists": False,
        "user_id": None,
        "user": {},
        "vault_message": "User nobody does not exist",
    }
    assert keys(vault.client) == ["get_user_id", "get_users"]


def failing_user_id(message):
    return VaultAPIError("get_USERID failed: " + message, http_status=200, vault_message=message)


def test_a_failed_user_id_for_a_user_the_list_holds_is_no_absent_user():
    vault = Vault([BOB], edition="B", build=6320, get_user_id=failing_user_id("Internal error, try later"))
    with pytest.raises(
        VaultAPIError,
        match="get_USERID failed for user bob, whom the vault's user list holds: Internal error, try later",
    ):
        _user.look_up_user(vault.client, "bob")


def test_without_a_list_a_failure_that_does_not_say_missing_is_absent_with_a_doubt():
    vault = Vault([BOB], listed=False, get_user_id=failing_user_id("Internal error, try later"))
    described = _user.look_up_user(vault.client, "bob")
    assert described["exists"] is False and described["vault_message"] == "Internal error, try later"
    assert "get_USERID failed for user bob with words that do not say it is missing" in described["doubt"]


def test_without_a_list_a_failure_that_says_missing_gives_no_doubt():
    vault = Vault([], listed=False)
    assert "doubt" not in _user.look_up_user(vault.client, "nobody")


def test_vault_user_info_warns_the_doubt_and_returns_the_rest():
    vault = Vault([BOB], listed=False, get_user_id=failing_user_id("Internal error, try later"))
    tracker, values = run_entry(_user.describe, vault.client, {"name": "bob", "search": None, "page_size": 100})
    assert values == {"exists": False, "user_id": None, "user": {}, "vault_message": "Internal error, try later"}
    assert len(tracker.warnings) == 1 and "with words that do not say it is missing" in tracker.warnings[0]
    assert not tracker.recorded and vault.client.writes() == []


def test_vault_user_info_without_a_name_lists_every_user():
    vault = Vault([BOB], edition="B", build=6320)
    tracker, values = run_entry(_user.describe, vault.client, {"name": None, "search": None, "page_size": 100})
    assert values == {"users": [BOB]} and tracker.warnings == [] and not tracker.recorded


def test_search_is_refused_where_the_vault_has_no_user_list():
    vault = Vault([BOB], edition="A", build=12450)
    with pytest.raises(VaultUnsupportedError, match="searching users needs the user list GET_USER\\(S\\)"):
        _user.search_users(vault.client, "bo")
    assert vault.client.calls == []


def test_search_sends_the_vaults_search_parameters():
    vault = Vault([BOB], edition="B", build=6320)
    assert _user.search_users(vault.client, "Paris", "location", "equals") == [BOB]
    assert sent(vault.client, "get_users")[0][1] == {
        "searchValue": "Paris",
        "searchColumn": "location",
        "searchOperator": "equals",
        "limit": 100,
        "startIndex": 0,
    }


@pytest.mark.parametrize(
    "arguments, message",
    [
        (("x", "nickname", "equals"), "search column must be one of userId"),
        (("x", "userName", "like"), "search operator must be one of contains"),
        ((None, "userName", "contains", 0), "page_size must be 1 or more"),
    ],
)
def test_bad_search_input_is_refused_before_any_request(arguments, message):
    client = ScriptedClient({})
    with pytest.raises(VaultInputError, match=message):
        _user.search_users(client, *arguments)
    assert client.calls == []


def paged_client(users, total_rows):
    """Answers GET_USER(S) a page of ``users`` at a time, with ``total_rows`` as totalRows."""

    def page(path, details, query):
        items = users[details["startIndex"] : details["startIndex"] + details["limit"]]
        return VaultResponse("GET_USER(S)", "Success", "", None, items, total_rows, 200, {})

    return ScriptedClient({"get_users": page})


@pytest.mark.parametrize("total_rows", [5, None, 99, 3])
def test_the_list_is_read_page_after_page_whatever_totalrows_says(total_rows):
    users = [item(number, "u%d" % number) for number in range(5)]
    client = paged_client(users, total_rows)
    assert _user.search_users(client, page_size=2) == users
    starts = [details["startIndex"] for dummy, dummy_path, details, dummy_query in client.calls]
    assert starts[:3] == [0, 2, 4] and len(starts) <= 4


def test_users_and_user_groups_import_each_other_only_at_the_top_of_their_files():
    """What both need is in ``_membership``: no import hides inside a function to dodge an import cycle."""
    for name in ("_user", "_user_group"):
        source = pathlib.Path(_user.__file__).with_name("%s.py" % name).read_text()
        functions = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef)]
        hidden = [node.name for node in functions for inner in ast.walk(node) if isinstance(inner, ast.ImportFrom)]
        assert hidden == [], name
