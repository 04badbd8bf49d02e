#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Write every piece a new module needs (``make new-module NAME=vault_<thing>[_info] [OPERATION=<catalogue key>]``).

Usage::

    new_module.py NAME [--operation KEY] [--description TEXT] [--root DIR]

Writes what tests/unit/test_module_checklist.py requires of a module, so that the checklist passes at once and what
is left is the module's own logic: the module (DOCUMENTATION with the connection and attribute fragments, version_added
= galaxy.yml's version, EXAMPLES, RETURN, ``main()`` running the domain entry point), the domain file
``plugins/module_utils/_<thing>.py`` with ``describe(task)`` (an _info module) or ``converge(task)`` (appended when the
file exists), the integration target (aliases, meta/main.yml, tasks/main.yml, tasks/examples.yml), the run-time
estimate, the action-group entry, the README row, the architecture guide's row, the leak-suite tasks
(no_secret_in_output's modes.yml: normal, check, diff for a writing module, and failing) and the fault-matrix row.

``--operation`` names the endpoint of plugins/module_utils/_catalogue.py the entry point calls: its path parameters
become required options, its edition gate chooses the simulator of the fault row. Without it the entry point
calls nothing yet. Every value written is a starting point to edit, none is a guess passed off as final.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NAME = re.compile(r"^vault_[a-z][a-z0-9_]*[a-z0-9]$")
LEAK_MODES = os.path.join("tests", "integration", "targets", "no_secret_in_output", "playbooks", "modes.yml")
LEAK_ANCHOR = "    - name: Every wrong token was refused\n"
LEAK_LOOP_END = "      loop_control:\n"
FAULT_TEST = os.path.join("tests", "unit", "plugins", "faults", "test_fault_coverage.py")
RUN_TIMES = os.path.join("tests", "utils", "integration_run_times.json")
GUIDE = os.path.join("docs", "docsite", "rst", "guide_architecture.rst")
# A new target's estimate until a run records its own (parallel_integration.py --write-estimates).
ESTIMATE_SECONDS = 30
HEADER = """# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""


class Plan:
    """What the pieces say about the module: its names, kind, options and endpoint."""

    def __init__(self, root, name, operation, description):
        self.name = name
        self.info = name.endswith("_info")
        self.thing = name[len("vault_") :].removesuffix("_info")
        self.words = self.thing.replace("_", " ")
        self.domain = "_" + self.thing
        self.entry = "describe" if self.info else "converge"
        self.returned = self.thing + "s" if self.info else self.thing
        self.endpoint = catalogue(root).get(operation) if operation else None
        if operation and self.endpoint is None:
            sys.exit("new_module.py: %s is not a key of CATALOGUE in plugins/module_utils/_catalogue.py" % operation)
        self.operation = operation
        self.options = re.findall(r"{(\w+)}", self.endpoint.path) if self.endpoint else []
        verb = "List" if self.info else "Manage"
        self.description = description or "%s the %ss of the credential vault" % (verb, self.words)
        self.version = galaxy_version(root)

    @property
    def edition_b_only(self):
        return self.endpoint is not None and "A" not in self.endpoint.gates


def catalogue(root):
    spec = importlib.util.spec_from_file_location(
        "new_module_catalogue", os.path.join(root, "plugins", "module_utils", "_catalogue.py")
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module.CATALOGUE


def galaxy_version(root):
    with open(os.path.join(root, "galaxy.yml"), encoding="utf-8") as handle:
        return re.search(r"^version: *(\S+)", handle.read(), re.M).group(1)


def module_text(plan):
    fragments = ["connection", "attributes"] + (
        ["attributes.read_only", "attributes.info_module"]
        if plan.info
        else ["attributes.check_mode", "attributes.diff_mode", "attributes.idempotent"]
    )
    options = "".join(
        "  %s:\n    description:\n      - Sent as C({%s}) of C(%s).\n    type: str\n    required: true\n"
        % (option, option, plan.endpoint.operation)
        for option in plan.options
    )
    calls = " (C(%s))" % plan.endpoint.operation if plan.endpoint else ""
    spec = ", ".join('"%s": {"type": "str", "required": True}' % option for option in plan.options)
    return (
        "#!/usr/bin/python\n"
        + HEADER
        + '\nfrom __future__ import annotations\n\nDOCUMENTATION = r"""\n'
        + "module: %s\nshort_description: %s\nversion_added: %s\ndescription:\n  - %s%s.\n"
        % (plan.name, plan.description, plan.version, plan.description, calls)
        + "author:\n  - Credvault Maintainers (@credvault)\n"
        + ("options:\n" + options if options else "options: {}\n")
        + "extends_documentation_fragment:\n"
        + "".join("  - credvault.vault.%s\n" % fragment for fragment in fragments)
        + '"""\n\nEXAMPLES = r"""\n'
        + examples_text(plan)
        + '"""\n\nRETURN = r"""\n'
        + "%s:\n  description:\n    - What the vault answered.\n  returned: always\n  type: %s\n"
        % (plan.returned, "list\n  elements: dict" if plan.info else "dict")
        + '"""\n\n'
        + "from ansible_collections.credvault.vault.plugins.module_utils import %s\n" % plan.domain
        + "from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule\n\n\n"
        + "def argument_spec():\n    return {%s}\n\n\n" % spec
        + "def main():\n    VaultModule(argument_spec()).run(%s.%s)\n\n\n" % (plan.domain, plan.entry)
        + 'if __name__ == "__main__":\n    main()\n'
    )


