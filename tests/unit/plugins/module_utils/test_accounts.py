# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Many accounts of one resource: what each case sends, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _accounts
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

NAMES = ["svc-%03d" % number for number in range(1, 101)]
PASSWORDS = {name: "Pw-%s-secret!" % name for name in NAMES}
DETAIL = {"DESCRIPTION": "old notes", "PASSWDID": "1", "PASSWORD STATUS": "*****", "CUSTOM FIELD": []}
ADDED = "Account added successfully"


def account_list(names):
    items = [{"ACCOUNT ID": str(100 + NAMES.index(name)), "ACCOUNT NAME": name} for name in names]
    return {"RESOURCE ID": "7", "RESOURCE NAME": "web", "ACCOUNT LIST": items}


def lists(*answers):
    """``get_account_list`` answering each of ``answers`` (account names) in turn."""
    pending = [account_list(names) for names in answers]
    return lambda path, details, query: pending.pop(0)


def statuses(**texts):
    return [{name.replace("_", "-"): {"STATUS": text} for name, text in texts.items()}]


def client(**answers):
    return ScriptedClient(
        dict(
            {
                "get_resource_id": {"RESOURCEID": "7"},
                "get_account_details": DETAIL,
                "get_password": {"PASSWORD": "Pw-svc-001-secret!"},
                "edit_account": None,
                "change_password": None,
                "delete_account": None,
            },
            **answers,
        )
    )


def params(names=NAMES, **extra):
    accounts = [{"name": name, "password": PASSWORDS[name]} for name in names]
    return dict({"resource": "web", "accounts": accounts, "state": "present", "update_password": "on_create"}, **extra)


def keys(scripted):
    return [key for key, *dummy in scripted.calls]


def test_a_hundred_missing_accounts_are_added_by_one_request_in_four():
    scripted = client(
        get_account_list=lists([], NAMES), add_accounts=statuses(**{n.replace("-", "_"): ADDED for n in NAMES})
    )
    tracker, values = run_entry(_accounts.converge, scripted, params(), False)
    assert keys(scripted) == ["get_resource_id", "get_account_list", "add_accounts", "get_account_list"]
    sent = scripted.calls[2][2]["ACCOUNTLIST"]
    assert [item["ACCOUNTNAME"] for item in sent] == NAMES
    assert all(item["PASSWORD"] == PASSWORDS[item["ACCOUNTNAME"]] for item in sent)
    assert tracker.changed
    assert {account["outcome"] for account in values["accounts"]} == {"created"}
    assert values["accounts"][0] == {"name": "svc-001", "account_id": "100", "outcome": "created"}


def test_converged_accounts_with_on_create_cost_two_reads_and_no_password_read():
    scripted = client(get_account_list=lists(NAMES))
    tracker, values = run_entry(_accounts.converge, scripted, params(), False)
    assert keys(scripted) == ["get_resource_id", "get_account_list"]
    assert not tracker.changed
    assert {account["outcome"] for account in values["accounts"]} == {"unchanged"}


def test_one_differing_notes_among_existing_and_missing_accounts_gets_the_only_edit():
    desired = params(names=NAMES[:3])
    desired["accounts"][0]["notes"] = "new notes"
    scripted = client(get_account_list=lists(NAMES[:2], NAMES[:3]), add_accounts=statuses(svc_003=ADDED))
    tracker, values = run_entry(_accounts.converge, scripted, desired, False)
    assert scripted.writes() == ["add_accounts", "edit_account"]
    assert keys(scripted).count("get_account_details") == 1
    edit = next(details for key, dummy, details, dummy_query in scripted.calls if key == "edit_account")
    assert edit == {"NOTES": "new notes", "ACCOUNTNAME": "svc-001"}
    assert [account["outcome"] for account in values["accounts"]] == ["updated", "unchanged", "created"]
    assert tracker.diff()["after"]["svc-001"]["notes"] == "new notes"
    assert tracker.diff()["before"]["svc-001"]["notes"] == "old notes"


def test_update_password_always_reads_and_changes_only_a_differing_password():
    desired = params(names=NAMES[:2], update_password="always")
    scripted = client(get_account_list=lists(NAMES[:2]))
    tracker, values = run_entry(_accounts.converge, scripted, desired, False)
    assert keys(scripted).count("get_password") == 2
    assert scripted.writes() == ["change_password"]
    assert [account["outcome"] for account in values["accounts"]] == ["unchanged", "updated"]
    assert tracker.diff()["after"]["svc-002"]["password"] == "<hidden, changed>"
    assert PASSWORDS["svc-002"] not in repr(tracker.diff())


