# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every piece a module needs, one test per module and piece, so that a module added without one fails here in
seconds (and not near the end of the integration stage), its message naming the piece and the fix; and a unit test of
every file of plugins/module_utils.

Each piece is read where its truth lives: the module's declaration (tests/modules/<module>.yml, read by
tests/utils/module_facts.py: the shared files written from it are checked by test_module_facts.py, its fault row by
test_fault_coverage.py), whose domain file and entry point must be the ones the module runs; the modes the leak suite
requires of a module (its own ``modes_required`` of no_secret_in_output/summarize_secrets.py, against the tasks of its
playbooks as written); the module's own documentation and the domain contract (plugins/module_utils/_task.py):
``main()`` runs ``VaultModule(...).run(<domain>.converge)`` (``describe`` for a module that extends
``attributes.read_only``), an entry point takes only ``task``, and no other domain function is named like one. A
module that is documentation only (its action plugin runs on the controller) is checked through its action plugin,
which names exactly one entry point.

A file of plugins/module_utils has a unit test when a test file of tests/unit/plugins (not the scenarios and the fault
suite, which run whole modules) imports it; ``WITHOUT_UNIT_TEST`` names the exceptions and why.

tests/utils/new_module.py (``make new-module``) writes every piece, and a unit test stub that fails until it is
replaced; test_new_module.py runs these checks on what it writes. The examples are only checked to exist here (their
equality with tasks/examples.yml: plugins/modules/test_examples.py).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import re

import pytest
import yaml

from ansible_collections.credvault.vault.tests.utils import module_facts

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
COLLECTION = "credvault.vault"
PACKAGE = "ansible_collections.credvault.vault.plugins"
# The domain code a module or action plugin may take its entry point from.
DOMAIN_DIRECTORIES = ("module_utils", "plugin_utils")
ENTRY_POINT = re.compile(r"^(converge|describe)(?:_(\w+))?$")
# The entry points' names before the contract (issue 26): no domain file defines them any more.
OLD_NAMES = ("ensure", "ensure_state", "ensure_password", "ensure_file", "share", "deploy", "configure", "discover")
LEAK_PLAYBOOKS = os.path.join("tests", "integration", "targets", "no_secret_in_output", "playbooks")
UNIT_TESTS = os.path.join("tests", "unit", "plugins")
# Test folders whose tests run whole modules, not the code of one file.
NOT_UNIT_TESTS = ("scenarios", "faults")
# The files of plugins/module_utils no unit test imports, and why.
WITHOUT_UNIT_TEST = {
    os.path.join("plugins", "module_utils", "_membership.py"): "the user-group membership steps _user and "
    "_user_group share (moved out of _user_group to break an import cycle); test_user.py and test_user_group.py "
    "test them through both entry points",
}
# libyaml's loader where PyYAML has it: the leak suite's playbooks are long.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def python_files(root, directory):
    folder = os.path.join(root, directory)
    return sorted(name[:-3] for name in os.listdir(folder) if name.endswith(".py") and not name.startswith("__"))


def version_tuple(text):
    return tuple(int(part) for part in str(text).split("."))


