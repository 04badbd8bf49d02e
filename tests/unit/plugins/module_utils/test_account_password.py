# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Changing and rotating account passwords, downloading account files: what is sent, and only that."""

from __future__ import annotations

import hashlib
import os

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _download, _password_change
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultInputError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

IDS = {"RESOURCEID": "7", "ACCOUNTID": "3"}
PATH = {"resource_id": "7", "account_id": "3"}
REFUSED = VaultAPIError("CHANGE PASSWORD failed: The new password does not conform to the password policy Strong: "
                        "it must be at least 10 characters long", operation="CHANGE PASSWORD", http_status=200)


def password_client(stored="Old-passw0rd!", **extra):
    return ScriptedClient(dict({"get_resource_account_ids": IDS, "get_password": {"PASSWORD": stored},
                                "change_password": None, "generate_password": {"PASSWORD": "Gen-Erated-9x!"}},
                               **extra))


def sent(client, key):
    return [details for called, dummy_path, details, dummy_query in client.calls if called == key]


def keys(client):
    return [called for called, *dummy in client.calls]


def desired_password(**options):
    return dict({"resource": "web", "account": "root", "reset_type": "LOCAL"}, **options)


def test_a_password_already_stored_is_read_and_not_sent():
    client = password_client()
    tracker, ref, new = _password_change.ensure_password(client, desired_password(password="Old-passw0rd!"), False)
    assert not tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_account_ids", "get_password"]
    assert (ref.resource_id, ref.account_id, new) == ("7", "3", "Old-passw0rd!")
    assert tracker.diff() == {"before": {"password": "<hidden>"}, "after": {"password": "<hidden>"}}


def test_a_different_password_is_read_with_reason_and_ticket_then_changed_with_them():
    client = password_client()
    desired = desired_password(password="New-passw0rd!", reason="Review", ticket_id="CHG-1", reset_type="REMOTE")
    tracker, dummy_ref, dummy_new = _password_change.ensure_password(client, desired, False)
    assert tracker.changed and client.writes() == ["change_password"]
    assert sent(client, "get_password") == [{"REASON": "Review", "TICKETID": "CHG-1"}]
    assert sent(client, "change_password") == [{"NEWPASSWORD": "New-passw0rd!", "RESETTYPE": "REMOTE",
                                                "REASON": "Review", "TICKETID": "CHG-1"}]
    assert client.calls[-1][:2] == ("change_password", PATH)
    assert "passw0rd" not in str(tracker.diff())
    assert tracker.diff()["after"] == {"password": "<hidden, changed>"}


def test_check_mode_compares_but_writes_nothing():
    client = password_client()
    tracker, dummy_ref, dummy_new = _password_change.ensure_password(client, desired_password(password="New-pw1!"),
                                                                     True)
    assert tracker.changed and client.writes() == []
    assert keys(client) == ["get_resource_account_ids", "get_password"]


def test_rotation_generates_with_the_policy_and_changes_without_reading():
    client = password_client()
    tracker, dummy_ref, new = _password_change.ensure_password(client, desired_password(rotate_with_policy="Strong"),
                                                               False)
    assert tracker.changed and new == "Gen-Erated-9x!"
    assert keys(client) == ["get_resource_account_ids", "generate_password", "change_password"]
    assert sent(client, "generate_password") == [{"POLICY": "Strong"}]
    assert sent(client, "change_password") == [{"NEWPASSWORD": "Gen-Erated-9x!", "RESETTYPE": "LOCAL"}]
    assert "Gen-Erated" not in str(tracker.diff())


def test_rotation_in_check_mode_neither_generates_nor_writes():
    client = password_client()
    tracker, dummy_ref, new = _password_change.ensure_password(client, desired_password(rotate_with_policy="Strong"),
                                                               True)
    assert tracker.changed and new is None
    assert keys(client) == ["get_resource_account_ids"]


def test_the_vaults_policy_refusal_is_the_failure():
    client = password_client(change_password=REFUSED)
    with pytest.raises(VaultAPIError, match="at least 10 characters"):
        _password_change.ensure_password(client, desired_password(password="short"), False)


@pytest.mark.parametrize("options, message", [
    ({"password": ""}, "password must not be empty"),
    ({"rotate_with_policy": ""}, "rotate_with_policy must not be empty"),
])
def test_empty_input_fails_before_any_request(options, message):
    client = password_client()
    with pytest.raises(VaultInputError, match=message):
        _password_change.ensure_password(client, desired_password(**options), False)
    assert client.calls == []


