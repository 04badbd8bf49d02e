# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The vault_ssh_key_export, vault_pgp_key_export and vault_certificate_export action plugins: the key goes to dest on the controller and
never into the result; check mode writes nothing; failures keep the vault's words; bad input fails first."""

from __future__ import annotations

import os
import stat
from unittest import mock

import pytest
from ansible.errors import AnsibleActionFail

from ansible_collections.credvault.vault.plugins.action import (
    vault_certificate_export,
    vault_pgp_key_export,
    vault_ssh_key_export,
)
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_files as files
from ansible_collections.credvault.vault.plugins.plugin_utils import _controller_task
from ansible_collections.credvault.vault.tests.unit.plugins.plugin_utils.test_key_export import (
    KEYS,
    PGP_PRIVATE,
    PGP_PUBLIC,
    PRIVATE_FILE,
    PUBLIC_FILE,
    file_client,
)

CONNECTION = {"url": "https://vault.example:7272", "auth_token": "TOKEN-SECRET-78"}


def run(plugin, args, answers, check_mode=False, diff=False, edition=None, build=None):
    """Run ``plugin``'s ActionModule with ``args`` against a scripted vault; returns (result, client)."""
    task = mock.MagicMock()
    task.args = dict(CONNECTION, **args)
    task.async_val = 0
    task.check_mode = check_mode
    task.diff = diff
    instance = plugin.ActionModule(task, mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), None)
    client = file_client(answers, edition, build)
    client.close = mock.Mock()
    client.insecure = False
    client.failure_message = str
    with mock.patch.object(_controller_task, "client_from_options", return_value=client):
        result = instance.run(task_vars={})
    return result, client


def ssh(dest, **args):
    return dict({"name": "deploy", "dest": str(dest)}, **args)


def test_the_private_key_is_written_0600_and_is_not_in_the_result(tmp_path):
    dest = tmp_path / "deploy"
    result, client = run(vault_ssh_key_export, ssh(dest), {"get_all_ssh_keys": KEYS, "export_ssh_key": PRIVATE_FILE})
    assert dest.read_bytes() == PRIVATE_FILE and stat.S_IMODE(os.stat(dest).st_mode) == 0o600
    assert result["changed"] and result["dest"] == str(dest) and result["size"] == len(PRIVATE_FILE)
    assert "diff" not in result and "b3BlbnNzaC1rZXktdjEAAAAA" not in repr(result)
    assert client.close.called


def test_a_second_run_changes_nothing_and_diff_mode_shows_no_key(tmp_path):
    dest = tmp_path / "deploy.pub"
    answers = {"get_all_ssh_keys": KEYS, "export_ssh_key": PUBLIC_FILE}
    args = ssh(dest, export_type="public", mode="0644")
    run(vault_ssh_key_export, args, answers, edition="B", build=6320)
    result, client = run(vault_ssh_key_export, args, answers, diff=True, edition="B", build=6320)
    assert not result["changed"] and result["diff"]["after"]["mode"] == "0644"
    assert "AAAAC3Nz" not in repr(result)
    assert client.calls[-1][2] == {"keyName": "deploy", "keyExportType": "public"}


def test_check_mode_writes_nothing(tmp_path):
    dest = tmp_path / "deploy"
    result, _client = run(
        vault_ssh_key_export, ssh(dest), {"get_all_ssh_keys": KEYS, "export_ssh_key": PRIVATE_FILE}, check_mode=True
    )
    assert result["changed"] and not dest.exists()


def test_a_refused_public_key_fails_before_sending_and_writes_nothing(tmp_path):
    dest = tmp_path / "deploy.pub"
    answers = {"get_all_ssh_keys": KEYS, "export_ssh_key": PUBLIC_FILE}
    result, client = run(vault_ssh_key_export, ssh(dest, export_type="public"), answers, edition="A", build=12450)
    assert result["failed"] and "field keyExportType needs edition B from build 6200" in result["msg"]
    assert client.calls == [] and not dest.exists()


def test_a_vault_refusal_keeps_its_words(tmp_path):
    refusal = VaultAPIError(
        "GetPGPKey failed: User nobody does not exist",
        operation="GetPGPKey",
        vault_message="User nobody does not exist",
    )
    result, _client = run(
        vault_pgp_key_export, {"user": "nobody", "dest": str(tmp_path / "k.asc")}, {"get_pgp_key": refusal}
    )
    assert result["failed"] and result["vault_message"] == "User nobody does not exist"
    assert "GetPGPKey failed: User nobody does not exist" == result["msg"]


def test_the_pgp_key_is_written_with_the_escaped_identity(tmp_path):
    dest = tmp_path / "jdoe.asc"
    result, client = run(
        vault_pgp_key_export, {"user": "Jane Doe <jdoe@example.com>", "dest": str(dest)}, {"get_pgp_key": PGP_PUBLIC}
    )
    assert result["changed"] and dest.read_bytes() == PGP_PUBLIC
    assert client.calls[0][2] == {"User": "Jane Doe \\<jdoe\\@example\\.com\\>", "keyExportType": "public"}


