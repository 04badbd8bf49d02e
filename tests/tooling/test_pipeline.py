# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/utils/pipeline.py, interpreters.py and matrix.py: how make test runs its stages side by side, finds the
Pythons of the support matrix and reports a version it cannot run."""

from __future__ import annotations

import importlib.util
import os
import re
import stat
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
UTILS = os.path.join(ROOT, "tests", "utils")
PIPELINE = os.path.join(UTILS, "pipeline.py")
INTERPRETERS = os.path.join(UTILS, "interpreters.py")


def load(name):
    sys.path.insert(0, UTILS)
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(UTILS, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(UTILS)
    return module


@pytest.fixture
def stage_script(tmp_path):
    """A stage command: ``stage.sh NAME`` records its start and end in a shared file, then sleeps, fails or says
    it was not run, as the stage's name says."""
    script = tmp_path / "stage.sh"
    script.write_text(
        "#!/bin/sh\n"
        'echo "start $1" >> "%s/events"\n'
        'case "$1" in fail*) sleep 0.3; echo "broken"; exit 1;; notrun*) echo "not run: no Python 3.99"; exit 3;; '
        "slow*) sleep 30;; busy*) %s -c 'sum(range(20000000))';; *) sleep 0.3;; esac\n"
        'echo "end $1" >> "%s/events"\n' % (tmp_path, sys.executable, tmp_path)
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def run_pipeline(tmp_path, stage_script, stages, slots=2):
    command = [sys.executable, PIPELINE, "--slots", str(slots), "--log-dir", str(tmp_path / "logs")]
    command += ["--summary", str(tmp_path / "times.md")]
    for stage in stages:
        command += ["--stage", stage]
    return subprocess.run(command + ["--", str(stage_script)], capture_output=True, text=True, timeout=60, check=False)


def events(tmp_path):
    return (tmp_path / "events").read_text().split("\n")[:-1]


def test_stages_run_side_by_side_within_the_slots_and_are_timed(tmp_path, stage_script):
    result = run_pipeline(tmp_path, stage_script, ["a", "b", "c"], slots=2)

    assert result.returncode == 0, result.stdout
    order = events(tmp_path)
    # a and b start together; c waits for a slot.
    assert sorted(order[:2]) == ["start a", "start b"]  # both shells may begin in either order
    assert order.index("start c") > min(order.index("end a"), order.index("end b"))
    table = (tmp_path / "times.md").read_text()
    for name in ("a", "b", "c"):
        assert "| %s | passed |" % name in table


def test_each_stage_reports_the_cpu_time_of_its_processes(tmp_path, stage_script):
    result = run_pipeline(tmp_path, stage_script, ["busy", "idle"], slots=2)

    assert result.returncode == 0, result.stdout
    cpu = dict(re.findall(r"(\w+) passed in \d+ s \(CPU ([\d.]+) s\)", result.stdout))
    assert float(cpu["busy"]) >= 0.2  # the Python child's work counts, though the stage's shell only waited
    assert float(cpu["idle"]) < 0.2
    assert "| wall time | CPU time |" in (tmp_path / "times.md").read_text()


def test_the_cpu_time_at_the_reference_speed_scales_by_the_calibration(tmp_path, stage_script):
    pipeline = load("pipeline")
    stage = pipeline.Stage("units", 1, seconds=600, cpu_seconds=3000, result="passed")
    reference = pipeline.REFERENCE_CALIBRATION_SECONDS

    # A machine 25 % slower than the reference before the stages and 15 % after: its 50 minutes are 41 min 40 s at
    # the reference speed (3000 s / 1.2).
    table = pipeline.summary([stage], 600, [reference * 1.25, reference * 1.15])
    assert table.splitlines()[-1].endswith("| 41 min 40 s |")
    assert "calibration %.2f s before, %.2f s after" % (reference * 1.25, reference * 1.15) in table
    assert "reference speed" not in pipeline.summary([stage], 600)

    result = subprocess.run(
        [sys.executable, PIPELINE, "--calibrate", "--log-dir", str(tmp_path / "logs"), "--stage", "a"]
        + ["--", str(stage_script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout
    assert re.search(r"calibration \d+\.\d\d s before, \d+\.\d\d s after", result.stdout)


def test_a_heavy_stage_runs_alone(tmp_path, stage_script):
    result = run_pipeline(tmp_path, stage_script, ["heavy:2", "light"], slots=2)

    assert result.returncode == 0, result.stdout
    assert events(tmp_path) == ["start heavy", "end heavy", "start light", "end light"]


def test_the_first_failure_stops_the_others_and_prints_its_log(tmp_path, stage_script):
    result = run_pipeline(tmp_path, stage_script, ["slow", "fail", "never"], slots=2)

    assert result.returncode == 1
    assert "broken" in result.stdout
    assert "end slow" not in events(tmp_path)
    assert "start never" not in events(tmp_path)
    table = (tmp_path / "times.md").read_text()
    assert "| fail | FAILED (exit status 1) |" in table
    assert "| slow | stopped |" in table


def test_a_stage_not_run_is_listed_with_its_reason_and_does_not_fail(tmp_path, stage_script):
    result = run_pipeline(tmp_path, stage_script, ["notrun", "a"])

    assert result.returncode == 0, result.stdout
    assert "| notrun | not run (not run: no Python 3.99) |" in (tmp_path / "times.md").read_text()
    assert "NOT RUN here: notrun" in result.stdout


def fake_python(folder, version):
    """An executable that answers ``import sys; print(...)`` with ``version``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ("python" + version)
    path.write_text("#!/bin/sh\necho %s\n" % version)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_a_python_on_the_path_comes_before_pyenv(tmp_path, monkeypatch):
    interpreters = load("interpreters")
    on_path = fake_python(tmp_path / "bin", "3.13")
    fake_python(tmp_path / "pyenv" / "versions" / "3.13.1" / "bin", "3.13")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))

    assert interpreters.find("3.13") == str(on_path)


def test_a_shim_that_fails_gives_way_to_the_newest_pyenv_version(tmp_path, monkeypatch):
    interpreters = load("interpreters")
    shim = tmp_path / "shims" / "python3.13"
    shim.parent.mkdir()
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.13: command not found' >&2\nexit 127\n")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    fake_python(tmp_path / "pyenv" / "versions" / "3.13.0" / "bin", "3.13")
    newest = fake_python(tmp_path / "pyenv" / "versions" / "3.13.10" / "bin", "3.13")
    monkeypatch.setenv("PATH", str(tmp_path / "shims"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))

    assert interpreters.find("3.13") == str(newest)
    assert interpreters.find("3.12") is None


def test_a_matrix_row_without_its_python_is_not_run_or_fails_when_required(tmp_path, monkeypatch):
    matrix = load("matrix")
    monkeypatch.setattr(matrix.interpreters, "find", lambda version: None)
    arguments = ["--row", "2.20", "--content", str(tmp_path), "--work-dir", str(tmp_path / "work")]

    assert matrix.main(arguments) == matrix.NOT_RUN
    assert matrix.main(arguments + ["--require-python"]) == 1


def test_the_matrix_covers_every_supported_line_but_the_full_suites():
    matrix = load("matrix")

    assert [row.core for row in matrix.ROWS] == ["2.16", "2.17", "2.18", "2.19", "2.20", "2.22"]
    assert [row.core for row in matrix.ROWS if row.units] == ["2.16", "2.22"]
    for row in matrix.ROWS:
        assert row.requirement.startswith("ansible-core>=%s" % row.core)


def test_a_rows_sanity_leaves_out_only_what_its_ansible_core_neither_loads_nor_runs():
    matrix = load("matrix")

    for row in matrix.ROWS:
        left_out = matrix.left_out_of_sanity(row)
        assert "plugins/" not in left_out and "tests/integration/" not in left_out
        assert set(matrix.NOT_RUN_BY_ANSIBLE_CORE) <= set(left_out)
        # The unit tests and the tooling's tests are checked wherever they run.
        for tests in ("tests/unit/", "tests/tooling/"):
            assert (tests in left_out) is not row.units
    # The tooling runs on .venv's ansible-core and Python only: make sanity checks it there.
    assert all(set(matrix.NOT_RUN_BY_ANSIBLE_CORE) <= set(matrix.left_out_of_sanity(row)) for row in matrix.ROWS)


def test_a_stages_progress_lines_reach_the_console_while_it_runs(tmp_path):
    """A stage that runs for long (integration) says how far it is: its "<prog>: progress: ..." lines are shown
    before it ends, each once and whole (one written in two pieces too), and its other lines are not."""
    script = tmp_path / "stage.sh"
    script.write_text(
        "#!/bin/sh\n"
        'echo "noise"; echo "worker: progress: 1 of 2 targets done"; sleep 1.5\n'
        'echo "worker: progress: 2 of 2"; echo "worker: progress: 3 \\c"; sleep 1.5; echo "of 3"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    result = run_pipeline(tmp_path, script, ["long"])
    assert result.returncode == 0, result.stdout + result.stderr
    shown = [line for line in result.stdout.splitlines() if "progress:" in line]
    assert [line.split("pipeline: ", 1)[1] for line in shown] == [
        "long progress: 1 of 2 targets done",
        "long progress: 2 of 2",
        "long progress: 3 of 3",
    ]
    ended = result.stdout.index("long passed")
    assert all(result.stdout.index(line) < ended for line in shown)
    assert "noise" not in result.stdout
