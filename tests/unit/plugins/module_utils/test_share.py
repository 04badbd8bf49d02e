# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Sharing against a scripted client: the access-type matrix, the calls chosen per edition and build, failures
that name their items, and check mode."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _share
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

RESOURCE_IDS = {"web-01": "1", "web-02": "2", "db-01": "3"}
ACCOUNT_IDS = {("web-01", "root"): "11", ("web-02", "root"): "12", ("db-01", "postgres"): "13"}
USER_IDS = {"jdoe": "7", "pat": "8"}
GROUP_IDS = {"DBA": "21", "Operators": "22"}
RESOURCE_GROUPS = [
    {"resourceGroupId": "31", "resourceGroupName": "Web servers"},
    {"resourceGroupId": "32", "resourceGroupName": "Databases"},
]
REMOTE_APPS = [{"name": "pgAdmin", "id": "41"}, {"name": "PuTTY", "id": "42"}]
NOT_FOUND = VaultAPIError("lookup failed: it does not exist", http_status=200, vault_message="it does not exist")


def share(client, options, check_mode):
    """``(calls, warnings)``: what vault_share returns in ``calls`` and warns, for ``options``."""
    tracker, values = run_entry(_share.converge, client, options, check_mode)
    return values["calls"], tracker.warnings


def lookup(table, key):
    def answer(path, details, query):
        found = table.get(key(path, query))
        return NOT_FOUND if found is None else found

    return answer


def scripted_client(edition=None, build=None, **answers):
    table = {
        "get_resource_id": lookup(
            {name: {"RESOURCEID": i} for name, i in RESOURCE_IDS.items()}, lambda p, q: p["resource_name"]
        ),
        "get_resources": [{"RESOURCE ID": i, "RESOURCE NAME": name} for name, i in RESOURCE_IDS.items()],
        "get_resource_account_ids": lookup(
            {pair: {"RESOURCEID": RESOURCE_IDS[pair[0]], "ACCOUNTID": i} for pair, i in ACCOUNT_IDS.items()},
            lambda p, q: (q["RESOURCENAME"], q["ACCOUNTNAME"]),
        ),
        "get_account_list": {"ACCOUNT LIST": []},
        "get_user_id": lookup({name: {"USERID": i} for name, i in USER_IDS.items()}, lambda p, q: q["USERNAME"]),
        "get_user_group_id": lookup(
            {name: {"USERGROUPID": i} for name, i in GROUP_IDS.items()}, lambda p, q: q["USERGROUPNAME"]
        ),
        "get_resource_groups": RESOURCE_GROUPS,
        "get_associated_remote_apps": REMOTE_APPS,
    }
    for function in list(_share.PER_TARGET.values()) + list(_share.BULK.values()):
        table[function.endpoint.key] = None
    table.update(answers)
    return ScriptedClient(table, edition=edition, build=build)


def desired(**options):
    return dict({"state": "present", "access": "view"}, **options)


def writes(client):
    """(key, path, details) of every write sent."""
    return [(key, path, details) for key, path, details, dummy_query in client.calls if key in client.writes()]


