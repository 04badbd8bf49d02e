# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_user module and keeps the token of an API user it created on the controller.

The module returns the new user's token (``token``) only from the run that
created the user, also with a failure after the creation. With ``token_dest``
this plugin takes the token out of the result before anything can show it,
writes it to that file of the controller (mode 0600, atomically, with the
collection's one controller writer ``plugin_utils._controller_files``) and returns
``token_dest`` instead. A run that returns no token - the user existed, check
mode - leaves the file alone. No message names the token.
"""

from __future__ import annotations

from ansible.plugins.action import ActionBase

from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import destination, write_file

MODULE = "credvault.vault.vault_user"


def hand_over_token(result, dest):
    """``result`` without its ``token``: written to ``dest`` (``token_dest`` returned), or, without ``dest``, left
    in ``token``. A file that cannot be written fails the task with a message that never holds the token."""
    token = result.pop("token", None)
    if token is None:
        return result
    if dest is None:
        result["token"] = token
        return result
    try:
        write_file(dest, token.encode("utf-8"))
    except OSError as exc:
        result["failed"] = True
        result["msg"] = (
            "%s - the token of the API user this run created could not be written to token_dest %s: %s. No later run "
            "returns it: delete the user and create it again"
            % (result.get("msg") or "the API user was created", dest, exc.strerror or type(exc).__name__)
        )
        return result
    result["token_dest"] = dest
    return result


class ActionModule(ActionBase):
    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        given = self._task.args.get("token_dest")
        dest = None if given is None else destination(given, "token_dest")
        try:
            module_result = self._execute_module(
                module_name=MODULE, module_args=dict(self._task.args), task_vars=task_vars
            )
        finally:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        result.update(module_result)
        return hand_over_token(result, dest)
