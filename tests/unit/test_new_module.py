# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scaffold (tests/utils/new_module.py, ``make new-module``) writes every piece the checklist
(test_module_checklist.py) requires, and edits no shared file but by writing it from the declarations
(tests/utils/module_facts.py): it runs into a copy of the files it reads and writes, and the checklist's own checks
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
from ansible_collections.credvault.vault.tests.utils import module_facts

ROOT = checklist.ROOT
# The shared files module_facts.py writes.
SHARED = sorted([module_facts.RUNTIME, module_facts.README, module_facts.GUIDE, module_facts.LEAK_MODES])
# What the scaffold reads or writes, and what the checklist reads.
COPIED = [
    "galaxy.yml",
    "ruff.toml",
    "plugins",
    module_facts.DECLARATIONS,
    os.path.dirname(checklist.LEAK_PLAYBOOKS),
] + SHARED
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
    """The copy, where the unit tests import it from: <tmp>/ansible_collections/credvault/vault."""
    root = tmp_path / "ansible_collections" / "credvault" / "vault"
    for path in COPIED:
        source, copy = os.path.join(ROOT, path), root / path
        copy.parent.mkdir(parents=True, exist_ok=True)
        if os.path.isdir(source):
            shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, copy)
    return root


def examples_of(root, module):
    tree = ast.parse((root / "plugins" / "modules" / (module + ".py")).read_text(encoding="utf-8"))
    assignment = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "EXAMPLES")
    return yaml.safe_load(assignment.value.value)


def texts(root, paths):
    return {path: (root / path).read_text(encoding="utf-8") for path in paths}


@pytest.mark.parametrize("module, operation, domain", MODULES, ids=[m[0] for m in MODULES])
def test_a_scaffolded_module_has_every_piece_of_the_checklist(checkout, module, operation, domain):
    existed = (checkout / domain).exists()
    written, appended, generated = SCAFFOLD.scaffold(str(checkout), module, operation)
    repo = checklist.Repository(str(checkout))

    entry = "describe" if module.endswith("_info") else "converge"
    assert checklist.missing_pieces(repo, module) == {}
    assert checklist.unit_test_problem(repo, domain) is None
    # Of an existing domain file only what the scaffold added is its business.
    problems = checklist.entry_point_problems(repo, domain)
    assert [problem for problem in problems if problem.split(" ")[0].split("(")[0] == entry] == []
    examples = checkout / "tests" / "integration" / "targets" / module / "tasks" / "examples.yml"
    assert yaml.safe_load(examples.read_text(encoding="utf-8")) == examples_of(checkout, module)
    assert {os.path.join("plugins", "modules", module + ".py"), module_facts.declaration_path(module)} <= set(written)
    assert appended == ([domain] if existed else [])
    assert generated == SHARED
    assert module_facts.stale(str(checkout)) == []


def test_the_shared_files_are_only_written_from_the_declarations(checkout):
    before = texts(checkout, SHARED)
    SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    scaffolded = texts(checkout, SHARED)
    for path, text in before.items():
        (checkout / path).write_text(text, encoding="utf-8")

    assert module_facts.write(str(checkout)) == SHARED
    assert texts(checkout, SHARED) == scaffolded


def test_a_declaration_that_names_another_entry_point_is_named_by_the_checklist(checkout):
    SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    declaration = checkout / module_facts.declaration_path("vault_remote_app_info")
    declaration.write_text(declaration.read_text(encoding="utf-8").replace("entry: describe", "entry: converge"))

    missing = checklist.missing_pieces(checklist.Repository(str(checkout)), "vault_remote_app_info")
    assert list(missing) == ["declaration"]
    assert "declares domain module_utils/_remote_app.py, entry converge" in missing["declaration"]


def test_the_unit_test_stub_fails_until_it_is_replaced(checkout):
    SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    stub = os.path.join("tests", "unit", "plugins", "module_utils", "test_remote_app_info.py")

    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir", str(checkout), stub],
        cwd=checkout,
        env=dict(os.environ, PYTHONPATH=str(checkout.parents[2])),
        capture_output=True,
        text=True,
        check=False,
    )

    assert run.returncode == 1, run.stdout + run.stderr
    assert "is a stub of make new-module: replace it with unit tests of _remote_app.describe(task)" in run.stdout
    assert "1 failed" in run.stdout


def test_the_scaffolds_python_passes_ruff(checkout):
    # The venv's ruff (tests/unit/requirements.txt): beside the running Python, whatever the PATH says.
    ruff = os.path.join(os.path.dirname(sys.executable), "ruff")
    written, appended, dummy = SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    python = [path for path in written + appended if path.endswith(".py")]
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


def test_a_shared_file_without_its_markers_leaves_the_checkout_untouched(checkout):
    modes = checkout / module_facts.LEAK_MODES
    modes.write_text(modes.read_text(encoding="utf-8").replace("    # END leak tasks\n", ""), encoding="utf-8")
    before = {str(path): path.read_bytes() for path in checkout.rglob("*") if path.is_file()}
    with pytest.raises(SystemExit, match="no line 'END leak tasks'.*; nothing was written"):
        SCAFFOLD.scaffold(str(checkout), "vault_remote_app_info", "get_associated_remote_apps")
    assert {str(path): path.read_bytes() for path in checkout.rglob("*") if path.is_file()} == before
