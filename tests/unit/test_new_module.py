# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scaffold (tests/utils/new_module.py, ``make new-module``) writes every piece the checklist
(test_module_checklist.py) requires: it runs into a copy of the files it touches and the checklist's own checks
run on the result, so the two cannot drift apart."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from ansible_collections.credvault.vault.tests.unit import test_module_checklist as checklist

ROOT = checklist.ROOT
# What the scaffold reads or edits, and what the checklist reads.
COPIED = [
    "galaxy.yml",
    "README.md",
    "ruff.toml",
    "meta",
    "plugins",
    checklist.RUN_TIMES,
    checklist.FAULT_TEST,
    os.path.dirname(checklist.LEAK_PLAYBOOKS),
    checklist.GUIDE,
]
# Each file the scaffold edits, and the piece the checklist misses without that edit.
EDITS = {
    os.path.join("meta", "runtime.yml"): "action group",
    checklist.RUN_TIMES: "run-time estimate",
    "README.md": "README row",
    os.path.join("docs", "docsite", "rst", "guide_architecture.rst"): "architecture guide row",
    os.path.join(checklist.LEAK_PLAYBOOKS, "modes.yml"): "leak-suite entry",
    checklist.FAULT_TEST: "fault-matrix row",
}
MODULES = [
    # An info module on an endpoint with a path parameter and an edition gate (the remote apps of a resource).
    ("vault_remote_app_info", "get_associated_remote_apps", "plugins/module_utils/_remote_app.py"),
    # A writing module on an endpoint with a query, and one on no endpoint yet.
    ("vault_user_lock", "lock_user", "plugins/module_utils/_user_lock.py"),
    ("vault_widget", None, "plugins/module_utils/_widget.py"),
    # An info module of an existing domain: its describe(task) is appended to the domain file.
    ("vault_agent_key_info", None, "plugins/module_utils/_agent_key.py"),
]


def load_scaffold():
    spec = importlib.util.spec_from_file_location("new_module", os.path.join(ROOT, "tests", "utils", "new_module.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCAFFOLD = load_scaffold()


@pytest.fixture
def checkout(tmp_path):
    for path in COPIED:
        source, copy = os.path.join(ROOT, path), tmp_path / path
        copy.parent.mkdir(parents=True, exist_ok=True)
        if os.path.isdir(source):
            shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, copy)
    return tmp_path


def examples_of(root, module):
    tree = ast.parse((root / "plugins" / "modules" / (module + ".py")).read_text(encoding="utf-8"))
    assignment = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "EXAMPLES")
    return yaml.safe_load(assignment.value.value)


@pytest.mark.parametrize("module, operation, domain", MODULES, ids=[m[0] for m in MODULES])
def test_a_scaffolded_module_has_every_piece_of_the_checklist(checkout, module, operation, domain):
    written, edited = SCAFFOLD.scaffold(str(checkout), module, operation)
    repo = checklist.Repository(str(checkout))

    entry = "describe" if module.endswith("_info") else "converge"
    assert checklist.missing_pieces(repo, module) == {}
    # Of an existing domain file only what the scaffold added is its business.
    problems = checklist.entry_point_problems(repo, domain)
    assert [problem for problem in problems if problem.split(" ")[0].split("(")[0] == entry] == []
    examples = checkout / "tests" / "integration" / "targets" / module / "tasks" / "examples.yml"
    assert yaml.safe_load(examples.read_text(encoding="utf-8")) == examples_of(checkout, module)
    assert os.path.join("plugins", "modules", module + ".py") in written
    assert sorted(EDITS) == sorted(path for path in edited if path != domain)


@pytest.mark.parametrize("path, piece", list(EDITS.items()), ids=list(EDITS.values()))
def test_without_one_of_the_scaffolds_edits_the_checklist_names_that_piece(checkout, path, piece):
    SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    shutil.copy(os.path.join(ROOT, path), checkout / path)

    assert list(checklist.missing_pieces(checklist.Repository(str(checkout)), "vault_remote_app_info")) == [piece]


def test_the_scaffolds_python_passes_ruff(checkout):
    # The venv's ruff (tests/unit/requirements.txt): beside the running Python, whatever the PATH says.
    ruff = os.path.join(os.path.dirname(sys.executable), "ruff")
    written, edited = SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    python = [path for path in written + edited if path.endswith(".py")]
    assert len(python) == 3
    for command in (["format", "--check", "--diff"], ["check"]):
        run = subprocess.run([ruff, *command, *python], cwd=checkout, capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(
    "name, operation, refusal",
    [
        ("vault_resource", None, "plugins/modules/vault_resource.py exists"),
        ("remote_app_info", None, "a module's name is vault_<thing>"),
        ("vault_remote_app_info", "get_remote_apps", "get_remote_apps is not a key of CATALOGUE"),
    ],
)
def test_the_scaffold_refuses_a_name_or_operation_it_cannot_use(checkout, name, operation, refusal):
    before = sorted(str(path) for path in checkout.rglob("*"))
    with pytest.raises(SystemExit, match=refusal):
        SCAFFOLD.scaffold(str(checkout), name, operation)
    assert sorted(str(path) for path in checkout.rglob("*")) == before


def test_a_file_without_its_anchor_leaves_the_checkout_untouched(checkout):
    modes = checkout / checklist.LEAK_PLAYBOOKS / "modes.yml"
    modes.write_text(modes.read_text(encoding="utf-8").replace(SCAFFOLD.LEAK_ANCHOR, ""), encoding="utf-8")
    before = {str(path): path.read_bytes() for path in checkout.rglob("*") if path.is_file()}
    with pytest.raises(SystemExit, match="add the lines by hand"):
        SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    assert {str(path): path.read_bytes() for path in checkout.rglob("*") if path.is_file()} == before