# The access-type matrix and the rest of the input, refused before any request.


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"accounts": [{"resource": "web-01", "account": "root"}], "users": ["jdoe"], "access": "fullaccess"},
            "accounts shared with a user take view, modify, remoteapponly, not fullaccess",
        ),
        (
            {"resources": ["web-01"], "users": ["jdoe"], "access": "remoteapponly", "remote_apps": ["pgAdmin"]},
            "resources shared with a user take view, modify, fullaccess, not remoteapponly (remoteapponly is only",
        ),
        (
            {"resource_groups": ["Web servers"], "user_groups": ["DBA"], "access": "remoteapponly"},
            "resource groups shared with a user group take view, modify, fullaccess, not remoteapponly",
        ),
        ({"resources": ["web-01"], "users": ["jdoe"], "state": "absent"}, "access view is not used with state=absent"),
        ({"resources": ["web-01"], "users": ["jdoe"], "access": None}, "access is required with state=present"),
        (
            {"resources": ["web-01"], "users": ["jdoe"], "remote_app_ids": ["41"]},
            "remote_apps and remote_app_ids are only for access remoteapponly",
        ),
        (
            {"accounts": [{"resource": "db-01", "account": "postgres"}], "users": ["jdoe"], "access": "remoteapponly"},
            "access remoteapponly needs remote_apps or remote_app_ids",
        ),
        (
            {
                "accounts": [{"resource": "db-01", "account": "postgres"}, {"resource": "web-01", "account": "root"}],
                "users": ["jdoe"],
                "access": "remoteapponly",
                "remote_apps": ["pgAdmin"],
            },
            "accounts of one resource (SHARE_ACCOUNTS(S) takes one resourceId), not of db-01, web-01",
        ),
        ({"resources": [], "users": ["jdoe"]}, "nothing to share"),
        ({"resources": ["web-01"], "users": [], "user_group_ids": []}, "no one to share with"),
        ({"resources": ["web-01 "], "users": ["jdoe"]}, "resources entry 'web-01 ' has leading or trailing spaces"),
        ({"resources": ["web-01"], "user_groups": [""]}, "user_groups entry must not be empty"),
        ({"accounts": [{"resource": " db-01", "account": "postgres"}], "users": ["jdoe"]}, "accounts resource"),
    ],
)
def test_refused_before_any_request(options, message):
    client = scripted_client("B", 6320)
    with pytest.raises(VaultInputError) as failure:
        share(client, desired(**options), check_mode=False)
    assert message in str(failure.value)
    assert client.calls == []


@pytest.mark.parametrize(
    "kind, grantee, level",
    [
        (kind, grantee, level)
        for (kind, grantee), levels in _share.LEVELS.items()
        for level in levels
        if level != _share.REMOTE_APP_ONLY
    ],
)
def test_every_pair_of_the_matrix_is_accepted(kind, grantee, level):
    targets = {
        _share.RESOURCE: {"resources": ["web-01"]},
        _share.ACCOUNT: {"accounts": [{"resource": "web-01", "account": "root"}]},
        _share.RESOURCE_GROUP: {"resource_groups": ["Web servers"]},
    }[kind]
    whom = {"users": ["jdoe"]} if grantee == _share.USER else {"user_groups": ["DBA"]}
    client = scripted_client("A", 12450)
    calls, dummy_warnings = share(client, desired(access=level, **targets, **whom), check_mode=False)
    assert [call["access"] for call in calls] == [level]
    assert len(writes(client)) == 1


# Bulk or per-target calls, by the configured edition and build.


def test_edition_a_shares_resources_one_call_per_resource_and_grantee():
    client = scripted_client("A", 12450)
    calls, dummy_warnings = share(
        client, desired(resources=["web-01", "web-02"], users=["jdoe"], user_groups=["DBA"]), check_mode=False
    )
    assert writes(client) == [
        ("share_resource_with_user", {"resource_id": "1"}, {"ACCESSTYPE": "view", "USERID": "7"}),
        ("share_resource_with_user", {"resource_id": "2"}, {"ACCESSTYPE": "view", "USERID": "7"}),
        ("share_resource_with_group", {"resource_id": "1"}, {"ACCESSTYPE": "view", "USERGROUPID": "21"}),
        ("share_resource_with_group", {"resource_id": "2"}, {"ACCESSTYPE": "view", "USERGROUPID": "21"}),
    ]
    assert calls[0] == {
        "operation": "SHARE RESOURCE",
        "what": ["resource web-01"],
        "whom": ["user jdoe"],
        "access": "view",
    }
    assert calls[2]["whom"] == ["user group DBA"]


