# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_account_file's download: the vault's answer through the real client to the file written."""

from __future__ import annotations

import hashlib
import os

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _account_file
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultInputError
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, ok, run_entry

CONTENT = b"license-key: 0123-4567\n"
IDS = ok({"RESOURCEID": "7", "ACCOUNTID": "3"})
JSON_DOCUMENT = b'{"operation": {"result": {"status": "Failed"}}}'


def attachment(content=CONTENT, name="product.lic", headers=None):
    given = {"Content-Disposition": 'attachment; filename="%s"' % name} if name is not None else {}
    given.update(headers or {})
    return FakeResponse(content=content, headers=given)


def desired(dest, **options):
    return dict({"resource": "licenses", "account": "admin", "dest": str(dest)}, **options)


class Recorder:
    def __init__(self):
        self.written = []

    def __call__(self, path, content):
        self.written.append((path, content))
        with open(path, "wb") as handle:
            handle.write(content)


def ensure(make_client, dest, *answers, check_mode=False, **options):
    client = make_client(IDS, *answers)
    write = Recorder()
    tracker, result = run_entry(_account_file.converge, client, desired(dest, **options), check_mode, write_file=write)
    return client, write, tracker, result


def test_a_missing_file_is_downloaded_and_written(make_client, tmp_path):
    dest = tmp_path / "product.lic"
    client, write, tracker, result = ensure(make_client, dest, attachment())
    assert tracker.changed and write.written == [(str(dest), CONTENT)]
    assert result == {"dest": str(dest), "checksum": hashlib.sha256(CONTENT).hexdigest(), "size": len(CONTENT)}
    assert tracker.diff()["before"] == {"state": "absent", "checksum": None}
    assert "license-key" not in str(tracker.diff()) and not client.wrote


@pytest.mark.parametrize(
    "content, headers",
    [
        (b"", {}),
        (b"", {"Content-Type": "application/octet-stream"}),
        (JSON_DOCUMENT, {}),
        (JSON_DOCUMENT, {"Content-Type": "application/json"}),
        (b'{"result": {"status": "Success"}, "operation": {}}', {}),
    ],
)
def test_an_empty_or_json_file_is_written_as_it_is(make_client, tmp_path, content, headers):
    dest = tmp_path / "stored.json"
    dummy, write, tracker, result = ensure(make_client, dest, attachment(content, "stored.json", headers))
    assert tracker.changed and write.written == [(str(dest), content)]
    assert dest.read_bytes() == content and result["size"] == len(content)


def test_an_empty_file_converges(make_client, tmp_path):
    dest = tmp_path / "empty"
    dest.write_bytes(b"")
    dummy, write, tracker, dummy_result = ensure(make_client, dest, attachment(b""))
    assert not tracker.changed and write.written == []


def test_the_same_file_is_downloaded_to_compare_and_not_written(make_client, tmp_path):
    dest = tmp_path / "product.lic"
    dest.write_bytes(CONTENT)
    client, write, tracker, dummy_result = ensure(make_client, dest, attachment())
    assert not tracker.changed and write.written == [] and len(client.session.calls) == 2


def test_a_different_file_is_replaced_but_not_in_check_mode(make_client, tmp_path):
    dest = tmp_path / "product.lic"
    dest.write_bytes(b"old")
    dummy, write, tracker, dummy_result = ensure(make_client, dest, attachment(), check_mode=True)
    assert tracker.changed and write.written == [] and dest.read_bytes() == b"old"
    dummy, write, tracker, dummy_result = ensure(make_client, dest, attachment())
    assert tracker.changed and write.written == [(str(dest), CONTENT)]
    assert tracker.diff()["before"]["checksum"] == hashlib.sha256(b"old").hexdigest()


@pytest.mark.parametrize(
    "disposition, name",
    [
        ('attachment; filename="product.lic"', "product.lic"),
        ("attachment; filename*=UTF-8''licen%C3%A7a.lic", "licen\xe7a.lic"),
        ('attachment; filename="../../../etc/cron.d/job"', "job"),
        ('attachment; filename="/abs/path/key.pem"', "key.pem"),
    ],
)
def test_a_directory_dest_gets_the_vaults_file_name_inside_it(make_client, tmp_path, disposition, name):
    answer = FakeResponse(content=CONTENT, headers={"Content-Disposition": disposition})
    dummy, write, tracker, result = ensure(make_client, tmp_path, answer)
    assert write.written == [(str(tmp_path / name), CONTENT)] and result["dest"] == str(tmp_path / name)
    assert os.listdir(tmp_path) == [name]


