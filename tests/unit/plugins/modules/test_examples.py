# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The EXAMPLES of every module and lookup run as they are: each one is, task for
task, the ``tasks/examples.yml`` of its integration target, which runs them
against the simulator."""

from __future__ import annotations

import ast
import os

import pytest
import yaml

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")
PLUGINS = [
    (kind, name[:-3])
    for kind in ("modules", "lookup")
    for name in sorted(os.listdir(os.path.join(ROOT, "plugins", kind)))
    if name.endswith(".py") and not name.startswith("_")
]

MODULES = {name for kind, name in PLUGINS if kind == "modules"}


def target_of(kind, name):
    """The integration target of a plugin: its name, or ``lookup_<name>`` for a lookup named like a module."""
    return "lookup_%s" % name if kind == "lookup" and name in MODULES else name


def examples_of(kind, name):
    with open(os.path.join(ROOT, "plugins", kind, name + ".py"), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXAMPLES" for t in node.targets):
            return yaml.safe_load(node.value.value)
    raise AssertionError("%s has no EXAMPLES" % name)


@pytest.mark.parametrize("kind, name", PLUGINS, ids=["%s/%s" % plugin for plugin in PLUGINS])
def test_examples_are_the_tasks_the_integration_target_runs(kind, name):
    target = os.path.join(ROOT, "tests", "integration", "targets", target_of(kind, name), "tasks", "examples.yml")
    assert os.path.exists(target), "%s: no %s (`make examples` writes it)" % (name, target)
    with open(target, encoding="utf-8") as handle:
        run = yaml.safe_load(handle)
    assert run == examples_of(kind, name), "%s differs from the EXAMPLES of %s: run `make examples`" % (target, name)


def test_every_plugin_is_checked():
    assert ("modules", "vault_resource") in PLUGINS and ("lookup", "vault_password") in PLUGINS


def test_a_lookup_named_like_a_module_has_its_own_target():
    assert target_of("lookup", "vault_ssh_key") == "lookup_vault_ssh_key"
    assert target_of("modules", "vault_ssh_key") == "vault_ssh_key"
    assert target_of("lookup", "vault_password") == "vault_password"