def test_items_refused_by_a_successful_answer_fail_the_task_naming_each_and_the_added_ones():
    scripted = client(
        get_account_list=lists([], NAMES[:1]),
        add_accounts=statuses(svc_001=ADDED, svc_002="Password Pw-svc-002-secret! is too weak"),
    )
    with pytest.raises(VaultAPIError) as refused:
        run_entry(_accounts.converge, scripted, params(names=NAMES[:2]), False)
    message = str(refused.value)
    assert "svc-002: Password ******** is too weak" in message
    assert "added: svc-001;" in message
    assert all(password not in message + str(refused.value.vault_message) for password in PASSWORDS.values())
    assert scripted.wrote is True


def test_a_failed_answer_that_added_some_items_still_reports_a_write():
    failed = VaultAPIError(
        "ADD ACCOUNTS failed", http_status=200, details=statuses(svc_001=ADDED, svc_002="PASSWORD is required")
    )
    scripted = client(get_account_list=lists([], NAMES[:1]), add_accounts=failed)
    with pytest.raises(VaultAPIError, match="svc-002: PASSWORD is required"):
        run_entry(_accounts.converge, scripted, params(names=NAMES[:2]), False)
    assert scripted.wrote is True


def test_a_refusal_without_item_statuses_gives_the_call_message():
    failed = VaultAPIError("ADD ACCOUNTS failed", http_status=200, vault_message="Permission denied", details=None)
    scripted = client(get_account_list=lists([], []), add_accounts=failed)
    with pytest.raises(VaultAPIError, match="svc-001: Permission denied"):
        run_entry(_accounts.converge, scripted, params(names=NAMES[:1]), False)


def test_a_wholly_refused_add_reports_no_write():
    failed = VaultAPIError("ADD ACCOUNTS failed", http_status=200, details=statuses(svc_001="PASSWORD is required"))
    scripted = client(get_account_list=lists([], []), add_accounts=failed)
    with pytest.raises(VaultAPIError, match="added: none"):
        run_entry(_accounts.converge, scripted, params(names=NAMES[:1]), False)
    assert getattr(scripted, "wrote", False) is False


def test_an_account_added_meanwhile_is_converged_not_failed():
    desired = params(names=NAMES[:2], update_password="always")
    scripted = client(
        get_account_list=lists([], NAMES[:2]),
        add_accounts=statuses(svc_001="Account svc-001 already exists in resource web", svc_002=ADDED),
        get_password={"PASSWORD": "someone else's"},
    )
    tracker, values = run_entry(_accounts.converge, scripted, desired, False)
    assert [account["outcome"] for account in values["accounts"]] == ["updated", "created"]
    assert scripted.writes() == ["add_accounts", "change_password"]
    assert scripted.calls[-1][1] == {"resource_id": "7", "account_id": "100"}
    assert tracker.diff()["before"]["svc-001"]["state"] == "present"


def test_absent_deletes_each_listed_account_that_exists():
    scripted = client(get_account_list=lists(NAMES[:1]))
    tracker, values = run_entry(_accounts.converge, scripted, params(names=NAMES[:2], state="absent"), False)
    assert scripted.writes() == ["delete_account"]
    assert scripted.calls[-1][1] == {"resource_id": "7", "account_id": "100"}
    assert [account["outcome"] for account in values["accounts"]] == ["deleted", "absent"]
    assert tracker.changed


def deleting(refused):
    """``delete_account`` refusing the account ids ``refused`` (id to error), deleting the others."""

    def delete(path, details, query):
        return refused.get(path["account_id"])

    return delete


def test_an_account_deleted_meanwhile_by_a_parallel_run_is_absent_with_its_listed_id():
    refusal = VaultAPIError("DELETE ACCOUNT failed: Account 100 does not exist", http_status=200)
    scripted = client(
        get_account_list=lists(NAMES[:2], NAMES[1:2]),
        delete_account=deleting({"100": refusal}),
        get_resource_account_ids=VaultAPIError("GET_RESOURCEACCOUNTID failed: no such account", http_status=200),
    )
    tracker, values = run_entry(_accounts.converge, scripted, params(names=NAMES[:2], state="absent"), False)
    assert keys(scripted) == [
        "get_resource_id",
        "get_account_list",
        "delete_account",
        "get_resource_account_ids",
        "get_resource_id",
        "get_account_list",
        "delete_account",
    ]
    assert values["accounts"] == [
        {"name": "svc-001", "account_id": "100", "outcome": "absent"},
        {"name": "svc-002", "account_id": "101", "outcome": "deleted"},
    ]
    assert tracker.diff() == {
        "before": {"svc-001": {"state": "absent"}, "svc-002": {"state": "present"}},
        "after": {"svc-001": {"state": "absent"}, "svc-002": {"state": "absent"}},
    }


def test_a_delete_refused_after_another_says_what_was_deleted():
    refusal = VaultAPIError("DELETE ACCOUNT failed: denied", http_status=403, vault_message="denied")
    scripted = client(get_account_list=lists(NAMES[:2]), delete_account=deleting({"101": refusal}))
    with pytest.raises(VaultAPIError, match=r"denied; already written in this task: svc-001 \(deleted\)$"):
        run_entry(_accounts.converge, scripted, params(names=NAMES[:2], state="absent"), False)
    assert scripted.writes() == ["delete_account", "delete_account"]


