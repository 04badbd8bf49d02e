# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The action plugins of modules that return a secret the vault hands out (agent key, install key, API token).

The plugin runs the module, then takes the key (``SECRET``) out of its result
before anything can show it. With ``dest`` the key goes to that file of the
controller - mode 0600, atomically, rewritten only when its bytes differ - with
the collection's one controller writer (``_controller_files.ensure_file``), and
the result says ``dest``, ``checksum``, ``size`` and whether the file changed.
Without ``dest`` the key stays in the result under ``SECRET``, and the result
is flagged ``_ansible_no_log``: ansible-core then censors it in every callback,
at any verbosity, as for a task with ``no_log`` (the registered variable still
holds the key). A failed run never returns a key. No message holds a key.
"""

from __future__ import annotations

from ansible.plugins.action import ActionBase

from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import (
    PRIVATE_MODE,
    destination,
    ensure_file,
)


def hand_over(result, secret, dest, check_mode, diff):
    """``result`` with its key ``secret`` written to ``dest`` (or left in the result without ``dest``).

    ``changed`` is the module's (a generation) or the file's; ``diff`` (when asked) shows the file's state,
    checksum and mode, never the key. A result without the key (a failure, a generation in check mode) leaves
    the file alone. A file that cannot be written fails the task (keeping the module's ``changed``: a generated
    key exists in the vault) with a message that never holds the key."""
    key = result.pop(secret, None)
    if dest is None:
        if key is not None and not result.get("failed"):
            result[secret] = key
            result["_ansible_no_log"] = True
        return result
    result["dest"] = dest
    if key is None or result.get("failed"):
        return result
    try:
        written = ensure_file(dest, key.encode("utf-8"), PRIVATE_MODE, check_mode)
    except OSError as exc:
        result["failed"] = True
        result["msg"] = "the key could not be written to dest %s: %s%s" % (
            dest,
            exc.strerror or type(exc).__name__,
            ". The vault generated it: a fetch (without generate) may return it" if result.get("generated") else "",
        )
        return result
    result.update(checksum=written["checksum"], size=written["size"])
    result["changed"] = bool(result.get("changed")) or written["changed"]
    if diff:
        result["diff"] = written["diff"]
    return result


class SecretToFileAction(ActionBase):
    """Runs ``MODULE`` and hands its ``SECRET`` over to the file its ``DEST_OPTION`` names (``hand_over``)."""

    _supports_check_mode = True
    _supports_async = False
    MODULE = None
    SECRET = None
    DEST_OPTION = "dest"

    def hand_over(self, result, dest):
        return hand_over(result, self.SECRET, dest, self._task.check_mode, self._task.diff)

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        given = self._task.args.get(self.DEST_OPTION)
        dest = None if given is None else destination(given, self.DEST_OPTION)
        try:
            module_result = self._execute_module(
                module_name=self.MODULE, module_args=dict(self._task.args), task_vars=task_vars
            )
        finally:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        result.update(module_result)
        return self.hand_over(result, dest)
