# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Certificate groups against a scripted client: create, or edit when the vault says the group exists; rename
through old_group_name; delete, with "does not exist" as no change; members resolved to CertIDs first."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_group
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
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

CERTIFICATES = [
    {"CertID": 4, "Common Name": "shop.example.com", "serialNumber": "0A"},
    {"CertID": "7", "Common Name": "intranet.example.com", "serialNumber": "0B"},
]


def refused(message):
    return VaultAPIError("failed: %s" % message, http_status=200, vault_message=message)


EXISTS = refused("Certificate group Web already exists")
MISSING = refused("Certificate group Web does not exist")


def scripted_client(edition=None, build=None, **answers):
    table = {
        "get_all_ssl_certificates": CERTIFICATES,
        "create_certificate_group": [{"group_name": "Web", "ssl_details": "4,7"}],
        "edit_certificate_group": [{"group_name": "Web"}],
        "delete_certificate_group": None,
        "get_certificate_details": NO_SUCH_CERTIFICATE,
    }
    table.update(answers)
    return ScriptedClient(table, edition=edition, build=build)


def desired(**options):
    base = {"name": "Web", "new_name": None, "description": None, "mail": None, "certificates": None}
    return dict(dict(base, state="present"), **options)


def sent(client):
    return [
        (key, details) for key, dummy_path, details, dummy_query in client.calls if key != "get_all_ssl_certificates"
    ]


def test_create_sends_the_given_fields_and_member_ids():
    client = scripted_client()
    members = [{"common_name": "shop.example.com"}, {"common_name": "INTRANET.example.com", "serial_number": "b"}]
    tracker, values = run_entry(
        _certificate_group.converge, client, desired(description="d", mail="w@example.com", certificates=members), False
    )
    assert sent(client) == [
        (
            "create_certificate_group",
            {"group_name": "Web", "group_description": "d", "group_mail": "w@example.com", "ssl_details": "4,7"},
        )
    ]
    assert values["action"] == "created" and tracker.changed
    assert [m["CertID"] for m in values["certificates"]] == ["4", "7"]
    assert values["vault_group"]["ssl_details"] == "4,7"
    assert any("cannot compare" in warning for warning in tracker.warnings)


def test_an_existing_group_is_edited_with_only_the_fields_given():
    client = scripted_client(create_certificate_group=EXISTS)
    tracker, values = run_entry(_certificate_group.converge, client, desired(certificates=[]), False)
    assert sent(client)[-1] == ("edit_certificate_group", {"group_name": "Web", "ssl_details": ""})
    assert values["action"] == "edited" and tracker.changed


def test_other_refusals_fail_with_the_vault_words():
    client = scripted_client(create_certificate_group=refused("You are not authorized to create certificate groups"))
    with pytest.raises(VaultAPIError, match="not authorized"):
        run_entry(_certificate_group.converge, client, desired(), False)
    assert [key for key, dummy in sent(client)] == ["create_certificate_group"]


def test_rename_names_the_old_group():
    client = scripted_client()
    dummy, values = run_entry(
        _certificate_group.converge, client, desired(new_name="Public web", description="d"), False
    )
    assert sent(client) == [
        ("edit_certificate_group", {"group_name": "Public web", "old_group_name": "Web", "group_description": "d"})
    ]
    assert values["action"] == "renamed" and values["certificate_group"]["group_name"] == "Public web"


def test_rename_done_already_edits_the_new_name():
    calls = []

    def edit(path, details, query):
        calls.append(details)
        return MISSING if "old_group_name" in details else [{"group_name": "Public web"}]

    client = scripted_client(edit_certificate_group=edit)
    dummy, values = run_entry(_certificate_group.converge, client, desired(new_name="Public web"), False)
    assert calls[-1] == {"group_name": "Public web"}
    assert values["action"] == "edited"


def test_rename_of_nothing_fails():
    client = scripted_client(edit_certificate_group=MISSING)
    with pytest.raises(VaultNotFoundError, match="neither exists"):
        run_entry(_certificate_group.converge, client, desired(new_name="Public web"), False)


def test_delete_and_delete_of_nothing():
    client = scripted_client()
    tracker, values = run_entry(_certificate_group.converge, client, desired(state="absent"), False)
    assert values["action"] == "deleted" and tracker.changed
    assert sent(client) == [("delete_certificate_group", {"group_name": "Web"})]
    tracker, values = run_entry(
        _certificate_group.converge, scripted_client(delete_certificate_group=MISSING), desired(state="absent"), False
    )
    assert values["action"] == "none" and not tracker.changed
    assert values["vault_message"] == "Certificate group Web does not exist"


def test_check_mode_sends_nothing_and_warns():
    for options in ({}, {"new_name": "Other"}, {"state": "absent"}):
        client = scripted_client()
        tracker, values = run_entry(_certificate_group.converge, client, desired(**options), True)
        assert client.writes() == [] and tracker.changed
        assert any("check mode cannot tell" in warning for warning in tracker.warnings)


def test_unknown_members_fail_before_any_write_and_warn_in_check_mode():
    members = [{"common_name": "nowhere.example.com"}]
    client = scripted_client()
    with pytest.raises(VaultNotFoundError) as caught:
        run_entry(_certificate_group.converge, client, desired(certificates=members), False)
    assert str(caught.value) == (
        "certificates nowhere.example.com do not exist (or are not visible to this token); nothing was changed"
    )
    assert client.writes() == []
    tracker, dummy = run_entry(_certificate_group.converge, scripted_client(), desired(certificates=members), True)
    assert any(
        w.startswith("certificates nowhere.example.com do not exist yet: check mode takes them as created")
        for w in tracker.warnings
    )


@pytest.mark.parametrize(
    "options",
    [
        {"name": " Web"},
        {"new_name": ""},
        {"mail": "not a mail"},
        {"mail": "nobody"},
        {"certificates": [{"common_name": "x", "serial_number": "zz"}]},
        {"state": "absent", "description": "d"},
        {"state": "absent", "new_name": "x"},
    ],
)
def test_bad_input_is_refused_before_any_request(options):
    client = scripted_client()
    with pytest.raises(VaultInputError):
        run_entry(_certificate_group.converge, client, desired(**options), False)
    assert client.calls == []


def test_old_builds_are_refused_before_any_request():
    for state in ("present", "absent"):
        client = scripted_client(edition="B", build=5299)
        with pytest.raises(VaultUnsupportedError, match="edition B from build 5300"):
            run_entry(_certificate_group.converge, client, desired(state=state), True)
        assert client.calls == []


def test_a_listed_certificate_without_a_cert_id_is_an_unreadable_answer():
    client = scripted_client(get_all_ssl_certificates=[{"Common Name": "shop.example.com", "serialNumber": "0A"}])
    with pytest.raises(Exception, match="no CertID"):
        run_entry(
            _certificate_group.converge, client, desired(certificates=[{"common_name": "shop.example.com"}]), False
        )


def test_a_member_this_token_may_not_access_is_refused_not_missing_even_in_check_mode():
    for check_mode in (True, False):
        client = scripted_client(get_certificate_details=NOT_YOURS)
        options = desired(certificates=[{"common_name": "hidden.example.com", "serial_number": None}])
        with pytest.raises(VaultAPIError, match="the vault refused certificate hidden.example.com to this token"):
            run_entry(_certificate_group.converge, client, options, check_mode)
        assert client.writes() == []
