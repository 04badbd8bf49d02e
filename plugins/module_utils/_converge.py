# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one state machine of every managed vault object: a domain supplies hooks, the base runs them.

A domain subclasses ``VaultObject``: ``KIND`` names it in messages, ``FIELDS``
is its field table (one ``Field`` per option), and the hooks find, read,
plan, apply, create and delete one object. ``ensure()`` owns what every managed
object repeats, and no domain overrides it or its steps: the ``state`` switch,
input checks, find, a missing parent, ``plan`` the differences, ``apply`` them
only when there are some and never in check mode, a create lost to a parallel
run, a delete lost to one; it records in the task's tracker and returns the
object after. The domain's entry point ``converge(task)`` (see ``_task``) makes
the object and turns what ``ensure`` returns into the values the module returns.

The find and the create of one object hold its lock (``_object_lock``), so
that parallel runs on one host (forks) create it once: the runs that wait
find what the first one created.

Build gates are not in the field table: the endpoint catalogue holds them, and the
gateway's ``require`` (``_api/_declare.py``) applies them before anything is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._answers import absent_key_error, is_placeholder
from ._checks import clean_text
from ._errors import VaultInputError, VaultNotFoundError, is_refusal
from ._object_lock import object_lock


@dataclass(frozen=True)
class Field:
    """One option of a vault object and its keys: in the vault's output (``read``), in the create input
    (``create``) and in the edit input (``edit``); None where the API has no such key.

    A field without ``read`` is write-only: the vault never reports it back, so it
    cannot be compared. A field without ``edit`` is set only when the object is created.
    ``secret`` values never show in a diff.
    """

    option: str
    read: str | None = None
    create: str | None = None
    edit: str | None = None
    secret: bool = False

    @property
    def write_only(self):
        return self.read is None


def _as_read(value):
    """A desired text as the vault's answers read (``_answers``): a placeholder (``N/A``, blank) is the empty text
    a vault answers it with, so that asking for ``N/A`` converges instead of being sent on every run."""
    return "" if isinstance(value, str) and is_placeholder(value) else value


class CreatedMeanwhile(Exception):
    """The create was refused because a parallel run created the object first; ``handle`` finds it."""

    def __init__(self, handle):
        super().__init__("created meanwhile")
        self.handle = handle


def created_in_missing_parent(missing, check_mode, what):
    """``state: present`` in a parent the search found missing (``missing``, its ``VaultNotFoundError``): raised
    outside check mode; in check mode an earlier task would create the parent, and the warning returned says that
    ``what`` would be created in it."""
    if not check_mode:
        raise missing
    return "%s: in check mode that means an earlier task would create it, so %s would be created in it" % (
        missing,
        what,
    )


