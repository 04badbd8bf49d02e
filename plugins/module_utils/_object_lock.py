# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One lock per vault object on the host the module runs on, so that parallel runs of a task create it once.

Forks of one playbook run their modules on the same host (usually the controller, as ``localhost``). Two runs that
find no object and both create it make two where the vault accepts a duplicate (certificates, CSRs) and fail the
second where it refuses one. ``object_lock`` is held around the find, the create and the read that follows, so the
second run waits, then finds the object the first made.

The lock is an ``fcntl.flock`` on a file in a directory of this user under the system's temporary directory
(``tempfile.gettempdir()``, so ``TMPDIR`` moves it): the directory is created 0700 and refused when it is a symbolic
link, not a directory, not owned by this user, or writable by others. The file's name is a sha256 of the vault's base
URL, the object's kind and identity, never a name itself. The operating system releases the lock when its holder
ends, however it ends. The holder removes the file before it lets go, so that files do not pile up (one per object
ever locked); a run that was waiting then holds the lock of a removed file, sees that the path no longer names the
file it locked, and starts again with the path's new file: only a lock on the file the path names counts.

It serialises the runs of one host only: runs on several hosts at once (several controllers, or ``delegate_to``
different hosts) are not serialised. There the vault's own refusal of a duplicate still converges, and a
certificate or CSR may still be created twice.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import stat
import tempfile
import time
from contextlib import ExitStack, contextmanager

from ._errors import VaultError

WAIT_SECONDS = 300
POLL_SECONDS = 0.05
DIRECTORY_MODE = 0o700
FILE_MODE = 0o600


class ObjectLockError(VaultError):
    """The lock could not be taken: its directory is not safe to use, or another run held it too long."""


def lock_directory():
    """This user's lock directory under the system's temporary directory (not created here)."""
    return os.path.join(tempfile.gettempdir(), "credvault-vault-locks-%d" % os.getuid())


def _safe_directory():
    """The lock directory, created 0700 when missing; ``ObjectLockError`` when it cannot be trusted."""
    path = lock_directory()
    try:
        os.mkdir(path, DIRECTORY_MODE)
    except OSError as exc:
        if exc.errno != errno.EEXIST:
            raise ObjectLockError("lock directory %s cannot be created: %s" % (path, exc.strerror or exc)) from None
    found = os.lstat(path)
    if stat.S_ISLNK(found.st_mode) or not stat.S_ISDIR(found.st_mode):
        problem = "is a symbolic link" if stat.S_ISLNK(found.st_mode) else "is not a directory"
    elif found.st_uid != os.getuid():
        problem = "belongs to user id %d, not to this user (%d)" % (found.st_uid, os.getuid())
    elif found.st_mode & 0o022:
        problem = "may be written by others (mode %03o)" % stat.S_IMODE(found.st_mode)
    else:
        return path
    raise ObjectLockError(
        "lock directory %s %s, so parallel runs cannot be serialised: remove it (it holds only empty lock files) "
        "and run the task again" % (path, problem)
    )


def lock_name(base_url, kind, identity):
    """The lock file's name: a sha256 of the vault, the kind and the identity parts."""
    key = json.dumps([str(base_url), kind] + [str(part) for part in identity])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@contextmanager
def object_lock(client, kind, identity, check_mode=False, wait=WAIT_SECONDS):
    """Hold the lock of ``kind`` ``identity`` (a tuple of names) in the vault of ``client``; waits up to ``wait``
    seconds for another run that holds it. In check mode nothing is written, so nothing is locked."""
    if check_mode:
        yield
        return
    path = os.path.join(_safe_directory(), lock_name(client.base_url, kind, identity))
    descriptor = _locked_file(path, kind, identity, time.monotonic() + wait, wait)
    try:
        yield
    finally:
        try:
            os.unlink(path)  # while it is held: nobody else holds the file the path names
        except OSError:
            pass
        os.close(descriptor)  # releases the lock


@contextmanager
def object_locks(client, kind, identities, check_mode=False, wait=WAIT_SECONDS):
    """Hold the locks of several objects of one kind, taken in one order (their file names) so that two runs
    locking overlapping sets never wait for each other in a circle."""
    ordered = sorted(set(identities), key=lambda identity: lock_name(client.base_url, kind, identity))
    with ExitStack() as stack:
        for identity in ordered:
            stack.enter_context(object_lock(client, kind, identity, check_mode, wait))
        yield


