# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_share scenarios moved down from the integration target vault_share (issue 36), on in-process simulators.

The target keeps, on edition A build 12450: nobody reads anything before a share, check mode sending no share
call, every run sending its calls and reporting a change (repeat.yml), one bad input refused before any request;
and the documentation's examples on edition B build 6320. Moved here from its task files of that time:

- scenario.yml's level.yml loops (level.yml since removed) on edition A and on edition B (``edition_b``, where it
  ran part of the levels: all of them here): each kind of object shared with each kind of grantee at each level,
  then revoked; the calls reported and sent, and what each Password User reads after each (probe_all.yml) -
  ``test_each_share_at_each_level_...``;
- check_mode.yml's calls, and its resource that an earlier task would create (both editions) -
  ``test_check_mode_...``;
- repeat.yml on edition B - ``test_every_run_sends_its_calls_again_on_edition_b``;
- remote_apps.yml and unversioned.yml (edition B only; since removed) - ``test_remote_apps_...``;
- refusals.yml (edition A build 12450, and its old_a block): the refusals before any request whose messages
  tests/unit/plugins/module_utils/test_share.py does not check already - ``test_refused_before_any_request``;
  unknown names, failing after reads only, and a call the vault refuses midway -
  ``test_unknown_names_and_a_refusal_...``.

Each test makes its own objects: the target's it-share-r1, it-share-reader, ... named after the test (``World``).
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_module
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api

REST = "/restapi/json/v1"
PASSWORD = "Sh-R00t-pw-6125!"
NOT_AUTHORIZED = "You are not authorized to retrieve the password"
LEVELS = ("view", "modify", "fullaccess", "remoteapponly")


