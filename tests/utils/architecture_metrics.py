#!/usr/bin/env python
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 39's measures of the collection's architecture, for one checkout, as a markdown table.

Usage (with the project's venv: it has ansible-core and the simulator; Python >= 3.11 for ``co_qualname``)::

    .venv/bin/python tests/utils/architecture_metrics.py CHECKOUT [--out FILE]

CHECKOUT is any checkout of the collection (another commit's worktree too): its own plugins, simulator
(tests/simulator) and test harness (tests/unit/plugins/faults/harness.py) are imported from it, through a link
``ansible_collections/credvault/vault`` made in a temporary folder.

- One write: ``vault_account`` changing the password and notes of an existing account; one read: the
  ``vault_password`` lookup of that password. Each runs as Ansible runs it (the module's ``main()`` with its
  arguments, the lookup through Ansible's plugin loader) against the simulator serving HTTPS in this process: the
  real client and transport send the requests of a real run (a ``ScriptedClient`` would skip those files and their
  requests). Each is measured after a first run of the same plugin (the write: the one creating the account; the
  read: the same lookup), so no import-time code counts. Counted with ``sys.setprofile`` (this thread only: the
  simulator's threads are not traced), calls only (each return goes back the way its call came):
  - files: the collection files (under plugins/) one of whose functions runs;
  - hops: the calls of a function of one collection file from a function of another, the caller being the nearest
    collection function on the stack (a call made through ansible-core or requests counts too); each call, and the
    distinct pairs of caller and callee functions;
  - crossings: the calls between a method (or a function nested in it) of ``_converge.VaultObject`` and one of a
    subclass, either way;
  - requests: the requests the simulator served.
- The lines of plugins/module_utils (every ``.py`` below it): all lines, and code lines (no blank, comment-only or
  docstring line).
- The ``duplicates`` command on plugins/: the counts of its summary line.
- The scaffold ``tests/utils/new_module.py vault_example_info`` run in a scratch clone of CHECKOUT's HEAD: the files
  it adds and the files it modifies (``git status``).
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import importlib
import inspect
import io
import os
import re
import subprocess
import sys
import tempfile
import tokenize

PACKAGE = "ansible_collections.credvault.vault"
RESOURCE = "metrics-host"
ACCOUNT = "deploy"
FIRST_PASSWORD = "Met-F1rst-pw-8273!"
CHANGED_PASSWORD = "Met-Ch4nged-pw-6150!"
SCAFFOLD_NAME = "vault_example_info"
# The counts of duplicates' summary line; a count it does not state is 0.
DUPLICATES_COUNTS = {
    "pairs": r"(\d+) pairs? of places",
    "files": r"(\d+) files? read",
    "shape": r"(\d+) by shape alone",
    "boilerplate": r"(\d+) of those marked boilerplate",
}

Flow = collections.namedtuple("Flow", "files client_files hops distinct_hops crossings requests")


class CallTrace:
    """The calls into collection functions (under ``plugins``) while the trace is on: how often each
    (caller code, callee code) pair ran, the caller being the nearest collection function on the stack (None when
    there is none). Module and class bodies are not functions and are not counted."""

    def __init__(self, plugins):
        self.plugins = os.path.realpath(plugins) + os.sep
        self.calls = collections.Counter()
        self._files = {}

    def file_of(self, code):
        """The real path of ``code``'s file when it is a collection function, else None."""
        if not code.co_flags & inspect.CO_OPTIMIZED:
            return None
        if code.co_filename not in self._files:
            path = os.path.realpath(code.co_filename)
            self._files[code.co_filename] = path if path.startswith(self.plugins) else None
        return self._files[code.co_filename]

    def _caller(self, frame):
        frame = frame.f_back
        while frame is not None and self.file_of(frame.f_code) is None:
            frame = frame.f_back
        return frame and frame.f_code

    def _profile(self, frame, event, dummy_arg):
        if event == "call" and self.file_of(frame.f_code):
            self.calls[(self._caller(frame), frame.f_code)] += 1

    def __enter__(self):
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc_info):
        sys.setprofile(None)

    def files(self):
        return {self.file_of(callee) for dummy_caller, callee in self.calls}

    def hops(self):
        """{(caller code, callee code): calls} of the calls from one collection file to another."""
        return {
            (caller, callee): count
            for (caller, callee), count in self.calls.items()
            if caller is not None and self.file_of(caller) != self.file_of(callee)
        }

    def crossings(self):
        """Calls from a ``VaultObject`` method to a subclass's method or back."""
        subclasses = vault_object_subclasses()

        def side(code):
            head = code.co_qualname.split(".<locals>")[0]
            owner = (self.file_of(code), head.rpartition(".")[0])
            if owner[0].endswith(os.sep + "_converge.py") and owner[1] == "VaultObject":
                return "base"
            return "subclass" if owner in subclasses else None

        return sum(
            count
            for (caller, callee), count in self.calls.items()
            if caller is not None and {side(caller), side(callee)} == {"base", "subclass"}
        )


def vault_object_subclasses():
    """(real file, class qualname) of every loaded collection class below ``_converge.VaultObject``."""
    found = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith(PACKAGE + ".plugins.") or not getattr(module, "__file__", None):
            continue
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == name and is_vault_object_subclass(value):
                found.add((os.path.realpath(module.__file__), value.__qualname__))
    return found


def is_vault_object_subclass(cls):
    return any(
        base.__name__ == "VaultObject" and base.__module__.endswith(".module_utils._converge")
        for base in cls.__mro__[1:]
    )


def plugins_dir():
    return list(importlib.import_module(PACKAGE + ".plugins").__path__)[0]


def harness():
    return importlib.import_module(PACKAGE + ".tests.unit.plugins.faults.harness")


def traced(vault, run):
    """``run()``'s result and its ``Flow``; ``vault``'s request log is forgotten first."""
    vault.forget_requests()
    with CallTrace(plugins_dir()) as trace:
        result = run()
    hops = trace.hops()
    files = trace.files()
    client = client_side(plugins_dir())
    return result, Flow(
        len(files), len(files & client), sum(hops.values()), len(hops), trace.crossings(), len(vault.requests)
    )


def client_side(plugins):
    """The real paths of ``module_utils/_client.py`` and of every module it imports relatively, at any depth: the
    HTTP side of a run, below the domain code (and below the gateway where there is one)."""
    module_utils = os.path.join(os.path.realpath(plugins), "module_utils")
    found, pending = set(), [os.path.join(module_utils, "_client.py")]
    while pending:
        path = pending.pop()
        if path in found or not os.path.isfile(path):
            continue
        found.add(path)
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        base = os.path.dirname(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                pending.append(os.path.join(base, *node.module.split(".")) + ".py")
    return found


def ran(result, what):
    if result.get("failed"):
        raise RuntimeError("%s failed: %s" % (what, result.get("msg")))
    return result


def measure_write(vault):
    """The ``Flow`` of ``vault_account`` changing the password and notes of an existing account of ``vault``."""
    run_module = harness().run_module
    account = dict(vault.connection, resource=RESOURCE, name=ACCOUNT)
    first = {"name": "root", "password": FIRST_PASSWORD}
    host = dict(vault.connection, name=RESOURCE, type="Linux", owner="admin", first_account=first)
    ran(run_module("vault_resource", host), "creating the resource")
    ran(run_module("vault_account", dict(account, password=FIRST_PASSWORD, notes="before")), "creating the account")
    change = dict(account, password=CHANGED_PASSWORD, notes="after")
    result, flow = traced(vault, lambda: run_module("vault_account", change))
    if not ran(result, "the write").get("changed"):
        raise RuntimeError("the write changed nothing: %s" % result)
    return flow


def measure_read(vault):
    """The ``Flow`` of the ``vault_password`` lookup of the account ``measure_write`` changed."""
    importlib.import_module(PACKAGE + ".tests.unit.plugins.conftest").install_collection_loader()

    def lookup():
        return harness().run_lookup("vault_password", ["%s/%s" % (RESOURCE, ACCOUNT)], dict(vault.connection))

    ran(lookup(), "the first read")
    result, flow = traced(vault, lookup)
    if ran(result, "the read").get("value") != [CHANGED_PASSWORD]:
        raise RuntimeError("the read returned %s" % result)
    return flow


def measure_flows(directory):
    """The write's and the read's ``Flow`` against a simulator (of the default profile) started in ``directory``."""
    os.makedirs(directory, exist_ok=True)
    vault = harness().InProcessVault(directory)
    try:
        return measure_write(vault), measure_read(vault)
    finally:
        vault.close()


def python_lines(path):
    """(all lines, code lines) of the Python file ``path``: a code line has a token that is not a comment and is not
    part of a docstring (the first statement of a module, class or function when it is a string)."""
    with open(path, encoding="utf-8") as source:
        text = source.read()
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(value.lineno, value.end_lineno + 1))
    layout = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    code = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in layout:
            code.update(range(token.start[0], token.end[0] + 1))
    return len(text.splitlines()), len(code - docstrings)


def module_utils_lines(checkout):
    """{"files", "lines", "code lines"} of every ``.py`` file below plugins/module_utils of ``checkout``."""
    counts = collections.Counter()
    for folder, dummy_dirs, names in os.walk(os.path.join(checkout, "plugins", "module_utils")):
        for name in (name for name in names if name.endswith(".py")):
            lines, code = python_lines(os.path.join(folder, name))
            counts.update({"files": 1, "lines": lines, "code lines": code})
    return dict(counts)


def parse_duplicates(output):
    """The counts of ``duplicates``' summary line, its first: pairs, files read, pairs by shape alone, boilerplate
    among those (``no duplicates (12 files read)`` where there are none)."""
    first = output.splitlines()[0] if output else ""
    if not re.search(DUPLICATES_COUNTS["files"], first):
        raise ValueError("not a summary line of duplicates: %r" % first)
    found = {key: re.search(pattern, first) for key, pattern in DUPLICATES_COUNTS.items()}
    return {key: int(match.group(1)) if match else 0 for key, match in found.items()}


def output_of(command, cwd=None):
    """The standard output of ``command``, which must succeed."""
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True).stdout


def duplicated_blocks(checkout):
    command = ["duplicates", "--repo", os.path.join(checkout, "plugins"), "--most", "200", "--seconds", "120"]
    return parse_duplicates(output_of(command))


def files_to_add_a_module(checkout):
    """{"added": [...], "modified": [...]}: what the scaffold does to a scratch clone of ``checkout``'s HEAD."""
    with tempfile.TemporaryDirectory() as scratch:
        clone = os.path.join(scratch, "clone")
        output_of(["git", "-c", "advice.detachedHead=false", "clone", "-q", "--shared", checkout, clone])
        output_of([sys.executable, os.path.join("tests", "utils", "new_module.py"), SCAFFOLD_NAME], cwd=clone)
        status = output_of(["git", "status", "--porcelain", "--untracked-files=all"], cwd=clone)
    changes = collections.defaultdict(list)
    for line in status.splitlines():
        changes["added" if line.startswith("??") else "modified"].append(line[3:])
    return {"added": changes["added"], "modified": changes["modified"]}


def flow_row(what, flow):
    return "| %s | %d (%d) | %d (%d) | %d | %d |" % (
        what,
        flow.files,
        flow.client_files,
        flow.hops,
        flow.distinct_hops,
        flow.crossings,
        flow.requests,
    )


def table(title, write, read, lines, duplicates, scaffold):
    """The markdown of every measure: a table of the two runs, then one of the rest."""
    rows = [
        "## %s" % title,
        "",
        "| one run | collection files run (of them the client's: `_client.py` and what it imports) | hops between them (distinct caller/callee pairs) "
        "| `VaultObject` base/subclass crossings | HTTP requests |",
        "| --- | --- | --- | --- | --- |",
        flow_row("write: `vault_account`, new password and notes of an existing account", write),
        flow_row("read: `vault_password` lookup of one password", read),
        "",
        "| measure | value |",
        "| --- | --- |",
        "| plugins/module_utils: files | %d |" % lines["files"],
        "| plugins/module_utils: lines | %d |" % lines["lines"],
        "| plugins/module_utils: code lines (no blank, comment or docstring line) | %d |" % lines["code lines"],
        "| `duplicates` on plugins/: pairs (files read) | %d (%d) |" % (duplicates["pairs"], duplicates["files"]),
        "| `duplicates` on plugins/: pairs by shape alone | %d |" % duplicates["shape"],
        "| `duplicates` on plugins/: of those, boilerplate | %d |" % duplicates["boilerplate"],
        "| add a module (`new_module.py %s`): files added | %d |" % (SCAFFOLD_NAME, len(scaffold["added"])),
        "| add a module: shared files modified | %d: %s |"
        % (len(scaffold["modified"]), ", ".join("`%s`" % path for path in scaffold["modified"])),
    ]
    return "\n".join(rows) + "\n"


def import_from(checkout, links):
    """Make ``checkout``'s collection and simulator the ones imported, through a link made in ``links``."""
    namespace = os.path.join(links, "ansible_collections", "credvault")
    os.makedirs(namespace)
    os.symlink(checkout, os.path.join(namespace, "vault"))
    sys.path[:0] = [links, os.path.join(checkout, "tests", "simulator")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="the path of a checkout of the collection")
    parser.add_argument("--out", help="write the table to this file too")
    options = parser.parse_args(argv)
    checkout = os.path.realpath(options.checkout)
    revision = output_of(["git", "-C", checkout, "rev-parse", "--short", "HEAD"]).strip()
    with tempfile.TemporaryDirectory() as scratch:
        import_from(checkout, os.path.join(scratch, "links"))
        with contextlib.redirect_stderr(io.StringIO()):  # the simulator's access log
            write, read = measure_flows(os.path.join(scratch, "vault"))
    title = "Architecture metrics of %s (commit %s)" % (checkout, revision)
    text = table(
        title, write, read, module_utils_lines(checkout), duplicated_blocks(checkout), files_to_add_a_module(checkout)
    )
    print(text, end="")
    if options.out:
        with open(options.out, "w", encoding="utf-8") as out:
            out.write(text)


if __name__ == "__main__":
    main()