def examples_text(plan):
    arguments = "".join('\n        %s: "{{ %s }}"' % (option, option) for option in plan.options)
    return (
        "- name: %s\n  module_defaults:\n    group/credvault.vault.vault:\n" % plan.description
        + '      url: "{{ vault_url }}"\n      auth_token: "{{ vault_token }}"\n      ca_path: "{{ vault_ca_path }}"\n'
        + "  block:\n    - name: %s\n      credvault.vault.%s:%s\n      register: %s_result\n"
        % (plan.description, plan.name, arguments, plan.thing)
    )


def domain_function(plan):
    if plan.endpoint is None:
        body = '    return {"%s": %s}\n' % (plan.returned, "[]" if plan.info else "{}")
        sends = "nothing yet"
    else:
        path = ", ".join('"%s": task.desired["%s"]' % (option, option) for option in plan.options)
        call = 'task.client.call("%s"%s)' % (plan.operation, ", path=path" if path else "")
        body = "    path = {%s}\n" % path if path else ""
        if plan.info:
            body += '    return {"%s": %s.details_list()}\n' % (plan.returned, call)
        else:
            # Compares the options alone: task.desired also holds the connection's token.
            body += (
                '    if task.tracker.compare("%s", None, %s) and not task.check_mode:\n        %s\n'
                '    return {"%s": {}}\n' % (plan.thing, "path" if path else "{}", call, plan.returned)
            )
        sends = plan.endpoint.operation
    return 'def %s(task):\n    """The entry point of %s: sends %s."""\n%s' % (plan.entry, plan.name, sends, body)


def domain_text(plan, existing):
    if existing is None:
        return (
            HEADER
            + '\n"""%s."""\n\nfrom __future__ import annotations\n\n\n' % plan.description
            + domain_function(plan)
        )
    if re.search(r"^def %s\(" % plan.entry, existing, re.M):
        sys.exit(
            "new_module.py: plugins/module_utils/%s.py already has %s(); name the module after a new domain"
            % (plan.domain, plan.entry)
        )
    return existing.rstrip("\n") + "\n\n\n" + domain_function(plan)


def target_main(plan):
    checks = "          - %s_result is not changed\n" % plan.thing if plan.info else ""
    return (
        "---\n- name: The documentation's examples run as they are\n  vars:\n"
        '    vault_url: "{{ sim.url }}"\n    vault_token: "{{ sim.token }}"\n    vault_ca_path: "{{ sim.ca_path }}"\n'
        + "".join('    %s: ""\n' % option for option in plan.options)
        + "  block:\n    - name: Run the examples\n      ansible.builtin.include_tasks: examples.yml\n\n"
        + "    - name: The examples ran\n      ansible.builtin.assert:\n        that:\n"
        + "          - %s_result is succeeded\n" % plan.thing
        + checks
    )


def leak_tasks(plan):
    """The module's tasks of the leak suite: normal, check mode, check and diff (a writing module), wrong token."""
    arguments = "".join('\n        %s: ""' % option for option in plan.options)
    modes = [("", arguments, ""), (", in check mode", arguments, "\n      check_mode: true")]
    if not plan.info:
        modes.append((", in check mode with diff", arguments, "\n      check_mode: true\n      diff: true"))
    modes.append(
        (
            " with a wrong token",
            arguments + '\n        auth_token: "{{ wrong_token }}"',
            "\n      ignore_errors: true\n      register: %s_refused" % plan.thing,
        )
    )
    return "".join(
        "    - name: %s%s\n      credvault.vault.%s:%s%s\n\n" % (plan.description, label, plan.name, options, keywords)
        for label, options, keywords in modes
    )


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as handle:
        return handle.read()


def write_all(root, texts):
    for path, text in texts.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as handle:
            handle.write(text)


def insert_sorted_line(text, line, pattern, entry_start=r""):
    """``line`` among the lines matching ``pattern`` (group 1 the sort key): before the first that sorts after it,
    else after the last one's entry (which ends before the next line matching ``entry_start``)."""
    key = re.match(pattern, line).group(1)
    lines = text.splitlines(keepends=True)
    matching = [i for i, existing in enumerate(lines) if re.match(pattern, existing)]
    if not matching:
        raise SystemExit("new_module.py: no line like %r to insert %r near" % (pattern, line))
    after = [i for i in matching if re.match(pattern, lines[i]).group(1) > key]
    if after:
        at = after[0]
    else:
        at = next(
            i for i in range(matching[-1] + 1, len(lines) + 1) if i == len(lines) or re.match(entry_start, lines[i])
        )
    return "".join(lines[:at] + [line] + lines[at:])