class World:
    """What the integration target's setup.yml makes, named after the test (``unique``): resources r1 and r2
    (account root each, owned by admin); two Password User API users who own nothing, reader and member, with their
    tokens and ids; the user group readers (id ``group_id``) holding member; the resource group rg holding r2."""

    def __init__(self, vault, unique):
        self.vault = vault
        self.r1, self.r2 = unique + "-r1", unique + "-r2"
        self.resources = [self.r1, self.r2]
        self.reader, self.member = unique + "-reader", unique + "-member"
        self.users = [self.reader, self.member]
        self.group, self.rg = unique + "-readers", unique + "-rg"
        self.r1_account = [{"resource": self.r1, "account": "root"}]
        account = {"name": "root", "password": PASSWORD}
        for name in self.resources:
            made = run(vault, "vault_resource", name=name, type="Linux", owner="admin", first_account=account)
            assert made["changed"], made.get("msg")
        self.ids = {
            name: self.api("GET", "/resources/getResourceIdAccountId?RESOURCENAME=%s&ACCOUNTNAME=root" % quote(name))
            for name in self.resources
        }
        self.tokens = {}
        for user in self.users:
            details = {"USERNAME": user, "ROLE": "Password User", "ISAPIUSER": "true"}
            query = quote(json.dumps({"operation": {"Details": details}}))
            self.tokens[user] = self.api("POST", "/user?INPUT_DATA=" + query)["AUTHTOKEN"]
        self.user_ids = {
            user: self.api("GET", "/user/getUserId?USERNAME=" + quote(user))["USERID"] for user in self.users
        }
        self.group_id = sim_api(vault, "POST", "/__simulator/user-groups", body={"userGroupName": self.group})[
            "userGroupId"
        ]
        self.api(
            "POST", "/user/addUserToUserGroup?USERNAME=%s&USERGROUPNAME=%s" % (quote(self.member), quote(self.group))
        )
        made = run(vault, "vault_resource_group", name=self.rg, resources=[self.r2])
        assert made["changed"], made.get("msg")
        self.nobody = {self.reader: [], self.member: []}

    def api(self, method, path, token=None):
        """A vault request that must succeed; its Details."""
        answer = sim_api(self.vault, method, REST + path, token=token)
        assert answer["operation"]["result"]["status"] == "Success", answer
        return answer["operation"].get("Details")

    def reads(self):
        """probe_all.yml: ``({user: [resources whose root password the user reads]}, [the vault's messages for the
        others])``, each user asking with its own token; a password that could be read is the right one."""
        reads, refusals = {}, []
        for user in self.users:
            reads[user] = []
            for resource in self.resources:
                path = "/resources/%(RESOURCEID)s/accounts/%(ACCOUNTID)s/password" % self.ids[resource]
                answer = sim_api(self.vault, "GET", REST + path, token=self.tokens[user])["operation"]
                if answer["result"]["status"] == "Success":
                    assert answer["Details"]["PASSWORD"] == PASSWORD
                    reads[user].append(resource)
                else:
                    refusals.append(answer["result"]["message"])
        return reads, refusals

    def share(self, check_mode=False, unversioned=False, **args):
        """vault_share run with ``args`` after the request log is forgotten (``unversioned``: with the vault's
        connection but not its edition and build, as the target's sim_connection_unversioned): its result and the
        requests it sent that are not GET, as (method, operation, status)."""
        self.vault.forget_requests()
        if unversioned:
            connection = {key: value for key, value in self.vault.connection.items() if key not in ("edition", "build")}
            result = run_module("vault_share", dict(connection, **args), check_mode=check_mode)
        else:
            result = run(self.vault, "vault_share", check_mode=check_mode, **args)
        sent = [(r["method"], r["operation"], r["status"]) for r in self.vault.requests if r["method"] != "GET"]
        return result, sent

    def share_at(self, level, options):
        """level.yml: a share of ``options`` at ``level`` (``revoke`` is state=absent; remote_apps and
        remote_app_ids only go with remoteapponly)."""
        args = dict(options)
        if level != "remoteapponly":
            args.pop("remote_apps", None)
            args.pop("remote_app_ids", None)
        if level == "revoke":
            args["state"] = "absent"
        else:
            args["access"] = level
        return self.share(**args)

    def check_level(self, level, options, operations, expected_reads):
        """level.yml's assertions: the calls reported are the calls sent (PUT, each a success), and each user reads
        ``expected_reads`` after view, modify or fullaccess, nothing after remoteapponly or revoke."""
        result, sent = self.share_at(level, options)
        assert result.get("changed") and not result.get("failed"), (level, result)
        assert [call["operation"] for call in result["calls"]] == operations, level
        assert {call["access"] for call in result["calls"]} == {level}
        assert sent == [("PUT", operation, "Success") for operation in operations], level
        reads, refusals = self.reads()
        assert reads == (expected_reads if level in LEVELS[:3] else self.nobody), level
        assert [message for message in refusals if NOT_AUTHORIZED not in message] == []
        return result


