# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a client wrote to the vault, or may have: a task that fails after writing says so, and names the writes."""

from __future__ import annotations

import threading

MAY_HAVE_BEEN_APPLIED = "the write may have been applied: check the vault before running it again"


class WriteLog:
    """The writes of one client (``VaultClient`` is a ``WriteLog``); threads may note writes at once.

    ``wrote`` becomes True once a request that is not a read was answered success, or may have been
    applied (it timed out or its connection dropped after sending, or its answer could not be read).
    ``written`` describes each of those writes (``CreateSSHKey (keyName web-deploy)``: the operation and the names
    of what it concerned, never a secret), for the message of a task that fails after writing (``writes_note``).
    """

    def __init__(self):
        self.wrote = False
        self.written = []
        self._log_lock = threading.Lock()

    def note_write(self, operation=None, names=(), outcome=None):
        """Note a write: that something may have been written, and with ``operation`` its description (the names
        it concerned, and ``outcome`` when it is not known to be done)."""
        with self._log_lock:
            self.wrote = True
            if operation is not None:
                notes = list(names) + ([outcome] if outcome else [])
                what = " (%s)" % "; ".join(notes) if notes else ""
                self.written.append(operation + what)

    def writes_note(self, error):
        """ ". This task had already written to the vault: ..." for a task failing with ``error`` after the writes
        in ``written``, unless ``error`` names its writes itself; "" otherwise."""
        if self.written and not error.names_its_writes:
            return ". This task had already written to the vault: %s" % ", ".join(self.written)
        return ""