def test_edition_b_6320_shares_resources_in_one_bulk_call_per_kind_of_grantee():
    client = scripted_client("B", 6320)
    calls, dummy_warnings = share(
        client,
        desired(resources=["web-01", "web-02"], users=["jdoe"], user_ids=[8], user_groups=["DBA"], access="modify"),
        check_mode=False,
    )
    assert writes(client) == [
        ("share_resources", None, {"resourceIds": ["1", "2"], "accessType": "modify", "userIds": ["7", "8"]}),
        ("share_resources", None, {"resourceIds": ["1", "2"], "accessType": "modify", "userGroupIds": ["21"]}),
    ]
    assert calls == [
        {
            "operation": "SHARE_RESOURCE(S)",
            "what": ["resource web-01", "resource web-02"],
            "whom": ["user jdoe", "user id 8"],
            "access": "modify",
        },
        {
            "operation": "SHARE_RESOURCE(S)",
            "what": ["resource web-01", "resource web-02"],
            "whom": ["user group DBA"],
            "access": "modify",
        },
    ]


@pytest.mark.parametrize("edition, build", [("B", 6319), (None, None), ("B", None), ("A", 99999)])
def test_without_the_bulk_call_configured_resources_go_one_by_one(edition, build):
    client = scripted_client(edition, build)
    share(client, desired(resources=["web-01", "web-02"], users=["jdoe"]), check_mode=False)
    assert [key for key, dummy_path, dummy_details in writes(client)] == ["share_resource_with_user"] * 2


def test_edition_b_shares_accounts_in_bulk_except_fullaccess_for_user_groups():
    accounts = [{"resource": "web-01", "account": "root"}, {"resource": "web-02", "account": "root"}]
    client = scripted_client("B", 6320)
    share(client, desired(accounts=accounts, users=["jdoe"], access="modify"), check_mode=False)
    assert writes(client) == [
        ("share_accounts", None, {"accountIds": ["11", "12"], "accessType": "modify", "userIds": ["7"]}),
    ]
    client = scripted_client("B", 6320)
    calls, dummy_warnings = share(
        client, desired(accounts=accounts, user_groups=["DBA"], access="fullaccess"), check_mode=False
    )
    assert writes(client) == [
        (
            "share_account_with_group",
            {"resource_id": "1", "account_id": "11"},
            {"ACCESSTYPE": "fullaccess", "USERGROUPID": "21"},
        ),
        (
            "share_account_with_group",
            {"resource_id": "2", "account_id": "12"},
            {"ACCESSTYPE": "fullaccess", "USERGROUPID": "21"},
        ),
    ]
    assert [call["what"] for call in calls] == [["account web-01/root"], ["account web-02/root"]]


def test_revoke_goes_by_the_same_calls():
    client = scripted_client("B", 6320)
    calls, dummy_warnings = share(
        client, desired(resources=["web-01"], users=["jdoe"], access=None, state="absent"), check_mode=False
    )
    assert writes(client) == [
        ("share_resources", None, {"resourceIds": ["1"], "accessType": "revoke", "userIds": ["7"]})
    ]
    assert calls[0]["access"] == "revoke"
    client = scripted_client("A", 12450)
    share(
        client,
        desired(accounts=[{"resource": "web-01", "account": "root"}], user_group_ids=[21], access=None, state="absent"),
        check_mode=False,
    )
    assert writes(client) == [
        (
            "share_account_with_group",
            {"resource_id": "1", "account_id": "11"},
            {"ACCESSTYPE": "revoke", "USERGROUPID": "21"},
        )
    ]


@pytest.mark.parametrize("edition, build", [("A", 12450), ("B", 6320), (None, None)])
def test_resource_groups_always_go_by_the_bulk_call(edition, build):
    client = scripted_client(edition, build)
    calls, dummy_warnings = share(
        client, desired(resource_groups=["Web servers", "Databases"], user_groups=["Operators"]), check_mode=False
    )
    assert writes(client) == [
        (
            "share_resource_groups",
            None,
            {"resourceGroupIds": ["31", "32"], "accessType": "view", "userGroupIds": ["22"]},
        )
    ]
    assert calls[0]["what"] == ["resource group Web servers", "resource group Databases"]