@pytest.mark.parametrize("profile", ["default", "edition_b"])
def test_each_share_at_each_level_gives_what_the_level_gives_and_goes_by_the_calls_of_the_edition(
    vaults, unique, profile
):
    """scenario.yml's level.yml loops (on edition B it ran part of the levels: all of them here)."""
    w = World(vaults[profile], unique)
    bulk = profile == "edition_b"
    reads, refusals = w.reads()
    assert reads == w.nobody
    assert len(refusals) == 4 and all(NOT_AUTHORIZED in message for message in refusals)

    resources = ["SHARE_RESOURCE(S)"] if bulk else ["SHARE RESOURCE"]
    accounts = ["SHARE_ACCOUNTS(S)"] if bulk else ["SHARE ACCOUNT"]
    cases = [
        # (options, levels before the revoke, calls by default, calls by level, what each user reads)
        (
            {"resources": w.resources, "users": [w.reader]},
            ["view", "modify", "fullaccess"],
            resources if bulk else resources * 2,
            {},
            {w.reader: w.resources, w.member: []},
        ),
        (
            {"accounts": w.r1_account, "users": [w.reader]},
            ["view", "modify"],
            accounts,
            {},
            {w.reader: [w.r1], w.member: []},
        ),
        (
            {"accounts": w.r1_account, "user_groups": [w.group]},
            ["view", "modify", "fullaccess"],
            accounts,
            {"fullaccess": ["SHARE ACCOUNT"]},
            {w.reader: [], w.member: [w.r1]},
        ),
        (
            {"resources": [w.r1], "user_groups": [w.group]},
            ["view", "modify", "fullaccess"],
            resources,
            {},
            {w.reader: [], w.member: [w.r1]},
        ),
        (
            {"resource_groups": [w.rg], "users": [w.reader], "user_groups": [w.group]},
            ["view", "modify", "fullaccess"],
            ["SHARE_RESOURCEGROUP(S)"] * 2,
            {},
            {w.reader: [w.r2], w.member: [w.r2]},
        ),
        (
            {"resources": [w.r1], "user_ids": [w.user_ids[w.reader]], "user_group_ids": [w.group_id]},
            ["view"],
            resources * 2,
            {},
            {w.reader: [w.r1], w.member: [w.r1]},
        ),
    ]
    for options, levels, operations, by_level, expected_reads in cases:
        for level in levels + ["revoke"]:
            w.check_level(level, options, by_level.get(level, operations), expected_reads)


@pytest.mark.parametrize("profile", ["default", "edition_b"])
def test_check_mode_reports_the_calls_and_takes_a_missing_resource_as_created(vaults, unique, profile):
    """check_mode.yml: what the target keeps (changed, nothing written, nobody reads) and the calls reported."""
    w = World(vaults[profile], unique)
    bulk = profile == "edition_b"
    w.vault.forget_requests()
    dry = run(
        w.vault,
        "vault_share",
        check_mode=True,
        resources=w.resources,
        accounts=w.r1_account,
        users=[w.reader],
        user_groups=[w.group],
        access="view",
    )
    later = run(
        w.vault,
        "vault_share",
        check_mode=True,
        resources=[w.r1, unique + "-later"],
        users=[w.reader],
        access="modify",
    )
    log = w.vault.requests
    assert len(log) > 0
    assert [entry for entry in log if entry["method"] != "GET"] == []
    assert w.reads()[0] == w.nobody

    assert dry["changed"] and not dry.get("failed"), dry
    operations = (
        ["SHARE_RESOURCE(S)"] * 2 + ["SHARE_ACCOUNTS(S)"] * 2
        if bulk
        else ["SHARE RESOURCE"] * 4 + ["SHARE ACCOUNT"] * 2
    )
    assert [call["operation"] for call in dry["calls"]] == operations
    assert dry["calls"][0] == {
        "operation": "SHARE_RESOURCE(S)" if bulk else "SHARE RESOURCE",
        "what": ["resource " + w.r1, "resource " + w.r2] if bulk else ["resource " + w.r1],
        "whom": ["user " + w.reader],
        "access": "view",
    }
    assert {call["access"] for call in dry["calls"]} == {"view"}
    assert later["changed"] and not later.get("failed"), later
    assert [what for call in later["calls"] for what in call["what"]] == [
        "resource " + w.r1,
        "resource %s-later" % unique,
    ]
    warned = [
        warning
        for warning in warning_messages(later)
        if "resource %s-later does not exist" % unique in warning and "check mode takes it as created" in warning
    ]
    assert len(warned) == 1, warning_messages(later)


def test_every_run_sends_its_calls_again_on_edition_b(vaults, unique):
    """repeat.yml on edition B (the target keeps it on edition A)."""
    w = World(vaults["edition_b"], unique)
    options = {"resources": [w.r1], "users": [w.reader]}
    first, dummy = w.share(access="view", **options)
    second, sent = w.share(access="view", **options)
    assert first["changed"] and second["changed"]
    assert second["calls"] == first["calls"]
    assert sent == [("PUT", "SHARE_RESOURCE(S)", "Success")]
    assert w.reads()[0] == {w.reader: [w.r1], w.member: []}
    revoked, dummy = w.share(state="absent", **options)
    revoked_again, sent = w.share(state="absent", **options)
    assert revoked["changed"] and revoked_again["changed"]
    assert [call["access"] for call in revoked_again["calls"]] == ["revoke"]
    assert sent == [("PUT", "SHARE_RESOURCE(S)", "Success")]
    assert w.reads()[0] == w.nobody