class VaultObject:
    """Hooks a domain supplies; ``ensure`` runs them for one ``_task.Task``. ``self.desired`` holds a copy of the
    module's options (``check_input`` may normalise it), ``self.tracker`` is the task's tracker.

    ``find()`` returns a handle, and keeps nothing on ``self``: what the later
    hooks need of the search is in the handle. ``exists(handle)`` tells an
    existing object from a missing one: by default the handle of a missing
    object is None, but a domain whose search learns what the create needs (the
    parent's id, say) returns a handle of the missing object that carries it.
    ``find`` raises ``VaultNotFoundError`` when the object's parent is missing.
    A missing object is created by ``create(handle, tracker)``. For an existing
    object the base calls ``read(handle)``, then ``plan(handle, current)``,
    which records every difference in the tracker and returns what to send
    (anything false: nothing), then, outside check mode and only when there is
    something to send, ``apply(handle, current, changes)``, which sends it and
    returns the object after.

    Once the object was searched for, the steps ``create_missing``,
    ``update_existing`` and ``delete_found`` decide for it; a task that searches
    for many objects at once (``_accounts``) runs them on the handles it found.
    """

    KIND = "object"
    FIELDS = ()

    def __init__(self, task):
        self.task = task
        self.client = task.client
        self.desired = dict(task.desired)
        self.check_mode = task.check_mode
        self.tracker = task.tracker

    @property
    def label(self):
        return "%s %s" % (self.KIND, self.desired["name"])

    @property
    def lock_identity(self):
        """The names that identify the object in its vault, for the lock held while it is found and created."""
        return (self.desired["name"],)

    def check_names(self):
        """Refuse, before any request, names the vault would trim: what both states send."""
        clean_text(self.desired.get("name"), "name")

    def check_input(self):
        """Refuse, before any request, the rest of the input the vault would trim or refuse, for ``present``;
        may normalise ``self.desired``."""

    def find(self):
        raise NotImplementedError

    def exists(self, handle):
        """Whether ``handle`` (what ``find`` returned; None when the parent is missing) is an existing object."""
        return handle is not None

    def create(self, handle, tracker):
        """Record the creation in ``tracker``; outside check mode create and return the object (None in check mode).
        ``handle`` is what ``find`` returned for the missing object. Raise ``CreatedMeanwhile`` when a parallel run
        created it first."""
        raise NotImplementedError

    def read(self, handle):
        """The object's settings as the vault reports them (by default the handle itself: a list item)."""
        return handle

    def plan(self, handle, current):
        """Record in ``self.tracker`` every difference between ``current`` and the task, refuse (raise) what cannot
        be converged, and return what ``apply`` must send (anything false: nothing). By default the differences of
        the field table."""
        return self.field_changes(self.tracker, current)

    def apply(self, handle, current, changes):
        """Send ``changes`` (never called in check mode) and return the object after: by default ``write`` them and
        read the object again."""
        self.write(handle, changes)
        return self.read(handle)

    def as_planned(self, current, changes):
        """The object a run that sends nothing returns (nothing differs, or check mode): by default ``current``."""
        return current

    def write(self, handle, changes):
        raise NotImplementedError

    def delete(self, handle):
        """Delete the object; return False when a parallel run deleted it first (the task then changed nothing)."""
        raise NotImplementedError

    def deleted_meanwhile(self, refusal):
        """After a refused delete: False when the object is gone now (a parallel run deleted it), else ``refusal``
        is raised. Domains call it from ``delete``. A refusal of this token (``is_refusal``) is raised at once: an
        object this token may not delete may well be one it cannot see either."""
        if is_refusal(refusal):
            raise refusal
        try:
            found = self.find()
        except VaultNotFoundError:
            found = None  # its parent is gone too
        if self.exists(found):
            raise refusal
        return False

    def created_meanwhile(self, refusal):
        """After a refused create: ``CreatedMeanwhile`` with the object's handle when it exists now (a parallel run
        created it first: on another host, or without the lock), else ``refusal``; the caller raises what it gets. A
        refusal of this token (``is_refusal``) is returned at once."""
        if is_refusal(refusal):
            return refusal
        handle = self.find()
        return CreatedMeanwhile(handle) if self.exists(handle) else refusal

    def ensure(self):
        """Converge to the task's ``state`` (``present`` or ``absent``), recording in ``self.tracker``; returns the
        object after the run (None when absent, or in check mode when it would be created)."""
        self.check_names()
        if self.task.state == "absent":
            return self._ensure_absent()
        self.check_input()
        return self._ensure_present()

    def _ensure_absent(self):
        try:
            handle = self.find()
        except VaultNotFoundError:
            handle = None  # its parent is gone, so it is gone too
        self.delete_found(handle)
        return None

    def _ensure_present(self):
        with object_lock(self.client, self.KIND, self.lock_identity, self.check_mode):
            try:
                handle = self.find()
            except VaultNotFoundError as missing:
                return self._in_missing_parent(missing)
            if not self.exists(handle):
                try:
                    return self.create_missing(handle)
                except CreatedMeanwhile as lost:
                    handle = lost.handle
                    self.tracker.clear()
        return self.update_existing(handle)

    def delete_found(self, handle):
        """``state: absent`` for ``handle``, what the search found (None when the parent is missing): an existing
        object is deleted outside check mode; one a parallel run deleted first leaves the task unchanged."""
        exists = self.exists(handle)
        self.tracker.record("state", "present" if exists else "absent", "absent", exists)
        if exists and not self.check_mode and self.delete(handle) is False:
            self.tracker.clear()
            self.tracker.record("state", "absent", "absent", False)

    def create_missing(self, handle):
        """``state: present`` for a missing object (``handle``, what the search found): ``create`` it."""
        self.tracker.record("state", "absent", "present", True)
        return self.create(handle, self.tracker)

    def update_existing(self, handle):
        """``state: present`` for an existing object: read, plan, and apply only what differs, never in check mode."""
        self.tracker.record("state", "present", "present", False)
        current = self.read(handle)
        changes = self.plan(handle, current)
        if changes and not self.check_mode:
            return self.apply(handle, current, changes)
        return self.as_planned(current, changes)

    def refuse_differences(self, found, consequence=""):
        """For an object the API cannot edit: settings that differ (``found``: ``{option: (in the vault, in the
        task)}``) fail the task naming each, unless the task sets ``recreate`` (then ``apply`` deletes the object and
        creates it again); ``consequence`` says what else a recreation takes with it."""
        if not found or self.desired.get("recreate"):
            return
        described = "; ".join(
            "%s is %r in the vault, %r in the task" % (option, current, value)
            for option, (current, value) in sorted(found.items())
        )
        raise VaultInputError(
            "%s: %s. The API cannot edit it: change the task, or set recreate: true to delete it and create it again%s"
            % (self.label, described, consequence)
        )

    def _in_missing_parent(self, missing):
        """The task fails, except in check mode: the parent an earlier task would create; the object would be
        created in it."""
        warning = created_in_missing_parent(missing, self.check_mode, self.label)
        self.tracker.record("state", "absent", "present", True)
        self.check_create_input()
        self.tracker.warn(warning)
        return None

    def check_create_input(self):
        """Refuse what the create needs and the task lacks, without any request (check mode, missing parent)."""

    def field_changes(self, tracker, current):
        """Edit input for the readable, editable fields that differ; a readable field the API cannot edit warns
        when it differs. A field given whose key the answer lacks in every known spelling is an error: compared with
        nothing, the object would look changed (or unchanged) whatever it holds."""
        edit = {}
        for field in self.FIELDS:
            value = _as_read(self.desired.get(field.option))
            if field.write_only or value is None:
                continue
            if field.read not in current:
                raise absent_key_error(self.label, field.read, field.option)
            stored = current.get(field.read)
            if field.edit is None:
                tracker.compare(field.option, stored, None)
                if stored is not None and stored != value:
                    tracker.warn(
                        "%s: %s is %s in the vault, not %s, and the API cannot change it"
                        % (self.label, field.option, stored, value)
                    )
            elif tracker.compare(field.option, stored, value, field.secret):
                edit[field.edit] = value
        return edit

    def creation_input(self, tracker):
        """``(create input, edit input)`` of the fields given: a field without a create key is sent by an edit
        right after the creation."""
        create, edit = {}, {}
        for field in self.FIELDS:
            value = self.desired.get(field.option)
            if value is None:
                continue
            tracker.compare(field.option, None, value, field.secret)
            if field.create:
                create[field.create] = value
            elif field.edit:
                edit[field.edit] = value
        return create, edit

    def unapplied(self, created):
        """The options given whose value ``created`` (the object read back right after its creation, as ``read``
        gives it) does not show: settings the vault dropped without a word. Only the fields the vault reports and
        the API can edit are compared, as a later run would compare them."""
        return [
            field.option
            for field in self.FIELDS
            if field.read
            and field.edit
            and self.desired.get(field.option) is not None
            and created.get(field.read) != _as_read(self.desired[field.option])
        ]

    def write_only_input(self):
        """Edit input of the write-only fields given: the vault never reports them back."""
        return {
            field.edit: self.desired[field.option]
            for field in self.FIELDS
            if field.write_only and field.edit and self.desired.get(field.option) is not None
        }