@pytest.mark.parametrize(
    "edition, build, options, message",
    [
        ("A", 12449, {"resource_groups": ["Web servers"], "users": ["jdoe"]}, "resource groups are shared only by"),
        ("B", 6319, {"resource_groups": ["Web servers"], "users": ["jdoe"]}, "needs edition A from build 12450"),
        ("A", 11199, {"resources": ["web-01"], "user_groups": ["DBA"]}, "sharing a resource with a user group"),
        ("B", 5099, {"resources": ["web-01"], "user_group_ids": [21]}, "needs edition A from build 11200"),
        (
            "A",
            11199,
            {"accounts": [{"resource": "web-01", "account": "root"}], "user_group_ids": [21]},
            "sharing an account with a user group",
        ),
        (
            "A",
            12450,
            {
                "accounts": [{"resource": "db-01", "account": "postgres"}],
                "users": ["jdoe"],
                "access": "remoteapponly",
                "remote_apps": ["pgAdmin"],
            },
            "remoteapponly is shared only by SHARE_ACCOUNTS(S)",
        ),
    ],
)
def test_calls_the_configured_vault_lacks_are_refused_before_any_request(edition, build, options, message):
    client = scripted_client(edition, build)
    with pytest.raises(VaultUnsupportedError) as failure:
        share(client, desired(**options), check_mode=False)
    assert message in str(failure.value)
    assert client.calls == []


def test_remoteapponly_sends_the_remote_app_ids_and_the_resource_id():
    client = scripted_client("B", 6320)
    calls, dummy_warnings = share(
        client,
        desired(
            accounts=[{"resource": "db-01", "account": "postgres"}],
            user_groups=["DBA"],
            access="remoteapponly",
            remote_apps=["pgAdmin"],
            remote_app_ids=["42", "41"],
        ),
        check_mode=False,
    )
    assert writes(client) == [
        (
            "share_accounts",
            None,
            {
                "accountIds": ["13"],
                "accessType": "remoteapponly",
                "userGroupIds": ["21"],
                "remoteAppIds": ["41", "42"],
                "resourceId": 3,
            },
        )
    ]
    assert calls[0]["remote_apps"] == ["pgAdmin", "PuTTY"]


def test_remote_apps_an_unconfigured_vault_does_not_serve_refuse_remoteapponly_saying_what_for():
    unserved = VaultAPIError("GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE failed (HTTP 404): not served", http_status=404)
    client = scripted_client(get_associated_remote_apps=unserved)
    options = desired(
        accounts=[{"resource": "db-01", "account": "postgres"}],
        users=["jdoe"],
        access="remoteapponly",
        remote_apps=["pgAdmin"],
    )
    with pytest.raises(VaultUnsupportedError) as failure:
        share(client, options, check_mode=False)
    assert str(failure.value) == (
        "remote apps are resolved by GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE: the vault does not serve it: %s"
        % unserved
    )
    assert failure.value.http_status == 404
    assert client.writes() == []


@pytest.mark.parametrize(
    "apps, message",
    [
        (
            {"remote_apps": ["mstsc"]},
            "remote app name mstsc is not associated with resource db-01; its remote apps: "
            "pgAdmin (id 41), PuTTY (id 42)",
        ),
        ({"remote_app_ids": ["99"]}, "remote app id 99 is not associated with resource db-01"),
    ],
)
def test_unknown_remote_apps_fail_before_any_write_even_in_check_mode(apps, message):
    for check_mode in (False, True):
        client = scripted_client("B", 6320)
        options = desired(
            accounts=[{"resource": "db-01", "account": "postgres"}], users=["jdoe"], access="remoteapponly", **apps
        )
        with pytest.raises(VaultNotFoundError) as failure:
            share(client, options, check_mode=check_mode)
        assert message in str(failure.value)
        assert writes(client) == []


