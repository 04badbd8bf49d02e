# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The object lock: one holder at a time across processes, a bounded wait, a private directory, hashed names."""

from __future__ import annotations

import multiprocessing
import os
import stat
import time

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _object_lock
from ansible_collections.credvault.vault.plugins.module_utils._object_lock import (
    ObjectLockError,
    lock_directory,
    object_lock,
    object_locks,
    sent_by_this_task,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, lock_held

IDENTITY = ("web-01.example.com",)


def hold(tempdir, seconds, ready):
    """In a child process: take the lock of IDENTITY, say so, hold it ``seconds``."""
    import tempfile  # pylint: disable=import-outside-toplevel

    tempfile.tempdir = tempdir
    with object_lock(ScriptedClient({}), "certificate", IDENTITY):
        ready.set()
        time.sleep(seconds)


def take_turns(tempdir, record, turns):
    """In a child process: ``turns`` times, take the lock of IDENTITY and note the turn's start and end."""
    import tempfile  # pylint: disable=import-outside-toplevel

    tempfile.tempdir = tempdir
    for _turn in range(turns):
        with object_lock(ScriptedClient({}), "certificate", IDENTITY, wait=30):
            with open(record, "a", encoding="utf-8") as handle:
                handle.write("start\n")
                handle.flush()
                time.sleep(0.005)
                handle.write("end\n")


def send_once(tempdir, record, task):
    """In a child process (a fork of one task): send the write of IDENTITY unless another fork of ``task`` sent it,
    noting "sent" or "found"."""
    import tempfile  # pylint: disable=import-outside-toplevel

    tempfile.tempdir = tempdir
    os.environ[_object_lock.TASK_VARIABLE] = task
    with sent_by_this_task(ScriptedClient({}), "share targets", IDENTITY, wait=30) as sent:
        found = sent.repeats({"user jdoe": "view"})
        if not found:
            time.sleep(0.01)  # the write
            sent.sent({"user jdoe": "view"})
    with open(record, "a", encoding="utf-8") as handle:
        handle.write("found\n" if found else "sent\n")


def run_all(tmp_path, target, arguments):
    """Run ``target(tempdir, record, *each)`` in a process for each of ``arguments``, all at once; the words the
    processes wrote to their shared record file."""
    context = multiprocessing.get_context("forkserver")
    record = tmp_path / "record.txt"
    processes = [context.Process(target=target, args=(str(tmp_path), str(record), *each)) for each in arguments]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    return record.read_text().split()


@pytest.fixture
def holder(tmp_path):
    """Start a process that holds the lock of IDENTITY for the given seconds; joined at the end."""
    # Not "fork": the fault suite's simulators keep threads running in this process for the whole session, and a
    # fork of a multi-threaded process may deadlock (Python 3.12+ warns); the forkserver's children fork from a
    # process of their own, with one thread.
    context = multiprocessing.get_context("forkserver")
    started = []

    def start(seconds):
        ready = context.Event()
        process = context.Process(target=hold, args=(str(tmp_path), seconds, ready))
        process.start()
        assert ready.wait(10)
        started.append(process)
        return process

    yield start
    for process in started:
        process.join(10)


def test_a_second_process_waits_for_the_holder_then_gets_the_lock(holder):
    holder(0.6)
    client = ScriptedClient({})
    assert lock_held(client, "certificate", IDENTITY)
    began = time.monotonic()
    with object_lock(client, "certificate", IDENTITY, wait=10):
        waited = time.monotonic() - began
    assert 0.3 < waited < 5
    assert not lock_held(client, "certificate", IDENTITY)


def test_the_wait_is_bounded_and_says_what_to_do(holder):
    holder(3)
    with pytest.raises(ObjectLockError) as raised:
        with object_lock(ScriptedClient({}), "certificate", IDENTITY, wait=0.3):
            pytest.fail("the lock was taken while another process held it")
    message = str(raised.value)
    assert "waited 0.3 s for another run on this host" in message
    assert "certificate web-01.example.com" in message
    assert "run the task again" in message


def test_other_objects_and_vaults_do_not_wait(holder):
    holder(3)
    other_vault = ScriptedClient({})
    other_vault.base_url = "https://other.example:7272"
    for client, kind, identity in (
        (ScriptedClient({}), "certificate", ("other.example.com",)),
        (ScriptedClient({}), "CSR", IDENTITY),
        (other_vault, "certificate", IDENTITY),
    ):
        with object_lock(client, kind, identity, wait=0.2):
            assert lock_held(client, kind, identity)


def test_check_mode_locks_nothing_and_writes_nothing(holder):
    holder(3)
    before = sorted(os.listdir(lock_directory()))
    with object_lock(ScriptedClient({}), "certificate", IDENTITY, check_mode=True, wait=0.1):
        pass
    assert sorted(os.listdir(lock_directory())) == before


def test_directory_is_private_and_files_are_named_by_a_hash():
    client = ScriptedClient({})
    with object_lock(client, "user", ("alice",)):
        (name,) = os.listdir(lock_directory())
        assert len(name) == 64 and "alice" not in name
        assert stat.S_IMODE(os.stat(os.path.join(lock_directory(), name)).st_mode) == 0o600
    directory = os.lstat(lock_directory())
    assert stat.S_IMODE(directory.st_mode) == 0o700 and directory.st_uid == os.getuid()


def test_lock_files_do_not_pile_up(holder):
    client = ScriptedClient({})
    for number in range(20):
        with object_lock(client, "user", ("user-%d" % number,)):
            pass
    assert os.listdir(lock_directory()) == []
    # A run that waited while the holder removed its file locks the path's new file, one holder at a time.
    holder(0.5)
    with object_lock(client, "certificate", IDENTITY, wait=10):
        assert lock_held(client, "certificate", IDENTITY)
        (name,) = os.listdir(lock_directory())
    assert os.listdir(lock_directory()) == []


def test_one_holder_at_a_time_while_files_come_and_go(tmp_path):
    """Many processes lock one object in turn; each holder appends its start and end to a file: the intervals never
    overlap, and no lock file is left."""
    lines = run_all(tmp_path, take_turns, [(5,)] * 6)
    assert len(lines) == 6 * 5 * 2
    assert lines == ["start", "end"] * (6 * 5)
    assert os.listdir(lock_directory()) == []


def test_several_locks_are_taken_and_released_together():
    client = ScriptedClient({})
    triples = [("k1", "web", "root"), ("k2", "web", "root"), ("k1", "web", "root")]
    with object_locks(client, "SSH key association", triples):
        assert all(lock_held(client, "SSH key association", triple) for triple in triples)
    assert not any(lock_held(client, "SSH key association", triple) for triple in triples)


def test_a_symbolic_link_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    os.symlink(str(target), lock_directory())
    with pytest.raises(ObjectLockError, match="is a symbolic link"):
        with object_lock(ScriptedClient({}), "user", ("alice",)):
            pass
    assert os.listdir(str(target)) == []


def test_a_directory_others_may_write_is_refused():
    os.mkdir(lock_directory(), 0o700)
    os.chmod(lock_directory(), 0o777)
    with pytest.raises(ObjectLockError, match=r"may be written by others \(mode 777\).*remove it"):
        with object_lock(ScriptedClient({}), "user", ("alice",)):
            pass


@pytest.mark.skipif(os.getuid() != 0, reason="only root can give a directory to another user")
def test_a_directory_of_another_user_is_refused():
    os.mkdir(lock_directory(), 0o700)
    os.chown(lock_directory(), os.getuid() + 4321, -1)
    with pytest.raises(ObjectLockError, match="belongs to user id"):
        with object_lock(ScriptedClient({}), "user", ("alice",)):
            pass


def test_a_lock_file_that_is_a_symbolic_link_is_refused(tmp_path):
    client = ScriptedClient({})
    os.mkdir(lock_directory(), 0o700)
    name = _object_lock.lock_name(client.base_url, "user", ("alice",))
    os.symlink(str(tmp_path / "target"), os.path.join(lock_directory(), name))
    with pytest.raises(ObjectLockError, match="cannot be opened"):
        with object_lock(client, "user", ("alice",)):
            pass
    assert not (tmp_path / "target").exists()


def test_the_forks_of_one_task_send_a_write_once(tmp_path):
    """Twelve processes of one task (the forks of a play) and four of another: one of each task sends, the others
    find the write sent; no lock file is left, only the record of what each task sent."""
    lines = run_all(tmp_path, send_once, [("task-1",)] * 12 + [("task-2",)] * 4)
    assert sorted(lines) == ["found"] * 14 + ["sent"] * 2
    assert [name.endswith(_object_lock.SENT_SUFFIX) for name in os.listdir(lock_directory())] == [True]


def test_a_record_counts_for_its_own_task_and_parts_only(monkeypatch):
    client = ScriptedClient({})
    monkeypatch.setenv(_object_lock.TASK_VARIABLE, "task-1")
    with sent_by_this_task(client, "share targets", IDENTITY) as sent:
        assert lock_held(client, "share targets", IDENTITY)
        assert not sent.repeats({"user jdoe": "view"})
        sent.sent({"user jdoe": "view", "user ann": "modify"})
    with sent_by_this_task(client, "share targets", IDENTITY) as sent:
        assert sent.repeats({"user jdoe": "view"})
        assert sent.repeats({"user jdoe": "view", "user ann": "modify"})
        assert not sent.repeats({"user jdoe": "modify"})  # another access: sent again
        assert not sent.repeats({"user jdoe": "view", "user bob": "view"})  # a pair not sent yet
        assert not sent.repeats({})
        sent.sent({"user jdoe": "revoked"})  # a revoke replaces the share: a share later in the task is sent again
    with sent_by_this_task(client, "share targets", IDENTITY) as sent:
        assert not sent.repeats({"user jdoe": "view"})
    with sent_by_this_task(client, "share targets", ("another target",)) as sent:
        assert not sent.repeats({"user ann": "modify"})
    monkeypatch.setenv(_object_lock.TASK_VARIABLE, "task-2")
    with sent_by_this_task(client, "share targets", IDENTITY) as sent:
        assert not sent.repeats({"user ann": "modify"})  # another task (or run) sends again


def test_without_the_task_variable_or_in_check_mode_every_run_sends(monkeypatch):
    client = ScriptedClient({})
    monkeypatch.delenv(_object_lock.TASK_VARIABLE, raising=False)
    for _run in range(2):
        with sent_by_this_task(client, "share targets", IDENTITY) as sent:
            assert not sent.repeats({"user jdoe": "view"})
            sent.sent({"user jdoe": "view"})
    assert os.listdir(lock_directory()) == []
    monkeypatch.setenv(_object_lock.TASK_VARIABLE, "task-1")
    with sent_by_this_task(client, "share targets", IDENTITY, check_mode=True) as sent:
        assert not lock_held(client, "share targets", IDENTITY)
        assert not sent.repeats({"user jdoe": "view"})
        sent.sent({"user jdoe": "view"})
    assert os.listdir(lock_directory()) == []


def test_a_broken_record_is_none_and_old_records_are_removed(monkeypatch):
    client = ScriptedClient({})
    monkeypatch.setenv(_object_lock.TASK_VARIABLE, "task-1")
    with sent_by_this_task(client, "share targets", IDENTITY) as sent:
        sent.sent({"user jdoe": "view"})
    (path,) = [os.path.join(lock_directory(), name) for name in os.listdir(lock_directory())]
    for broken in (
        "{not json",
        "[]",
        '{"tasks": {"task-1": {"parts": []}}}',
        '{"tasks": {"task-1": {"parts": {"user jdoe": "view"}}}}',
    ):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(broken)
        with sent_by_this_task(client, "share targets", IDENTITY) as sent:
            assert not sent.repeats({"user jdoe": "view"})
    old = time.time() - _object_lock.RECORD_SECONDS - 60
    os.utime(path, (old, old))
    with sent_by_this_task(client, "share targets", ("another target",)):
        pass
    assert not os.path.exists(path)
