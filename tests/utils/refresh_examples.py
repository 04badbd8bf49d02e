"""Write each plugin's EXAMPLES to the tasks/examples.yml of its integration target (`make examples`).

The integration targets run the documented examples as they are; tests/unit/plugins/modules/test_examples.py fails
when a file and its plugin's EXAMPLES differ. A lookup named like a module has the target ``lookup_<name>``.

Usage: refresh_examples.py [--check] [NAME ...]   (default: every module and lookup of plugins/; --check only lists
the files that differ and exits 1 if any does)
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = "---\n# The EXAMPLES of the plugin's documentation, verbatim: written by `make examples`, checked by\n# tests/unit/plugins/modules/test_examples.py.\n"


def plugins():
    """(kind, name) of every module and lookup."""
    return [
        (kind, path.stem)
        for kind in ("modules", "lookup")
        for path in sorted((ROOT / "plugins" / kind).glob("*.py"))
        if not path.name.startswith("_")
    ]


def examples_file(kind, name):
    target = f"lookup_{name}" if kind == "lookup" and (ROOT / "plugins/modules" / f"{name}.py").exists() else name
    return ROOT / "tests/integration/targets" / target / "tasks/examples.yml"


def examples_of(kind, name):
    tree = ast.parse((ROOT / "plugins" / kind / f"{name}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "EXAMPLES" for target in node.targets):
            return node.value.value
    raise SystemExit(f"{kind}/{name} has no EXAMPLES")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list the files that differ, write nothing")
    parser.add_argument("names", nargs="*", help="plugin names (default: all)")
    args = parser.parse_args()
    stale = []
    for kind, name in plugins():
        if args.names and name not in args.names:
            continue
        path = examples_file(kind, name)
        text = HEADER + examples_of(kind, name).lstrip("\n")
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'differs' if args.check else 'written'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
