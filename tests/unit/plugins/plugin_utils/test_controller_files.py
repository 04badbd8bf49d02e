# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The controller's file writer: atomic, with its mode from the start, rewritten only when the bytes differ,
nothing written in check mode, no content in the result."""

from __future__ import annotations

import os
import stat
from unittest import mock

import pytest
from ansible.errors import AnsibleActionFail

from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_files as files

KEY = b"-----BEGIN OPENSSH PRIVATE KEY-----\nS3CRET-KEY-MATERIAL\n-----END OPENSSH PRIVATE KEY-----\n"


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_is_written_with_its_mode_and_the_result_holds_no_content(tmp_path):
    dest = str(tmp_path / "key")
    result = files.update_file(dest, KEY, 0o600, check_mode=False)
    assert (tmp_path / "key").read_bytes() == KEY and mode_of(dest) == 0o600
    assert result["changed"] and result["dest"] == dest and result["size"] == len(KEY)
    assert result["diff"] == {
        "before": {"state": "absent"},
        "after": {"state": "file", "checksum": result["checksum"], "mode": "0600"},
    }
    assert b"S3CRET" not in repr(result).encode()


def test_a_file_holding_the_bytes_is_not_rewritten(tmp_path, monkeypatch):
    dest = str(tmp_path / "key")
    files.update_file(dest, KEY, 0o600, check_mode=False)
    monkeypatch.setattr(files, "write_file", mock.Mock(side_effect=AssertionError("rewritten")))
    monkeypatch.setattr(files.os, "chmod", mock.Mock(side_effect=AssertionError("chmod")))
    result = files.update_file(dest, KEY, 0o600, check_mode=False)
    assert not result["changed"] and result["diff"]["before"] == dict(result["diff"]["after"], state="file")


def test_only_the_mode_is_corrected_when_the_bytes_are_the_same(tmp_path, monkeypatch):
    dest = tmp_path / "key"
    dest.write_bytes(KEY)
    dest.chmod(0o644)
    monkeypatch.setattr(files, "write_file", mock.Mock(side_effect=AssertionError("rewritten")))
    result = files.update_file(str(dest), KEY, 0o600, check_mode=False)
    assert result["changed"] and mode_of(dest) == 0o600
    assert result["diff"]["before"]["mode"] == "0644" and result["diff"]["after"]["mode"] == "0600"


@pytest.mark.parametrize("existing", [None, b"old key"])
def test_check_mode_writes_nothing(tmp_path, existing):
    dest = tmp_path / "key"
    if existing is not None:
        dest.write_bytes(existing)
        dest.chmod(0o644)
    result = files.update_file(str(dest), KEY, 0o600, check_mode=True)
    assert result["changed"]
    if existing is None:
        assert not dest.exists()
    else:
        assert dest.read_bytes() == existing and mode_of(dest) == 0o644
    assert sorted(os.listdir(tmp_path)) == ([] if existing is None else ["key"])


def test_the_file_has_its_mode_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        files.write_file(str(tmp_path / "k"), KEY, 0o640)
    finally:
        os.umask(old)
    assert mode_of(tmp_path / "k") == 0o640


def test_the_temporary_file_is_synced_in_the_same_directory_before_the_rename(tmp_path, monkeypatch):
    dest = tmp_path / "key"
    dest.write_bytes(b"old")
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(files.os, "fsync", lambda fd: events.append("fsync") or real_fsync(fd))

    def replace(source, target):
        events.append((os.path.dirname(source), mode_of(source), open(source, "rb").read(), dest.read_bytes()))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    files.write_file(str(dest), KEY)
    assert events == ["fsync", (str(tmp_path), 0o600, KEY, b"old")]
    assert sorted(os.listdir(tmp_path)) == ["key"]


def test_a_failed_write_leaves_the_file_and_no_temporary_file(tmp_path, monkeypatch):
    (tmp_path / "key").write_bytes(b"old")
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=OSError(28, "No space left on device")))
    with pytest.raises(OSError):
        files.write_file(str(tmp_path / "key"), KEY)
    assert os.listdir(tmp_path) == ["key"] and (tmp_path / "key").read_bytes() == b"old"


@pytest.mark.parametrize(
    "where, message", [("missing/key", "does not exist on the controller"), ("", "is a directory")]
)
def test_a_destination_that_cannot_be_written_is_refused(tmp_path, where, message):
    with pytest.raises(AnsibleActionFail, match="dest .*%s" % message):
        files.destination(str(tmp_path / where), "dest")


def test_the_destination_expands_the_home_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert files.destination("~/key", "dest") == str(tmp_path / "key")


@pytest.mark.parametrize("value, mode", [("0600", 0o600), ("644", 0o644), (0o640, 0o640), ("0o600", 0o600)])
def test_modes_are_octal(value, mode):
    assert files.file_mode(value) == mode


@pytest.mark.parametrize("value", ["u=rw", "99999", True])
def test_other_modes_are_refused(value):
    with pytest.raises(AnsibleActionFail, match="must be an octal mode"):
        files.file_mode(value)
