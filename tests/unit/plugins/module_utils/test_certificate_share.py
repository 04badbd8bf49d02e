# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Certificate sharing against a scripted client: the eight rows, names resolved before any write, every pair
sent and each failed pair named, "not shared" on revoke as no change, check mode, the build gate."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_share
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConnectionError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import (
    NO_SUCH_CERTIFICATE,
    NOT_YOURS,
    ScriptedClient,
    run_entry,
)

CERTIFICATES = [{"CertID": 4, "Common Name": "shop.example.com", "serialNumber": "0A"}]
USER_IDS = {"jdoe": "7", "pat": "8"}
GROUP_IDS = {"Web operators": "21"}


# The catalogue keys of the share and revoke rows (``ROWS`` maps to their gateway functions).
WRITE_KEYS = [function.endpoint.key for function in _certificate_share.ROWS.values()]


def refused(message):
    return VaultAPIError("failed: %s" % message, http_status=200, vault_message=message)


def lookup(table, field, key):
    def answer(path, details, query):
        found = table.get(query[key])
        return refused("%s does not exist" % query[key]) if found is None else {field: found}

    return answer


def vault(edition=None, build=None, **answers):
    table = {
        "get_all_ssl_certificates": CERTIFICATES,
        "get_user_id": lookup(USER_IDS, "USERID", "USERNAME"),
        "get_user_group_id": lookup(GROUP_IDS, "USERGROUPID", "USERGROUPNAME"),
        "get_certificate_details": NO_SUCH_CERTIFICATE,
    }
    for key in WRITE_KEYS:
        table[key] = None
    table.update(answers)
    return ScriptedClient(table, edition=edition, build=build)


def desired(**options):
    base = {"common_name": None, "serial_number": None, "group": None, "users": None, "user_groups": None}
    return dict(dict(base, state="present"), **options)


def writes(client):
    return [(key, details) for key, dummy_path, details, dummy_query in client.calls if key in WRITE_KEYS]


def run_share(client, options, check_mode):
    """``vault_certificate_share``'s entry point run as the module runs it: the task's tracker and its ``calls``."""
    tracker, values = run_entry(_certificate_share.converge, client, options, check_mode)
    return tracker, values["calls"]


@pytest.mark.parametrize("state", ["present", "absent"])
@pytest.mark.parametrize("target", ["certificate", "group"])
def test_the_eight_rows(state, target):
    options = {"common_name": "SHOP.example.com"} if target == "certificate" else {"group": "Web certificates"}
    client = vault()
    tracker, calls = run_share(
        client, desired(state=state, users=["jdoe"], user_groups=["Web operators"], **options), False
    )
    verb = "share" if state == "present" else "revoke"
    what = "certificate" if target == "certificate" else "certificate_group"
    assert [key for key, dummy in writes(client)] == [
        "%s_%s_%s_user" % (verb, what, "with" if verb == "share" else "from"),
        "%s_%s_%s_group" % (verb, what, "with" if verb == "share" else "from"),
    ]
    target_details = (
        {"common_name": "shop.example.com", "serial_number": "0A"}
        if target == "certificate"
        else {"certificate_group_name": "Web certificates"}
    )
    assert [details for dummy, details in writes(client)] == [
        dict(target_details, userId="7"),
        dict(target_details, userGroupId="21"),
    ]
    assert tracker.changed and tracker.warnings == []
    assert [c["outcome"] for c in calls] == ["shared", "shared"] if state == "present" else ["revoked", "revoked"]
    assert [c["whom"] for c in calls] == ["user jdoe", "user group Web operators"]
    pair = "%s - user jdoe" % calls[0]["what"]
    assert tracker.diff()["before"][pair] == "unknown"
    assert tracker.diff()["after"][pair] == ("shared" if state == "present" else "not shared")


