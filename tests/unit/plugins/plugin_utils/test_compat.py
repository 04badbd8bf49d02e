# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""plugin_utils._compat: a missing required option is recognised on every ansible-core version (the real class from
2.18, the message of a plain AnsibleError before), an option error never quotes the value, the in-memory cache is
recognised, and a loop's result is censored as a whole before 2.19 only."""

from __future__ import annotations

from unittest import mock

import pytest
from ansible.errors import AnsibleError, AnsibleLookupError, AnsibleOptionsError

from ansible_collections.credvault.vault.plugins.plugin_utils import _compat

# What ansible-core 2.16 and 2.17 raise (ansible/config/manager.py).
BEFORE_2_18 = AnsibleError(
    "No setting was provided for required configuration plugin_type: lookup plugin: credvault.vault.vault_password "
    "setting: url "
)
# What ansible-core 2.16 to 2.18 raise for a value of the wrong type, and what remains of it.
INVALID_TYPE_BEFORE_2_19 = (
    "Invalid type for configuration option plugin_type: lookup plugin: credvault.vault.vault_password setting: "
    "auth_token (from Direct)"
)


def test_the_class_is_there_from_2_18_only():
    assert (_compat.AnsibleRequiredOptionError is None) == (_compat.CORE < (2, 18))


def test_what_this_version_raises_for_a_missing_required_option_is_recognised(lookup_plugin, monkeypatch):
    for name in ("CREDVAULT_URL", "CREDVAULT_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    plugin = lookup_plugin("vault_password")
    with pytest.raises(AnsibleError) as caught:
        plugin.set_options(var_options={}, direct={})
    assert _compat.is_missing_required_option(caught.value)


def test_without_the_class_the_message_of_a_plain_ansible_error_says_it(monkeypatch):
    monkeypatch.setattr(_compat, "AnsibleRequiredOptionError", None)
    assert _compat.is_missing_required_option(BEFORE_2_18)
    assert not _compat.is_missing_required_option(AnsibleError("Invalid type for configuration option url"))
    assert not _compat.is_missing_required_option(AnsibleOptionsError(BEFORE_2_18.args[0]))
    assert not _compat.is_missing_required_option(AnsibleLookupError(BEFORE_2_18.args[0]))


def test_with_the_class_only_the_class_says_it(monkeypatch):
    class RequiredOptionError(AnsibleOptionsError):
        pass

    monkeypatch.setattr(_compat, "AnsibleRequiredOptionError", RequiredOptionError)
    assert _compat.is_missing_required_option(RequiredOptionError("Required config url not provided."))
    assert not _compat.is_missing_required_option(BEFORE_2_18)
    assert not _compat.is_missing_required_option(AnsibleOptionsError("Invalid type for configuration option url"))


@pytest.mark.parametrize(
    "cause",
    [
        "Invalid type provided for \"string\": ['TOKEN-SECRET-5']",
        "could not convert string to float: 'TOKEN-SECRET-5'",
        "Invalid type provided for \"string\": {'a): b': 'TOKEN-SECRET-5'}",
    ],
)
def test_before_2_19_an_invalid_type_is_named_without_the_value(monkeypatch, cause):
    monkeypatch.setattr(_compat, "CORE", (2, 18))
    error = AnsibleOptionsError("%s: %s" % (INVALID_TYPE_BEFORE_2_19, cause))
    assert _compat.option_error_message(error) == INVALID_TYPE_BEFORE_2_19


def test_other_option_errors_keep_their_message(monkeypatch):
    choice = (
        'Invalid value "C" for configuration option "plugin_type: lookup setting: edition ", valid values are: A, B'
    )
    for core in ((2, 16), (2, 19)):
        monkeypatch.setattr(_compat, "CORE", core)
        assert _compat.option_error_message(AnsibleOptionsError(choice)) == choice
    from_2_19 = (
        "Config 'auth_token' for 'credvault.vault.vault_password' lookup plugin from 'Direct' has an invalid value."
    )
    assert _compat.option_error_message(AnsibleOptionsError(from_2_19)) == from_2_19


def test_the_memory_cache_plugin_keeps_its_data_in_the_process():
    from ansible.plugins.cache.memory import CacheModule

    assert _compat.keeps_data_in_process(CacheModule())


def test_another_cache_plugin_does_not_unless_it_says_so():
    assert not _compat.keeps_data_in_process(mock.Mock(spec=[]))  # as every cache plugin before 2.19
    assert not _compat.keeps_data_in_process(mock.Mock(spec=["_persistent"], _persistent=True))
    assert _compat.keeps_data_in_process(mock.Mock(spec=["_persistent"], _persistent=False))


@pytest.mark.parametrize("core, censored", [((2, 16), True), ((2, 18), True), ((2, 19), False), ((2, 22), False)])
def test_the_task_is_marked_no_log_before_2_19(monkeypatch, core, censored):
    monkeypatch.setattr(_compat, "CORE", core)
    task = mock.Mock(no_log=False)
    _compat.censor_whole_loop_result(task)
    assert task.no_log is censored


def test_only_non_blank_strings_are_registered(registered):
    _compat.register_secrets(["Pw-1!", "", "  \n", None, 123456, ["nested"], "Token-2"])
    assert registered == ["Pw-1!", "Token-2"]


def test_before_2_22_registering_does_nothing_and_never_fails(monkeypatch):
    monkeypatch.setattr(_compat, "_register_secrets", None)
    assert _compat.register_secrets(["Pw-1!"]) is None


def test_the_secrets_api_is_there_from_2_22_and_masks_what_is_registered():
    if _compat.CORE < (2, 22):
        assert _compat._register_secrets is None
        return
    from ansible.module_utils.secrets import mask_secrets

    _compat.register_secrets(["Unit-Secret-Registered-7731"])
    assert mask_secrets("before Unit-Secret-Registered-7731 after") == "before $REDACTED$ after"


@pytest.mark.parametrize("core", [(2, 16), (2, 18)])
def test_before_2_19_the_warnings_go_into_the_result_as_strings(monkeypatch, core):
    monkeypatch.setattr(_compat, "CORE", core)
    displayed = []
    monkeypatch.setattr(_compat.display, "warning", displayed.append)
    result = {"warnings": ["the module's"]}
    _compat.add_warnings(result, ["the action's"])
    assert result["warnings"] == ["the module's", "the action's"] and displayed == []


@pytest.mark.parametrize("core", [(2, 19), (2, 22)])
def test_from_2_19_no_string_goes_into_the_result_and_display_warns(monkeypatch, core):
    monkeypatch.setattr(_compat, "CORE", core)
    displayed = []
    monkeypatch.setattr(_compat.display, "warning", displayed.append)
    result = {}
    _compat.add_warnings(result, ["one", "two"])
    assert "warnings" not in result and displayed == ["one", "two"]


def test_no_warning_adds_nothing(monkeypatch):
    monkeypatch.setattr(_compat, "CORE", (2, 16))
    result = {}
    _compat.add_warnings(result, [])
    assert result == {}
