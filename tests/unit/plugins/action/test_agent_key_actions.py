# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The vault_agent_key and vault_agent_install_key action plugins: with dest the key goes to a 0600 file of the
controller (rewritten only when it differs) and out of the result; without dest it stays in the result; check mode
and failures leave the file alone; no message holds the key."""

from __future__ import annotations

import os
import stat
from unittest import mock

import pytest
from ansible.errors import AnsibleActionFail

from ansible_collections.credvault.vault.plugins.action import vault_agent_install_key, vault_agent_key
from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_files as files
from ansible_collections.credvault.vault.tests.unit.fakes import scripted_action

KEY = "5e1d0c9b8a7f6e5d4c3b2a1908f7e6d5"
FETCHED = {"changed": False, "generated": False, "agent_key": KEY, "expires_at": "2026-11-30T09:05:01"}


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_without_dest_the_key_stays_in_the_result_which_ansible_censors():
    runner = scripted_action(vault_agent_key, {}, FETCHED)
    assert runner.run(task_vars={}) == dict(FETCHED, _ansible_no_log=True)
    assert runner.module_calls == [("credvault.vault.vault_agent_key", {})]


def test_with_dest_the_key_is_written_0600_and_taken_out_of_the_result(tmp_path):
    dest = tmp_path / "agent.key"
    runner = scripted_action(vault_agent_key, {"dest": str(dest)}, FETCHED, diff=True)
    result = runner.run(task_vars={})
    assert dest.read_text() == KEY and mode_of(dest) == 0o600
    assert "agent_key" not in result and KEY not in repr(result)
    assert result["changed"] is True and result["dest"] == str(dest) and result["size"] == len(KEY)
    assert result["diff"]["before"] == {"state": "absent"} and result["diff"]["after"]["mode"] == "0600"
    assert runner.module_calls == [("credvault.vault.vault_agent_key", {"dest": str(dest)})]


def test_the_same_key_again_leaves_the_file_alone(tmp_path):
    dest = tmp_path / "agent.key"
    dest.write_text(KEY)
    dest.chmod(0o600)
    inode = os.stat(dest).st_ino
    result = scripted_action(vault_agent_key, {"dest": str(dest)}, FETCHED).run(task_vars={})
    assert result["changed"] is False and os.stat(dest).st_ino == inode and "diff" not in result


def test_a_generated_key_is_a_change_even_when_the_file_holds_it(tmp_path):
    dest = tmp_path / "agent.key"
    dest.write_text(KEY)
    dest.chmod(0o600)
    generated = dict(FETCHED, changed=True, generated=True)
    assert scripted_action(vault_agent_key, {"dest": str(dest), "generate": True}, generated).run(task_vars={})[
        "changed"
    ]


def test_check_mode_compares_and_writes_nothing(tmp_path):
    dest = tmp_path / "agent.key"
    result = scripted_action(vault_agent_key, {"dest": str(dest)}, FETCHED, check_mode=True).run(task_vars={})
    assert result["changed"] is True and not dest.exists() and KEY not in repr(result)


def test_a_generation_in_check_mode_has_no_key_and_leaves_the_file(tmp_path):
    dest = tmp_path / "agent.key"
    dest.write_text("old key")
    result = scripted_action(
        vault_agent_key, {"dest": str(dest), "generate": True}, {"changed": True, "generated": True}, check_mode=True
    ).run(task_vars={})
    assert result == {"changed": True, "generated": True, "dest": str(dest)} and dest.read_text() == "old key"


def test_a_failure_never_returns_nor_writes_a_key(tmp_path):
    dest = tmp_path / "agent.key"
    failed = {"failed": True, "msg": "Fetch Agent Key failed: no", "agent_key": KEY}
    assert KEY not in repr(scripted_action(vault_agent_key, {"dest": str(dest)}, failed).run(task_vars={}))
    assert KEY not in repr(scripted_action(vault_agent_key, {}, failed).run(task_vars={}))
    assert not dest.exists()


def test_a_dest_that_cannot_be_written_fails_before_the_module_runs(tmp_path):
    runner = scripted_action(vault_agent_key, {"dest": str(tmp_path / "nowhere" / "agent.key")}, FETCHED)
    with pytest.raises(AnsibleActionFail, match="does not exist on the controller"):
        runner.run(task_vars={})
    assert runner.module_calls == []


def test_a_write_error_fails_without_the_key(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=PermissionError(13, "Permission denied")))
    dest = tmp_path / "agent.key"
    result = scripted_action(vault_agent_key, {"dest": str(dest)}, FETCHED).run(task_vars={})
    assert result["failed"] and result["changed"] is False and KEY not in repr(result)
    assert result["msg"] == "the key could not be written to dest %s: Permission denied" % dest
    assert os.listdir(tmp_path) == []


def test_a_generated_key_that_cannot_be_written_is_a_change_and_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=PermissionError(13, "Permission denied")))
    generated = dict(FETCHED, changed=True, generated=True)
    result = scripted_action(vault_agent_key, {"dest": str(tmp_path / "a.key"), "generate": True}, generated).run(
        task_vars={}
    )
    assert result["failed"] and result["changed"] is True and KEY not in repr(result)
    assert "a fetch (without generate) may return it" in result["msg"]


def test_the_install_key_goes_the_same_way(tmp_path):
    dest = tmp_path / "install.key"
    result = scripted_action(vault_agent_install_key, {"dest": str(dest)}, {"changed": False, "install_key": KEY}).run(
        task_vars={}
    )
    assert dest.read_text() == KEY and mode_of(dest) == 0o600 and "install_key" not in result and result["changed"]
    again = scripted_action(vault_agent_install_key, {"dest": str(dest)}, {"changed": False, "install_key": KEY})
    assert again.run(task_vars={})["changed"] is False
    assert again.module_calls == [("credvault.vault.vault_agent_install_key", {"dest": str(dest)})]
    kept = scripted_action(vault_agent_install_key, {}, {"changed": False, "install_key": KEY}).run(task_vars={})
    assert kept == {"changed": False, "install_key": KEY, "_ansible_no_log": True}