def test_remote_apps_on_edition_b_with_and_without_the_configured_edition_and_build(vaults, unique):
    """remote_apps.yml, then unversioned.yml (edition B build 6320)."""
    w = World(vaults["edition_b"], unique)
    app_name = unique + "-app"
    app = sim_api(
        w.vault, "POST", "/__simulator/remote-apps", body={"name": app_name, "resourceIds": [w.ids[w.r1]["RESOURCEID"]]}
    )

    # View, then remoteapponly (which replaces it: no password), then revoke.
    options = {"accounts": w.r1_account, "users": [w.reader], "remote_apps": [app_name]}
    for level in ("view", "remoteapponly", "revoke"):
        w.check_level(level, options, ["SHARE_ACCOUNTS(S)"], {w.reader: [w.r1], w.member: []})

    # The user group at modify, then at remoteapponly with the remote app given by id.
    group_options = {"accounts": w.r1_account, "user_groups": [w.group]}
    modify, dummy = w.share(access="modify", **group_options)
    assert modify["changed"] and not modify.get("failed"), modify
    remote, dummy = w.share(access="remoteapponly", remote_app_ids=[str(app["id"])], **group_options)
    assert remote["changed"]
    assert remote["calls"] == [
        {
            "operation": "SHARE_ACCOUNTS(S)",
            "what": ["account %s/root" % w.r1],
            "whom": ["user group " + w.group],
            "access": "remoteapponly",
            "remote_apps": [app_name],
        }
    ]
    assert w.reads()[0] == w.nobody

    # A remote app the resource does not have fails before any write.
    no_app, sent = w.share(access="remoteapponly", remote_apps=[unique + "-no-app"], **group_options)
    assert no_app.get("failed")
    assert "remote app name %s-no-app is not associated with resource %s" % (unique, w.r1) in no_app["msg"]
    assert "%s (id %s)" % (app_name, app["id"]) in no_app["msg"]
    assert sent == []
    revoked, dummy = w.share(state="absent", **group_options)
    assert revoked["changed"] and not revoked.get("failed"), revoked

    # unversioned.yml: without the edition and build, one call per resource; remoteapponly still goes by the bulk
    # call, its revoke by SHARE ACCOUNT.
    unversioned = {"unversioned": True}
    for level in ("view", "revoke"):
        w.check_level(
            level,
            dict(unversioned, resources=w.resources, users=[w.reader]),
            ["SHARE RESOURCE"] * 2,
            {w.reader: w.resources, w.member: []},
        )
    for level in ("view", "remoteapponly", "revoke"):
        w.check_level(
            level,
            dict(unversioned, **options),
            ["SHARE_ACCOUNTS(S)"] if level == "remoteapponly" else ["SHARE ACCOUNT"],
            {w.reader: [w.r1], w.member: []},
        )


