# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/utils/parallel_integration.py: how the targets are split into groups, and how a group's copy of the
collection is refreshed."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "tests", "utils", "parallel_integration.py")


@pytest.fixture(scope="module")
def parallel():
    spec = importlib.util.spec_from_file_location("parallel_integration", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_groups_have_about_the_same_run_time_and_hold_every_target_once(parallel):
    seconds = {"a": 300, "b": 200, "c": 100, "d": 100, "e": 90, "f": 10}

    groups = parallel.split_targets(sorted(seconds), seconds, 2)

    assert sorted(name for group in groups for name in group) == sorted(seconds)
    totals = sorted(sum(seconds[name] for name in group) for group in groups)
    assert totals == [400, 400]


def test_a_target_never_run_counts_as_the_mean_of_the_others(parallel):
    groups = parallel.split_targets(["long", "new", "short"], {"long": 100, "short": 20}, 2)

    assert groups == [["long"], ["new", "short"]]


def test_without_any_recorded_time_every_target_counts_the_same(parallel):
    groups = parallel.split_targets(["a", "b", "c", "d"], {}, 2)

    assert sorted(len(group) for group in groups) == [2, 2]


def test_never_more_groups_than_targets(parallel):
    assert parallel.split_targets(["only"], {}, 4) == [["only"]]


def test_the_newest_result_gives_a_targets_run_time(parallel, tmp_path):
    data = tmp_path / "tests" / "output" / "data"
    data.mkdir(parents=True)
    older, newer = data / "integration-1.json", data / "integration-2.json"
    older.write_text(json.dumps({"targets": {"a": {"run_time_seconds": 5}, "b": {"run_time_seconds": 7}}}))
    newer.write_text(json.dumps({"targets": {"a": {"run_time_seconds": 9}}}))
    os.utime(older, (1, 1))
    (data / "integration-3.json").write_text("not json")

    assert parallel.recorded_seconds([str(tmp_path)]) == {"a": 9, "b": 7}


def test_a_refreshed_copy_matches_the_content_and_keeps_only_its_own_output(parallel, tmp_path):
    content, root = tmp_path / "content", tmp_path / "copy"
    (content / "plugins").mkdir(parents=True)
    (content / "plugins" / "new.py").write_text("new")
    (content / "tests" / "output").mkdir(parents=True)
    (content / "tests" / "output" / "from-content").write_text("not copied")
    (content / "tests" / "integration").mkdir()
    (content / "tests" / "integration" / "integration_config.yml").write_text("not copied")
    (root / "plugins").mkdir(parents=True)
    (root / "plugins" / "stale.py").write_text("stale")
    (root / "tests" / "output").mkdir(parents=True)
    (root / "tests" / "output" / "kept").write_text("kept")
    (root / "tests" / "stale").write_text("stale")

    parallel.refresh_copy(str(content), str(root))

    assert (root / "plugins" / "new.py").read_text() == "new"
    assert not (root / "plugins" / "stale.py").exists()
    assert not (root / "tests" / "stale").exists()
    assert (root / "tests" / "output" / "kept").read_text() == "kept"
    assert not (root / "tests" / "output" / "from-content").exists()
    assert not (root / "tests" / "integration" / "integration_config.yml").exists()


def test_recorded_run_times_win_over_the_estimates_and_a_bad_estimates_file_counts_as_none(parallel, tmp_path):
    data = tmp_path / "tests" / "output" / "data"
    data.mkdir(parents=True)
    (data / "integration-1.json").write_text(json.dumps({"targets": {"a": {"run_time_seconds": 9}}}))
    estimates = tmp_path / "estimates.json"
    estimates.write_text(json.dumps({"a": 100, "b": 40, "c": "slow"}))

    assert parallel.estimated_seconds(str(estimates), [str(tmp_path)], {"a": 50, "m": 30}) == {"a": 9, "b": 40, "m": 30}

    estimates.write_text("[1, 2]")
    assert parallel.estimated_seconds(str(estimates), [str(tmp_path)], {}) == {"a": 9}
    assert parallel.estimated_seconds(str(tmp_path / "missing.json"), [], {}) == {}


def test_written_estimates_go_to_the_modules_declarations_and_the_others_to_the_file(parallel, tmp_path):
    declaration = os.path.join(ROOT, "tests", "modules", "vault_server_info.yml")
    with open(declaration, encoding="utf-8") as handle:
        text = handle.read()
    (tmp_path / "tests" / "modules").mkdir(parents=True)
    (tmp_path / "tests" / "modules" / "vault_server_info.yml").write_text(text, encoding="utf-8")
    estimates = tmp_path / "estimates.json"

    written = parallel.write_estimates(str(estimates), {"vault_server_info": 41.6, "demo": 20}, str(tmp_path))

    assert written == (1, 1)
    assert json.loads(estimates.read_text(encoding="utf-8")) == {"demo": 20}
    rewritten = (tmp_path / "tests" / "modules" / "vault_server_info.yml").read_text(encoding="utf-8")
    assert parallel.module_facts().run_times(str(tmp_path)) == {"vault_server_info": 42}
    assert [line for line in rewritten.splitlines() if not line.startswith("run_time:")] == [
        line for line in text.splitlines() if not line.startswith("run_time:")
    ]


def test_the_committed_estimates_name_every_integration_target(parallel):
    with open(os.path.join(ROOT, "tests", "utils", "integration_run_times.json"), encoding="utf-8") as handle:
        others = json.load(handle)
    declared = parallel.module_facts().run_times(ROOT)
    estimates = dict(others, **declared)
    assert sorted(set(others) & set(declared)) == []
    targets_dir = os.path.join(ROOT, "tests", "integration", "targets")
    targets = {
        name
        for name in os.listdir(targets_dir)
        if not name.startswith("setup_") and os.path.isdir(os.path.join(targets_dir, name))
    }

    assert sorted(targets - set(estimates)) == []
    assert sorted(set(estimates) - targets) == []


def test_ansible_tests_ssh_key_pair_is_made_once_before_the_groups_start(parallel, tmp_path):
    key = tmp_path / "home" / ".ansible" / "test" / "id_rsa"

    assert parallel.ensure_ansible_test_key(str(key)) is True

    private = key.read_text(encoding="utf-8")
    assert private.startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert (tmp_path / "home" / ".ansible" / "test" / "id_rsa.pub").read_text(encoding="utf-8").startswith("ssh-rsa ")
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert sorted(os.listdir(key.parent)) == ["id_rsa", "id_rsa.pub"]
    # A second call (every later run) keeps the pair: ansible-test's runs would otherwise race to make it.
    assert parallel.ensure_ansible_test_key(str(key)) is False
    assert key.read_text(encoding="utf-8") == private


def test_a_half_made_pair_is_made_again(parallel, tmp_path):
    key = tmp_path / "id_rsa"
    key.write_text("left by an interrupted run", encoding="utf-8")

    assert parallel.ensure_ansible_test_key(str(key)) is True

    assert "RSA PRIVATE KEY" in key.read_text(encoding="utf-8")
    assert (tmp_path / "id_rsa.pub").exists()


def test_progress_counts_the_targets_done_and_names_the_running_ones_longest_first(parallel, tmp_path, monkeypatch):
    """The line make test's console shows while the integration stage runs (pipeline.py relays it)."""
    now = [1000.0]
    monkeypatch.setattr(parallel.time, "monotonic", lambda: now[0])
    jobs = []
    for number, (targets, log) in enumerate(
        [
            (["a", "b", "c"], "Running a integration test role\nok\nRunning b integration test script\n"),
            (["d", "e"], "Running d integration test script\n"),
            (["f"], "Running f integration test role\n"),
            (["g"], ""),
        ],
        start=1,
    ):
        job = parallel.Job.__new__(parallel.Job)
        job.number, job.targets, job.ended, job.seen, job.read, job.cpu = number, targets, None, [], 0, None
        job.log_path = str(tmp_path / ("job-%d.log" % number))
        (tmp_path / ("job-%d.log" % number)).write_text(log)
        jobs.append(job)
    jobs[2].ended = 990.0
    assert parallel.progress(jobs, 7) == "progress: 2 of 7 targets done; running: b (0 min), d (0 min)"
    now[0] += 300
    with open(jobs[0].log_path, "a", encoding="utf-8") as log:
        log.write("Running c integration test role\n")
    assert parallel.progress(jobs, 7) == "progress: 3 of 7 targets done; running: d (5 min), c (0 min)"


def write_stat(proc, pid, parent, ticks, command="python3"):
    """A /proc/<pid>/stat line: pid, (comm), state, ppid, nine fields, then utime stime cutime cstime."""
    (proc / str(pid)).mkdir()
    fields = ["S", str(parent)] + ["0"] * 9 + [str(value) for value in ticks] + ["20", "0"]
    (proc / str(pid) / "stat").write_text("%d (%s) %s\n" % (pid, command, " ".join(fields)))


def test_a_groups_cpu_time_sums_its_live_process_tree_with_what_each_reaped(parallel, tmp_path):
    """The group's with_simulators.py (pid 10), a simulator and ansible-test beside it, ansible-playbook under that;
    a stranger (pid 30) and a process whose name holds ') (' do not confuse the sum."""
    ticks = os.sysconf("SC_CLK_TCK")
    write_stat(tmp_path, 10, 1, (1, 1, 0, 0))
    write_stat(tmp_path, 11, 10, (2 * ticks, 0, 0, 0), "simulator ) (x")
    write_stat(tmp_path, 12, 10, (0, 0, 3 * ticks, ticks))
    write_stat(tmp_path, 13, 12, (ticks, ticks, 0, 0))
    write_stat(tmp_path, 30, 1, (100 * ticks, 0, 0, 0))
    (tmp_path / "self").mkdir()
    assert parallel.tree_cpu_seconds(10, str(tmp_path)) == pytest.approx(8 + 2 / ticks)
    assert parallel.tree_cpu_seconds(13, str(tmp_path)) == pytest.approx(2)
    assert parallel.tree_cpu_seconds(99, str(tmp_path)) is None
    assert parallel.tree_cpu_seconds(10, str(tmp_path / "missing")) is None


def test_this_processs_tree_has_cpu_time(parallel):
    spent = parallel.tree_cpu_seconds(os.getpid())
    sum(range(3_000_000))
    assert parallel.tree_cpu_seconds(os.getpid()) > spent


def test_each_target_gets_the_time_until_the_next_one_started_the_last_until_its_group_ended(parallel):
    job = parallel.Job.__new__(parallel.Job)
    job.number, job.started, job.ended, job.cpu = 1, 0.0, 100.0, 90.0
    job.seen = [("a", 5.0, 4.0), ("b", 35.0, 50.0), ("c", 60.0, None)]
    assert job.target_times() == [("a", 30.0, 46.0), ("b", 25.0, None), ("c", 40.0, None)]
    other = parallel.Job.__new__(parallel.Job)
    other.number, other.started, other.ended, other.cpu = 2, 0.0, 50.0, 30.0
    other.seen = [("d", 1.0, 2.0)]
    table = parallel.times_table([job, other])
    assert table.splitlines()[2:5] == ["| a | 1 | 30 | 46 |", "| d | 2 | 49 | 28 |", "| b | 1 | 25 | ? |"]
    assert "| (group 2, setup included) | 2 | 50 | 30 |" in table