def insert_before(text, anchor, addition, path):
    if anchor not in text:
        raise SystemExit("new_module.py: %s no longer holds %r; add the lines by hand" % (path, anchor.strip()))
    return text.replace(anchor, addition + anchor, 1)


def add_leak_tasks(plan, text):
    text = insert_before(text, LEAK_ANCHOR, leak_tasks(plan), LEAK_MODES)
    head, dummy, tail = text.partition(LEAK_ANCHOR)
    tail = insert_before(tail, LEAK_LOOP_END, '        - "{{ %s_refused }}"\n' % plan.thing, LEAK_MODES)
    return head + LEAK_ANCHOR + tail


def add_run_time(text, name):
    estimates = json.loads(text)
    estimates[name] = ESTIMATE_SECONDS
    return json.dumps(estimates, indent=2, sort_keys=True) + "\n"


def fault_row(plan):
    arguments = "".join(', %s="fc-base"' % option for option in plan.options)
    vault = ', vault="edition_b"' if plan.edition_b_only else ""
    return '    "modules/%s": Row(module("%s"%s%s)),\n' % (plan.name, plan.name, vault, arguments)


def scaffold(root, name, operation=None, description=None):
    """Write the pieces into the checkout ``root``; returns the paths written and the paths edited."""
    if not NAME.match(name):
        sys.exit("new_module.py: a module's name is vault_<thing> or vault_<thing>_info in lower case: %s" % name)
    module_path = os.path.join("plugins", "modules", name + ".py")
    if os.path.exists(os.path.join(root, module_path)):
        sys.exit("new_module.py: %s exists" % module_path)
    plan = Plan(root, name, operation, description)
    domain_path = os.path.join("plugins", "module_utils", plan.domain + ".py")
    existing = read(root, domain_path) if os.path.exists(os.path.join(root, domain_path)) else None
    target = os.path.join("tests", "integration", "targets", name)
    new_files = {
        module_path: module_text(plan),
        os.path.join(target, "aliases"): "context/controller\ngather_facts/no\n",
        os.path.join(target, "meta", "main.yml"): "---\ndependencies:\n  - setup_simulator\n",
        os.path.join(target, "tasks", "main.yml"): target_main(plan),
        os.path.join(target, "tasks", "examples.yml"): "---\n" + examples_text(plan),
    }
    readme_row = "| `credvault.vault.%s` | module | %s |\n" % (name, plan.description[0].lower() + plan.description[1:])
    shape = "read-only" if plan.info else "workflow: <why it is no ``VaultObject``, or make it one>"
    guide_row = "   * - ``%s``\n     - ``module_utils/%s.py``\n     - ``%s``\n     - %s\n" % (
        name,
        plan.domain,
        plan.entry,
        shape,
    )
    changes = {
        os.path.join("meta", "runtime.yml"): lambda t: insert_sorted_line(
            t, "    - %s\n" % name, r"^    - (vault_\w+)$"
        ),
        RUN_TIMES: lambda t: add_run_time(t, name),
        "README.md": lambda t: insert_sorted_line(t, readme_row, r"^\| `credvault\.vault\.(\w+)` \| module \|"),
        GUIDE: lambda t: insert_sorted_line(t, guide_row, r"^   \* - ``(vault_\w+)``", r"^   \* - |^\S|^$"),
        LEAK_MODES: lambda t: add_leak_tasks(plan, t),
        FAULT_TEST: lambda t: insert_sorted_line(t, fault_row(plan), r'^    "modules/(\w+)": Row\(', r'^    "|^}'),
    }
    # Every text is made before any is written: a file that lost its anchor leaves the checkout untouched.
    edited = {path: change(read(root, path)) for path, change in changes.items()}
    if existing is None:
        new_files[domain_path] = domain_text(plan, None)
    else:
        edited[domain_path] = domain_text(plan, existing)
    write_all(root, new_files)
    write_all(root, edited)
    return list(new_files), list(edited)


def main(argv):
    parser = argparse.ArgumentParser(prog="new_module.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("name", help="vault_<thing> or vault_<thing>_info")
    parser.add_argument("--operation", help="the CATALOGUE key of the endpoint the entry point calls")
    parser.add_argument("--description", help="the short description (default: from the name)")
    parser.add_argument("--root", default=ROOT, help="the checkout to write into (default: this one)")
    args = parser.parse_args(argv)
    written, edited = scaffold(os.path.abspath(args.root), args.name, args.operation, args.description)
    for path in written:
        print("written: %s" % path)
    for path in edited:
        print("edited:  %s" % path)
    print("next: the entry point in the domain file, the options, RETURN and EXAMPLES (tasks/examples.yml repeats")
    print("them), the target's assertions, the leak-suite tasks' options, the fault row's arguments, a unit test")


if __name__ == "__main__":
    main(sys.argv[1:])