class Repository:
    """The files of one checkout (this one, or a scaffolded copy), each read once."""

    def __init__(self, root):
        self.root = root
        self._trees = {}
        self._documentation = {}

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def read(self, *parts):
        with open(self.path(*parts), encoding="utf-8") as handle:
            return handle.read()

    @functools.cached_property
    def modules(self):
        return [name for name in python_files(self.root, os.path.join("plugins", "modules")) if name[0] != "_"]

    def tree(self, *parts):
        if parts not in self._trees:
            self._trees[parts] = ast.parse(self.read(*parts))
        return self._trees[parts]

    def documentation(self, module):
        if module not in self._documentation:
            self._documentation[module] = next(
                (
                    yaml.safe_load(node.value.value) or {}
                    for node in self.tree("plugins", "modules", module + ".py").body
                    if isinstance(node, ast.Assign)
                    and any(getattr(t, "id", None) == "DOCUMENTATION" for t in node.targets)
                ),
                {},
            )
        return self._documentation[module]

    def fragments(self, module):
        names = self.documentation(module).get("extends_documentation_fragment") or []
        return [names] if isinstance(names, str) else names

    def read_only(self, module):
        """A module that only reads extends ``attributes.read_only`` (every _info module, vault_password_validate,
        vault_host_credentials): its entry point is ``describe``; any other's is ``converge``."""
        return COLLECTION + ".attributes.read_only" in self.fragments(module)

    @functools.cached_property
    def attribute_pieces(self):
        """{fragment name: its attributes} of plugins/doc_fragments/attributes.py (class-level string literals)."""
        pieces = {}
        for node in ast.walk(self.tree("plugins", "doc_fragments", "attributes.py")):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                name = node.targets[0].id
                suffix = "" if name == "DOCUMENTATION" else "." + name.lower()
                pieces[COLLECTION + ".attributes" + suffix] = yaml.safe_load(node.value.value).get("attributes") or {}
        return pieces

    def attributes(self, module):
        """The module's attributes as ansible-doc shows them: those of its fragments, then its own."""
        merged = {}
        for fragment in self.fragments(module):
            merged.update(self.attribute_pieces.get(fragment, {}))
        merged.update(self.documentation(module).get("attributes") or {})
        return merged

    @functools.cached_property
    def entry_points(self):
        """The (domain file, name) every module runs."""
        return {entry_of(self, module) for module in self.modules}

    @functools.cached_property
    def galaxy_version(self):
        return yaml.safe_load(self.read("galaxy.yml"))["version"]

    def declaration(self, module):
        """The module's ``module_facts.Facts``, or what is wrong with its declaration."""
        if not os.path.exists(self.path(module_facts.declaration_path(module))):
            return "no %s" % module_facts.declaration_path(module)
        try:
            return module_facts.read(self.root, module)
        except module_facts.FactsError as error:
            return str(error)

    @functools.cached_property
    def declared_modules(self):
        return module_facts.declared_modules(self.root)

    @functools.cached_property
    def unit_test_imports(self):
        """{test file: the files of plugins/ it imports} of the unit tests (``UNIT_TESTS`` but ``NOT_UNIT_TESTS``)."""
        found = {}
        for folder, directories, names in os.walk(self.path(UNIT_TESTS)):
            directories[:] = sorted(d for d in directories if d not in NOT_UNIT_TESTS)
            for name in sorted(names):
                if name.startswith("test_") and name.endswith(".py"):
                    path = os.path.relpath(os.path.join(folder, name), self.root)
                    found[path] = {source for source, *dummy in imports_of(ast.walk(self.tree(*path.split(os.sep))))}
        return found

    def unit_tests_of(self, path):
        return sorted(test for test, imported in self.unit_test_imports.items() if path in imported)

    @functools.cached_property
    def leak_suite(self):
        """summarize_secrets.py of the leak suite: its ``modes_required(doc)`` says which modes a module must run in."""
        path = self.path(os.path.dirname(LEAK_PLAYBOOKS), "summarize_secrets.py")
        spec = importlib.util.spec_from_file_location("summarize_secrets_of_%d" % id(self), path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    @functools.cached_property
    def leak_modes(self):
        """{module: modes} the leak suite's playbooks run each module in, read from the tasks as written."""
        modes = {}
        for name in sorted(os.listdir(self.path(LEAK_PLAYBOOKS))):
            if name.endswith(".yml"):
                for play in yaml.load(self.read(LEAK_PLAYBOOKS, name), Loader=YAML_LOADER) or []:
                    for section in ("pre_tasks", "tasks", "post_tasks", "handlers"):
                        _task_modes(play.get(section) or [], _keywords(play, {}), modes)
        return modes


def _keywords(item, inherited):
    """The check_mode, diff and ignore_errors an item runs with: its own, else those of its block or play."""
    return {key: item.get(key, inherited.get(key, False)) for key in ("check_mode", "diff", "ignore_errors")}


def _possible(value):
    """The values a keyword may take: a template (``"{{ item }}"``) may be either."""
    return (True, False) if isinstance(value, str) and "{{" in value else (value is True,)


def _task_modes(tasks, inherited, modes):
    for task in tasks:
        keywords = _keywords(task, inherited)
        if "block" in task:
            for section in ("block", "rescue", "always"):
                _task_modes(task.get(section) or [], keywords, modes)
            continue
        for action in (key[len(COLLECTION) + 1 :] for key in task if key.startswith(COLLECTION + ".")):
            for check in _possible(keywords["check_mode"]):
                for diff in _possible(keywords["diff"]):
                    parts = ["check"] * check + ["diff"] * diff
                    mode = "failing" if True in _possible(keywords["ignore_errors"]) else "+".join(parts) or "normal"
                    modes.setdefault(action, set()).add(mode)


def leak_modes_missing(repo, module):
    required = repo.leak_suite.modes_required({"attributes": repo.attributes(module)})
    seen = repo.leak_modes.get(module, set())
    covered = {
        "normal": "normal" in seen,
        "check": any("check" in mode.split("+") for mode in seen),
        "diff": any("diff" in mode.split("+") for mode in seen),
        "failing": "failing" in seen,
    }
    return [mode for mode in required if not covered[mode]]


# The domain contract: which entry point a module runs.


def imports_of(nodes):
    """(domain file, name or None, local name) of each import from plugins/module_utils and plugins/plugin_utils among
    ``nodes``: ``from ...module_utils import _csr`` gives ``(module_utils/_csr.py, None, _csr)``, ``from
    ...module_utils._csr import describe`` gives ``(module_utils/_csr.py, "describe", describe)``."""
    for node in nodes:
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(PACKAGE + "."):
            continue
        parts = node.module[len(PACKAGE) + 1 :].split(".")
        if parts[0] not in DOMAIN_DIRECTORIES:
            continue
        for alias in node.names:
            local = alias.asname or alias.name
            if len(parts) == 1:
                yield os.path.join("plugins", parts[0], alias.name + ".py"), None, local
            else:
                yield os.path.join("plugins", parts[0], parts[1] + ".py"), alias.name, local


def domain_imports(tree):
    """{local name: (domain file, name or None)} of the module-level imports from the domain directories."""
    return {local: (path, name) for path, name, local in imports_of(tree.body)}


def resolve(node, imports):
    """(domain file, function name) of ``_domain.name`` or of an imported ``name``; None for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        source = imports.get(node.value.id)
        if source and source[1] is None:
            return source[0], node.attr
    if isinstance(node, ast.Name) and node.id in imports and imports[node.id][1] is not None:
        return imports[node.id]
    return None


def main_entry(tree):
    """The entry point main() hands to ``VaultModule(...).run``: (domain file, name), or a message saying what
    main() does instead."""
    main = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main"), None)
    imports = domain_imports(tree)
    modules_made = {
        target.id
        for node in ast.walk(main)
        if isinstance(node, ast.Assign) and _is_vault_module(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(main):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run"):
            continue
        made = node.func.value
        if not (_is_vault_module(made) or (isinstance(made, ast.Name) and made.id in modules_made)):
            continue
        argument = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "entry"), None)
        entry = resolve(argument, imports) if argument is not None else None
        if entry is None:
            return (
                "main() runs %s, not a domain entry point" % ast.unparse(argument)
                if argument
                else "main() runs nothing"
            )
        return entry
    return "main() does not call VaultModule(...).run(<domain>.converge or .describe)"


def _is_vault_module(node):
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "VaultModule"


def action_entries(tree):
    """Every domain entry point an action plugin names (``_domain.converge_x`` or an imported ``describe``)."""
    imports = domain_imports(tree)
    found = set()
    for node in ast.walk(tree):
        entry = resolve(node, imports) if isinstance(node, (ast.Attribute, ast.Name)) else None
        if entry and ENTRY_POINT.match(entry[1]):
            found.add(entry)
    return found


def entry_of(repo, module):
    """(domain file, name) of the module's entry point, or a message: main() for a module with code; for a module that
    is documentation only (its action plugin runs on the controller) the one entry point its action plugin names."""
    tree = repo.tree("plugins", "modules", module + ".py")
    if any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
        return main_entry(tree)
    action = os.path.join("plugins", "action", module + ".py")
    if not os.path.exists(repo.path(action)):
        return "no main() and no action plugin %s" % action
    entries = action_entries(repo.tree(*action.split(os.sep)))
    if len(entries) != 1:
        return "its action plugin %s names %s domain entry points (converge*/describe*), not one: %s" % (
            action,
            len(entries),
            sorted("%s.%s" % entry for entry in entries),
        )
    return entries.pop()


def top_level_functions(repo, path):
    return {node.name: node for node in repo.tree(*path.split(os.sep)).body if isinstance(node, ast.FunctionDef)}


def takes_only_task(function):
    arguments = function.args
    plain = [a.arg for a in arguments.posonlyargs + arguments.args]
    return plain == ["task"] and not (arguments.vararg or arguments.kwonlyargs or arguments.kwarg)


def signature(function):
    return "%s(%s)" % (function.name, ast.unparse(function.args))


# The pieces: each returns None when the module has it, else what is missing and how to add it.


def declaration(repo, module):
    """The declaration exists and is valid, and its domain file and entry point are those the module runs."""
    facts = repo.declaration(module)
    if isinstance(facts, str):
        return "%s (make new-module writes it; tests/utils/module_facts.py says the keys)" % facts
    entry = entry_of(repo, module)
    if isinstance(entry, str):
        return None  # the domain entry point piece says what is wrong
    declared = (os.path.join("plugins", *facts.domain.split("/")), facts.entry)
    if declared != entry:
        return "%s declares domain %s, entry %s; the module runs %s.%s" % (
            module_facts.declaration_path(module),
            facts.domain,
            facts.entry,
            entry[0],
            entry[1],
        )
    return None


def integration_target(repo, module):
    target = os.path.join("tests", "integration", "targets", module)
    wanted = ["aliases", os.path.join("tasks", "examples.yml")]
    wanted.append("runme.sh" if os.path.exists(repo.path(target, "runme.sh")) else os.path.join("tasks", "main.yml"))
    missing = [name for name in wanted if not os.path.exists(repo.path(target, name))]
    if missing:
        return "add %s to %s (tasks/examples.yml holds the EXAMPLES task for task)" % (", ".join(missing), target)


def leak_suite_entry(repo, module):
    missing = leak_modes_missing(repo, module)
    if missing:
        return (
            "no_secret_in_output runs it in no %s task: add them to leak_tasks of %s, then run %s (normal; check: "
            "check_mode: true; diff: diff: true; failing: a wrong auth_token with ignore_errors: true and a register)"
            % ("/".join(missing), module_facts.declaration_path(module), module_facts.COMMAND)
        )


def version_added(repo, module):
    added = repo.documentation(module).get("version_added")
    if added is None:
        return "add version_added: %s (galaxy.yml's version) to its DOCUMENTATION" % repo.galaxy_version
    if not re.match(r"^\d+\.\d+\.\d+$", str(added)) or version_tuple(added) > version_tuple(repo.galaxy_version):
        return "version_added %s is not a released or the coming version (galaxy.yml: %s)" % (
            added,
            repo.galaxy_version,
        )


def documentation_fragments(repo, module):
    wanted = [COLLECTION + ".connection", COLLECTION + ".attributes"]
    if module.endswith("_info"):
        wanted += [COLLECTION + ".attributes.read_only", COLLECTION + ".attributes.info_module"]
    missing = [name for name in wanted if name not in repo.fragments(module)]
    if missing:
        return "add %s to extends_documentation_fragment" % ", ".join(missing)


def domain_entry_point(repo, module):
    entry = entry_of(repo, module)
    if isinstance(entry, str):
        return entry
    path, name = entry
    kind = "describe" if repo.read_only(module) else "converge"
    match = ENTRY_POINT.match(name)
    if not match or match.group(1) != kind or (match.group(2) and not module.endswith("_" + match.group(2))):
        return "runs %s.%s; a %s module runs %s(task) (or %s_<end of the module's name>(task))" % (
            path,
            name,
            "read-only" if kind == "describe" else "writing",
            kind,
            kind,
        )
    function = top_level_functions(repo, path).get(name) if os.path.exists(repo.path(path)) else None
    if function is None:
        return "%s defines no function %s" % (path, name)
    if not takes_only_task(function):
        return "%s: %s; an entry point takes the one parameter task" % (path, signature(function))


PIECES = {
    "declaration": declaration,
    "integration target": integration_target,
    "leak-suite entry": leak_suite_entry,
    "version_added": version_added,
    "documentation fragments": documentation_fragments,
    "domain entry point": domain_entry_point,
}


def missing_pieces(repo, module):
    """{piece: what to do} of every piece the module lacks (test_new_module.py checks scaffolded modules with it)."""
    problems = {piece: check(repo, module) for piece, check in PIECES.items()}
    return {piece: problem for piece, problem in problems.items() if problem}


def domain_files(repo):
    return [
        os.path.join("plugins", directory, name + ".py")
        for directory in DOMAIN_DIRECTORIES
        for name in python_files(repo.root, os.path.join("plugins", directory))
    ]


def entry_point_problems(repo, path):
    """What breaks the contract in one domain file: an old entry point name, a converge*/describe* function that does
    not take ``(task)`` or that no module runs."""
    functions = top_level_functions(repo, path)
    problems = [
        "defines %s, a name the contract retired" % signature(functions[name])
        for name in OLD_NAMES
        if name in functions
    ]
    for name, function in sorted(functions.items()):
        if not ENTRY_POINT.match(name):
            continue
        if not takes_only_task(function):
            problems.append("%s: an entry point takes the one parameter task" % signature(function))
        if (path, name) not in repo.entry_points:
            problems.append("%s is run by no module: only entry points are named converge*/describe*" % name)
    return problems


def module_utils_files(repo):
    """The files of plugins/module_utils (the gateway's package _api/ has its own tests: test_api_<section>.py)."""
    return [
        os.path.join("plugins", "module_utils", name + ".py")
        for name in python_files(repo.root, os.path.join("plugins", "module_utils"))
    ]


def unit_test_problem(repo, path):
    """None when a unit test imports the file (or ``WITHOUT_UNIT_TEST`` says why none does), else what to add."""
    if repo.unit_tests_of(path) or path in WITHOUT_UNIT_TEST:
        return None
    stem = os.path.basename(path)[1:-3]
    return (
        "no unit test imports it: add %s (make new-module writes a stub of one), or say in WITHOUT_UNIT_TEST of "
        "tests/unit/test_module_checklist.py why it has none"
        % os.path.join(UNIT_TESTS, "module_utils", "test_%s.py" % stem)
    )


REPOSITORY = Repository(ROOT)


@pytest.mark.parametrize("piece", list(PIECES))
@pytest.mark.parametrize("module", REPOSITORY.modules)
def test_module_has_piece(module, piece):
    problem = PIECES[piece](REPOSITORY, module)
    assert problem is None, "%s: %s: %s" % (module, piece, problem)


@pytest.mark.parametrize("path", domain_files(REPOSITORY))
def test_domain_file_follows_the_entry_point_contract(path):
    problems = entry_point_problems(REPOSITORY, path)
    assert problems == [], "%s: %s" % (path, "; ".join(problems))


def test_no_two_modules_run_one_entry_point():
    runs = {}
    for module in REPOSITORY.modules:
        entry = entry_of(REPOSITORY, module)
        if not isinstance(entry, str):
            runs.setdefault(entry, []).append(module)
    assert {"%s.%s" % entry: modules for entry, modules in runs.items() if len(modules) > 1} == {}


def test_every_declaration_is_of_a_module():
    assert sorted(set(REPOSITORY.declared_modules) - set(REPOSITORY.modules)) == []


@pytest.mark.parametrize("path", module_utils_files(REPOSITORY))
def test_module_utils_file_has_a_unit_test(path):
    problem = unit_test_problem(REPOSITORY, path)
    assert problem is None, "%s: %s" % (path, problem)


@pytest.mark.parametrize("path", sorted(WITHOUT_UNIT_TEST))
def test_a_file_without_a_unit_test_still_exists_and_still_has_none(path):
    assert os.path.exists(REPOSITORY.path(path)), "%s is gone: remove it from WITHOUT_UNIT_TEST" % path
    tests = REPOSITORY.unit_tests_of(path)
    assert tests == [], "%s now has unit tests (%s): remove it from WITHOUT_UNIT_TEST" % (path, ", ".join(tests))


def test_the_checklist_sees_every_module_and_reads_the_modes_as_the_leak_suite_does():
    assert {"vault_resource", "vault_csr_info", "vault_host_credentials"} <= set(REPOSITORY.modules)
    assert {"normal", "failing"} <= REPOSITORY.leak_modes["vault_resource"]
    assert REPOSITORY.leak_suite.modes_required({"attributes": REPOSITORY.attributes("vault_resource")}) == [
        "normal",
        "check",
        "diff",
        "failing",
    ]
    assert REPOSITORY.leak_suite.modes_required({"attributes": REPOSITORY.attributes("vault_csr_info")}) == [
        "normal",
        "check",
        "failing",
    ]
