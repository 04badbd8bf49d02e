# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one writer of secret files on the controller (API user tokens, exported keys).

A file is written atomically with its final mode from the start: a temporary
file created in the same directory (``mkstemp``), ``fchmod`` to the mode,
written, ``fsync``-ed, then renamed over the destination (``os.replace``), so
that no reader ever sees a partial file or one readable by others. No message
holds the content.

``KeyFileAction`` is the action plugin of the modules that export a file of the vault
to the controller: it validates the task's arguments itself and runs the module's
domain entry point there (``_controller_task.run_entry``), which writes the file
with ``write_export``; the module file only documents it.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase

from ansible_collections.credvault.vault.plugins.plugin_utils._controller_task import run_entry, task_arguments
from ansible_collections.credvault.vault.plugins.plugin_utils._key_armor import is_private

PRIVATE_MODE = 0o600
# The permission bits of the group and of others: a file holding a private key has none of them.
SHARED_BITS = 0o077


def destination(path, option):
    """The absolute path ``path`` names (``~`` and variables expanded, as the module type ``path`` does),
    refused (``AnsibleActionFail``) before anything runs when a file could not be written there."""
    dest = os.path.abspath(os.path.expanduser(os.path.expandvars(str(path))))
    directory = os.path.dirname(dest)
    if os.path.isdir(dest):
        raise AnsibleActionFail("%s %s is a directory; name the file to write" % (option, dest))
    if not os.path.isdir(directory):
        raise AnsibleActionFail("%s %s: its directory %s does not exist on the controller" % (option, dest, directory))
    if not os.access(directory, os.W_OK | os.X_OK):
        raise AnsibleActionFail("%s %s: its directory %s is not writable on the controller" % (option, dest, directory))
    return dest


def file_mode(value, option="mode"):
    """An octal mode given as a string (``"0600"``, ``"640"``) or a number, refused otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        mode = value
    else:
        try:
            mode = int(str(value), 8)
        except ValueError:
            raise AnsibleActionFail("%s must be an octal mode such as '0600', not %r" % (option, value)) from None
    if not 0 <= mode <= 0o7777:
        raise AnsibleActionFail("%s must be an octal mode such as '0600', not %r" % (option, value))
    return mode


def owner_only(mode, what, option="mode"):
    """Refuse (``AnsibleActionFail``) a ``mode`` that lets the group or others at a file holding ``what``, a
    private key: such a file is for its owner alone (0600 or 0400)."""
    if mode & SHARED_BITS:
        raise AnsibleActionFail(
            "%s %04o lets the group or others access %s, which holds a private key: give a mode for the owner alone, "
            "such as '0600' or '0400' (public keys and certificates may be '0644')" % (option, mode, what)
        )
    return mode


def write_file(dest, content, mode=PRIVATE_MODE):
    """Replace ``dest`` by a file of ``mode`` holding the bytes ``content``, atomically (see the module docstring).

    A failure leaves ``dest`` as it was and no temporary file behind."""
    handle, temporary = tempfile.mkstemp(prefix=".%s." % os.path.basename(dest), dir=os.path.dirname(dest))
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as stream:
            handle = None
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, dest)
    except BaseException:
        if handle is not None:
            os.close(handle)
        os.unlink(temporary)
        raise


def current_state(dest):
    """``(checksum, mode)`` of the file ``dest``, or ``(None, None)`` when there is none."""
    if not os.path.exists(dest):
        return None, None
    digest = hashlib.sha256()
    with open(dest, "rb") as handle:
        for chunk in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(chunk)
    return digest.hexdigest(), stat.S_IMODE(os.stat(dest).st_mode)


def update_file(dest, content, mode, check_mode):
    """Make ``dest`` hold ``content`` with ``mode``: rewritten only when its bytes differ, only ``chmod``-ed when
    just its mode does, untouched in check mode.

    Returns the task result: ``dest``, ``checksum`` (SHA-256) and ``size`` of ``content``, ``changed`` and a
    ``diff`` of the file's state, checksum and mode - never the content."""
    checksum = hashlib.sha256(content).hexdigest()
    old_checksum, old_mode = current_state(dest)
    content_changes = old_checksum != checksum
    mode_changes = old_mode != mode
    if not check_mode:
        if content_changes:
            write_file(dest, content, mode)
        elif mode_changes:
            os.chmod(dest, mode)
    before = {"state": "absent"} if old_checksum is None else {"state": "file", "checksum": old_checksum}
    if old_mode is not None:
        before["mode"] = "%04o" % old_mode
    return {
        "dest": dest,
        "checksum": checksum,
        "size": len(content),
        "changed": content_changes or mode_changes,
        "diff": {"before": before, "after": {"state": "file", "checksum": checksum, "mode": "%04o" % mode}},
    }


def write_export(task, content):
    """Make ``task.desired["dest"]`` (an absolute path, ``destination``) hold the bytes ``content`` with
    ``task.desired["mode"]`` (a number, ``file_mode``), as ``update_file`` does, honouring ``task.check_mode``;
    the file's state, checksum and mode before and after go to ``task.tracker`` (never the content).

    Content with private key armor is refused a mode that lets the group or others at it, whatever was asked, and
    before anything is written (``owner_only``). Returns ``{dest, checksum, size}``."""
    dest, mode = task.desired["dest"], task.desired["mode"]
    if is_private(content):
        owner_only(mode, "dest %s" % dest)
    try:
        written = update_file(dest, content, mode, task.check_mode)
    except OSError as exc:
        raise AnsibleActionFail("could not write dest %s: %s" % (dest, exc.strerror or type(exc).__name__)) from None
    before, after = written["diff"]["before"], written["diff"]["after"]
    for name, value in after.items():
        task.tracker.record(name, before.get(name), value, before.get(name) != value)
    return {name: written[name] for name in ("dest", "checksum", "size")}


class KeyFileAction(ActionBase):
    """Runs on the controller: ``ARGUMENT_SPEC`` (besides the connection options, ``dest`` and ``mode``) and
    ``ENTRY``, the module's domain entry point ``converge(task)`` (which writes with ``write_export``), are the
    subclass's.

    A file that holds a private key is written for its owner alone: when ``holds_private_key(args)`` says the
    task asks for one, a ``mode`` granting the group or others anything is refused before any request (and
    ``write_export`` refuses it for any content with private key armor)."""

    _supports_check_mode = True
    _supports_async = False
    ARGUMENT_SPEC = {}
    ENTRY = None

    def holds_private_key(self, args):
        """True when the file ``args`` ask for holds a private key (a private key, a key store)."""
        raise NotImplementedError

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        spec = dict(
            self.ARGUMENT_SPEC, dest={"type": "path", "required": True}, mode={"type": "raw", "default": "0600"}
        )
        args = task_arguments(self, spec)
        dest = destination(args["dest"], "dest")
        mode = file_mode(args["mode"])
        if self.holds_private_key(args):
            owner_only(mode, "dest %s" % dest)
        result.update(
            run_entry(self.ENTRY, self.ARGUMENT_SPEC, dict(args, dest=dest, mode=mode), self._task.check_mode)
        )
        if not self._task.diff:
            result.pop("diff", None)
        return result
