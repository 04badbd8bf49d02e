#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run the integration targets as several ansible-test runs at once.

Usage::

    parallel_integration.py --content DIR --work-dir DIR [--jobs 2] [--profiles P1,P2]
                            [--log-dir DIR] [--targets "T1 T2"] -- ANSIBLE-TEST-COMMAND...

ANSIBLE-TEST-COMMAND is the ansible-test integration command without targets, e.g.
``ansible-test integration --venv --python 3.11``. The targets it selects (all, or those matching
``--targets``) are split into ``--jobs`` groups of about the same run time, longest first, using the
run times the earlier runs recorded (ansible-test's tests/output/data/integration-*.json), else the estimates
measured on a 2-core machine: a module's target's is the ``run_time`` of the module's declaration
(tests/modules/<module>.yml), any other target's is in ``--estimates`` (default: integration_run_times.json beside
this script). ``--write-estimates`` refreshes both after a run when targets were added or changed a lot.

Nothing is shared between the groups, so that no target sees another's requests, faults or names:

* each group runs in its own copy of the collection, ``WORK-DIR/<n>/ansible_collections/credvault/vault``
  (ansible-test keeps its virtual environment and results in the copy's tests/output, kept between runs);
* each group runs under its own ``with_simulators.py``, so it has its own simulators.

A group's output goes to ``LOG-DIR/job-<n>.log`` and is printed whole when the group ends. Meanwhile, every
``PROGRESS_SECONDS`` and when a group ends, one ``progress:`` line says how many targets are done and which run,
longest first (read from ansible-test's "Running <target> integration test ..." lines; make test's pipeline.py
shows these lines on the console). When every group has ended, ``LOG-DIR/integration-targets.md`` lists each target's
wall time and CPU time (its group's whole process tree: ansible-test, Ansible and the group's simulators, sampled every
second from /proc), most CPU first. The exit status is 0 when every group passed, else the first failed group's.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PROG = "parallel_integration"
WITH_SIMULATORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "with_simulators.py")
COLLECTION_PATH = os.path.join("ansible_collections", "credvault", "vault")
# Kept in each copy: ansible-test's virtual environment, results and run times.
OUTPUT = os.path.join("tests", "output")
# Written by each group's with_simulators.py; never copied.
CONFIG = os.path.join("tests", "integration", "integration_config.yml")
# The estimate for a target without a recorded run time, when no target has one.
DEFAULT_SECONDS = 60
ESTIMATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration_run_times.json")
# The checkout whose module declarations (tests/modules) hold the estimates of the modules' targets.
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# How often the progress line is written, and how ansible-test announces a target.
PROGRESS_SECONDS = 120
RUNNING = re.compile(rb"^Running (\S+) integration test (?:role|script)$", re.MULTILINE)
# Where the CPU time of the groups is read (Linux): a process's utime, stime, cutime and cstime, in clock ticks.
PROC = "/proc"
CPU_FIELDS = slice(11, 15)
# The SSH key pair every ansible-test run of this user shares (ansible_test/_internal/core_ci.py, SshKey).
ANSIBLE_TEST_KEY = os.path.join("~", ".ansible", "test", "id_rsa")


class Terminated(BaseException):
    """This script received SIGTERM or SIGHUP."""


def log(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(prog="parallel_integration.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument(
        "--content", required=True, help="the collection to test (an ansible_collections/<ns>/<name> directory)"
    )
    parser.add_argument("--work-dir", required=True, help="where the copies go: WORK-DIR/<n>/ansible_collections/...")
    parser.add_argument("--jobs", type=int, default=2, help="how many ansible-test runs at once (default: %(default)s)")
    parser.add_argument("--profiles", default="default", help="simulator profiles, passed to with_simulators.py")
    parser.add_argument("--log-dir", help="where job-<n>.log and the simulator logs go (default: WORK-DIR/logs)")
    parser.add_argument("--targets", default="", help="space-separated target names or patterns (default: all)")
    parser.add_argument(
        "--estimates",
        default=ESTIMATES,
        help="JSON {target: seconds} for the targets that are not a module's, when they have no recorded run time",
    )
    parser.add_argument(
        "--write-estimates",
        action="store_true",
        help="only write the recorded run times (the estimates for targets never run kept): a module's target's to "
        "the module's declaration, the others to --estimates",
    )

    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]

    if not command and not args.write_estimates:
        parser.error("no ANSIBLE-TEST-COMMAND given after --")

    if args.jobs < 1:
        parser.error("--jobs wants 1 or more")

    args.content = os.path.abspath(args.content)
    args.work_dir = os.path.abspath(args.work_dir)
    args.log_dir = os.path.abspath(args.log_dir or os.path.join(args.work_dir, "logs"))

    return args, command


