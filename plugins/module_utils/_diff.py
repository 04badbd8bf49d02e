# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Tracks what differs between the vault and the task; feeds diff mode and check mode alike."""

from __future__ import annotations

HIDDEN = "<hidden>"
HIDDEN_CHANGED = "<hidden, changed>"


class DifferenceTracker:
    """``warnings`` collects what the task could not compare or apply; modules return them as warnings."""

    def __init__(self):
        self.before = {}
        self.after = {}
        self.changed_names = []
        self.warnings = []
        # Headers of the diff's two sides (``before_header``, ``after_header``), for a diff that is no plain "before
        # and after" (a configuration the vault cannot report, say); ``diff`` adds them.
        self.headers = {}

    def warn(self, text):
        if text not in self.warnings:
            self.warnings.append(text)

    def compare(self, name, current, desired, secret=False):
        """Record one value; ``desired`` None means "not managed by this task". Returns True when it differs."""
        if desired is None:
            if not secret:
                self.before[name] = self.after[name] = current
            return False
        differs = current != desired
        self.record(name, current, desired, differs, secret)
        return differs

    def record(self, name, current, desired, differs, secret=False):
        """Record a value whose difference was decided elsewhere (a secret compared by the vault, say)."""
        if differs:
            self.changed_names.append(name)
        if secret:
            self.before[name] = HIDDEN
            self.after[name] = HIDDEN_CHANGED if differs else HIDDEN
        else:
            self.before[name] = current
            self.after[name] = desired if differs else current

    @property
    def changed(self):
        return bool(self.changed_names)

    def record_unseen(self, name):
        """Record a change no diff can show (a secret made anew, compared with nothing): ``changed``, no value."""
        self.changed_names.append(name)

    @property
    def recorded(self):
        """True once any value was recorded (a read-only task records none, nor does ``record_unseen``)."""
        return bool(self.before or self.after)

    def clear(self):
        """Forget the values recorded (not the warnings): the run turned out to change nothing it recorded."""
        self.before, self.after, self.changed_names = {}, {}, []

    def diff(self):
        return dict({"before": dict(self.before), "after": dict(self.after)}, **self.headers)