class FileClient(ScriptedClient):
    """A ScriptedClient whose ``bytes`` answers are file bodies (``content``), as the client returns a download."""

    def call(self, key, path=None, details=None, query=None, files=None):
        response = super().call(key, path, details, query, files)
        if isinstance(response.details, bytes):
            response.content, response.details = response.details, None
        return response


CONTENT = b"license-key: 0123-4567\n"


def file_client(content=CONTENT, **extra):
    return FileClient(dict({"get_resource_account_ids": IDS, "download_file": content}, **extra))


def desired_file(dest, **options):
    return dict({"resource": "licenses", "account": "admin", "dest": str(dest)}, **options)


def recorder():
    written = []
    return written, written.append


def test_a_missing_file_is_downloaded_and_written(tmp_path):
    client = file_client()
    written, write = recorder()
    tracker, result = _download.ensure_file(client, desired_file(tmp_path / "product.lic"), False, write)
    assert tracker.changed and written == [CONTENT]
    assert result == {"dest": str(tmp_path / "product.lic"), "checksum": hashlib.sha256(CONTENT).hexdigest(),
                      "size": len(CONTENT)}
    assert keys(client) == ["get_resource_account_ids", "download_file"]
    assert sent(client, "download_file") == [None]
    assert tracker.diff()["before"] == {"state": "absent", "checksum": None}
    assert "license-key" not in str(tracker.diff())


def test_the_same_file_is_downloaded_to_compare_and_not_written(tmp_path):
    dest = tmp_path / "product.lic"
    dest.write_bytes(CONTENT)
    client = file_client()
    written, write = recorder()
    tracker, dummy_result = _download.ensure_file(client, desired_file(dest), False, write)
    assert not tracker.changed and written == [] and client.writes() == []


def test_a_different_file_is_replaced_but_not_in_check_mode(tmp_path):
    dest = tmp_path / "product.lic"
    dest.write_bytes(b"old")
    written, write = recorder()
    tracker, dummy_result = _download.ensure_file(file_client(), desired_file(dest), True, write)
    assert tracker.changed and written == []
    tracker, dummy_result = _download.ensure_file(file_client(), desired_file(dest), False, write)
    assert tracker.changed and written == [CONTENT]
    assert tracker.diff()["before"]["checksum"] == hashlib.sha256(b"old").hexdigest()


def test_a_custom_field_file_is_asked_for_with_its_label_type_reason_and_ticket(tmp_path):
    client = file_client()
    options = {"custom_field": "Keytab", "custom_field_type": "RESOURCE", "reason": "Deploy", "ticket_id": "CHG-2"}
    _download.ensure_file(client, desired_file(tmp_path / "svc.keytab", **options), False, recorder()[1])
    assert sent(client, "download_file") == [{"REASON": "Deploy", "TICKETID": "CHG-2", "ISCUSTOMFIELD": "true",
                                              "CUSTOMFIELDTYPE": "RESOURCE", "CUSTOMFIELDLABEL": "Keytab"}]


def test_a_custom_field_without_type_is_an_account_field():
    assert _download.download_input({"custom_field": "Keytab"}) == {
        "ISCUSTOMFIELD": "true", "CUSTOMFIELDTYPE": "ACCOUNT", "CUSTOMFIELDLABEL": "Keytab"}


def test_a_destination_that_cannot_be_a_file_fails_before_any_request(tmp_path):
    for dest, message in ((tmp_path, "is a directory"), (tmp_path / "missing" / "f", "does not exist"),
                          ("", "must be a file path")):
        client = file_client()
        with pytest.raises(VaultInputError, match=message):
            _download.ensure_file(client, desired_file(dest), False, recorder()[1])
        assert client.calls == []


def test_the_vaults_refusal_is_the_failure_and_nothing_is_written(tmp_path):
    client = file_client(content=VaultAPIError("DOWNLOAD FILE failed: Resource licenses holds no file"))
    written, write = recorder()
    with pytest.raises(VaultAPIError, match="holds no file"):
        _download.ensure_file(client, desired_file(tmp_path / "f"), False, write)
    assert written == [] and not os.path.exists(tmp_path / "f")


def test_file_checksum_reads_large_files_in_chunks(tmp_path):
    big = tmp_path / "big"
    big.write_bytes(b"x" * (3 * 1024 * 1024 + 5))
    assert _download.file_checksum(str(big)) == hashlib.sha256(big.read_bytes()).hexdigest()
    assert _download.file_checksum(str(tmp_path / "none")) is None