def test_a_directory_dest_converges_on_the_file_inside_it(make_client, tmp_path):
    (tmp_path / "product.lic").write_bytes(CONTENT)
    dummy, write, tracker, result = ensure(make_client, tmp_path, attachment())
    assert not tracker.changed and write.written == [] and result["dest"] == str(tmp_path / "product.lic")


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(
            lambda: FakeResponse(content=CONTENT, headers={"Content-Type": "application/octet-stream"}),
            id="no-disposition",
        ),
        pytest.param(lambda: attachment(name=".."), id="dot-dot"),
        pytest.param(lambda: attachment(name="a/"), id="trailing-slash"),
        pytest.param(
            lambda: FakeResponse(
                content=CONTENT, headers={"Content-Disposition": "attachment; filename*=UTF-8''bad%00name"}
            ),
            id="nul",
        ),
        pytest.param(lambda: FakeResponse(content=CONTENT), id="no-headers"),
    ],
)
def test_a_directory_dest_without_a_usable_name_fails_clearly_and_writes_nothing(make_client, tmp_path, answer):
    with pytest.raises(VaultInputError, match="is a directory and the vault gave no usable file name"):
        ensure(make_client, tmp_path, answer())
    assert os.listdir(tmp_path) == []


def test_a_directory_named_like_the_file_is_refused(make_client, tmp_path):
    (tmp_path / "product.lic").mkdir()
    with pytest.raises(VaultInputError, match="product.lic, the vault's file name inside dest, is a directory"):
        ensure(make_client, tmp_path, attachment())


def test_a_custom_field_file_is_asked_for_with_its_label_type_reason_and_ticket(make_client, tmp_path):
    options = {"custom_field": "Keytab", "custom_field_type": "RESOURCE", "reason": "Deploy", "ticket_id": "CHG-2"}
    client, dummy, dummy_tracker, dummy_result = ensure(make_client, tmp_path / "svc.keytab", attachment(), **options)
    assert client.session.calls[1]["url"].endswith("/resources/7/accounts/3/downloadfile")
    assert "ISCUSTOMFIELD" in client.session.calls[1]["params"]["INPUT_DATA"]


def test_a_custom_field_without_type_is_an_account_field():
    assert _account_file.download_input({"custom_field": "Keytab"}) == {
        "ISCUSTOMFIELD": "true",
        "CUSTOMFIELDTYPE": "ACCOUNT",
        "CUSTOMFIELDLABEL": "Keytab",
    }


@pytest.mark.parametrize(
    "dest, message",
    [
        ("missing/f", "does not exist"),
        ("", "must be a file path or an existing directory"),
    ],
)
def test_a_destination_that_cannot_be_written_fails_before_any_request(make_client, tmp_path, dest, message):
    client = make_client()
    with pytest.raises(VaultInputError, match=message):
        run_entry(
            _account_file.converge, client, desired(tmp_path / dest if dest else ""), False, write_file=Recorder()
        )
    assert client.session.calls == []


def test_the_vaults_refusal_is_the_failure_and_nothing_is_written(make_client, tmp_path):
    refusal = FakeResponse(
        body={
            "operation": {
                "name": "DOWNLOAD FILE",
                "result": {"status": "Failed", "message": "Resource licenses holds no file"},
            }
        }
    )
    with pytest.raises(VaultAPIError, match="holds no file"):
        ensure(make_client, tmp_path / "f", refusal)
    assert not os.path.exists(tmp_path / "f")


def test_file_checksum_reads_large_files_in_chunks(tmp_path):
    big = tmp_path / "big"
    big.write_bytes(b"x" * (3 * 1024 * 1024 + 5))
    assert _account_file.file_checksum(str(big)) == hashlib.sha256(big.read_bytes()).hexdigest()
    assert _account_file.file_checksum(str(tmp_path / "none")) is None
