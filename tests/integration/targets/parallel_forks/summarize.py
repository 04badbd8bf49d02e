# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""summarize.py WORK_DIR SCENARIO:FORKS:RUNS...: the table of the parallel_forks runs, from what runme.sh left in
WORK_DIR for each scenario and run (1 to RUNS): <scenario>-<run>.log (the ansible-playbook output, whose PLAY RECAP
gives the forks' task results), <scenario>-<run>.json (tally_end.yml: the number of vault requests the forks sent and of TLS
connections they opened, and their writes with the vault's answers) and <scenario>-<run>.seconds (wall time of the
run). A second table counts the writes of each run by operation: sent, and answered Success (the others lost a race).

Exits 1, naming the run, when a run does not have the scenario's FORKS fork hosts in its recap, a fork failed or was
unreachable, or a second run reported a change other than the tally's ``changed_every_run`` (the task results of modules documented to
report changed on every run, as shares are). Only the forks' hosts count: localhost runs the test's own reads and checks.
"""

from __future__ import annotations

import json
import os
import re
import sys

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
RECAP_LINE = re.compile(
    r"^(?P<host>node\d+)\s*:\s*ok=(?P<ok>\d+)\s+changed=(?P<changed>\d+)\s+unreachable=(?P<unreachable>\d+)"
    r"\s+failed=(?P<failed>\d+)"
)
COLUMNS = (
    "scenario",
    "run",
    "hosts",
    "tasks",
    "changed",
    "failed",
    "requests",
    "writes",
    "refused",
    "connections",
    "s",
)
WRITE_COLUMNS = ("scenario", "run", "operation", "sent", "succeeded")


def read_recap(path):
    """Per fork host: its recap counters as ints."""
    with open(path, encoding="utf-8") as handle:
        text = ANSI_ESCAPE.sub("", handle.read())
    recap = text.rsplit("PLAY RECAP", 1)[-1]
    hosts = {}
    for line in recap.splitlines():
        match = RECAP_LINE.match(line.strip())
        if match:
            hosts[match["host"]] = {key: int(value) for key, value in match.groupdict().items() if key != "host"}
    return hosts


def read_run(work_dir, scenario, forks, run):
    stem = os.path.join(work_dir, f"{scenario}-{run}")
    hosts = read_recap(stem + ".log")
    with open(stem + ".json", encoding="utf-8") as handle:
        tally = json.load(handle)
    with open(stem + ".seconds", encoding="utf-8") as handle:
        seconds = int(handle.read())
    total = {
        key: sum(counters[key] for counters in hosts.values()) for key in ("ok", "changed", "unreachable", "failed")
    }
    return {
        "scenario": scenario,
        "run": run,
        "hosts": len(hosts),
        "forks": forks,
        # A task result of a fork: ok (changed included) or failed; an unreachable fork counts as failed.
        "tasks": total["ok"] + total["failed"],
        "changed": total["changed"],
        "failed": total["failed"] + total["unreachable"],
        "requests": tally["requests"],
        "writes": len(tally["writes"]),
        "refused": sum(1 for write in tally["writes"] if not succeeded(write)),
        "connections": tally["connections"],
        "changed_every_run": int(tally.get("changed_every_run", 0)),
        "s": seconds,
        "write_rows": write_rows(scenario, run, tally["writes"]),
    }


def succeeded(write):
    """The vault answered the write ``Success`` (``SUCCESS`` in the SSH import, associate and dissociate answers)."""
    return str(write["status"]).lower() == "success"


def write_rows(scenario, run, writes):
    """One row per write operation of the run, in the order they were first sent."""
    rows = {}
    for write in writes:
        row = rows.setdefault(write["operation"], {"scenario": scenario, "run": run, "operation": write["operation"]})
        row["sent"] = row.get("sent", 0) + 1
        row["succeeded"] = row.get("succeeded", 0) + succeeded(write)
    return list(rows.values())


def problems_of(row):
    name = f"{row['scenario']} run {row['run']}"
    if row["hosts"] != row["forks"]:
        yield f"{name}: {row['hosts']} fork hosts in the recap, not {row['forks']}"
    if row["failed"]:
        yield f"{name}: {row['failed']} failed or unreachable task results"
    if row["run"] == 2 and row["changed"] != row["changed_every_run"]:
        yield (
            f"{name}: {row['changed']} changed task results on the second run, not {row['changed_every_run']} (those "
            "of modules that report changed on every run)"
        )


def table(rows, columns):
    """Text columns left-aligned, numbers right-aligned."""
    widths = [max(len(str(value)) for value in [column] + [row[column] for row in rows]) for column in columns]
    lines = [" | ".join(str(column).ljust(width) for column, width in zip(columns, widths))]
    lines.append("-|-".join("-" * width for width in widths))
    for row in rows:
        cells = [
            str(row[column]).rjust(width) if isinstance(row[column], int) else row[column].ljust(width)
            for column, width in zip(columns, widths)
        ]
        lines.append(" | ".join(cells))
    return "\n".join(lines)


def main(work_dir, *scenarios):
    rows = [
        read_run(work_dir, scenario, int(forks), run)
        for scenario, forks, runs in (entry.split(":") for entry in scenarios)
        for run in range(1, int(runs) + 1)
    ]
    print(table(rows, COLUMNS))
    print()
    print(table([write_row for row in rows for write_row in row["write_rows"]], WRITE_COLUMNS))
    problems = [problem for row in rows for problem in problems_of(row)]
    for problem in problems:
        print("FAILED " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