def test_absent_accounts_of_a_missing_resource_are_absent():
    scripted = client(get_resource_id=VaultAPIError("no such resource", http_status=200), get_resources=[])
    tracker, values = run_entry(_accounts.converge, scripted, params(names=NAMES[:2], state="absent"), False)
    assert scripted.writes() == []
    assert not tracker.changed
    assert {account["outcome"] for account in values["accounts"]} == {"absent"}


def test_a_missing_resource_fails_outside_check_mode_and_would_be_filled_in_check_mode():
    missing = {"get_resource_id": VaultAPIError("no such resource", http_status=200), "get_resources": []}
    with pytest.raises(VaultNotFoundError, match="resource web does not exist"):
        run_entry(_accounts.converge, client(**missing), params(names=NAMES[:2]), False)
    desired = params(names=NAMES[:2])
    desired["accounts"][1]["notes"] = "new notes"
    tracker, values = run_entry(_accounts.converge, client(**missing), desired, True)
    assert tracker.changed
    assert values["accounts"] == [{"name": name, "account_id": None, "outcome": "created"} for name in NAMES[:2]]
    assert tracker.diff() == {
        "before": {
            "svc-001": {"state": "absent", "password": "<hidden>"},
            "svc-002": {"state": "absent", "password": "<hidden>", "notes": None},
        },
        "after": {
            "svc-001": {"state": "present", "password": "<hidden, changed>"},
            "svc-002": {"state": "present", "password": "<hidden, changed>", "notes": "new notes"},
        },
    }
    assert tracker.warnings == [
        "resource web does not exist (or is not visible to this token): in check mode that means an earlier task "
        "would create it, so every listed account (2) would be created in it"
    ]


@pytest.mark.parametrize("state", ["present", "absent"])
def test_check_mode_sends_only_reads(state):
    desired = params(names=NAMES[:3], state=state, update_password="always")
    desired["accounts"][0]["notes"] = "new notes"
    scripted = client(get_account_list=lists(NAMES[:2]), get_password={"PASSWORD": "differs"})
    tracker, values = run_entry(_accounts.converge, scripted, desired, True)
    assert scripted.writes() == []
    assert tracker.changed
    expected = ["updated", "updated", "created"] if state == "present" else ["deleted", "deleted", "absent"]
    assert [account["outcome"] for account in values["accounts"]] == expected


@pytest.mark.parametrize(
    "accounts, message",
    [
        ([{"name": "a", "password": "Pw-1!"}, {"name": "a", "password": "Pw-2!"}], "accounts lists a more than once"),
        ([{"name": "a", "password": ""}], "password must not be empty"),
        ([{"name": "a "}], "name 'a ' has leading or trailing spaces"),
        ([{"name": "a", "totp_validity": 0}], "totp_validity must be between 1 and 86400"),
    ],
)
def test_bad_input_is_refused_before_any_request(accounts, message):
    scripted = client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(_accounts.converge, scripted, {"resource": "web", "accounts": accounts, "state": "present"}, False)
    assert scripted.calls == []


def test_a_missing_account_without_password_is_refused_before_any_write():
    scripted = client(get_account_list=lists(NAMES[:1]))
    with pytest.raises(VaultInputError, match="svc-002 does not exist: password is required"):
        run_entry(_accounts.converge, scripted, {"resource": "web", "accounts": [{"name": "svc-002"}]}, False)
    assert scripted.writes() == []


def test_a_failing_edit_after_the_add_says_what_was_written():
    desired = params(names=NAMES[:2])
    desired["accounts"][0]["notes"] = "new notes"
    scripted = client(
        get_account_list=lists(NAMES[:1], NAMES[:2]),
        add_accounts=statuses(svc_002=ADDED),
        edit_account=VaultAPIError("EDIT ACCOUNT failed: refused", http_status=200),
    )
    with pytest.raises(VaultAPIError, match=r"refused; already written in this task: svc-002 \(added\)") as error:
        run_entry(_accounts.converge, scripted, desired, False)
    # The message names the writes: the module base adds no second list.
    assert error.value.names_its_writes


def test_a_configured_build_without_totp_refuses_the_add_before_any_write():
    desired = params(names=NAMES[:1])
    desired["accounts"][0]["totp_secret"] = "JBSWY3DPEHPK3PXP"
    scripted = client(get_account_list=lists([]))
    scripted.edition, scripted.build = "A", 12000
    with pytest.raises(Exception, match="TOTP_SECRET needs edition A from build 12430"):
        run_entry(_accounts.converge, scripted, desired, False)
    assert scripted.writes() == []