def test_ambiguous_remote_app_names_are_refused():
    client = scripted_client("B", 6320, get_associated_remote_apps=REMOTE_APPS + [{"name": "pgAdmin", "id": "43"}])
    options = desired(
        accounts=[{"resource": "db-01", "account": "postgres"}],
        users=["jdoe"],
        access="remoteapponly",
        remote_apps=["pgAdmin"],
    )
    with pytest.raises(VaultInputError, match="several remote apps of resource db-01 are called pgAdmin"):
        share(client, options, check_mode=False)
    assert writes(client) == []


# Names resolved before any write.


@pytest.mark.parametrize(
    "options, error, message",
    [
        ({"resources": ["web-01", "gone"], "users": ["jdoe"]}, VaultNotFoundError, "resource gone does not exist"),
        (
            {"accounts": [{"resource": "web-01", "account": "admin"}], "users": ["jdoe"]},
            VaultNotFoundError,
            "resource web-01 has no account admin",
        ),
        ({"resource_groups": ["Nope"], "users": ["jdoe"]}, VaultNotFoundError, "resource group Nope does not exist"),
        ({"resources": ["web-01"], "users": ["jdoe", "ghost"]}, VaultNotFoundError, "user ghost does not exist"),
        ({"resources": ["web-01"], "user_groups": ["Ghosts"]}, VaultNotFoundError, "user group Ghosts does not exist"),
    ],
)
def test_unknown_names_fail_before_anything_is_shared(options, error, message):
    client = scripted_client("A", 12450)
    with pytest.raises(error) as failure:
        share(client, desired(**options), check_mode=False)
    assert message in str(failure.value)
    assert writes(client) == []


def test_a_user_given_by_name_and_by_id_is_shared_with_once():
    client = scripted_client("B", 6320)
    share(client, desired(resources=["web-01"], users=["jdoe", "jdoe"], user_ids=[7, 8]), check_mode=False)
    assert writes(client)[0][2]["userIds"] == ["7", "8"]


# Failures name their items.


def test_a_bulk_answer_with_items_not_shared_fails_naming_them():
    answer = {"1": {"status": "Success"}, "2": {"status": "Failed", "message": "You are not authorized"}}
    client = scripted_client("B", 6320, share_resources=answer)
    with pytest.raises(VaultAPIError) as failure:
        share(client, desired(resources=["web-01", "web-02"], users=["jdoe"]), check_mode=False)
    message = str(failure.value)
    assert "the vault did not share resource web-02 (You are not authorized)" in message
    assert "web-01 (" not in message


def test_a_bulk_item_with_a_failing_status_code_fails():
    answer = {"31": {"statusCode": 46000, "message": "Invalid resource group"}, "32": {"statusCode": 20001}}
    client = scripted_client("A", 12450, share_resource_groups=answer)
    with pytest.raises(VaultAPIError, match=r"did not share resource group Web servers \(Invalid resource group\)$"):
        share(client, desired(resource_groups=["Web servers", "Databases"], users=["jdoe"]), check_mode=False)


def test_a_bulk_answer_without_item_statuses_succeeds():
    client = scripted_client("B", 6320, share_resources={"USERIDS": ["7"], "note": "triggered"})
    calls, dummy_warnings = share(client, desired(resources=["web-01"], users=["jdoe"]), check_mode=False)
    assert len(calls) == 1


def test_a_refused_call_names_its_items_and_the_calls_sent_before_it():
    def refuse_web02(path, details, query):
        if path["resource_id"] == "2":
            return VaultAPIError(
                "SHARE RESOURCE failed: You are not authorized to share resource web-02",
                operation="SHARE RESOURCE",
                http_status=200,
                vault_message="You are not authorized to share resource web-02",
            )
        return None

    client = scripted_client("A", 12450, share_resource_with_user=refuse_web02)
    with pytest.raises(VaultAPIError) as failure:
        share(client, desired(resources=["web-01", "web-02", "db-01"], users=["jdoe"]), check_mode=False)
    assert str(failure.value) == (
        "SHARE RESOURCE sharing resource web-02 with user jdoe at view failed: SHARE RESOURCE failed: You are not "
        "authorized to share resource web-02; sent before it, and applied: SHARE RESOURCE sharing resource web-01 "
        "with user jdoe at view"
    )
    assert failure.value.vault_message == "You are not authorized to share resource web-02"
    # The message names the calls sent before it: the module base adds no second list of the writes.
    assert failure.value.names_its_writes
    assert [path["resource_id"] for dummy_key, path, dummy_details in writes(client)] == ["1", "2"]


