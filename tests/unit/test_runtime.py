# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""meta/runtime.yml: the action group ``vault`` (what ``module_defaults: group/credvault.vault.vault``
reaches) names every module of plugins/modules, only those, once each, in sorted order."""

from __future__ import annotations

import os

import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def modules():
    """The module names: the files of plugins/modules that are not private (``_name.py``)."""
    names = os.listdir(os.path.join(ROOT, "plugins", "modules"))
    return sorted(name[:-3] for name in names if name.endswith(".py") and not name.startswith("_"))


def action_group():
    with open(os.path.join(ROOT, "meta", "runtime.yml"), encoding="utf-8") as handle:
        return yaml.safe_load(handle)["action_groups"]["vault"]


def test_every_module_is_in_the_action_group():
    missing = sorted(set(modules()) - set(action_group()))
    assert not missing, "modules missing from action_groups.vault in meta/runtime.yml: %s" % ", ".join(missing)


def test_the_action_group_names_modules_only():
    unknown = sorted(set(action_group()) - set(modules()))
    assert not unknown, "names in action_groups.vault that are not in plugins/modules: %s" % ", ".join(unknown)


def test_the_action_group_is_sorted_without_repeats():
    group = action_group()
    assert group == sorted(set(group))


def test_the_modules_are_found():
    assert "vault_resource" in modules() and "vault_account" in modules()


def plugin_routing():
    with open(os.path.join(ROOT, "meta", "runtime.yml"), encoding="utf-8") as handle:
        return yaml.safe_load(handle).get("plugin_routing") or {}


def test_a_renamed_module_redirects_to_a_module_with_a_deprecation_naming_it():
    for old, route in plugin_routing().get("modules", {}).items():
        new = route["redirect"]
        assert new.startswith("credvault.vault.") and new.split(".")[-1] in modules(), old
        assert route["deprecation"]["removal_version"] == "1.0.0", old
        assert new in route["deprecation"]["warning_text"], old


def test_a_renamed_module_run_by_an_action_plugin_redirects_its_action_plugin_too():
    """ansible-core looks a module's action plugin up by the name the task gives, not the module's redirect: without
    this redirect the old name runs the documentation-only module file on the host."""
    routing = plugin_routing()
    actions = os.listdir(os.path.join(ROOT, "plugins", "action"))
    for old, route in routing.get("modules", {}).items():
        if route["redirect"].split(".")[-1] + ".py" in actions:
            assert routing.get("action", {}).get(old, {}).get("redirect") == route["redirect"], old
