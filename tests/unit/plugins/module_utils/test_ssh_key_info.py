# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What vault_ssh_key_info reads, against a scripted client."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key_info
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry
from ansible_collections.credvault.vault.tests.unit.plugins.module_utils.test_ssh_key import RSA_KEY, key_store


def ssh_key_info(client, options):
    """The values of ``vault_ssh_key_info``, run as the module runs it; a read records nothing."""
    tracker, values = run_entry(_ssh_key_info.describe, client, options)
    assert not tracker.recorded and not tracker.changed
    return values


def test_info_lists_reads_one_and_splits_key_names():
    answers = key_store(RSA_KEY)
    answers["get_ssh_keys_for_user"] = lambda path, details, query: "deploy, backup,"
    answers["get_all_associated_users"] = lambda path, details, query: [{"UserName": "root", "ResourceName": "web"}]
    client = ScriptedClient(answers)
    assert ssh_key_info(client, {}) == {"ssh_keys": [RSA_KEY]}
    assert ssh_key_info(client, {"name": "deploy"}) == {"exists": True, "key": RSA_KEY}
    assert ssh_key_info(client, {"name": "gone"}) == {"exists": False, "key": {}}
    assert ssh_key_info(client, {"user": "root", "resource": "web"}) == {"key_names": ["deploy", "backup"]}
    assert client.calls[-1] == ("get_ssh_keys_for_user", None, {"userName": "root", "resourceName": "web"}, None)
    assert ssh_key_info(client, {"associations": True}) == {
        "associations": [{"UserName": "root", "ResourceName": "web"}]
    }


def test_info_raises_a_refused_read_of_a_listed_key():
    answers = key_store(RSA_KEY)
    answers["get_ssh_key"] = VaultAPIError("not allowed", http_status=200)
    with pytest.raises(VaultAPIError, match="not allowed"):
        ssh_key_info(ScriptedClient(answers), {"name": "deploy"})