def test_a_connection_failure_keeps_its_type():
    client = scripted_client("A", 12450, share_resource_with_user=VaultConnectionError("timed out"))
    with pytest.raises(VaultConnectionError, match="^SHARE RESOURCE revoking resource web-01 from user jdoe failed"):
        share(client, desired(resources=["web-01"], users=["jdoe"], access=None, state="absent"), check_mode=False)


# Check mode: names are resolved, nothing is sent.


def test_check_mode_returns_the_calls_and_sends_nothing():
    client = scripted_client("B", 6320)
    options = desired(
        resources=["web-01"], accounts=[{"resource": "web-01", "account": "root"}], users=["jdoe"], user_groups=["DBA"]
    )
    calls, warnings = share(client, options, check_mode=True)
    assert writes(client) == []
    assert [(call["operation"], call["whom"]) for call in calls] == [
        ("SHARE_RESOURCE(S)", ["user jdoe"]),
        ("SHARE_RESOURCE(S)", ["user group DBA"]),
        ("SHARE_ACCOUNTS(S)", ["user jdoe"]),
        ("SHARE_ACCOUNTS(S)", ["user group DBA"]),
    ]
    assert warnings == []
    live = scripted_client("B", 6320)
    assert share(live, options, check_mode=False)[0] == calls


def test_check_mode_takes_missing_resources_and_users_as_created_earlier():
    client = scripted_client("A", 12450)
    calls, warnings = share(
        client,
        desired(resources=["new-01"], accounts=[{"resource": "new-01", "account": "root"}], users=["newbie"]),
        check_mode=True,
    )
    assert writes(client) == []
    assert [call["what"] for call in calls] == [["resource new-01"], ["account new-01/root"]]
    assert len(warnings) == 3
    assert all("check mode takes it as created by an earlier task" in warning for warning in warnings)
    assert "resource new-01 does not exist" in warnings[0]


def test_check_mode_still_fails_for_unknown_user_groups():
    client = scripted_client("A", 12450)
    with pytest.raises(VaultNotFoundError, match="user group Ghosts does not exist"):
        share(client, desired(resources=["web-01"], user_groups=["Ghosts"]), check_mode=True)


# The diff: what is shared with whom; nothing can be read, so before is null.


def test_the_diff_names_each_share_by_the_names_the_task_gave_in_check_mode_as_in_a_real_run():
    options = desired(
        resources=["web-01"],
        accounts=[{"resource": "db-01", "account": "postgres"}],
        users=["jdoe"],
        user_group_ids=[22],
        access="modify",
    )
    diffs = []
    for check_mode in (True, False):
        tracker, dummy = run_entry(_share.converge, scripted_client("B", 6320), options, check_mode)
        assert tracker.changed
        diffs.append(tracker.diff())
    assert (
        diffs[0]
        == diffs[1]
        == {
            "before": {"shares": None},
            "after": {
                "shares": {
                    "resource web-01": {"user jdoe": "modify", "user group id 22": "modify"},
                    "account db-01/postgres": {"user jdoe": "modify", "user group id 22": "modify"},
                }
            },
        }
    )
    assert "7" not in str(diffs) and "13" not in str(diffs)


def test_the_diff_of_a_revoke_says_revoked():
    options = desired(resource_groups=["Web servers"], users=["jdoe"], access=None, state="absent")
    tracker, values = run_entry(_share.converge, scripted_client("B", 6320), options, False)
    assert values["calls"][0]["access"] == "revoke"
    assert tracker.diff()["after"] == {"shares": {"resource group Web servers": {"user jdoe": "revoked"}}}
