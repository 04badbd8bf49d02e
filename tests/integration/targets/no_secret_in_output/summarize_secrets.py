#!/usr/bin/env python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The table module x mode -> tasks, lines scanned, leaks of the no_secret_in_output runs, and their coverage.

Usage: summarize_secrets.py WORK COLLECTION_ROOT SECRETS_FILE CODES_FILE

WORK holds, per playbook NAME, NAME.stdout, NAME.stderr, NAME.log (ANSIBLE_LOG_PATH) and NAME.census.jsonl (written
by callback_plugins/secret_census.py). SECRETS_FILE lists the secrets matched anywhere, one a line; CODES_FILE the
TOTP codes, matched as whole words.

Each task owns the slice of stdout and of the log from its ``TASK [...]`` banner to the next banner (or ``PLAY``
line), plus its returned value as indented JSON; the items of a loop are results of their own, in the mode each ran
in, and the first of them carries the task's slice. Lines outside any slice, and all of stderr, are the row
``(outside tasks)``. A task's mode is ``normal`` or ``check``/``diff``/``failing`` joined by ``+``. A task whose
text calls a credvault.vault lookup is also on the row ``lookup <name>`` (the total counts module rows only).

Every returned value is scanned as the callbacks received it, nothing excluded: a secret a module returns
(vault_account_password's ``password``, vault_user's ``token``, the agent keys, the certificate passphrase) reaches
the callbacks censored whether or not the task has ``no_log`` (the collection flags the result), so it must not
appear there either. The column ``censored`` counts the results Ansible censored (``no_log`` or flagged).

Exits 1 on any leak or when a module or lookup misses a mode it must be run in: every module normal, check (when
its ``attributes.check_mode.support`` is not none), diff (same for ``diff_mode``), failing; every lookup normal,
check and failing (lookups have no diff mode). Check and diff count only from results that did not fail.
"""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys

BANNER = re.compile(r"(?:^|\| )(?:TASK|RUNNING HANDLER) \[")
PLAY_LINE = re.compile(r"(?:^|\| )PLAY (?:\[|RECAP)")
OUTSIDE = ("(outside tasks)", "-")


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read().splitlines()


def task_slices(lines):
    """{task index: its lines} (banners numbered from 1) and the lines outside every task."""
    slices = collections.defaultdict(list)
    outside = []
    index = 0
    inside = False
    for line in lines:
        if BANNER.search(line):
            index += 1
            inside = True
        elif PLAY_LINE.search(line):
            inside = False
        (slices[index] if inside else outside).append(line)
    return slices, outside, index


class Scanner:
    def __init__(self, secrets, codes):
        self.secrets = [s for s in secrets if s]
        self.codes = [re.compile(r"\b" + re.escape(c) + r"\b") for c in codes if c]

    def leaks(self, lines):
        """How many of the secrets and codes occur in these lines (each counted once)."""
        text = "\n".join(lines)
        return sum(s in text for s in self.secrets) + sum(bool(c.search(text)) for c in self.codes)


def module_docs(modules):
    """ansible-doc's JSON of every module: its attributes (check_mode, diff_mode) and its RETURN."""
    names = ["credvault.vault." + m for m in modules]
    output = subprocess.run(
        ["ansible-doc", "--json", "-t", "module", *names], capture_output=True, text=True, check=False
    )
    if output.returncode:
        sys.exit(f"ansible-doc cannot read the modules' documentation:\n{output.stderr}")
    return json.loads(output.stdout)


def mode_of(entry):
    if entry["skipped"]:
        return "skipped"
    parts = [
        name
        for name, flag in (("check", entry["check"]), ("diff", entry["diff"]), ("failing", entry["failed"]))
        if flag
    ]
    return "+".join(parts) or "normal"


def returned_lines(entry):
    """The lines of the returned value to scan (all of it, as the callbacks received it), and 1 when Ansible
    censored it."""
    result = entry["result"]
    return json.dumps(result, indent=2, sort_keys=True, default=str).splitlines(), int("censored" in result)


def plugin_names(root, kind):
    folder = os.path.join(root, "plugins", kind)
    return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))


