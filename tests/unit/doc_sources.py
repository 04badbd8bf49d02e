# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plugins' documentation strings, read from their source without importing them (the tests' plugin loader
would otherwise load them as plugins)."""

from __future__ import annotations

import ast
import glob
import os

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOC_VARIABLES = ("DOCUMENTATION", "EXAMPLES", "RETURN")


def plugin_path(kind, name):
    return os.path.join(ROOT, "plugins", kind, name + ".py")


def plugin_names(kind):
    return sorted(
        os.path.basename(path)[: -len(".py")]
        for path in glob.glob(plugin_path(kind, "*"))
        if not os.path.basename(path).startswith("__")
    )


def _assignments(tree):
    """``{name: string}`` of the string constants assigned at the top of ``tree`` or in its classes."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                found[node.targets[0].id] = node.value.value
    return found


def doc_strings(kind, name):
    """``{variable: text}`` of the plugin's DOCUMENTATION, EXAMPLES and RETURN (those it has)."""
    with open(plugin_path(kind, name), encoding="utf-8") as handle:
        assigned = _assignments(ast.parse(handle.read()))
    return {variable: assigned[variable] for variable in DOC_VARIABLES if variable in assigned}


def module_doc(name, variable="DOCUMENTATION"):
    """The module's DOCUMENTATION or RETURN as YAML data, without its fragments."""
    return yaml.safe_load(doc_strings("modules", name)[variable]) or {}


def fragment_texts(name):
    """``{variable: YAML text}`` of every piece of the doc fragment ``name``."""
    with open(plugin_path("doc_fragments", name), encoding="utf-8") as handle:
        return _assignments(ast.parse(handle.read()))
