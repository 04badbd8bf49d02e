# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The vault_user action plugin: the token of a new API user goes to token_dest (0600, atomically) and out of the
result, or stays in a censored result; check mode and runs that create nothing leave the file alone, and an existing
API user whose token is not at token_dest is warned about; no message holds the token."""

from __future__ import annotations

import os
import stat
from unittest import mock

import pytest
from ansible.errors import AnsibleActionFail

from ansible_collections.credvault.vault.plugins.action import vault_user as plugin
from ansible_collections.credvault.vault.plugins.plugin_utils import _compat
from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_files as files
from ansible_collections.credvault.vault.tests.unit.fakes import scripted_action

TOKEN = "A9F3-NEW-API-T0KEN-77"


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def action(args, module_result, check_mode=False):
    return scripted_action(plugin, args, module_result, check_mode)


def test_the_token_is_written_0600_and_taken_out_of_the_result(tmp_path):
    dest = tmp_path / "robot.token"
    runner = action({"name": "robot", "api_user": True, "token_dest": str(dest)}, {"changed": True, "token": TOKEN})
    result = runner.run(task_vars={})
    assert dest.read_text() == TOKEN and mode_of(dest) == 0o600
    assert result == {"changed": True, "token_dest": str(dest)}
    assert runner.module_calls == [
        ("credvault.vault.vault_user", {"name": "robot", "api_user": True, "token_dest": str(dest)})
    ]


def test_the_file_is_0600_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        files.write_file(str(tmp_path / "t"), TOKEN.encode())
    finally:
        os.umask(old)
    assert mode_of(tmp_path / "t") == 0o600


def test_an_existing_file_is_replaced_atomically_by_a_0600_file_of_the_same_directory(tmp_path, monkeypatch):
    dest = tmp_path / "robot.token"
    dest.write_text("old token")
    dest.chmod(0o644)
    seen = []
    real_replace = os.replace

    def replace(source, target):
        seen.append((os.path.dirname(source), mode_of(source), open(source).read(), dest.read_text()))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    files.write_file(str(dest), TOKEN.encode())
    assert seen == [(str(tmp_path), 0o600, TOKEN, "old token")]
    assert dest.read_text() == TOKEN and mode_of(dest) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["robot.token"]


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=OSError(28, "No space left on device")))
    with pytest.raises(OSError):
        files.write_file(str(tmp_path / "t"), TOKEN.encode())
    assert os.listdir(tmp_path) == []


def test_without_token_dest_the_token_stays_in_the_result_which_ansible_censors():
    result = action({"name": "robot", "api_user": True}, {"changed": True, "token": TOKEN}).run(task_vars={})
    assert result == {"changed": True, "token": TOKEN, "_ansible_no_log": True}


def test_without_token_dest_a_failure_after_the_creation_returns_no_token_and_says_so():
    failed = {"failed": True, "changed": True, "msg": "user robot was created (an API user), then: ADD failed"}
    result = action({"name": "robot", "api_user": True}, dict(failed, token=TOKEN)).run(task_vars={})
    assert TOKEN not in repr(result) and "_ansible_no_log" not in result and result["failed"]
    assert result["msg"].startswith(failed["msg"] + ". A failed task returns no secret")
    assert "delete the user (state: absent) and run the task again" in result["msg"]


EXISTING = {"changed": False, "user_id": "7", "user": {}, "calls": []}


@pytest.fixture
def warnings_given(monkeypatch):
    """``given(result)``: the warnings the user gets of a task whose result is ``result``, on this ansible-core (in
    the result before 2.19, through Display from 2.19: ``_compat.add_warnings``)."""
    displayed = []
    monkeypatch.setattr(_compat.display, "warning", displayed.append)

    def given(result):
        return list(result.get("warnings", [])) + displayed

    return given


@pytest.mark.parametrize("check_mode", [False, True])
def test_an_existing_api_user_without_a_file_at_token_dest_is_warned_about(tmp_path, check_mode, warnings_given):
    dest = tmp_path / "robot.token"
    runner = action({"name": "robot", "api_user": True, "token_dest": str(dest)}, EXISTING, check_mode)
    result = runner.run(task_vars={})
    assert result["changed"] is False and "token_dest" not in result and not dest.exists()
    (warning,) = warnings_given(result)
    assert warning.startswith("API user robot exists, and its token is not at token_dest %s (no file there)" % dest)
    assert "may have been lost" in warning and "delete the user (state: absent)" in warning


def test_the_warning_keeps_the_module_warnings(tmp_path, warnings_given):
    existing = dict(EXISTING, warnings=["user robot exists; not compared with the vault: role"])
    result = action({"name": "robot", "api_user": True, "token_dest": str(tmp_path / "t")}, existing).run(task_vars={})
    given = warnings_given(result)
    assert len(given) == 2 and given[0] == existing["warnings"][0]


@pytest.mark.parametrize(
    "args, module_result, with_file",
    [
        ({"state": "present"}, EXISTING, True),
        ({}, {"changed": False, "calls": ["CREATE_USER"]}, False),
        ({"state": "absent"}, {"changed": True, "calls": ["DELETE USER"]}, False),
        ({}, {"failed": True, "msg": "CREATE_USER may have been applied"}, False),
    ],
    ids=["the file exists", "a creation in check mode", "a deletion", "a failure"],
)
def test_no_warning_when_the_file_is_there_or_nothing_existed(tmp_path, args, module_result, with_file, warnings_given):
    dest = tmp_path / "robot.token"
    if with_file:
        dest.write_text("the first run's token")
    runner = action(dict(args, name="robot", api_user=True, token_dest=str(dest)), module_result)
    assert warnings_given(runner.run(task_vars={})) == []


def test_no_warning_without_token_dest(warnings_given):
    assert warnings_given(action({"name": "robot", "api_user": True}, EXISTING).run(task_vars={})) == []


@pytest.mark.parametrize("check_mode", [True, False])
def test_a_run_without_token_neither_creates_nor_touches_the_file(tmp_path, check_mode):
    missing, existing = tmp_path / "new.token", tmp_path / "old.token"
    existing.write_text("the first run's token")
    for dest in (missing, existing):
        runner = action({"name": "robot", "api_user": True, "token_dest": str(dest)}, {"changed": False}, check_mode)
        assert "token_dest" not in runner.run(task_vars={})
    assert not missing.exists() and existing.read_text() == "the first run's token"


def test_a_failure_after_the_creation_still_hands_the_token_over(tmp_path):
    dest = tmp_path / "robot.token"
    failed = {"failed": True, "changed": True, "msg": "user robot was created, then: ADD failed", "token": TOKEN}
    result = action({"api_user": True, "token_dest": str(dest)}, failed).run(task_vars={})
    assert dest.read_text() == TOKEN and result["failed"] and result["token_dest"] == str(dest)
    assert "token" not in result


def test_a_token_that_cannot_be_written_fails_without_showing_it(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=PermissionError(13, "Permission denied")))
    dest = tmp_path / "robot.token"
    result = action({"api_user": True, "token_dest": str(dest)}, {"changed": True, "token": TOKEN}).run(task_vars={})
    assert result["failed"] and "could not be written to token_dest %s: Permission denied" % dest in result["msg"]
    assert TOKEN not in repr(result) and not dest.exists()


@pytest.mark.parametrize(
    "where, message",
    [("missing/robot.token", "does not exist on the controller"), ("", "is a directory")],
)
def test_a_destination_that_cannot_be_written_fails_before_the_module_runs(tmp_path, where, message):
    runner = action({"api_user": True, "token_dest": str(tmp_path / where)}, {"changed": True, "token": TOKEN})
    with pytest.raises(AnsibleActionFail, match=message):
        runner.run(task_vars={})
    assert runner.module_calls == []


def test_a_directory_not_writable_fails_before_the_module_runs(tmp_path, monkeypatch):
    """os.access decides (a root test run writes anywhere, so the answer is scripted)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if str(path) == str(locked) else real_access(path, mode))
    runner = action({"api_user": True, "token_dest": str(locked / "t")}, {"changed": True, "token": TOKEN})
    with pytest.raises(AnsibleActionFail, match="is not writable on the controller"):
        runner.run(task_vars={})
    assert runner.module_calls == []


def test_token_dest_expands_the_home_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    result = action({"api_user": True, "token_dest": "~/robot.token"}, {"changed": True, "token": TOKEN}).run(
        task_vars={}
    )
    assert result["token_dest"] == str(tmp_path / "robot.token") and (tmp_path / "robot.token").read_text() == TOKEN
