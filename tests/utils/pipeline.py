#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run the independent stages of ``make test`` side by side, and time them.

Usage::

    pipeline.py --slots 3 --log-dir DIR [--summary FILE] --stage NAME[:WEIGHT] ... -- COMMAND...

Each stage runs as ``COMMAND... NAME`` (for example ``make SKIP_SETUP=1 units``), its output going to
``LOG-DIR/NAME.log``. Stages start in the order given while their weights fit in ``--slots`` (a stage
that runs several processes itself, such as the integration jobs, weighs more); a stage heavier than
the slots runs alone. The first failure stops the others: its log is printed and the exit status is 1.
While a stage runs, each ``<prog>: progress: ...`` line of its log (the integration stage's, for example) is
shown on the console, so that a long stage does not look stuck.
A stage that exits with 3 was not run (it says why on its last line); that is reported, not failed.
At the end a table of the stages' wall times and CPU times is printed and written to ``--summary``
(Markdown). A stage's CPU time is that of its process and every descendant it waited for (``wait4``'s
resource usage): the CPU it took from the machine's cores, where the wall time also holds the time it
waited for them. Only the standard library is used.

This machine's speed varies from run to run (the same stage has measured 30 % apart), so the table also gives the
stages' CPU time at a reference speed: a fixed workload (``CALIBRATION``: compiling Python source and JSON, as most
of the suite's CPU goes to starting Python processes that compile their modules) is timed before the stages and
after them, best of three each, and the stages' CPU time is scaled by ``REFERENCE_CALIBRATION_SECONDS`` over the
mean of the two.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

PROG = "pipeline"
NOT_RUN = 3
LOG_TAIL_LINES = 300
PROGRESS = re.compile(r"^\S+: (progress: .*)$")
# The calibration workload, run in a Python process of its own: 0.9 s of CPU on the reference machine.
CALIBRATION = (
    "import argparse, json, inspect\n"
    "source = inspect.getsource(argparse)\n"
    "for _ in range(27):\n"
    "    compile(source, 'argparse.py', 'exec')\n"
    "    json.loads(json.dumps([{'n': n, 's': str(n) * 8} for n in range(20000)]))\n"
)
# The workload's CPU seconds on the quiet 2-core machine whose runs set the suite's budget (issue 36).
REFERENCE_CALIBRATION_SECONDS = 0.9
CALIBRATION_RUNS = 3


@dataclass
class Stage:
    name: str
    weight: int
    process: subprocess.Popen | None = None
    started: float = 0.0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    result: str = "not started"
    note: str = ""
    log_path: str = field(default="", repr=False)
    log_read: int = field(default=0, repr=False)


class Terminated(BaseException):
    """SIGTERM or SIGHUP: stop the stages."""


def log(message):
    print("%s %s: %s" % (time.strftime("%H:%M:%S"), PROG, message), flush=True)


def parse_stage(text):
    name, _colon, weight = text.partition(":")
    return Stage(name=name, weight=int(weight or 1))


def last_line(path):
    with open(path, errors="replace") as handle:
        lines = [line.strip() for line in handle if line.strip()]
    return lines[-1] if lines else ""


def print_tail(path):
    with open(path, errors="replace") as handle:
        lines = handle.readlines()
    print("---- last %d lines of %s ----" % (min(len(lines), LOG_TAIL_LINES), path), flush=True)
    sys.stdout.writelines(lines[-LOG_TAIL_LINES:])
    print("---- end of %s ----" % path, flush=True)


