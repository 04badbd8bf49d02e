# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The entry points of the modules that export a file of the vault to the controller: ``converge(task)`` writes
``dest`` (``write_export``), records the file's state, checksum and mode in the task's tracker, honours check mode
and returns the values the modules document."""

from __future__ import annotations

import hashlib
import os
import stat

from ansible_collections.credvault.vault.plugins.plugin_utils import _certificate_export as certificates
from ansible_collections.credvault.vault.plugins.plugin_utils import _pgp_key_export as pgp
from ansible_collections.credvault.vault.plugins.plugin_utils import _ssh_key_export as ssh
from ansible_collections.credvault.vault.tests.unit.fakes import run_entry
from ansible_collections.credvault.vault.tests.unit.plugins.module_utils.test_certificate import listed, scripted_client
from ansible_collections.credvault.vault.tests.unit.plugins.plugin_utils.test_key_export import (
    KEYS,
    PGP_PUBLIC,
    PRIVATE_FILE,
    file_client,
)


def ssh_desired(dest, mode=0o600):
    return {"name": "deploy", "export_type": "private", "dest": str(dest), "mode": mode}


def ssh_client():
    return file_client({"get_all_ssh_keys": KEYS, "export_ssh_key": PRIVATE_FILE})


def test_a_new_file_is_written_and_its_state_checksum_and_mode_recorded(tmp_path):
    dest = tmp_path / "deploy"
    tracker, values = run_entry(ssh.converge, ssh_client(), ssh_desired(dest))
    checksum = hashlib.sha256(PRIVATE_FILE).hexdigest()
    assert values == {"dest": str(dest), "checksum": checksum, "size": len(PRIVATE_FILE)}
    assert dest.read_bytes() == PRIVATE_FILE and stat.S_IMODE(os.stat(dest).st_mode) == 0o600
    assert tracker.changed
    assert tracker.diff()["before"]["state"] == "absent"
    assert tracker.diff()["after"] == {"state": "file", "checksum": checksum, "mode": "0600"}


def test_the_same_file_changes_nothing_and_a_mode_alone_is_corrected(tmp_path):
    dest = tmp_path / "deploy"
    run_entry(ssh.converge, ssh_client(), ssh_desired(dest))
    tracker, dummy = run_entry(ssh.converge, ssh_client(), ssh_desired(dest))
    assert not tracker.changed and tracker.diff()["before"] == tracker.diff()["after"]
    tracker, dummy = run_entry(ssh.converge, ssh_client(), ssh_desired(dest, mode=0o400))
    assert tracker.changed_names == ["mode"] and stat.S_IMODE(os.stat(dest).st_mode) == 0o400


def test_check_mode_records_the_change_and_writes_nothing(tmp_path):
    dest = tmp_path / "deploy"
    tracker, values = run_entry(ssh.converge, ssh_client(), ssh_desired(dest), check_mode=True)
    assert tracker.changed and values["size"] == len(PRIVATE_FILE) and not dest.exists()


def test_the_pgp_key_file_is_written(tmp_path):
    dest = tmp_path / "jdoe.asc"
    desired = {"user": "jdoe", "export_type": "public", "dest": str(dest), "mode": 0o644}
    tracker, values = run_entry(pgp.converge, file_client({"get_pgp_key": PGP_PUBLIC}), desired)
    assert tracker.changed and dest.read_bytes() == PGP_PUBLIC and values["size"] == len(PGP_PUBLIC)


def test_the_certificate_export_returns_the_certificate_and_the_passphrase_only_when_asked(tmp_path):
    dest = tmp_path / "www.p12"
    desired = {"common_name": "www.example.com", "what": "keystore", "dest": str(dest), "mode": 0o600}
    tracker, values = run_entry(certificates.converge, scripted_client(listed()), desired)
    assert tracker.changed and dest.read_bytes() == b"\x30\x82"
    assert values["certificate"]["serialNumber"] == "8f2b" and "passphrase" not in values
    tracker, values = run_entry(certificates.converge, scripted_client(listed()), dict(desired, return_passphrase=True))
    assert values["passphrase"] == "Secret-phr4se"