def test_revoking_what_is_not_shared_is_no_change():
    not_shared = refused("Certificate shop.example.com (serial number 0a) is not shared with user jdoe")
    client = vault(revoke_certificate_from_user=not_shared)
    tracker, calls = run_share(client, desired(common_name="shop.example.com", users=["jdoe"], state="absent"), False)
    assert not tracker.changed and calls[0]["outcome"] == "not shared"
    pair = "certificate shop.example.com (serial number 0A) - user jdoe"
    assert tracker.diff() == {"before": {pair: "not shared"}, "after": {pair: "not shared"}}


def test_every_pair_is_sent_and_each_failed_one_is_named():
    client = vault(
        share_certificate_with_user=lambda p, details, q: (
            refused("no access for %s" % details["userId"]) if details["userId"] == "8" else None
        )
    )
    with pytest.raises(VaultAPIError) as caught:
        run_share(
            client, desired(common_name="shop.example.com", users=["pat", "jdoe"], user_groups=["Web operators"]), False
        )
    text = str(caught.value)
    assert "user pat: no access for 8" in text
    assert "applied, and they stay so" in text and "user jdoe" in text and "user group Web operators" in text
    assert len(writes(client)) == 3


def test_a_connection_failure_names_the_pair_and_what_was_applied():
    def drop(path, details, query):
        return VaultConnectionError("connection dropped") if details["userId"] == "8" else None

    client = vault(share_certificate_with_user=drop)
    with pytest.raises(VaultConnectionError, match="user pat: connection dropped; applied, and they stay so: .*jdoe"):
        run_share(client, desired(common_name="shop.example.com", users=["jdoe", "pat"]), False)


def test_unknown_names_fail_before_any_share():
    for options in (
        {"common_name": "nowhere.example.com", "users": ["jdoe"]},
        {"common_name": "shop.example.com", "users": ["jdoe", "ghost"]},
        {"common_name": "shop.example.com", "user_groups": ["Ghosts"]},
    ):
        client = vault()
        with pytest.raises(VaultNotFoundError):
            run_share(client, desired(**options), False)
        assert writes(client) == []


def test_check_mode_sends_nothing_and_takes_missing_names_as_created():
    client = vault()
    tracker, calls = run_share(client, desired(common_name="new.example.com", users=["jdoe", "ghost"]), True)
    assert writes(client) == [] and tracker.changed
    assert [c["outcome"] for c in calls] == ["would be sent", "would be sent"]
    assert len(tracker.warnings) == 2
    with pytest.raises(VaultNotFoundError):
        run_share(vault(), desired(common_name="shop.example.com", user_groups=["Ghosts"]), True)


@pytest.mark.parametrize(
    "options",
    [
        {"users": ["jdoe"]},
        {"common_name": "shop.example.com", "group": "g", "users": ["jdoe"]},
        {"group": "g", "serial_number": "0a", "users": ["jdoe"]},
        {"common_name": "shop.example.com"},
        {"common_name": "shop.example.com", "users": [" jdoe"]},
        {"common_name": "shop.example.com", "serial_number": "nothex", "users": ["jdoe"]},
        {"group": "", "users": ["jdoe"]},
    ],
)
def test_bad_input_is_refused_before_any_request(options):
    client = vault()
    with pytest.raises(VaultInputError):
        run_share(client, desired(**options), False)
    assert client.calls == []


def test_old_builds_are_refused_before_any_request():
    client = vault(edition="A", build=11299)
    with pytest.raises(VaultUnsupportedError, match="edition A from build 11300"):
        run_share(client, desired(group="g", user_groups=["Web operators"], state="absent"), True)
    assert client.calls == []


@pytest.mark.parametrize("check_mode", [True, False])
def test_a_certificate_this_token_may_not_access_is_refused_not_missing(check_mode):
    client = vault(get_certificate_details=NOT_YOURS)
    with pytest.raises(VaultAPIError) as caught:
        run_share(client, desired(common_name="hidden.example.com", users=["jdoe"]), check_mode)
    assert "the vault refused certificate hidden.example.com to this token: You are not authorized" in str(caught.value)
    assert "does not exist" not in str(caught.value)
    assert writes(client) == []
