# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_user module and keeps the token of an API user it created on the controller.

The module returns the new user's token (``token``) only from the run that
created the user, also with a failure after the creation. With ``token_dest``
this plugin takes the token out of the result before anything can show it,
writes it to that file of the controller (mode 0600, atomically, with the
collection's one controller writer ``plugin_utils._controller_files``) and returns
``token_dest`` instead. Without ``token_dest`` the token stays in the result of
a successful run, which is censored (``plugin_utils._secret_handover``); a
failed run returns no token. A run that returns no token - the user existed,
check mode - leaves the file alone, and warns when an existing user's token is
not in the file. No message names the token.
"""

from __future__ import annotations

import os

from ansible_collections.credvault.vault.plugins.plugin_utils._compat import add_warnings
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import write_file
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import SecretToFileAction

# Only CREATE_USER answers a token; recreate (delete, create) acts only where the vault lists users, and only when a
# setting the list reports differs.
NEW_TOKEN = (
    "delete the user (state: absent) and run the task again (where the vault lists users, recreate: true with a "
    "role, email, department, location or super_admin that differs also gives a new one)"
)


def hand_over_token(result, dest, args):
    """``result`` without its ``token``: written to ``dest`` (``token_dest`` returned), or, without ``dest``, left
    in ``token`` (to be censored) unless the run failed. A file that cannot be written fails the task with a message
    that never holds the token. An existing API user with no file at ``dest`` is warned about."""
    token = result.pop("token", None)
    if token is None:
        if dest is not None and args.get("state") != "absent" and not result.get("failed"):
            warn_token_not_at(result, dest, args.get("name"))
        return result
    if dest is None:
        if result.get("failed"):
            result["msg"] = "%s. A failed task returns no secret, and no later run returns this user's token: %s" % (
                result.get("msg"),
                NEW_TOKEN,
            )
        else:
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


def warn_token_not_at(result, dest, name):
    """The user existed (this run did not create it) and ``dest`` holds no file: the token is nowhere the task can
    tell, for instance when the answer to CREATE_USER was lost after the vault created the user."""
    if "CREATE_USER" in (result.get("calls") or []) or os.path.lexists(dest):
        return
    message = (
        "API user %s exists, and its token is not at token_dest %s (no file there): a run that finds an existing "
        "user cannot return its token (the vault answers it once, to the run that creates the user; that answer may "
        "have been lost). For a new token, %s" % (name, dest, NEW_TOKEN)
    )
    add_warnings(result, [message])


class ActionModule(SecretToFileAction):
    """Runs the module like the agent-key actions, but hands the token over as ``hand_over_token`` says: written
    whole (the module returns it once, so there is nothing to compare), or left in the (censored) result without a
    file."""

    MODULE = "vault_user"
    SECRET = "token"
    DEST_OPTION = "token_dest"

    def hand_over(self, result):
        return hand_over_token(result, self.dest, self._task.args)