# refusals.yml's input and builds refused before any request, whose messages test_share.py does not check already
# (it checks the access matrix, state=absent with access, remote_apps without remoteapponly, spaces in names, and
# "sharing an account with a user group" below build 11200; the target keeps "accounts shared with a user take ...").
@pytest.mark.parametrize(
    "profile, options, message",
    [
        (
            "default",
            {"resources": ["x"], "users": ["y"]},
            "state is present but all of the following are missing: access",
        ),
        (
            "default",
            {
                "accounts": [{"resource": "x", "account": "root"}],
                "users": ["y"],
                "access": "remoteapponly",
                "remote_apps": ["z"],
            },
            "remoteapponly is shared only by SHARE_ACCOUNTS(S): SHARE_ACCOUNTS(S) (PUT /accounts/share) needs edition B"
            " from build 6320; the vault is edition A build 12450",
        ),
        (
            "default",
            {"resources": ["x"], "user_groups": ["y"], "access": "view", "build": 11100},
            "sharing a resource with a user group: SHARE RESOURCE (PUT /resources/{resource_id}/share) needs edition A"
            " from build 11200 or edition B from build 5100; the vault is edition A build 11100",
        ),
        (
            "default",
            {"resource_groups": ["x"], "users": ["y"], "access": "view", "build": 12400},
            "resource groups are shared only by SHARE_RESOURCEGROUP(S): SHARE_RESOURCEGROUP(S) (PUT /resourcegroup/share)"
            " needs edition A from build 12450 or edition B from build 6320",
        ),
        (
            "old_a",
            {"resource_groups": ["x"], "users": ["y"], "access": "view"},
            "needs edition A from build 12450 or edition B from build 6320; the vault is edition A build 12000",
        ),
    ],
)
def test_refused_before_any_request(vaults, unique, profile, options, message):
    vault = vaults[profile]
    vault.forget_requests()
    result = run(vault, "vault_share", **options)
    assert result.get("failed")
    assert message in result["msg"]
    assert vault.requests == []


def test_unknown_names_and_a_refusal_midway_on_edition_a(vaults, unique):
    """refusals.yml after its refusals before any request (edition A build 12450)."""
    w = World(vaults["default"], unique)
    w.vault.forget_requests()
    unknown = [
        ({"resources": [w.r1, w.r2, unique + "-nothing"]}, "resource %s-nothing does not exist" % unique),
        (
            {"accounts": [{"resource": w.r1, "account": "root"}, {"resource": w.r2, "account": "nobody"}]},
            "resource %s has no account nobody" % w.r2,
        ),
        ({"resource_groups": [w.rg, unique + "-no-rg"]}, "resource group %s-no-rg does not exist" % unique),
        ({"users": [w.reader, unique + "-ghost"]}, "user %s-ghost does not exist" % unique),
        ({"user_groups": [w.group, unique + "-ghosts"]}, "user group %s-ghosts does not exist" % unique),
    ]
    for options, message in unknown:
        args = dict({"resources": [w.r1], "users": [w.reader]}, access="view", **options)
        result = run(w.vault, "vault_share", **args)
        assert result.get("failed") and message in result["msg"], (message, result)
    dry = run(
        w.vault, "vault_share", check_mode=True, resources=[w.r1], user_groups=[unique + "-ghosts"], access="view"
    )
    assert dry.get("failed") and "user group %s-ghosts does not exist" % unique in dry["msg"], dry
    assert len(w.vault.requests) > 0
    assert [entry for entry in w.vault.requests if entry["method"] != "GET"] == []

    # The reader gets full access to r1, so that it may share it further, and view access to r2, which it may see
    # but not share; then it shares both with the member.
    for resource, access in ((w.r1, "fullaccess"), (w.r2, "view")):
        given, dummy = w.share(resources=[resource], users=[w.reader], access=access)
        assert given["changed"] and not given.get("failed"), given
    midway = run(
        w.vault, "vault_share", resources=w.resources, users=[w.member], access="view", auth_token=w.tokens[w.reader]
    )
    assert midway.get("failed") and midway["changed"]
    assert midway["msg"] == (
        "SHARE RESOURCE sharing resource %(r2)s with user %(member)s at view failed: SHARE RESOURCE failed: You are"
        " not authorized to share resource %(r2)s; sent before it, and applied: SHARE RESOURCE sharing resource"
        " %(r1)s with user %(member)s at view" % {"r1": w.r1, "r2": w.r2, "member": w.member}
    )
    assert midway["operation"] == "SHARE RESOURCE"
    assert w.reads()[0] == {w.reader: w.resources, w.member: [w.r1]}
