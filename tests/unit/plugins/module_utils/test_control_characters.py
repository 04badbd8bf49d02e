# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A control character in any name, id or other text option of any module is refused before anything is sent
(``_checks.check_control_characters``, run by ``VaultModule.run`` and the key file actions)."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import pytest
import requests

from ansible_collections.credvault.vault.plugins import modules
from ansible_collections.credvault.vault.plugins.module_utils._checks import FREE_TEXT, check_control_characters
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError
from ansible_collections.credvault.vault.tests.unit.core_compat import set_module_args

MODULES = {
    info.name: importlib.import_module("%s.%s" % (modules.__name__, info.name))
    for info in pkgutil.iter_modules(modules.__path__)
}
CONNECTION = {"url": "https://vault.example", "auth_token": "TOKEN-SECRET-9", "retries": 0}


def _checked_options(spec, prefix=""):
    """``(path, params)`` for every text option the check covers: ``params`` hold a line break there alone."""
    found = []
    for option, entry in spec.items():
        if entry.get("no_log") or option in FREE_TEXT:
            continue
        kind, path = entry.get("type", "str"), prefix + option
        if kind == "str":
            found.append((path, {option: "bad\nname"}))
        elif kind == "list" and entry.get("elements", "str") == "str":
            found.append((path + " entry", {option: ["fine", "bad\nname"]}))
        elif entry.get("options"):
            for inner, params in _checked_options(entry["options"], path + "."):
                found.append((inner, {option: [params] if kind == "list" else params}))
    return found


CASES = [
    pytest.param(module.argument_spec(), path, params, id="%s-%s" % (name, path))
    for name, module in sorted(MODULES.items())
    if hasattr(module, "argument_spec")
    for path, params in _checked_options(module.argument_spec())
]


def test_the_cases_cover_the_names_of_the_issue():
    covered = {case.id for case in CASES}
    for case in (
        "vault_user-name",
        "vault_user-groups entry",
        "vault_user_group-members entry",
        "vault_resource-name",
        "vault_account-resource",
        "vault_share-accounts.account",
        "vault_ssh_key_association-associations.key",
        "vault_certificate_group-certificates.common_name",
        "vault_remote_password_reset-login_account",
        "vault_ssh_key_info-user",
    ):
        assert case in covered


@pytest.mark.parametrize("spec, path, params", CASES)
def test_every_text_option_of_every_module_refuses_a_control_character(spec, path, params):
    with pytest.raises(VaultInputError) as raised:
        check_control_characters(spec, params)
    assert str(raised.value).startswith("%s 'bad\\nname' holds a control character (U+000A)" % path)


def test_free_text_and_secrets_may_hold_line_breaks():
    spec = {
        "description": {"type": "str"},
        "password": {"type": "str", "no_log": True},
        "custom_fields": {"type": "dict"},
        "dest": {"type": "path"},
    }
    params = {"description": "two\nlines", "password": "p\tw", "custom_fields": {"Note": "a\nb"}, "dest": "/tmp/x"}
    check_control_characters(spec, params)


def test_every_module_runs_the_check():
    """Every module that makes a VaultModule finishes through ``run``, where the check is made."""
    for name, module in MODULES.items():
        source = Path(module.__file__).read_text()
        if "VaultModule(" in source:
            assert ".run(" in source, name


@pytest.mark.parametrize(
    "name, args",
    [
        ("vault_user", {"name": "robot\n1", "role": "Password User"}),
        ("vault_resource", {"name": "web\r01", "type": "Linux"}),
        ("vault_account", {"resource": "web01", "name": "root\x00"}),
        ("vault_user_group", {"name": "ops", "members": ["alice", "bob\u2028"]}),
    ],
)
def test_a_task_with_a_control_character_fails_before_any_request(monkeypatch, capsys, name, args):
    # AnsibleModule logs its arguments to syslog before the module's own checks run; from Python 3.12 syslog refuses
    # a NUL, and ansible-core then fails the task there ("Failed to log to syslog", before any request too). The
    # module's check is what is tested here: syslog is off, as the controller turns it off for no_target_syslog.
    set_module_args(monkeypatch, dict(CONNECTION, _ansible_no_log=True, **args))

    def no_request(*dummy_args, **dummy_kwargs):
        raise AssertionError("a request was sent")

    monkeypatch.setattr(requests.Session, "request", no_request)
    with pytest.raises(SystemExit):
        MODULES[name].main()
    result = json.loads(capsys.readouterr().out)
    assert result["failed"] and "holds a control character" in result["msg"]
    assert result["changed"] is False
