#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Check the collection on one ansible-core version of the support matrix.

Usage::

    matrix.py --row 2.16 --content DIR --work-dir DIR [--require-python]
    matrix.py --list

The full suite runs on the newest stable ansible-core (the Makefile's .venv); every other version in
the supported range is a row of ``ROWS``: in ``WORK-DIR/<row>`` it gets a virtual environment with that
ansible-core on the Python the row names, its own copy of the collection and its own home directory
(ansible-test keeps its virtual environments and SSH key under ``~/.ansible``: rows running at the same
time must not share them), then, in order:

* ``sanity``: ``ansible-test sanity --venv --python X`` of that version, leaving out the repository's tooling
  (``NOT_RUN_BY_ANSIBLE_CORE``, which make sanity checks with the ansible-core and Python that run it) and, on the
  rows that do not run them, the unit tests (``UNIT_TESTS``);
* ``units``: the collection's unit tests (tests/unit) but the module scenarios (``SCENARIOS``), and the tests of the
  repository's tooling (tests/tooling), on the oldest and the newest version only;
* ``smoke``: tests/utils/smoke.py, a run against the simulator touching every plugin type, failing on
  any deprecation warning; on 2.22 and later it also checks that secrets printed without ``no_log`` are masked
  by ansible-core's Secrets API (``secrets_masked``, which the 2.22 row is there to run);
* ``runner-check``: tests/utils/runner_check.py, a job through ansible-runner with its artifacts searched for
  secrets, on the rows that say so (2.22; the full suite runs it on its own ansible-core).

Exit status: 0 when every step passed; 1 when a step failed; 3 when the row's Python is not on this machine
(found as ``python3.X`` on the PATH or in pyenv, see interpreters.py), unless ``--require-python`` makes
that a failure too (CI). Only the standard library is used.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import interpreters  # noqa: E402  (a sibling script, not a package)

PROG = "matrix"
COLLECTION_PATH = os.path.join("ansible_collections", "credvault", "vault")
NOT_RUN = 3
# The pip bootstrap scripts ansible-test downloads unless cached, named after the pip version each
# ansible-core line uses (see ../../TOOLCHAIN facts in README.md); the offline one serves them all.
GET_PIP_NAMES = ("get_pip_23_1_2.py", "get_pip_24_2.py", "get_pip_25_2.py")
GET_PIP_OFFLINE = os.path.join(HERE, "get_pip_offline.py")
# antsibull-changelog: tests/unit/test_changelog.py renders the changelog with it.
UNIT_REQUIREMENTS = ("pytest", "hypothesis", "antsibull-changelog")
# The repository's own tooling, which no row's ansible-core loads or runs: the simulator, make's scripts and the
# benchmark run on .venv's Python whatever the row (get_pip_offline.py runs on the row's Python, under ansible-test,
# and a failure there fails the row). Two fifths of the lines of Python: every row leaves them out (about half a
# minute of CPU each) and checks what its ansible-core loads or runs: the plugins, roles, extensions, and the unit
# and integration tests. make sanity (2.21, on .venv's Python, which runs the tooling) and make lint check them.
NOT_RUN_BY_ANSIBLE_CORE = ("tests/simulator/", "tests/utils/", "tests/bench/")
# The unit tests, another two fifths: run on the oldest and the newest row only (``units``), so the rows between
# leave them out of sanity too (about a minute of CPU each): what such a row checks is what its ansible-core loads.
UNIT_TESTS = ("tests/unit/", "tests/tooling/")
# The module scenarios moved down from the integration suite, which runs on .venv's ansible-core only: the rows run
# the rest of the unit tests, and the integration contract of each module stays in integration.
SCENARIOS = "tests/unit/plugins/scenarios"


@dataclass(frozen=True)
class Row:
    """One ansible-core line: where it runs and what it gets."""

    core: str
    python: str
    requirement: str
    units: bool = False
    pre_release: bool = False
    # tests/utils/runner_check.py, a job through ansible-runner (the full suite runs it on .venv's ansible-core).
    runner_check: bool = False
    # ansible-test sanity tests that cannot run here, each with the reason.
    sanity_skips: tuple = ()


ROWS = (
    Row("2.16", "3.11", "ansible-core>=2.16,<2.17", units=True),
    Row("2.17", "3.11", "ansible-core>=2.17,<2.18"),
    Row("2.18", "3.11", "ansible-core>=2.18,<2.19"),
    Row("2.19", "3.11", "ansible-core>=2.19,<2.20"),
    Row("2.20", "3.12", "ansible-core>=2.20,<2.21"),
    Row(
        "2.22",
        "3.13",
        "ansible-core>=2.22.0rc1,<2.23",
        units=True,
        pre_release=True,
        runner_check=True,
        sanity_skips=(
            (
                "pylint",
                "ansible-test 2.22.0rc1 pins pylint's dill to a GitHub archive "
                "(dill @ https://github.com/uqfoundation/dill/archive/...zip), which cannot be downloaded offline",
            ),
        ),
    ),
)


def log(message):
    print("%s: %s" % (PROG, message), file=sys.stderr, flush=True)


def run(command, **kwargs):
    """Run ``command``; raise StepFailed naming it when it fails."""
    log("$ " + " ".join(command))
    result = subprocess.run(command, check=False, **kwargs)
    if result.returncode:
        raise StepFailed("%s exited with %d" % (command[0], result.returncode))


class StepFailed(Exception):
    """A step of the row failed; the message says which command."""


def make_venv(row, python, venv, content):
    """The row's virtual environment: its ansible-core, requests, and for unit rows the test libraries."""
    stamp = os.path.join(venv, ".installed")
    if os.path.exists(stamp):
        return
    shutil.rmtree(venv, ignore_errors=True)
    run([python, "-m", "venv", venv])
    pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--progress-bar", "off", "--quiet"]
    packages = [row.requirement, "-r", os.path.join(content, "requirements.txt")]
    if row.units:
        packages += ["-r", os.path.join(content, "tests", "unit", "requirements.txt"), *UNIT_REQUIREMENTS]
        # The fault harness runs the simulator in-process; installed from the row's own copy so that rows
        # building at the same time do not share a build directory.
        packages.append(os.path.join(content, "tests", "simulator"))
    run(pip + (["--pre"] if row.pre_release else []) + packages)
    open(stamp, "w").close()


def copy_collection(source, root):
    """A fresh copy of the collection under ``root`` (its tests/output kept, for ansible-test's venvs)."""
    target = os.path.join(root, COLLECTION_PATH)
    output = os.path.join(target, "tests", "output")
    kept = None
    if os.path.isdir(output):
        kept = output + ".kept"
        os.replace(output, kept)
    shutil.rmtree(target, ignore_errors=True)
    source_output = os.path.join(source, "tests", "output")
    shutil.copytree(
        source,
        target,
        symlinks=True,
        ignore=lambda folder, names: ["output"] if folder == os.path.dirname(source_output) else [],
    )
    if kept:
        os.replace(kept, output)
    return target


def prepare_home(home):
    """A private home directory with ansible-test's offline pip bootstrap in its cache."""
    cache = os.path.join(home, ".ansible", "test", "cache")
    os.makedirs(cache, exist_ok=True)
    for name in GET_PIP_NAMES:
        shutil.copyfile(GET_PIP_OFFLINE, os.path.join(cache, name))


def row_environment(venv, home):
    env = dict(os.environ)
    env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env["PATH"]
    # pip's download cache stays the user's, so that rows do not each fetch the same wheels.
    env.setdefault("PIP_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "pip"))
    env["HOME"] = home
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "ANSIBLE_COLLECTIONS_PATH", "ANSIBLE_CONFIG"):
        env.pop(name, None)
    return env


def left_out_of_sanity(row):
    """What ``row``'s sanity leaves out: what its ansible-core neither loads nor runs (the tooling, and the unit tests
    where the row does not run them)."""
    return NOT_RUN_BY_ANSIBLE_CORE + (() if row.units else UNIT_TESTS)


def sanity(row, copy, env):
    command = ["ansible-test", "sanity", "--venv", "--python", row.python]
    for path in left_out_of_sanity(row):
        command += ["--exclude", path]
    for test, reason in row.sanity_skips:
        log("sanity: %s skipped on %s: %s" % (test, row.core, reason))
        command += ["--skip-test", test]
    run(command, cwd=copy, env=dict(env, ANSIBLE_TEST_CONTENT_ROOT=copy))


def units(venv, root, copy, env):
    python = os.path.join(venv, "bin", "python")
    run(
        # pytest's temporary files beside the row's collections, not in /tmp/pytest-of-<user>.
        [python, "-m", "pytest", "-p", "no:cacheprovider", "--basetemp", os.path.join(os.path.dirname(root), "pytest")]
        + ["--rootdir", copy, "-q", "--ignore", SCENARIOS, *UNIT_TESTS],
        cwd=copy,
        env=dict(env, PYTHONPATH=root),
    )


def smoke(venv, root, work_dir, env):
    run(
        [
            sys.executable,
            os.path.join(HERE, "smoke.py"),
            "--ansible-bin",
            os.path.join(venv, "bin"),
            "--collections",
            root,
            "--work-dir",
            os.path.join(work_dir, "smoke"),
        ],
        env=env,
    )


def runner_check(venv, root, work_dir, env):
    run(
        [sys.executable, os.path.join(HERE, "runner_check.py"), "--ansible-bin", os.path.join(venv, "bin")]
        + ["--collections", root, "--work-dir", os.path.join(work_dir, "runner-check")],
        env=env,
    )


def children_cpu_seconds():
    """The CPU time of the ended child processes (each step runs its commands as children and waits for them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check_row(row, content, work_dir):
    python = interpreters.find(row.python)
    if not python:
        return None
    root = os.path.join(work_dir, "collections")
    copy = copy_collection(content, root)
    venv = os.path.join(work_dir, "venv")
    home = os.path.join(work_dir, "home")
    prepare_home(home)
    steps = [("venv", lambda: make_venv(row, python, venv, copy))]
    env = row_environment(venv, home)
    steps.append(("sanity", lambda: sanity(row, copy, env)))
    if row.units:
        steps.append(("units", lambda: units(venv, root, copy, env)))
    steps.append(("smoke", lambda: smoke(venv, root, work_dir, env)))
    if row.runner_check:
        steps.append(("runner-check", lambda: runner_check(venv, root, work_dir, env)))
    for name, step in steps:
        started, cpu = time.monotonic(), children_cpu_seconds()
        step()
        log(
            "%s %s passed in %.0f s (CPU %.0f s)"
            % (row.core, name, time.monotonic() - started, children_cpu_seconds() - cpu)
        )
    return python


def main(argv=None):
    parser = argparse.ArgumentParser(prog="matrix.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--row", help="the ansible-core line to check, e.g. 2.16")
    parser.add_argument("--content", help="the collection (an ansible_collections/credvault/vault directory)")
    parser.add_argument("--work-dir", help="where the row's venv, copy and home go")
    parser.add_argument("--require-python", action="store_true", help="a missing Python is a failure (CI)")
    parser.add_argument("--list", action="store_true", help="print the rows, one per line, and exit")
    args = parser.parse_args(argv)
    if args.list:
        print(" ".join(row.core for row in ROWS))
        return 0
    if not (args.row and args.content and args.work_dir):
        parser.error("--row, --content and --work-dir are required")
    row = next((row for row in ROWS if row.core == args.row), None)
    if row is None:
        parser.error("no row %s; the rows are %s" % (args.row, ", ".join(r.core for r in ROWS)))
    try:
        python = check_row(row, os.path.abspath(args.content), os.path.abspath(args.work_dir))
    except StepFailed as exc:
        log("ansible-core %s: FAILED: %s" % (row.core, exc))
        return 1
    if python is None:
        log("ansible-core %s: not run: no Python %s on the PATH or in pyenv" % (row.core, row.python))
        return 1 if args.require_python else NOT_RUN
    log("ansible-core %s on %s: passed" % (row.core, python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
