# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_user scenarios moved down from the integration target vault_user (issue 36):

- person.yml after the contract (creation in check mode, creation, second run): groups added on every run, lock,
  lock again, Reset MFA and unlock without a user list, deletion in check mode, deletion and again, deletion by id
  and again (``test_a_person_on_edition_a``);
- bad_input.yml but its first refusal (an API user with person fields, which stays in integration): the other
  refusals of its first block, none of whose messages shows the password, and the argument spec's refusals of its
  second block (name with user_id, user_id with state present) in ``test_bad_input_is_refused_before_any_request``;
  the rest of its second block (a person without a password on edition A, a group that does not exist) were
  test_user.py's ``test_edition_a_needs_a_password_for_a_person_before_any_request`` and
  ``test_unknown_groups_fail_together_before_any_write`` already;
- edition_b.yml, the whole of it (``test_edition_b_compares_what_its_user_list_reports``): the token of the
  recreated API user is handed to the action plugin's ``hand_over_token``, which the integration's api_user.yml runs
  through Ansible;
- old_a.yml, the whole of it (``test_reset_mfa_is_refused_on_a_build_without_it``).
"""

from __future__ import annotations

import json
import os
import re
import stat
import urllib.parse

import requests

from ansible_collections.credvault.vault.plugins.action.vault_user import hand_over_token
from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes

PASSWORD = "Ut-User-Pers0n-pw-4410!"
REST = "/restapi/json/v1"


def make_user_groups(vault, *names):
    """The user groups ``names`` (the simulator's admin endpoint; the API cannot create them)."""
    for name in names:
        sim_api(vault, "POST", "/__simulator/user-groups", body={"userGroupName": name, "description": "vault_user"})


def sim_user(vault, name):
    """What setup_simulator's users.yml reads: (the user's get_USERID, None when the vault has no such user; on
    edition B its GET /user item whose userName is exactly ``name``, {} when none, elsewhere {})."""
    answer = sim_api(vault, "GET", "%s/user/getUserId?USERNAME=%s" % (REST, urllib.parse.quote(name)))
    operation = answer["operation"]
    user_id = operation["Details"]["USERID"] if operation["result"]["status"] == "Success" else None
    if vault.connection["edition"] != "B":
        return user_id, {}
    search = {"operation": {"details": {"searchValue": name, "searchColumn": "userName", "searchOperator": "equals"}}}
    listed = sim_api(vault, "GET", "%s/user?INPUT_DATA=%s" % (REST, urllib.parse.quote(json.dumps(search))))
    items = [user for user in listed["operation"].get("Details") or [] if user["userName"] == name]
    return user_id, (items + [{}])[0]


def as_user(vault, name, token):
    """GET getUserId?USERNAME=``name`` with ``token``: (HTTP status, decoded answer or None)."""
    answer = requests.get(
        vault.connection["url"] + "%s/user/getUserId?USERNAME=%s" % (REST, name),
        headers={"AUTHTOKEN": token},
        verify=vault.connection["ca_path"],
        timeout=30,
    )
    return answer.status_code, (answer.json() if answer.status_code == 200 else None)


def operations(vault):
    return [entry["operation"] for entry in vault.requests]


def statuses_of_writes(vault):
    return sorted({entry["status"] for entry in vault.requests if entry["method"] != "GET"})


def succeeded(result):
    assert not result.get("failed"), result.get("msg")
    return result


def test_a_person_on_edition_a(vaults, unique):
    vault = vaults["default"]
    g1, g2 = unique + "-g1", unique + "-g2"
    make_user_groups(vault, g1, g2)
    person = unique + "-person"
    succeeded(run(vault, "vault_user", name=person, first_name="Pat", last_name="Person", password=PASSWORD))
    created_id, dummy = sim_user(vault, person)
    succeeded(run(vault, "vault_user", name=person, groups=[g1]))

    # Groups are added on every run (no call reads memberships); only the new membership counts as a change.
    groups_again = succeeded(run(vault, "vault_user", name=person, groups=[g1, g2]))
    assert groups_again["changed"]
    assert groups_again["calls"] == ["ADD USER TO USERGROUP " + g1, "ADD USER TO USERGROUP " + g2]
    assert groups_again["diff"]["after"]["added_to_groups"] == [g2]
    groups_third = succeeded(run(vault, "vault_user", name=person, groups=[g1, g2]))
    assert not groups_third["changed"] and groups_third["diff"]["after"]["added_to_groups"] == []

    # Without a user list the lock state is sent as asked and counted as a change; the reset is an action.
    vault.forget_requests()
    lock = succeeded(run(vault, "vault_user", name=person, locked=True))
    lock_again = succeeded(run(vault, "vault_user", name=person, locked=True))
    reset = succeeded(run(vault, "vault_user", name=person, reset_mfa=True))
    unlock = succeeded(run(vault, "vault_user", name=person, locked=False))
    assert lock["changed"] and lock["diff"]["before"]["locked"] is None and lock["diff"]["after"]["locked"] is True
    assert len([w for w in warning_messages(lock) if "locked is sent as given and counted as a change" in w]) == 1
    assert lock_again["changed"] and reset["changed"] and unlock["changed"]
    assert reset["calls"] == ["Reset MFA"]
    assert [operation for dummy, operation in writes(vault)] == ["LOCK USER", "LOCK USER", "Reset MFA", "UNLOCK USER"]
    assert statuses_of_writes(vault) == ["Success"]

    # Deletion: check mode writes nothing; then once, and a second run is no change.
    check_delete = succeeded(run(vault, "vault_user", check_mode=True, name=person, state="absent"))
    assert check_delete["changed"] and check_delete["calls"] == ["DELETE USER"]
    assert sim_user(vault, person)[0] == created_id
    delete = succeeded(run(vault, "vault_user", name=person, state="absent"))
    delete_again = succeeded(run(vault, "vault_user", name=person, state="absent"))
    assert delete["changed"] and delete["diff"]["before"]["state"] == "present"
    assert delete["diff"]["after"]["state"] == "absent"
    assert not delete_again["changed"] and sim_user(vault, person)[0] is None

    # Without a user list the id is deleted and a refusal counts as absent, with the vault's words.
    second_name = unique + "-second"
    second = succeeded(run(vault, "vault_user", name=second_name, first_name="Sam", last_name="S", password=PASSWORD))
    delete_by_id = succeeded(run(vault, "vault_user", user_id=second["user_id"], state="absent"))
    delete_by_id_again = succeeded(run(vault, "vault_user", user_id=second["user_id"], state="absent"))
    assert second["changed"] and delete_by_id["changed"] and sim_user(vault, second_name)[0] is None
    assert not delete_by_id_again["changed"]
    warnings = warning_messages(delete_by_id_again)
    assert len([w for w in warnings if "known only by deleting it" in w]) == 1
    assert len([w for w in warnings if "User with ID %s does not exist" % second["user_id"] in w]) == 1


def test_bad_input_is_refused_before_any_request(vaults, unique, tmp_path):
    vault = vaults["default"]
    name = unique + "-bad"
    refused = {
        "token_dest": (
            dict(name=name, password=PASSWORD, token_dest=str(tmp_path / "never.token")),
            r"token_dest is only for API users",
        ),
        "expiry": (
            dict(name=name, password=PASSWORD, expiry_date="31/12/2030"),
            r"expiry_date must be a date yyyy-mm-dd or NeverExpires",
        ),
        "leading": (dict(name=" " + name, password=PASSWORD), r"has leading or trailing spaces"),
        "trailing, absent": (
            dict(name=name + " ", password=PASSWORD, state="absent"),
            r"has leading or trailing spaces",
        ),
        "group": (dict(name=name, password=PASSWORD, groups=[unique + "-g1 "]), r"has leading or trailing spaces"),
        "purge": (
            dict(name=name, password=PASSWORD, groups=[unique + "-g1"], purge_groups=True),
            r"purge_groups needs the user group list .* needs edition B from build 6320",
        ),
        "name and id": (dict(name=name, user_id="7", state="absent"), r"mutually exclusive"),
        "id, present": (dict(user_id="7"), r"state is present but all of the following are missing: name"),
    }
    vault.forget_requests()
    for case, (args, message) in refused.items():
        result = run(vault, "vault_user", **args)
        assert result.get("failed") and re.search(message, result["msg"]), (case, result)
        assert PASSWORD not in result["msg"], case
    assert vault.requests == []


def test_edition_b_compares_what_its_user_list_reports(vaults, unique, tmp_path):
    vault = vaults["edition_b"]
    g1, g2, g3 = unique + "-g1", unique + "-g2", unique + "-g3"
    make_user_groups(vault, g1, g2, g3)
    person, api_name = unique + "-person", unique + "-api"
    settings = dict(name=person, first_name="Bea", last_name="Bee", email="bea@example.com", department="Operations")
    settings.update(location="Paris", role="Password User")

    # Edition B creates a person without a password and reads it back from its list.
    b_create = succeeded(run(vault, "vault_user", groups=[g1, g2], **settings))
    vault.forget_requests()
    b_again = succeeded(run(vault, "vault_user", super_admin=False, api_user=False, locked=False, **settings))
    assert b_create["changed"] and b_create["user"]["userName"] == person
    assert b_create["user"]["email"] == "bea@example.com" and b_create["user"]["department"] == "Operations"
    assert b_create["user"]["isApiUser"] is False and b_create["user_id"] == str(b_create["user"]["userId"])
    assert not b_again["changed"] and operations(vault) == ["GET_USER(S)"]
    assert len([w for w in warning_messages(b_again) if "first_name, last_name (sent on creation only" in w]) == 1

    # The API cannot edit a user: the task fails before any write and points to recreate.
    vault.forget_requests()
    b_differs = run(vault, "vault_user", name=person, email="bea@example.org", department="Operations")
    assert b_differs.get("failed")
    assert "email is 'bea@example.com' in the vault, 'bea@example.org' in the task" in b_differs["msg"]
    assert "set recreate: true" in b_differs["msg"] and writes(vault) == []

    # Recreated with the new e-mail; the settings the task did not give were kept.
    recreate = dict(name=person, first_name="Bea", last_name="Bee", email="bea@example.org", groups=[g1, g2])
    b_check_recreate = succeeded(run(vault, "vault_user", check_mode=True, recreate=True, **recreate))
    b_recreate = succeeded(run(vault, "vault_user", recreate=True, **recreate))
    user_id, listed = sim_user(vault, person)
    assert b_check_recreate["changed"] and b_check_recreate["diff"]["before"]["email"] == "bea@example.com"
    assert b_check_recreate["diff"]["after"]["email"] == "bea@example.org"
    assert b_check_recreate["calls"][:2] == ["DELETE USER", "CREATE_USER"]
    assert b_check_recreate["user"]["email"] == "bea@example.com"
    assert b_recreate["changed"] and b_recreate["user_id"] != b_create["user_id"]
    assert (listed["email"], listed["department"], listed["location"]) == ("bea@example.org", "Operations", "Paris")
    assert user_id == b_recreate["user_id"]
    assert len([w for w in warning_messages(b_recreate) if "loses its group memberships" in w]) == 1

    # The lock state is compared with isUserLocked.
    b_lock = succeeded(run(vault, "vault_user", name=person, locked=True))
    vault.forget_requests()
    b_lock_again = succeeded(run(vault, "vault_user", name=person, locked=True))
    assert b_lock["changed"] and b_lock["user"]["isUserLocked"] is True
    assert not b_lock_again["changed"] and writes(vault) == []
    b_unlock = succeeded(run(vault, "vault_user", name=person, locked=False, reset_mfa=True))
    assert b_unlock["changed"] and b_unlock["calls"] == ["UNLOCK USER", "Reset MFA"]
    assert b_unlock["user"]["isUserLocked"] is False

    # Removals count only for the groups the user was in.
    b_check_purge = succeeded(run(vault, "vault_user", check_mode=True, name=person, groups=[g1], purge_groups=True))
    vault.forget_requests()
    b_purge = succeeded(run(vault, "vault_user", name=person, groups=[g1], purge_groups=True))
    purge_requests = operations(vault)
    b_purge_all = succeeded(run(vault, "vault_user", name=person, groups=[], purge_groups=True))
    b_purge_all_again = succeeded(run(vault, "vault_user", name=person, groups=[], purge_groups=True))
    check_warnings = warning_messages(b_check_purge)
    assert len([w for w in check_warnings if "check mode cannot tell which of the user groups" in w]) == 1
    assert b_check_purge["calls"][-1].startswith("REMOVE USER FROM USER_GROUP") and g2 in b_check_purge["calls"][-1]
    assert b_purge["changed"] and b_purge["diff"]["after"]["removed_from_groups"] == [g2]
    assert purge_requests == ["GET_USER(S)", "GET_USERGROUP(S)", "ADD USER TO USERGROUP", "REMOVE USER FROM USER_GROUP"]
    assert b_purge_all["changed"] and b_purge_all["diff"]["after"]["removed_from_groups"] == [g1]
    assert not b_purge_all_again["changed"]
    assert b_purge_all_again["calls"][0].startswith("REMOVE USER FROM USER_GROUP")

    # A recreated API user's token is handed over like a creation's; the first token went with the deleted user.
    dest = str(tmp_path / "b.token")
    api_args = dict(name=api_name, api_user=True, token_dest=dest)
    b_api = hand_over_token(succeeded(run(vault, "vault_user", **api_args)), dest, api_args)
    with open(dest, encoding="utf-8") as token_file:
        first_token = token_file.read()
    recreate_args = dict(api_args, role="Administrator", recreate=True)
    b_api_recreate = hand_over_token(succeeded(run(vault, "vault_user", **recreate_args)), dest, recreate_args)
    with open(dest, encoding="utf-8") as token_file:
        new_token = token_file.read()
    assert b_api["changed"] and b_api_recreate["changed"] and b_api_recreate["token_dest"] == dest
    assert "token" not in b_api_recreate and b_api_recreate["user"]["role"] == "Administrator"
    assert stat.S_IMODE(os.stat(dest).st_mode) == 0o600
    status, answer = as_user(vault, api_name, new_token)
    assert status == 200 and answer["operation"]["Details"]["USERID"] == b_api_recreate["user_id"]
    assert as_user(vault, api_name, first_token)[0] == 401

    # Deleted by id (looked up in the list) once, without warnings.
    b_delete = succeeded(run(vault, "vault_user", user_id=b_recreate["user_id"], state="absent"))
    b_delete_again = succeeded(run(vault, "vault_user", user_id=b_recreate["user_id"], state="absent"))
    assert b_delete["changed"] and not b_delete_again["changed"] and warning_messages(b_delete_again) == []
    succeeded(run(vault, "vault_user", name=api_name, state="absent"))


def test_reset_mfa_is_refused_on_a_build_without_it(vaults):
    vault = vaults["old_a"]
    vault.forget_requests()
    old_reset = run(vault, "vault_user", name="admin", reset_mfa=True)
    old_reset_check = run(vault, "vault_user", check_mode=True, name="admin", reset_mfa=True)
    assert old_reset.get("failed") and old_reset_check.get("failed")
    assert (
        "Reset MFA (PUT /user/resetMFA) needs edition A from build 12100 or edition B from build 5400; the vault is "
        "edition A build 12000" in old_reset["msg"]
    )
    assert vault.requests == []
