# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one contract of domain code: an entry point takes a ``Task`` and returns the values the module returns.

Every domain file a module runs exposes its entry point as ``converge(task)`` (a task that may write: it records what
differs in ``task.tracker``, writes only that, and honours ``task.check_mode``) or ``describe(task)`` (a read-only
task: it records nothing). Either returns a dict of the values the module returns besides ``changed`` and ``diff``.

The module base creates the ``Task`` before the entry point runs and reads the result from it (``result``), so the
warnings recorded and the writes the client sent reach the task's result also when the entry point fails.
"""

from __future__ import annotations

from ._diff import DifferenceTracker


class FailedOutcome(Exception):
    """Raised by an entry point whose task ran to its end with an outcome the user asked to fail on
    (``vault_ssl_discovery``'s ``fail_on_failure``): the module fails with this message and ``values``, ``changed``
    and ``diff`` coming from the task's tracker as on success. Not a ``VaultError``: no request failed."""

    def __init__(self, message, values):
        super().__init__(message)
        self.values = values


class Task:
    """One run of a module as domain code sees it.

    ``client`` is the run's ``VaultClient``; ``desired`` holds the module's options (``state`` among them);
    ``check_mode`` says to write nothing; ``tracker`` (a ``DifferenceTracker``) collects what differs, for diff and
    check mode alike, and the warnings. ``write_file(path, content)`` is given by a module that writes a file where it
    runs (``vault_account_file``), else None.
    """

    def __init__(self, client, desired, check_mode, write_file=None):
        self.client = client
        self.desired = desired
        self.check_mode = check_mode
        self.tracker = DifferenceTracker()
        self.write_file = write_file

    @property
    def state(self):
        return self.desired.get("state") or "present"

    def warn(self, text):
        self.tracker.warn(text)

    @property
    def warnings(self):
        return list(self.tracker.warnings)

    def result(self, values):
        """``values`` with ``changed`` and, when anything was compared, ``diff``."""
        result = dict(values, changed=self.tracker.changed)
        if self.tracker.recorded:
            result["diff"] = self.tracker.diff()
        return result
