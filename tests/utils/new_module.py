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
file exists), the integration target (aliases, meta/main.yml, tasks/main.yml, tasks/examples.yml), the module's
declaration tests/modules/<module>.yml (the README's and the architecture guide's rows, the run-time estimate, the
fault-matrix row and the leak-suite tasks: normal, check, diff for a writing module, and failing) and a unit test stub
tests/unit/plugins/module_utils/test_<thing>[_info].py, which fails until unit tests of the entry point replace it.
Then tests/utils/module_facts.py writes the shared files from the declarations: no shared list is edited by hand.

``--operation`` names the endpoint of plugins/module_utils/_catalogue.py the entry point calls: its path parameters
become required options, its edition gate chooses the simulator of the fault row. Without it the entry point
calls nothing yet. Every value written is a starting point to edit, none is a guess passed off as final.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NAME = re.compile(r"^vault_[a-z][a-z0-9_]*[a-z0-9]$")
UNIT_TESTS = os.path.join("tests", "unit", "plugins", "module_utils")
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
        self.gateway, self.options = declared_function(root, operation) if operation else (None, [])
        verb = "List" if self.info else "Manage"
        self.description = description or "%s the %ss of the credential vault" % (verb, self.words)
        self.version = galaxy_version(root)

    @property
    def edition_b_only(self):
        return self.endpoint is not None and "A" not in self.endpoint.gates


def load_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# The declarations and the shared files written from them.
FACTS = load_file("new_module_facts", os.path.join(os.path.dirname(os.path.abspath(__file__)), "module_facts.py"))


def catalogue(root):
    return load_file("new_module_catalogue", os.path.join(root, "plugins", "module_utils", "_catalogue.py")).CATALOGUE


def declared_function(root, key):
    """``(gateway module, required parameters)`` of the function of ``plugins/module_utils/_api`` that declares the
    catalogue row ``key`` (``@declares("<key>")``): the domain calls it, never the client."""
    folder = os.path.join(root, "plugins", "module_utils", "_api")
    for file_name in sorted(os.listdir(folder)):
        if file_name.startswith("_") or not file_name.endswith(".py"):
            continue
        with open(os.path.join(folder, file_name), encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                _declares(decorator, key) for decorator in node.decorator_list
            ):
                arguments = node.args.args[1:]
                required = arguments[: len(arguments) - len(node.args.defaults)]
                return file_name[:-3], [
                    argument.arg for argument in required if argument.arg not in ("details", "files")
                ]
    sys.exit(
        "new_module.py: no function of plugins/module_utils/_api declares %s: declare it there first "
        "(plugins/module_utils/_api/_declare.py says how)" % key
    )


def _declares(decorator, key):
    return (
        isinstance(decorator, ast.Call)
        and getattr(decorator.func, "id", None) == "declares"
        and [getattr(argument, "value", None) for argument in decorator.args[:1]] == [key]
    )


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
        values = ", ".join('"%s": task.desired["%s"]' % (option, option) for option in plan.options)
        arguments = "".join(', task.desired["%s"]' % option for option in plan.options)
        call = "%s_api.%s(task.client%s)" % (plan.gateway, plan.operation, arguments)
        if plan.info:
            body = '    return {"%s": %s}\n' % (plan.returned, call)
        else:
            # Compares the options alone: task.desired also holds the connection's token.
            body = (
                '    if task.tracker.compare("%s", None, {%s}) and not task.check_mode:\n        %s\n'
                '    return {"%s": {}}\n' % (plan.thing, values, call, plan.returned)
            )
        sends = plan.endpoint.operation
    return 'def %s(task):\n    """The entry point of %s: sends %s."""\n%s' % (plan.entry, plan.name, sends, body)


def gateway_import(plan):
    return "from ._api import %s as %s_api\n" % (plan.gateway, plan.gateway) if plan.gateway else ""


