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

from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import write_file
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import SecretToFileAction

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


class ActionModule(SecretToFileAction):
    """Runs the module like the agent-key actions, but hands the token over as ``hand_over_token`` says: written
    whole (the module returns it once, so there is nothing to compare), or left in the result without a file."""

    MODULE = MODULE
    SECRET = "token"
    DEST_OPTION = "token_dest"

    def hand_over(self, result, dest):
        return hand_over_token(result, dest)