def list_targets(command: list[str], content: str, patterns: list[str]) -> list[str] | None:
    """The targets the command would run, in its order; None when it refuses the patterns (it says why)."""
    env = dict(os.environ, ANSIBLE_TEST_CONTENT_ROOT=content)
    listed = subprocess.run(
        command + ["--list-targets"] + patterns, cwd=content, env=env, stdout=subprocess.PIPE, check=False, text=True
    )

    if listed.returncode:
        return None

    return [line.strip() for line in listed.stdout.splitlines() if line.strip()]


def recorded_seconds(roots: list[str]) -> dict[str, int]:
    """Each target's run time in the newest ansible-test result that has it."""
    results = []

    for root in roots:
        results.extend(glob.glob(os.path.join(root, OUTPUT, "data", "integration-*.json")))

    seconds = {}

    for path in sorted(results, key=os.path.getmtime):
        try:
            with open(path, encoding="utf-8") as result:
                targets = json.load(result).get("targets", {})
        except (OSError, ValueError):
            continue

        for name, target in targets.items():
            seconds[name] = target["run_time_seconds"]

    return seconds


def module_facts():
    """tests/utils/module_facts.py, which reads and writes the modules' declarations."""
    spec = importlib.util.spec_from_file_location(
        "module_facts", os.path.join(REPOSITORY, "tests", "utils", "module_facts.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def estimated_seconds(path: str, roots: list[str], declared: dict[str, int]) -> dict[str, int]:
    """The run times recorded under ``roots``, over the estimates of ``path`` (missing or unreadable: none) and the
    ``declared`` ones of the modules' targets."""
    try:
        with open(path, encoding="utf-8") as estimates:
            seconds = json.load(estimates)
    except (OSError, ValueError):
        seconds = {}

    if not isinstance(seconds, dict):
        seconds = {}

    seconds = dict(declared, **{name: value for name, value in seconds.items() if isinstance(value, (int, float))})
    seconds.update(recorded_seconds(roots))
    return seconds


def write_estimates(path: str, seconds: dict[str, int], root: str = REPOSITORY) -> tuple[int, int]:
    """Each module's target's run time to the module's declaration under ``root``, the other targets' to ``path``;
    returns how many of each were written."""
    facts = module_facts()
    declared = facts.run_times(root)
    facts.write_run_times(root, {name: value for name, value in seconds.items() if name in declared})
    others = {name: value for name, value in sorted(seconds.items()) if name not in declared}
    with open(path, "w", encoding="utf-8") as estimates:
        json.dump(others, estimates, indent=2)
        estimates.write("\n")
    return len(seconds) - len(others), len(others)


def split_targets(targets: list[str], seconds: dict[str, int], jobs: int) -> list[list[str]]:
    """Longest first, each to the group with the least run time so far; a target never run counts as the mean."""
    known = [seconds[name] for name in targets if name in seconds]
    unknown = sum(known) / len(known) if known else DEFAULT_SECONDS
    estimate = {name: seconds.get(name, unknown) for name in targets}

    groups: list[list[str]] = [[] for number in range(min(jobs, len(targets)))]
    totals = [0.0] * len(groups)

    for name in sorted(targets, key=lambda name: (-estimate[name], name)):
        least = totals.index(min(totals))
        groups[least].append(name)
        totals[least] += estimate[name]

    return [sorted(group) for group in groups]


def refresh_copy(content: str, root: str) -> None:
    """Make root a copy of content, keeping root's tests/output."""
    os.makedirs(os.path.join(root, "tests"), exist_ok=True)

    for name in os.listdir(root):
        if name != "tests":
            remove(os.path.join(root, name))

    for name in os.listdir(os.path.join(root, "tests")):
        if name != "output":
            remove(os.path.join(root, "tests", name))

    def ignore(directory: str, names: list[str]) -> list[str]:
        relative = os.path.relpath(directory, content)
        return [name for name in names if os.path.normpath(os.path.join(relative, name)) in (OUTPUT, CONFIG)]

    shutil.copytree(content, root, symlinks=True, ignore=ignore, dirs_exist_ok=True)


def ensure_ansible_test_key(key: str = ANSIBLE_TEST_KEY) -> bool:
    """Create ansible-test's SSH key pair (``~/.ansible/test/id_rsa`` and ``.pub``) unless both are there, as
    ansible-test would, before any group starts; True when it was created.

    Each ansible-test run creates the pair when it is missing, without a lock: runs starting together on a home
    directory that never ran ansible-test both call ssh-keygen, and the later one stops at "Overwrite (y/n)?".
    The pair is made in a private directory beside it and moved into place, private key last."""
    key = os.path.expanduser(key)
    public = key + ".pub"
    if os.path.isfile(key) and os.path.isfile(public):
        return False
    directory = os.path.dirname(key)
    os.makedirs(directory, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        made = os.path.join(scratch, os.path.basename(key))
        subprocess.run(
            ["ssh-keygen", "-m", "PEM", "-q", "-t", "rsa", "-N", "", "-f", made],
            check=True,
            stdin=subprocess.DEVNULL,
            capture_output=True,
        )
        # As ansible-test does: newer ssh-keygen PEM output is not recognized by paramiko.
        with open(made, encoding="utf-8") as private:
            text = re.sub(r"(BEGIN|END) PRIVATE KEY", r"\1 RSA PRIVATE KEY", private.read())
        with open(made, "w", encoding="utf-8") as private:
            private.write(text)
        os.replace(made + ".pub", public)
        os.replace(made, key)
    return True


def tree_cpu_seconds(root_pid: int, proc: str = PROC) -> float | None:
    """The CPU time of ``root_pid`` and its live descendants, each with the children it has reaped (None when /proc
    cannot be read). A child that ended counts in its parent once reaped, so the sum only grows, up to the moment
    between a child's end and its reaping."""
    children, cpu = {}, {}
    try:
        names = os.listdir(proc)
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(os.path.join(proc, name, "stat"), encoding="utf-8", errors="replace") as stat:
                # The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
        cpu[int(name)] = sum(int(value) for value in fields[CPU_FIELDS])
    if root_pid not in cpu:
        return None
    ticks, waiting = 0, [root_pid]
    while waiting:
        pid = waiting.pop()
        ticks += cpu[pid]
        waiting.extend(children.get(pid, ()))
    return ticks / os.sysconf("SC_CLK_TCK")


def remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


class Job:
    """One group of targets: with_simulators.py running ansible-test in its own copy."""

    def __init__(
        self, number: int, targets: list[str], root: str, args: argparse.Namespace, command: list[str]
    ) -> None:
        self.number = number
        self.targets = targets
        self.log_path = os.path.join(args.log_dir, f"job-{number}.log")
        self.started = time.monotonic()
        self.ended: float | None = None
        # Each target ansible-test started: its name, when it was seen and the group's CPU time then.
        self.seen: list[tuple[str, float, float | None]] = []
        self.read = 0
        self.cpu: float | None = None

        argv = (
            [
                sys.executable,
                WITH_SIMULATORS,
                "--profiles",
                args.profiles,
                "--config-out",
                os.path.join(root, CONFIG),
                "--log-dir",
                os.path.join(args.log_dir, f"simulators-{number}"),
                "--",
            ]
            + command
            + targets
        )

        with open(self.log_path, "wb") as output:
            self.process = subprocess.Popen(  # pylint: disable=consider-using-with
                argv,
                cwd=root,
                env=dict(os.environ, ANSIBLE_TEST_CONTENT_ROOT=root),
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )

    def poll(self) -> int | None:
        status = self.process.poll()

        if status is None:
            sampled = tree_cpu_seconds(self.process.pid)
            self.cpu = self.cpu if sampled is None else sampled
        elif self.ended is None:
            self.ended = time.monotonic()

        return status

    def started_targets(self) -> list[tuple[str, float, float | None]]:
        """The targets ansible-test has started so far, with when this script first saw each start (it looks every
        second: the log's lines since the last look) and the group's CPU time then."""
        with open(self.log_path, "rb") as output:
            output.seek(self.read)
            gained = output.read()
        complete = gained.rfind(b"\n") + 1
        self.read += complete
        now = time.monotonic()
        for name in RUNNING.findall(gained[:complete]):
            self.seen.append((name.decode("utf-8", "replace"), now, self.cpu))
        return self.seen

    def target_times(self) -> list[tuple[str, float, float | None]]:
        """Each started target's wall and CPU seconds: until the next one started, the last until the group ended."""
        ends = [(since, cpu) for _name, since, cpu in self.seen[1:]] + [(self.ended or time.monotonic(), self.cpu)]
        return [
            (name, end - since, None if cpu is None or end_cpu is None else end_cpu - cpu)
            for (name, since, cpu), (end, end_cpu) in zip(self.seen, ends)
        ]

    def report(self) -> None:
        """Print the group's whole output, then one line saying how it ended."""
        print(f"===== job {self.number}: {' '.join(self.targets)}", flush=True)

        with open(self.log_path, "rb") as output:
            shutil.copyfileobj(output, sys.stdout.buffer)

        sys.stdout.flush()
        outcome = "passed" if self.process.returncode == 0 else f"FAILED (exit status {self.process.returncode})"
        log(f"job {self.number} {outcome} in {self.ended - self.started:.0f} s ({self.log_path})")

    def stop(self) -> None:
        """Ask with_simulators.py to stop: it stops ansible-test and the simulators."""
        if self.process.poll() is None:
            self.process.terminate()

            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def progress(jobs: list[Job], total: int) -> str:
    """How many targets are done, and the running ones, longest first, with how long they have run."""
    done, running = 0, []
    for job in jobs:
        started = job.started_targets()
        if job.ended is not None:
            done += len(job.targets)
        elif started:
            done += len(started) - 1
            name, since, _cpu = started[-1]
            running.append((max(0.0, time.monotonic() - since), name))
    text = f"progress: {done} of {total} targets done"
    if running:
        text += "; running: " + ", ".join(
            f"{name} ({seconds / 60:.0f} min)"
            for seconds, name in sorted(running, key=lambda item: (-item[0], item[1]))
        )
    return text


def times_table(jobs: list[Job]) -> str:
    """The targets' wall and CPU times as a Markdown table, most CPU first, with the groups' totals."""
    rows = [(name, wall, cpu, job.number) for job in jobs for name, wall, cpu in job.target_times()]
    lines = ["| target | group | wall s | CPU s |", "|---|---|---|---|"]
    for name, wall, cpu, number in sorted(rows, key=lambda row: (-(row[2] or 0), row[0])):
        lines.append(f"| {name} | {number} | {wall:.0f} | {'?' if cpu is None else f'{cpu:.0f}'} |")
    for job in jobs:
        cpu = "?" if job.cpu is None else f"{job.cpu:.0f}"
        lines.append(
            f"| (group {job.number}, setup included) | {job.number} | {(job.ended or 0) - job.started:.0f} | {cpu} |"
        )
    return "\n".join(lines) + "\n"


def on_signal(signum: int, _frame: object) -> None:
    raise Terminated(signum)


def main(argv: list[str]) -> int:
    args, command = parse_args(argv)
    roots = [os.path.join(args.work_dir, str(number), COLLECTION_PATH) for number in range(1, args.jobs + 1)]

    seconds = estimated_seconds(args.estimates, [args.content] + roots, module_facts().run_times(REPOSITORY))

    if args.write_estimates:
        modules, others = write_estimates(args.estimates, seconds)
        log(
            f"wrote the run times of {modules} modules' targets to their declarations, {others} others' to {args.estimates}"
        )
        return 0

    targets = list_targets(command, args.content, args.targets.split())

    if not targets:
        log("no targets to run")
        return 1

    groups = split_targets(targets, seconds, args.jobs)
    os.makedirs(args.log_dir, exist_ok=True)

    if ensure_ansible_test_key():
        log(f"created ansible-test's SSH key pair {os.path.expanduser(ANSIBLE_TEST_KEY)} before the groups start")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    jobs: list[Job] = []

    try:
        for number, group in enumerate(groups, start=1):
            refresh_copy(args.content, roots[number - 1])
            log(f"job {number}: {' '.join(group)}")
            jobs.append(Job(number, group, roots[number - 1], args, command))

        waiting = list(jobs)
        reported = time.monotonic()

        while waiting:
            ended = False

            for job in list(waiting):
                job.started_targets()
                if job.poll() is not None:
                    waiting.remove(job)
                    job.report()
                    ended = True

            if waiting and (ended or time.monotonic() - reported >= PROGRESS_SECONDS):
                log(progress(jobs, len(targets)))
                reported = time.monotonic()

            time.sleep(1)

        table = os.path.join(args.log_dir, "integration-targets.md")
        with open(table, "w", encoding="utf-8") as output:
            output.write(times_table(jobs))
        log(f"wall and CPU time of each target: {table}")

        failed = [job for job in jobs if job.process.returncode != 0]
        return failed[0].process.returncode if failed else 0
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except Terminated as ex:
        log(f"stopped by signal {ex.args[0]}")
        return 128 + ex.args[0]
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

        for job in jobs:
            job.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
