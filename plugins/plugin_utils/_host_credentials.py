# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A host's login and become passwords, read from the vault on the controller (the ``vault_host_credentials``
action plugin).

Each account costs two requests: ``GET_RESOURCEACCOUNTID`` and ``GET PASSWORD`` (with ``REASON`` and ``TICKETID``
when given); one account named for both roles is read once. A failure names the host's resource, the account and
what it was for, never a password.
"""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._account import get_password, require_account
from ansible_collections.credvault.vault.plugins.module_utils._checks import clean_text
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError, VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._options import authorization_argument_spec

# option naming an account -> the result key of its password, and what the password is for
ROLES = (
    ("login_account", "login_password", "login"),
    ("become_account", "become_password", "become"),
)


def argument_spec():
    """The task's own options; the action adds the connection options (``connection_argument_spec``)."""
    return {
        "resource": {"type": "str", "required": True},
        "login_account": {"type": "str"},
        "become_account": {"type": "str"},
        **authorization_argument_spec(),
    }


def describe(task):
    """Entry point of ``vault_host_credentials``: ``{"login_password": ..., "become_password": ...}`` for the
    accounts ``task.desired`` names (either or both).

    Raises ``VaultInputError`` when neither is named, and the client's ``VaultError`` restated with the resource,
    the account and its use when one cannot be read (missing, refused, unreachable)."""
    client, params = task.client, task.desired
    resource = clean_text(params["resource"], "resource")
    wanted = [(key, params[option], use) for option, key, use in ROLES if params.get(option)]
    if not wanted:
        raise VaultInputError("name login_account, become_account or both: there is no password to fetch")
    read = {}
    secrets = {}
    for key, account, use in wanted:
        clean_text(account, "%s_account" % use)
        if account not in read:
            read[account] = _password(client, resource, account, use, params)
        secrets[key] = read[account]
    return secrets


def _password(client, resource, account, use, params):
    try:
        ref = require_account(client, resource, account)
        return get_password(client, ref, params.get("reason"), params.get("ticket_id"))
    except VaultError as exc:
        raise exc.reworded("cannot fetch the %s password of %s/%s: %s" % (use, resource, account, exc)) from None
