#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Each module's facts, declared once in tests/modules/<module>.yml, and the shared files written from them.

Usage::

    module_facts.py [--check] [--root DIR]

Writes the parts of the shared files that list the modules (``--check`` writes nothing, lists the files that differ
and exits 1; tests/unit/test_module_facts.py fails the same way), so that adding a module edits no shared list:

* meta/runtime.yml: the action group ``vault`` (every declared module), between ``# BEGIN action group`` and
  ``# END action group``;
* README.md: the module rows of the plugin table (the one run of lines ``| `credvault.vault.<module>` | module |``;
  a Markdown table cannot hold a marker);
* docs/docsite/rst/guide_architecture.rst: the table of modules, between ``.. BEGIN module table`` and
  ``.. END module table``;
* the leak suite's playbooks/modes.yml: the declared ``leak_tasks``, between ``# BEGIN leak tasks`` and
  ``# END leak tasks``, and the runs the suite asserts were refused, between ``# BEGIN refused runs`` and
  ``# END refused runs``.

The rows come sorted by module name. Two facts are read where they are used instead, so nothing can drift:
``run_time`` by tests/utils/parallel_integration.py, ``fault`` by tests/unit/plugins/faults/test_fault_coverage.py.

A declaration's keys:

``readme``
    what the module does: the third cell of its README row.
``domain``, ``entry``
    its domain file under plugins/ and the entry point main() runs there (``module_utils/_user.py``, ``describe``):
    the architecture guide's row; tests/unit/test_module_checklist.py checks them against the module's code.
``shape``
    the guide's "Shape" cell (reStructuredText; a line break continues the cell on the next line).
``run_time``
    the seconds its integration target takes on a 2-core machine (parallel_integration.py splits the jobs by it;
    ``--write-estimates`` rewrites it).