@pytest.mark.parametrize(
    "args, message",
    [
        ({"name": "deploy"}, "missing required arguments: dest"),
        ({"name": "deploy", "dest": "/nowhere/at/all/key"}, "does not exist on the controller"),
        ({"name": "deploy", "dest": "KEYDIR", "export_type": "both"}, "value of export_type must be one of"),
        ({"name": "deploy", "dest": "KEYDIR/k", "mode": "rw"}, "mode must be an octal mode"),
    ],
)
def test_bad_input_fails_before_any_request(tmp_path, args, message):
    args = {name: value.replace("KEYDIR", str(tmp_path)) for name, value in args.items()}
    with pytest.raises(AnsibleActionFail, match=message):
        run(vault_ssh_key_export, args, {})
    assert "TOKEN-SECRET-78" not in message


PRIVATE_REQUESTS = [
    (vault_ssh_key_export, {"name": "deploy"}),
    (vault_ssh_key_export, {"name": "deploy", "export_type": "private"}),
    (vault_pgp_key_export, {"user": "jdoe", "export_type": "private"}),
    (vault_certificate_export, {"common_name": "www.example.com", "what": "keystore"}),
    (vault_certificate_export, {"common_name": "www.example.com", "format": "KEY"}),
    (vault_certificate_export, {"common_name": "www.example.com", "format": "PKCS"}),
    (vault_certificate_export, {"common_name": "www.example.com", "format": "JKS"}),
]


@pytest.mark.parametrize("mode", ["0644", "0640", "0604", "0610", "0601", "0660", "0777"])
@pytest.mark.parametrize("plugin, args", PRIVATE_REQUESTS, ids=lambda value: getattr(value, "__name__", None))
def test_a_private_key_file_readable_by_group_or_others_is_refused_before_any_request(tmp_path, plugin, args, mode):
    dest = tmp_path / "private"
    expected = "mode %s lets the group or others access dest %s, which holds a private key" % (mode, dest)
    with pytest.raises(AnsibleActionFail) as raised:
        run(plugin, dict(args, dest=str(dest), mode=mode), {})
    assert expected in str(raised.value) and "'0600' or '0400'" in str(raised.value)
    assert not dest.exists()


@pytest.mark.parametrize("mode", ["0600", "0400", "0700", 0o600])
def test_a_private_key_file_for_the_owner_alone_is_written(tmp_path, mode):
    dest = tmp_path / "deploy"
    answers = {"get_all_ssh_keys": KEYS, "export_ssh_key": PRIVATE_FILE}
    result, _client = run(vault_ssh_key_export, ssh(dest, mode=mode), answers)
    assert result["changed"] and dest.read_bytes() == PRIVATE_FILE
    assert stat.S_IMODE(os.stat(dest).st_mode) == (mode if isinstance(mode, int) else int(mode, 8))


def test_public_keys_may_be_readable_by_everyone(tmp_path):
    dest = tmp_path / "jdoe.asc"
    result, _client = run(
        vault_pgp_key_export, {"user": "jdoe", "dest": str(dest), "mode": "0644"}, {"get_pgp_key": PGP_PUBLIC}
    )
    assert result["changed"] and stat.S_IMODE(os.stat(dest).st_mode) == 0o644


class _CertificateFile(files.KeyFileAction):
    """A writer whose task asks for no private key, answered one anyway."""

    ARGUMENT_SPEC = {"name": {"type": "str"}}

    ENTRY = staticmethod(lambda task: files.write_export(task, PGP_PRIVATE))

    def holds_private_key(self, args):
        return False


def test_private_key_armor_in_any_file_is_refused_a_shared_mode_and_not_written(tmp_path):
    dest = tmp_path / "www.example.com.pem"
    with mock.patch.object(vault_ssh_key_export, "ActionModule", _CertificateFile):
        with pytest.raises(AnsibleActionFail, match="mode 0644 lets the group or others access"):
            run(vault_ssh_key_export, {"name": "x", "dest": str(dest), "mode": "0644"}, {})
    assert not dest.exists()


def test_every_key_file_action_says_whether_it_writes_a_private_key():
    plugins = [vault_certificate_export, vault_pgp_key_export, vault_ssh_key_export]
    for plugin in plugins:
        assert plugin.ActionModule.holds_private_key is not files.KeyFileAction.holds_private_key, plugin.__name__
    action_dir = os.path.dirname(vault_ssh_key_export.__file__)
    writers = [
        name[:-3]
        for name in os.listdir(action_dir)
        if name.endswith(".py") and "KeyFileAction" in open(os.path.join(action_dir, name)).read()
    ]
    assert sorted(writers) == sorted(plugin.__name__.rsplit(".", 1)[-1] for plugin in plugins)


@pytest.mark.parametrize(
    "plugin, args, message",
    [
        (vault_pgp_key_export, {"user": "Jane\nDoe"}, "user 'Jane\\nDoe' holds a control character (U+000A)"),
        (vault_ssh_key_export, {"name": "deploy\t"}, "name 'deploy\\t' holds a control character (U+0009)"),
        (vault_certificate_export, {"common_name": "www\r"}, "common_name 'www\\r' holds a control character"),
    ],
)
def test_a_control_character_in_a_name_fails_before_any_request(tmp_path, plugin, args, message):
    result, client = run(plugin, dict(args, dest=str(tmp_path / "file")), {})
    assert result["failed"] and result["msg"].startswith(message)
    assert client.calls == [] and not (tmp_path / "file").exists()
