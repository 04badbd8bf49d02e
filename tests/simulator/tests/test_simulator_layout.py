"""The package's layout rules, read from the source with ``ast``.

- The core imports only the core; its one exception is ``core/app.py``
  importing the package ``vault_simulator.areas``, which registers every area.
- An area imports only the core and its own package, never another area.
- Every record kind is defined once, in ``core/records.py``: no other module
  binds a kind's value to a name or hands the store a kind as a literal.
- Every module says what it holds in a docstring.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "vault_simulator"
CORE, AREAS = "vault_simulator.core", "vault_simulator.areas"
# (importing module, imported module) pairs the rules allow on purpose.
DOCUMENTED_EXCEPTIONS = {("vault_simulator.core.app", AREAS)}
STORE_METHODS = ("get", "put", "delete", "all", "next_id")


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def imports_of(tree):
    """Every module an ``import`` or ``from ... import`` names (at any depth), relative ones as ``.``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")


def area_of(module):
    """``vault_simulator.areas.<area>`` of a module inside an area, else ``None``."""
    parts = module.split(".")
    return ".".join(parts[:3]) if module.startswith(AREAS + ".") else None


def within(module, package):
    return module == package or module.startswith(package + ".")


def allowed(importer, imported):
    if (importer, imported) in DOCUMENTED_EXCEPTIONS or not within(imported, "vault_simulator"):
        return True
    if within(importer, CORE):
        return within(imported, CORE)
    area = area_of(importer)
    if area is not None:
        return within(imported, CORE) or within(imported, area)
    return True  # the package root, __main__ and cli start a vault: they may use anything


def layout_violations(trees):
    """``(importer, imported)`` for every import the rules forbid, relative imports included."""
    return [
        (importer, imported)
        for importer, tree in trees.items()
        for imported in imports_of(tree)
        if imported.startswith(".") or not allowed(importer, imported)
    ]


def record_kinds():
    tree = TREES[f"{CORE}.records"]
    return {
        node.value.value: node.targets[0].id
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
    }


def kind_redefinitions(trees, kinds):
    """``(module, line, kind)`` where a module other than core.records binds a kind's value at
    module level or passes a kind literal to the store (``store.get("user", ...)``)."""
    found = []
    for module, tree in trees.items():
        if module == f"{CORE}.records":
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value in kinds:
                found.append((module, node.lineno, node.value.value))
        for node in ast.walk(tree):
            if (
                _store_call(node)
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value in kinds
            ):
                found.append((module, node.lineno, node.args[0].value))
    return found


def _store_call(node):
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    receiver = node.func.value
    named_store = (isinstance(receiver, ast.Name) and receiver.id == "store") or (
        isinstance(receiver, ast.Attribute) and receiver.attr == "store"
    )
    return named_store and node.func.attr in STORE_METHODS


def test_the_package_has_a_core_and_areas():
    areas = sorted({area_of(module) for module in MODULES if area_of(module)})
    assert len(areas) >= 10
    expected = {f"{CORE}.app", f"{CORE}.registry", f"{CORE}.store", f"{CORE}.records", "vault_simulator.cli"}
    assert expected <= set(MODULES)


def test_the_core_and_the_areas_import_only_what_the_layout_allows():
    assert layout_violations(TREES) == []


@pytest.mark.parametrize(
    "importer, source, expected",
    [
        (
            "vault_simulator.areas.users.endpoints",
            "from vault_simulator.areas.passwords.workflow_records import move",
            [("vault_simulator.areas.users.endpoints", "vault_simulator.areas.passwords.workflow_records")],
        ),
        (
            "vault_simulator.areas.users.endpoints",
            "import vault_simulator.areas.sharing.endpoints",
            [("vault_simulator.areas.users.endpoints", "vault_simulator.areas.sharing.endpoints")],
        ),
        (
            "vault_simulator.areas.users.endpoints",
            "def f():\n    from vault_simulator.areas import sharing",
            [("vault_simulator.areas.users.endpoints", AREAS)],
        ),
        (
            "vault_simulator.core.finders",
            "from vault_simulator.areas.users.endpoints import x",
            [("vault_simulator.core.finders", "vault_simulator.areas.users.endpoints")],
        ),
        ("vault_simulator.core.finders", "import vault_simulator.areas", [("vault_simulator.core.finders", AREAS)]),
        (
            "vault_simulator.areas.users.endpoints",
            "from . import records",
            [("vault_simulator.areas.users.endpoints", ".")],
        ),
        ("vault_simulator.areas.users.endpoints", "from vault_simulator.areas.users.records import x", []),
        ("vault_simulator.areas.users.endpoints", "from vault_simulator.core.records import USER\nimport json", []),
        ("vault_simulator.core.app", "import vault_simulator.areas", []),
        ("vault_simulator.cli", "from vault_simulator.areas.user_groups.records import add_user_group", []),
    ],
)
def test_the_import_rule_catches_what_it_should(importer, source, expected):
    assert layout_violations({importer: ast.parse(source)}) == expected


def test_every_record_kind_is_defined_once():
    kinds = record_kinds()
    assert {"resource", "account", "user", "ssl_certificate", "share"} <= set(kinds)
    assert len(set(kinds.values())) == len(kinds), "two names for one kind"
    assert kind_redefinitions(TREES, kinds) == []


def test_the_kind_rule_catches_a_second_definition_and_a_literal():
    kinds = record_kinds()
    source = 'PGP_KEY = "pgp_key"\n\ndef f(ctx, store):\n    ctx.store.all("user")\n    store.get("csr", 1)\n'
    assert kind_redefinitions({"vault_simulator.areas.x": ast.parse(source)}, kinds) == [
        ("vault_simulator.areas.x", 1, "pgp_key"),
        ("vault_simulator.areas.x", 4, "user"),
        ("vault_simulator.areas.x", 5, "csr"),
    ]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_has_a_docstring(module):
    assert ast.get_docstring(TREES[module]), f"{MODULES[module]} has no module docstring"