def start(stage, command, log_dir):
    stage.log_path = os.path.join(log_dir, stage.name + ".log")
    with open(stage.log_path, "wb") as output:
        stage.process = subprocess.Popen(
            command + [stage.name],
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    stage.started = time.monotonic()
    stage.result = "running"
    log("%s started (log: %s)" % (stage.name, stage.log_path))


def relay_progress(stage):
    """Show the progress lines the stage's log gained since the last look (whole lines only)."""
    with open(stage.log_path, "rb") as handle:
        handle.seek(stage.log_read)
        gained = handle.read()
    complete = gained.rfind(b"\n") + 1
    stage.log_read += complete
    for line in gained[:complete].decode("utf-8", "replace").splitlines():
        match = PROGRESS.match(line)
        if match:
            log("%s %s" % (stage.name, match.group(1)))


def reap(stage):
    """The stage's exit status once it has ended (None before), recording its CPU time."""
    pid, status, usage = os.wait4(stage.process.pid, os.WNOHANG)
    if pid == 0:
        return None
    stage.cpu_seconds = usage.ru_utime + usage.ru_stime
    stage.process.returncode = os.waitstatus_to_exitcode(status)
    return stage.process.returncode


def finish(stage, returncode):
    stage.seconds = time.monotonic() - stage.started
    if returncode == 0:
        stage.result = "passed"
    elif returncode == NOT_RUN:
        stage.result = "not run"
        stage.note = last_line(stage.log_path)
    else:
        stage.result = "FAILED"
        stage.note = "exit status %d" % returncode
    log(
        "%s %s in %.0f s (CPU %.1f s)%s"
        % (stage.name, stage.result, stage.seconds, stage.cpu_seconds, ": " + stage.note if stage.note else "")
    )


def stop(stage):
    """Stop a running stage and everything it started (its own process group)."""
    try:
        os.killpg(stage.process.pid, signal.SIGTERM)
        stage.process.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(stage.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    stage.seconds = time.monotonic() - stage.started
    stage.result = "stopped"


def run_stages(stages, slots, command, log_dir):
    """Run the stages; return the first that failed, or None."""
    waiting = list(stages)
    running = []
    while waiting or running:
        used = sum(stage.weight for stage in running)
        while waiting and (used + waiting[0].weight <= slots or not running):
            stage = waiting.pop(0)
            start(stage, command, log_dir)
            running.append(stage)
            used += stage.weight
        time.sleep(0.5)
        for stage in list(running):
            relay_progress(stage)
            returncode = reap(stage)
            if returncode is None:
                continue
            running.remove(stage)
            finish(stage, returncode)
            if stage.result == "FAILED":
                for other in running:
                    stop(other)
                return stage
    return None


def minutes(seconds):
    return "%d min %02d s" % divmod(round(seconds), 60) if seconds else ""


def calibrate():
    """The calibration workload's CPU seconds (user and system, of its process): the best of ``CALIBRATION_RUNS``."""
    best = None
    for dummy in range(CALIBRATION_RUNS):
        before = os.times()
        subprocess.run([sys.executable, "-c", CALIBRATION], check=True)
        after = os.times()
        seconds = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        best = seconds if best is None else min(best, seconds)
    return best


def summary(stages, total, calibration=None):
    """The table; with ``calibration`` (the workload's seconds before and after the stages), the CPU time at the
    reference speed too."""
    rows = ["| stage | result | wall time | CPU time |", "|---|---|---|---|"]
    for stage in stages:
        result = stage.result + (" (%s)" % stage.note if stage.note else "")
        rows.append("| %s | %s | %s | %s |" % (stage.name, result, minutes(stage.seconds), minutes(stage.cpu_seconds)))
    cpu = sum(stage.cpu_seconds for stage in stages)
    rows.append("| **all stages** | | **%s** | **%s** |" % (minutes(total), minutes(cpu)))
    if calibration:
        scale = REFERENCE_CALIBRATION_SECONDS / (sum(calibration) / len(calibration))
        rows.append(
            "| all stages at the reference speed (calibration %s s before, %s s after, reference %s s) | | | %s |"
            % (
                "%.2f" % calibration[0],
                "%.2f" % calibration[-1],
                "%.2f" % REFERENCE_CALIBRATION_SECONDS,
                minutes(cpu * scale),
            )
        )
    return "\n".join(rows) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="pipeline.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--slots", type=int, default=2, help="total weight of the stages running at once")
    parser.add_argument("--log-dir", required=True, help="where NAME.log goes for each stage")
    parser.add_argument("--summary", help="write the table of wall times here (Markdown)")
    parser.add_argument("--stage", action="append", type=parse_stage, required=True, help="NAME[:WEIGHT]")
    parser.add_argument(
        "--calibrate", action="store_true", help="time the calibration workload before and after the stages"
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND...; the stage name is appended")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    os.makedirs(args.log_dir, exist_ok=True)

    def terminate(signum, frame):
        raise Terminated()

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)
    calibration = [calibrate()] if args.calibrate else []
    started = time.monotonic()
    try:
        failed = run_stages(args.stage, args.slots, command, args.log_dir)
    except (Terminated, KeyboardInterrupt):
        for stage in args.stage:
            if stage.result == "running":
                stop(stage)
        log("interrupted")
        return 1
    total = time.monotonic() - started
    if calibration and not failed:
        calibration.append(calibrate())
    table = summary(args.stage, total, calibration if len(calibration) == 2 else None)
    if args.summary:
        with open(args.summary, "w") as handle:
            handle.write(table)
    if failed:
        print_tail(failed.log_path)
    print(table, flush=True)
    if failed:
        log("%s failed; the stages still running were stopped" % failed.name)
        return 1
    not_run = [stage.name for stage in args.stage if stage.result == "not run"]
    if not_run:
        log("passed, but NOT RUN here: %s (see the table)" % ", ".join(not_run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