def _locked_file(path, kind, identity, deadline, wait):
    """A descriptor of the file ``path`` names, locked by this run; another holder's file is waited for."""
    while True:
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        except OSError as exc:
            raise ObjectLockError("lock file %s cannot be opened: %s" % (path, exc.strerror or exc)) from None
        try:
            _take(descriptor, path, kind, identity, deadline, wait)
            if _names(path, descriptor):
                return descriptor
        except BaseException:
            os.close(descriptor)
            raise
        os.close(descriptor)  # its holder removed it while this run waited: lock the path's new file


def _names(path, descriptor):
    """Whether ``path`` still names the file open as ``descriptor``."""
    try:
        current = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (current.st_dev, current.st_ino) == (held.st_dev, held.st_ino)


def _take(descriptor, path, kind, identity, deadline, wait):
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise ObjectLockError("lock file %s cannot be locked: %s" % (path, exc.strerror or exc)) from None
        if time.monotonic() >= deadline:
            raise ObjectLockError(
                "waited %g s for another run on this host that is working on %s %s in the same vault (it holds the "
                "lock file %s); nothing was sent for it: run the task again once that run has ended"
                % (wait, kind, " / ".join(str(part) for part in identity), path)
            )
        time.sleep(POLL_SECONDS)


class SentByThisTask:
    """What the forks of one task of one playbook run have sent for an object no call reads back (shares,
    certificate shares, certificate groups), as ``{part: value}`` pairs (a grantee and the access it was given).
    ``repeats(parts)`` says whether every pair was sent already by another fork of the task; ``sent(parts)`` records
    them once the vault accepted them. Kept beside the lock file, per task (the tasks of two playbooks run at once
    meet there), for ``RECORD_SECONDS`` at most."""

    def __init__(self, path, task):
        self.path, self.task = path, task
        self.tasks = {}
        if task is None:
            return
        try:
            with open(path, encoding="utf-8") as handle:
                found = json.load(handle)
        except (OSError, ValueError):
            return
        tasks = found.get("tasks") if isinstance(found, dict) else None
        if isinstance(tasks, dict):
            now = time.time()
            self.tasks = {
                key: entry
                for key, entry in tasks.items()
                if isinstance(entry, dict)
                and isinstance(entry.get("parts"), dict)
                and isinstance(entry.get("at"), (int, float))
                and abs(now - entry["at"]) <= RECORD_SECONDS
            }

    def repeats(self, parts):
        if self.task is None or not parts or self.task not in self.tasks:
            return False
        sent = self.tasks[self.task]["parts"]
        return all(sent.get(key) == value for key, value in parts.items())

    def sent(self, parts):
        if self.task is None:
            return
        entry = self.tasks.setdefault(self.task, {"parts": {}})
        entry["parts"].update(parts)
        entry["at"] = time.time()
        staged = "%s.%d" % (self.path, os.getpid())
        try:
            descriptor = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, FILE_MODE)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump({"tasks": self.tasks}, handle)
            os.replace(staged, self.path)
        except OSError:
            pass  # the record only spares other forks a repeat: without it they send again, as they would anyway


# Set by the action plugins of the modules that use ``sent_by_this_task`` (plugin_utils/_task_scope.py): the task's
# id in this playbook run, the same for each of its forks and loop items, another for every other task and run.
TASK_VARIABLE = "CREDVAULT_VAULT_TASK"
SENT_SUFFIX = ".sent"
RECORD_SECONDS = 3600


@contextmanager
def sent_by_this_task(client, kind, identity, check_mode=False, wait=WAIT_SECONDS):
    """Hold the lock of an object no call reads back and yield its ``SentByThisTask``: the forks of one task on this
    host send a write once, the others find it sent. Without ``TASK_VARIABLE`` (the module run by other means) every
    run sends. Records older than ``RECORD_SECONDS`` are removed. In check mode nothing is locked or read."""
    task = os.environ.get(TASK_VARIABLE) or None
    if check_mode:
        yield SentByThisTask(None, None)
        return
    with object_lock(client, kind, identity, check_mode, wait):
        directory = lock_directory()
        _remove_old_records(directory)
        yield SentByThisTask(os.path.join(directory, lock_name(client.base_url, kind, identity) + SENT_SUFFIX), task)


def _remove_old_records(directory):
    """Records whose task ended long ago (by their time of change: a step of the clock only removes them early or
    late, and a record removed early only costs a repeated write)."""
    now = time.time()
    try:
        names = [name for name in os.listdir(directory) if SENT_SUFFIX in name]
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        try:
            if abs(now - os.lstat(path).st_mtime) > RECORD_SECONDS:
                os.unlink(path)
        except OSError:
            pass