``fault``
    its row of the fault suite (test_fault_coverage.py's ``declared_row`` says the keys).
``leak_tasks`` (optional)
    its tasks in modes.yml, as the text of a YAML task list: normal, check mode (with diff for a writing module) and
    failing, with ``auth_token: "{{ wrong_token }}"``, ``ignore_errors: true`` and a ``register`` the suite asserts
    was refused. None when the suite's other tasks already run the module in every mode it needs.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import NamedTuple

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DECLARATIONS = os.path.join("tests", "modules")
RUNTIME = os.path.join("meta", "runtime.yml")
README = "README.md"
GUIDE = os.path.join("docs", "docsite", "rst", "guide_architecture.rst")
LEAK_MODES = os.path.join("tests", "integration", "targets", "no_secret_in_output", "playbooks", "modes.yml")
COMMAND = ".venv/bin/python tests/utils/module_facts.py"
# The keys of a declaration and the type of each value.
KEYS = {"readme": str, "domain": str, "entry": str, "shape": str, "run_time": int, "fault": dict, "leak_tasks": str}
OPTIONAL = ("leak_tasks",)
# The first lines of a declaration that ``dump`` writes.
DECLARATION_HEADER = (
    "---\n# The facts of %s the shared files are written from (tests/utils/module_facts.py says the keys).\n"
)
# Where ``dump`` folds a long value (YAML reads the lines back as one, joined by spaces).
LINE_WIDTH = 118
README_ROW = re.compile(r"^\| `credvault\.vault\.(\w+)` \| module \|")
RUN_TIME_LINE = re.compile(r"^run_time: *\d+ *$", re.M)
GUIDE_HEADER = """
.. list-table::
   :header-rows: 1
   :widths: 24 30 10 36

   * - Module
     - Domain file (under ``plugins/``)
     - Entry point
     - Shape
"""


class FactsError(Exception):
    """A declaration that cannot be read, or a shared file whose generated part cannot be found."""


class Facts(NamedTuple):
    """One module's declaration (the keys of ``KEYS``)."""

    module: str
    readme: str
    domain: str
    entry: str
    shape: str
    run_time: int
    fault: dict
    leak_tasks: str = ""

    @property
    def refused(self):
        """The registers of its failing leak tasks (``ignore_errors: true``), which the suite asserts were refused."""
        return [task["register"] for task in leak_task_list(self) if task.get("ignore_errors") is True]


def declaration_path(module):
    return os.path.join(DECLARATIONS, module + ".yml")


def leak_task_list(facts):
    return (yaml.safe_load(facts.leak_tasks) if facts.leak_tasks else None) or []


def declaration_problems(values):
    """What is wrong with the mapping a declaration holds: missing, unknown or mistyped keys, and failing leak tasks
    without a ``register``."""
    if not isinstance(values, dict):
        return ["it holds no mapping of the keys %s" % ", ".join(KEYS)]
    problems = ["no key %s" % key for key in KEYS if key not in values and key not in OPTIONAL]
    problems += ["unknown key %s (the keys: %s)" % (key, ", ".join(KEYS)) for key in values if key not in KEYS]
    problems += [
        "%s is not of type %s" % (key, KEYS[key].__name__)
        for key, value in values.items()
        if key in KEYS and (not isinstance(value, KEYS[key]) or isinstance(value, bool))
    ]
    if isinstance(values.get("leak_tasks"), str):
        problems += leak_task_problems(values["leak_tasks"])
    return problems


def leak_task_problems(text):
    try:
        tasks = yaml.safe_load(text)
    except yaml.YAMLError as error:
        return ["leak_tasks is no YAML: %s" % error]
    if not isinstance(tasks, list) or not all(isinstance(task, dict) for task in tasks):
        return ["leak_tasks is not a list of tasks"]
    return [
        "the failing leak task %r has no register (the suite asserts it was refused)" % task.get("name")
        for task in tasks
        if task.get("ignore_errors") is True and not task.get("register")
    ]


def parse(module, text):
    """The ``Facts`` of the declaration ``text`` of ``module``; FactsError names what is wrong."""
    try:
        values = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise FactsError("%s: not YAML: %s" % (declaration_path(module), error)) from error
    problems = declaration_problems(values)
    if problems:
        raise FactsError("%s: %s" % (declaration_path(module), "; ".join(problems)))
    return Facts(module=module, **values)


def read_text(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as handle:
        return handle.read()


def read(root, module):
    return parse(module, read_text(root, declaration_path(module)))


def declared_modules(root):
    folder = os.path.join(root, DECLARATIONS)
    return sorted(name[: -len(".yml")] for name in os.listdir(folder) if name.endswith(".yml"))


def load(root):
    """Every declaration, sorted by module name."""
    return [read(root, module) for module in declared_modules(root)]


class _Dumper(yaml.SafeDumper):
    """Sequences indented under their key, and double quotes where a string needs quotes."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)

    def choose_scalar_style(self):
        style = super().choose_scalar_style()
        return '"' if style == "'" else style


def _dump_value(key, value):
    if isinstance(value, str) and "\n" in value:
        return "%s: |-\n%s" % (key, "".join("  %s\n" % line for line in value.split("\n")))
    return yaml.dump({key: value}, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=LINE_WIDTH)


def dump(facts):
    """The text of the declaration of ``facts`` (``leak_tasks`` as a literal block, as written)."""
    text = DECLARATION_HEADER % facts.module
    text += "".join(_dump_value(key, getattr(facts, key)) for key in KEYS if key != "leak_tasks")
    if facts.leak_tasks:
        lines = facts.leak_tasks.strip("\n").split("\n")
        text += "leak_tasks: |\n" + "".join(("  " + line if line.strip() else "") + "\n" for line in lines)
    return text


# The generated parts.


def action_group(facts):
    return "".join("    - %s\n" % item.module for item in facts)


def readme_rows(facts):
    return "".join("| `credvault.vault.%s` | module | %s |\n" % (item.module, item.readme) for item in facts)


def guide_table(facts):
    """The list-table of modules, with a blank line before and after (reStructuredText wants them around it)."""
    rows = "".join(
        "   * - ``%s``\n     - ``%s``\n     - ``%s``\n     - %s\n"
        % (item.module, item.domain, item.entry, item.shape.rstrip("\n").replace("\n", "\n       "))
        for item in facts
    )
    return GUIDE_HEADER + rows + "\n"


def leak_tasks(facts):
    """Each declared module's tasks, indented as the play's tasks, under a comment naming its declaration."""
    return "".join(
        "    # %s (%s)\n%s\n" % (item.module, declaration_path(item.module), indented(item.leak_tasks.strip("\n")))
        for item in facts
        if item.leak_tasks
    )


def indented(text):
    return "".join(("    " + line if line else line) + "\n" for line in text.split("\n"))


def refused_runs(facts):
    return "".join('        - "{{ %s }}"\n' % register for item in facts for register in item.refused)


# Each marked region: (file, name between BEGIN and END, its text).
REGIONS = [
    (RUNTIME, "action group", action_group),
    (GUIDE, "module table", guide_table),
    (LEAK_MODES, "leak tasks", leak_tasks),
    (LEAK_MODES, "refused runs", refused_runs),
]


def marker_line(lines, path, word, name):
    pattern = re.compile(r"^\s*(#|\.\.) %s %s\b" % (word, name))
    found = [number for number, line in enumerate(lines) if pattern.match(line)]
    if len(found) != 1:
        raise FactsError(
            "%s: %s line '%s %s' (a comment) marking what %s writes"
            % (path, "no" if not found else "more than one", word, name, COMMAND)
        )
    return found[0]


def replace_region(text, path, name, body):
    """``text`` with the lines between its BEGIN ``name`` and END ``name`` comment lines replaced by ``body``."""
    lines = text.splitlines(keepends=True)
    begin, end = marker_line(lines, path, "BEGIN", name), marker_line(lines, path, "END", name)
    if end < begin:
        raise FactsError("%s: END %s comes before BEGIN %s" % (path, name, name))
    return "".join(lines[: begin + 1]) + body + "".join(lines[end:])


def replace_readme_rows(text, body):
    lines = text.splitlines(keepends=True)
    rows = [number for number, line in enumerate(lines) if README_ROW.match(line)]
    if not rows or rows != list(range(rows[0], rows[-1] + 1)):
        raise FactsError(
            "%s: the module rows of the plugin table (| `credvault.vault.<module>` | module | ... |) must be one run "
            "of lines, %s" % (README, "and there is none" if not rows else "and others stand between them")
        )
    return "".join(lines[: rows[0]]) + body + "".join(lines[rows[-1] + 1 :])


def render(root, facts):
    """{file: its text with every generated part made from ``facts``} of the files ``REGIONS`` and README name."""
    texts = {}
    for path, name, make in REGIONS:
        texts[path] = replace_region(texts.get(path) or read_text(root, path), path, name, make(facts))
    texts[README] = replace_readme_rows(read_text(root, README), readme_rows(facts))
    return texts


def stale(root, facts=None):
    """The files whose generated parts differ from what the declarations make."""
    texts = render(root, load(root) if facts is None else facts)
    return sorted(path for path, text in texts.items() if read_text(root, path) != text)


def write(root, facts=None):
    """Write the generated parts; returns the files that changed."""
    texts = render(root, load(root) if facts is None else facts)
    changed = sorted(path for path, text in texts.items() if read_text(root, path) != text)
    for path in changed:
        with open(os.path.join(root, path), "w", encoding="utf-8") as handle:
            handle.write(texts[path])
    return changed


# The run-time estimates, read and written where they are declared.


def run_times(root):
    return {item.module: item.run_time for item in load(root)}


def write_run_times(root, seconds):
    """Set ``run_time`` of each module of ``seconds`` (whole seconds) in its declaration, leaving its other lines."""
    for module, value in sorted(seconds.items()):
        path = os.path.join(root, declaration_path(module))
        text = read_text(root, declaration_path(module))
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(RUN_TIME_LINE.sub("run_time: %d" % round(value), text, count=1))


def main(argv):
    parser = argparse.ArgumentParser(prog="module_facts.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="list the files that differ, write nothing")
    parser.add_argument("--root", default=ROOT, help="the checkout (default: this one)")
    args = parser.parse_args(argv)
    try:
        paths = stale(args.root) if args.check else write(args.root)
    except FactsError as error:
        sys.exit("module_facts.py: %s" % error)
    for path in paths:
        print("%s: %s" % ("differs" if args.check else "written", path))
    return 1 if args.check and paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
