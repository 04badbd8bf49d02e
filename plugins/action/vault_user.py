# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_user module and keeps the token of an API user it created on the controller.

The module returns the new user's token (``token``) only from the run that
created the user, also with a failure after the creation. With ``token_dest``
this plugin takes the token out of the result before anything can show it,
writes it to that file of the controller (mode 0600, atomically: a temporary
file of that mode in the same directory, then ``os.replace``) and returns
``token_dest`` instead. A run that returns no token - the user existed, check
mode - leaves the file alone. No message names the token.
"""

from __future__ import annotations

import os
import tempfile

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase

MODULE = "credvault.vault.vault_user"
FILE_MODE = 0o600


def destination(path):
    """The absolute path ``token_dest`` names (``~`` and variables expanded, as the module's type ``path`` does),
    refused before the module runs when the token could not be written there."""
    dest = os.path.abspath(os.path.expanduser(os.path.expandvars(str(path))))
    directory = os.path.dirname(dest)
    if os.path.isdir(dest):
        raise AnsibleActionFail("token_dest %s is a directory; name the file to write the token into" % dest)
    if not os.path.isdir(directory):
        raise AnsibleActionFail("token_dest %s: its directory %s does not exist on the controller" % (dest, directory))
    if not os.access(directory, os.W_OK | os.X_OK):
        raise AnsibleActionFail("token_dest %s: its directory %s is not writable on the controller" % (dest, directory))
    return dest


def write_token(dest, token):
    """Write ``token`` to ``dest`` with mode 0600: a temporary file created with that mode next to it, then renamed
    over it, so that no reader ever sees a partial file or one readable by others."""
    handle, temporary = tempfile.mkstemp(prefix=".%s." % os.path.basename(dest), dir=os.path.dirname(dest))
    try:
        os.fchmod(handle, FILE_MODE)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            handle = None
            stream.write(token)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, dest)
    except BaseException:
        if handle is not None:
            os.close(handle)
        os.unlink(temporary)
        raise


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
        write_token(dest, token)
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
        dest = None if given is None else destination(given)
        try:
            module_result = self._execute_module(
                module_name=MODULE, module_args=dict(self._task.args), task_vars=task_vars
            )
        finally:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        result.update(module_result)
        return hand_over_token(result, dest)
