# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The inventory plugin's EXAMPLES and the configuration of the inventory guide (docs/docsite/rst/guide_inventory.rst)
are the file that the integration target inventory_vault_resources runs, and the graph the guide shows is the one
that target expects."""

from __future__ import annotations

import ast
import os
import re
import textwrap

import yaml

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")
TARGET = os.path.join(ROOT, "tests", "integration", "targets", "inventory_vault_resources")


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as handle:
        return handle.read()


def plugin_examples():
    tree = ast.parse(read("plugins", "inventory", "vault_resources.py"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXAMPLES" for t in node.targets):
            return yaml.safe_load(node.value.value)
    raise AssertionError("vault_resources has no EXAMPLES")


def guide_blocks(language):
    """The guide's ``.. code-block:: <language>`` blocks, unindented."""
    guide = read("docs", "docsite", "rst", "guide_inventory.rst")
    blocks = re.findall(r"^\.\. code-block:: %s\n\n((?:(?: {4}.*)?\n)+)" % language, guide, re.M)
    return [textwrap.dedent(block).strip("\n") + "\n" for block in blocks]


def target_config():
    with open(os.path.join(TARGET, "test.vault_resources.yml"), encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def test_the_examples_are_the_configuration_the_target_runs():
    assert plugin_examples() == target_config()


def test_the_guide_shows_the_configuration_the_target_runs():
    assert yaml.safe_load(guide_blocks("yaml")[0]) == target_config()


def test_the_guide_shows_the_graph_the_target_expects():
    with open(os.path.join(TARGET, "expected_graph.txt"), encoding="utf-8") as handle:
        assert guide_blocks("text")[0] == handle.read()