def domain_text(plan, existing):
    if existing is None:
        imports = "\n" + gateway_import(plan) if plan.gateway else ""
        return (
            HEADER
            + '\n"""%s."""\n\nfrom __future__ import annotations\n%s\n\n' % (plan.description, imports)
            + domain_function(plan)
        )
    if re.search(r"^def %s\(" % plan.entry, existing, re.M):
        sys.exit(
            "new_module.py: plugins/module_utils/%s.py already has %s(); name the module after a new domain"
            % (plan.domain, plan.entry)
        )
    if gateway_import(plan) and gateway_import(plan) not in existing:
        existing = existing.replace(
            "from __future__ import annotations\n", "from __future__ import annotations\n\n" + gateway_import(plan), 1
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
    arguments = "".join('\n    %s: ""' % option for option in plan.options)
    modes = [("", arguments, ""), (", in check mode", arguments, "\n  check_mode: true")]
    if not plan.info:
        modes.append((", in check mode with diff", arguments, "\n  check_mode: true\n  diff: true"))
    modes.append(
        (
            " with a wrong token",
            arguments + '\n    auth_token: "{{ wrong_token }}"',
            "\n  ignore_errors: true\n  register: %s_refused" % plan.thing,
        )
    )
    return "\n".join(
        "- name: %s%s\n  credvault.vault.%s:%s%s\n" % (plan.description, label, plan.name, options, keywords)
        for label, options, keywords in modes
    )


def facts_of(plan, domain_path):
    """The module's declaration: every value a starting point to edit."""
    fault = {"vault": "edition_b"} if plan.edition_b_only else {}
    if plan.options:
        fault["args"] = {option: "fc-base" for option in plan.options}
    return FACTS.Facts(
        module=plan.name,
        readme=plan.description[0].lower() + plan.description[1:],
        domain="/".join(domain_path.split(os.sep)[1:]),
        entry=plan.entry,
        shape="read-only" if plan.info else "workflow: <why it is no ``VaultObject``, or make it one>",
        run_time=ESTIMATE_SECONDS,
        fault=fault,
        leak_tasks=leak_tasks(plan),
    )


def unit_test_stub(plan):
    """A unit test of the entry point that fails until it is replaced by real ones."""
    return (
        "# -*- coding: utf-8 -*-\n"
        "# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)\n"
        '"""Unit tests of %s(task) of plugins/module_utils/%s.py, the entry point of %s."""\n\n'
        % (plan.entry, plan.domain, plan.name)
        + "from __future__ import annotations\n\nimport pytest\n\n"
        + "from ansible_collections.credvault.vault.plugins.module_utils import %s\n\n\n" % plan.domain
        + "def test_%s_of_%s():\n" % (plan.entry, plan.name)
        + '    """The stub make new-module wrote: it fails until unit tests of the entry point replace it."""\n'
        + "    pytest.fail(\n"
        + '        "%%s is a stub of make new-module: replace it with unit tests of %s.%%s(task) (ScriptedClient scripts "\n'
        % plan.domain
        + '        "the answers by catalogue key, run_entry runs the entry point: tests/unit/fakes.py; "\n'
        + '        "test_agent_install_key.py is a short example)" %% (__file__, %s.%s.__name__)\n'
        % (plan.domain, plan.entry)
        + "    )\n"
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


def refuse_existing(root, paths):
    for path in paths:
        if os.path.exists(os.path.join(root, path)):
            sys.exit("new_module.py: %s exists" % path)


def scaffold(root, name, operation=None, description=None):
    """Write the pieces into the checkout ``root``; returns the paths written, the existing domain file appended to
    (or none) and the shared files module_facts.py wrote."""
    if not NAME.match(name):
        sys.exit("new_module.py: a module's name is vault_<thing> or vault_<thing>_info in lower case: %s" % name)
    module_path = os.path.join("plugins", "modules", name + ".py")
    stub_path = os.path.join(UNIT_TESTS, "test_%s.py" % name[len("vault_") :])
    refuse_existing(root, [module_path, FACTS.declaration_path(name), stub_path])
    plan = Plan(root, name, operation, description)
    domain_path = os.path.join("plugins", "module_utils", plan.domain + ".py")
    existing = read(root, domain_path) if os.path.exists(os.path.join(root, domain_path)) else None
    target = os.path.join("tests", "integration", "targets", name)
    facts = facts_of(plan, domain_path)
    new_files = {
        module_path: module_text(plan),
        FACTS.declaration_path(name): FACTS.dump(facts),
        stub_path: unit_test_stub(plan),
        os.path.join(target, "aliases"): "context/controller\ngather_facts/no\n",
        os.path.join(target, "meta", "main.yml"): "---\ndependencies:\n  - setup_simulator\n",
        os.path.join(target, "tasks", "main.yml"): target_main(plan),
        os.path.join(target, "tasks", "examples.yml"): "---\n" + examples_text(plan),
    }
    appended = {}
    if existing is None:
        new_files[domain_path] = domain_text(plan, None)
    else:
        appended[domain_path] = domain_text(plan, existing)
    # Every text is made before any is written: a shared file that lost its markers leaves the checkout untouched.
    try:
        shared = FACTS.render(root, sorted(FACTS.load(root) + [facts], key=lambda item: item.module))
    except FACTS.FactsError as error:
        sys.exit("new_module.py: %s; nothing was written" % error)
    generated = {path: text for path, text in shared.items() if read(root, path) != text}
    write_all(root, new_files)
    write_all(root, appended)
    write_all(root, generated)
    return list(new_files), list(appended), sorted(generated)


def main(argv):
    parser = argparse.ArgumentParser(prog="new_module.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("name", help="vault_<thing> or vault_<thing>_info")
    parser.add_argument("--operation", help="the CATALOGUE key of the endpoint the entry point calls")
    parser.add_argument("--description", help="the short description (default: from the name)")
    parser.add_argument("--root", default=ROOT, help="the checkout to write into (default: this one)")
    args = parser.parse_args(argv)
    written, appended, generated = scaffold(os.path.abspath(args.root), args.name, args.operation, args.description)
    for path in written:
        print("written:   %s" % path)
    for path in appended:
        print("appended:  %s" % path)
    for path in generated:
        print("generated: %s" % path)
    print("next: the entry point in the domain file and its unit tests (the stub fails until then), the options,")
    print("RETURN and EXAMPLES (tasks/examples.yml repeats them), the target's assertions, the declaration's facts;")
    print("after editing the declaration: %s" % FACTS.COMMAND)


if __name__ == "__main__":
    main(sys.argv[1:])