def collect(work, scanner):
    """Rows {(module, mode): [tasks, lines, leaks, censored]} and {module: set of modes} for coverage."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    modes = collections.defaultdict(set)
    for census in sorted(f for f in os.listdir(work) if f.endswith(".census.jsonl")):
        name = census[: -len(".census.jsonl")]
        entries = [json.loads(line) for line in read_lines(os.path.join(work, census))]
        started = sum(e["event"] == "task" for e in entries)
        outside_lines = read_lines(os.path.join(work, name + ".stderr"))
        slices = []
        for stream in ("stdout", "log"):
            stream_slices, outside, banners = task_slices(read_lines(os.path.join(work, f"{name}.{stream}")))
            if banners != started:
                sys.exit(f"{name}.{stream}: {banners} task banners for {started} started tasks; cannot slice")
            slices.append(stream_slices)
            outside_lines += outside
        for entry in (e for e in entries if e["event"] == "result"):
            mode = mode_of(entry)
            # A loop's items share their task's slice: the first item counts it.
            printed = slices[0].pop(entry["index"], []) + slices[1].pop(entry["index"], [])
            returned, censored = returned_lines(entry)
            leaks = scanner.leaks(printed) + scanner.leaks(returned)
            if leaks:
                print(
                    f"LEAK: {leaks} secret(s) in {name} task {entry['index']} [{entry['name']}] ({mode})",
                    file=sys.stderr,
                )
            for module in [entry["action"]] + ["lookup " + lookup for lookup in entry["lookups"]]:
                row = rows[(module, mode)]
                row[0] += 1
                row[1] += len(printed) + len(returned)
                row[2] += leaks
                row[3] += censored
                modes[module].add(mode)
        # Slices of tasks without a result (none sent to callbacks) are scanned with the lines outside tasks.
        outside_lines += [line for stream_slices in slices for lines in stream_slices.values() for line in lines]
        outside_row = rows[OUTSIDE]
        outside_row[1] += len(outside_lines)
        outside_row[2] += scanner.leaks(outside_lines)
        if scanner.leaks(outside_lines):
            print(f"LEAK: secret(s) in {name} outside task slices or in stderr", file=sys.stderr)
    return rows, modes


def missing_modes(modules, lookups, docs, modes):
    missing = []
    for plugin, required in [
        ("credvault.vault." + m, modes_required(docs["credvault.vault." + m]["doc"])) for m in modules
    ] + [("lookup credvault.vault." + lookup, ("normal", "check", "failing")) for lookup in lookups]:
        seen = modes.get(plugin, set())
        covered = {
            "normal": "normal" in seen,
            "check": any("check" in m.split("+") and "failing" not in m for m in seen),
            "diff": any("diff" in m.split("+") and "failing" not in m for m in seen),
            "failing": any("failing" in m.split("+") for m in seen),
        }
        missing += [f"{plugin}: {mode}" for mode in required if not covered[mode]]
    return missing


def modes_required(doc):
    attributes = doc.get("attributes") or {}
    required = ["normal"]
    for mode, attribute in (("check", "check_mode"), ("diff", "diff_mode")):
        if (attributes.get(attribute) or {}).get("support", "none") != "none":
            required.append(mode)
    return required + ["failing"]


def table(rows):
    lines = ["| module | mode | tasks | lines scanned | leaks | censored |", "|---|---|---:|---:|---:|---:|"]
    for (module, mode), (tasks, scanned, leaks, censored) in sorted(rows.items()):
        lines.append(f"| {module} | {mode} | {tasks} | {scanned} | {leaks} | {censored} |")
    # A task using a lookup is also on the lookup's rows: the total counts module rows only.
    total = [sum(row[i] for (module, _mode), row in rows.items() if not module.startswith("lookup ")) for i in range(4)]
    lines.append(f"| **total** (module rows) | | {total[0]} | {total[1]} | {total[2]} | {total[3]} |")
    return lines, total


def main(work, root, secrets_file, codes_file):
    modules = plugin_names(root, "modules")
    lookups = plugin_names(root, "lookup")
    docs = module_docs(modules)
    scanner = Scanner(read_lines(secrets_file), read_lines(codes_file))
    rows, modes = collect(work, scanner)
    lines, total = table(rows)
    missing = missing_modes(modules, lookups, docs, modes)
    report = "\n".join(
        lines
        + [
            "",
            "Missing modes:" + "".join(f"\n- {plugin_mode}" for plugin_mode in missing)
            if missing
            else "Missing modes: none",
        ]
    )
    print(report)
    with open(os.path.join(os.environ.get("OUTPUT_DIR", work), "secrets_table.md"), "w", encoding="utf-8") as out:
        out.write(report + "\n")
    print(f"{total[0]} task results, {total[1]} lines scanned, {total[2]} leaks, {len(missing)} missing modes")
    return 1 if total[2] or missing else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
