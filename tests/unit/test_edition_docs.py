# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every "edition A from build N" the plugins' documentation states is the catalogue's gate.

Plugin documentation is static text, so it cannot be generated from plugins/module_utils/_catalogue.py; these tests
hold it to the catalogue instead. A statement (``edition B from build 6320``, ``edition A from 12230, edition B from
6000``, ``edition A before 12230, edition B before 6000``, ``from build 11300 in edition A and 5300 in edition B``,
``from edition B build 6200``, the catalogue's ``A 12000 / B 5400``) must be the whole gate ({edition: build}) of an
endpoint or input field that the same sentence names (its operation, its path or the field); where the sentence
names none, of one that its paragraph names; where neither does, of one that the plugin's documentation names
somewhere. A statement of the vault at hand (``the vault is edition A build 12450``) says neither "from" nor
"before" and is not a gate. Error messages are built from the catalogue (``gates_text``); the last test keeps
it so.
"""

from __future__ import annotations

import ast
import os
import re

import pytest
import yaml

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE, EDITIONS
from ansible_collections.credvault.vault.tests.unit.doc_sources import (
    DOC_VARIABLES,
    ROOT,
    doc_strings,
    fragment_texts,
    plugin_names,
)

_BUILD = r"(\d{4,5})"
GATE_PARTS = (
    re.compile(r"\bedition ([AB])(?: only,| has,)? (?:from|before)(?: build)? " + _BUILD, re.I),
    re.compile(r"\bfrom edition ([AB]) build " + _BUILD, re.I),
    re.compile(r"\b(?:from build )?" + _BUILD + r" in edition ([AB])\b", re.I),
)
# The spec's Build cell, as the catalogue writes it.
BUILD_CELL = re.compile(r"\bA (\d{4,5}) / B (\d{4,5})\b")
# What may stand between two parts of one statement: "A ..., B ...", "A ... or B ...", "... A and ... B".
JOINER = re.compile(r"^[\s,;]*(?:or|and)?\s*$")
SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")
DOCUMENTED_KINDS = ("modules", "lookup", "inventory")


def _parts(text):
    """``[(start, end, {edition: build})]`` of every gate part in ``text``, in order."""
    found = []
    for pattern in GATE_PARTS:
        for match in pattern.finditer(text):
            first, second = match.groups()
            edition, build = (first, second) if first in EDITIONS else (second, first)
            found.append((match.start(), match.end(), {edition.upper(): int(build)}))
    for match in BUILD_CELL.finditer(text):
        found.append((match.start(), match.end(), {"A": int(match.group(1)), "B": int(match.group(2))}))
    return sorted(found, key=lambda part: part[0])


def statements(text):
    """The gates ``text`` states: runs of parts joined by a comma, "or" or "and", each as {edition: build}."""
    gates = []
    previous_end = None
    for start, end, part in _parts(text):
        if previous_end is not None and JOINER.match(text[previous_end:start]) and not set(part) & set(gates[-1]):
            gates[-1].update(part)
        else:
            gates.append(dict(part))
        previous_end = end
    return gates


def _name_pattern(name):
    return re.compile(r"(?<![\w/])%s(?![\w/{])" % re.escape(name))


# (pattern of a name, the gate it stands for): each endpoint's operations and path, and its input fields.
NAMES = [
    (_name_pattern(name), endpoint.gates)
    for endpoint in CATALOGUE.values()
    for name in {endpoint.operation, endpoint.operation_in_b, endpoint.path} - {None}
] + [(_name_pattern(field), gate) for endpoint in CATALOGUE.values() for field, gate in endpoint.field_gates().items()]


def named_gates(text):
    """The gates of the endpoints and fields ``text`` names."""
    return [gate for pattern, gate in NAMES if pattern.search(text)]


def paragraphs(data):
    """Every string of parsed YAML (descriptions, notes, samples, task names), each one paragraph."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from paragraphs(key)
            yield from paragraphs(value)
    elif isinstance(data, list):
        for item in data:
            yield from paragraphs(item)


def wrong_statements(texts):
    """``[(statement, sentence, the gates it could be)]`` of the statements in ``texts`` (the YAML documentation
    strings of one plugin or fragment) that are not the gate of what their sentence, paragraph or texts name."""
    every = [paragraph for text in texts for paragraph in paragraphs(yaml.safe_load(text))]
    everywhere = named_gates("\n".join(every))
    wrong = []
    for paragraph in every:
        for sentence in SENTENCE_END.split(paragraph):
            candidates = named_gates(sentence) or named_gates(paragraph) or everywhere
            wrong.extend((gate, sentence, candidates) for gate in statements(sentence) if gate not in candidates)
    return wrong


PLUGINS = [(kind, name) for kind in DOCUMENTED_KINDS for name in plugin_names(kind)]


@pytest.mark.parametrize("kind, name", PLUGINS, ids=["%s/%s" % plugin for plugin in PLUGINS])
def test_the_plugins_documentation_states_the_catalogues_gates(kind, name):
    assert wrong_statements(doc_strings(kind, name).values()) == []


@pytest.mark.parametrize("name", plugin_names("doc_fragments"))
def test_the_doc_fragments_state_the_catalogues_gates(name):
    assert wrong_statements(fragment_texts(name).values()) == []


def test_the_documentation_states_gates_at_all():
    """The patterns find the statements: a rewording they miss would leave the tests above checking nothing."""
    texts = [text for kind, name in PLUGINS for text in doc_strings(kind, name).values()]
    found = [gate for text in texts for paragraph in paragraphs(yaml.safe_load(text)) for gate in statements(paragraph)]
    assert len(found) >= 60


@pytest.mark.parametrize(
    "text, gates",
    [
        ("(C(GET_USER(S)), edition B from build 6320)", [{"B": 6320}]),
        ("Edition A from 12230, edition B from 6000. See O(force_settings).", [{"A": 12230, "B": 6000}]),
        ("Needs edition A from build 12100 or edition B from build 5400", [{"A": 12100, "B": 5400}]),
        ("(edition A before 12230, edition B before 6000)", [{"A": 12230, "B": 6000}]),
        ("The vault has this from build 11300 in edition A and 5300 in edition B.", [{"A": 11300, "B": 5300}]),
        ("C(keyExportType) exists from edition B build 6200.", [{"B": 6200}]),
        ("Edition B only, from build 6320", [{"B": 6320}]),
        ("(C(GET_USER(S))), which only edition B has, from build 6320.", [{"B": 6320}]),
        ("(C(GET ASSOCIATED GROUPS), A 12000 / B 5400, one request per resource)", [{"A": 12000, "B": 5400}]),
        ("needs edition B from build 6320; the vault is edition A build 12450", [{"B": 6320}]),
        ("edition A from build 12430 (edition B from build 6000 for the flags)", [{"A": 12430}, {"B": 6000}]),
    ],
)
def test_statements_are_read_whole(text, gates):
    assert statements(text) == gates


def test_a_wrong_gate_is_found():
    wrong = wrong_statements(["description: Lists users (C(GET_USER(S)), edition B from build 6200)."])
    assert [(gate, candidates) for gate, _sentence, candidates in wrong] == [({"B": 6200}, [{"B": 6320}])]


def _string_constants(tree):
    """The string constants of ``tree`` other than docstrings and the documentation variables."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node) is not None:
            skipped.add(id(node.body[0].value))
        if isinstance(node, ast.Assign) and any(
            getattr(target, "id", None) in DOC_VARIABLES for target in node.targets
        ):
            skipped.add(id(node.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node


CODE = sorted(
    os.path.relpath(os.path.join(folder, file), ROOT)
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "plugins"))
    for file in files
    if file.endswith(".py") and file != "_catalogue.py" and "doc_fragments" not in folder
)


@pytest.mark.parametrize("path", CODE)
def test_messages_take_their_gates_from_the_catalogue(path):
    """A message that states a gate builds it with ``gates_text`` from the catalogue; none writes one out."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    written = [node.value for node in _string_constants(tree) if statements(node.value)]
    assert written == []
