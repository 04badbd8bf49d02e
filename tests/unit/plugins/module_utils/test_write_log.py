# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The writes of a client (``_write_log``): what a task that fails after writing says it wrote."""

from __future__ import annotations

import threading

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.module_utils._write_log import WriteLog


def test_a_write_is_described_by_its_operation_names_and_outcome():
    log = WriteLog()
    log.note_write("CreateSSHKey", ["keyName web-deploy"])
    log.note_write("EDIT ACCOUNT", ["resource_id 7", "account_id 9"], "its answer was lost: it may have been applied")
    log.note_write("DELETE RESOURCE")
    assert log.wrote and log.written == [
        "CreateSSHKey (keyName web-deploy)",
        "EDIT ACCOUNT (resource_id 7; account_id 9; its answer was lost: it may have been applied)",
        "DELETE RESOURCE",
    ]


def test_a_write_that_may_have_been_applied_counts_before_it_is_described():
    log = WriteLog()
    log.note_write()
    assert log.wrote and log.written == []
    assert log.writes_note(VaultAPIError("later failure")) == ""


def test_the_note_names_the_writes_unless_the_error_names_its_own():
    log = WriteLog()
    assert log.writes_note(VaultAPIError("failure")) == ""
    log.note_write("ADD ACCOUNTS", ["resource_id 3"])
    log.note_write("DELETE ACCOUNTS")
    assert log.writes_note(VaultAPIError("failure")) == (
        ". This task had already written to the vault: ADD ACCOUNTS (resource_id 3), DELETE ACCOUNTS"
    )
    assert log.writes_note(VaultAPIError("failure").restated("ADD ACCOUNTS wrote to resource 3, then failed")) == ""


def test_threads_note_every_write():
    log = WriteLog()
    threads = [threading.Thread(target=lambda: [log.note_write("OP") for dummy in range(200)]) for dummy in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert log.written == ["OP"] * 1600
