# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Changing an account's password (``vault_account_password``): to a given value, converged, or to one the vault
generates (rotation).

A given value is compared with the stored password (``GET PASSWORD``, with the
same REASON and TICKETID as the change) and sent only when it differs. A
rotation never reads the stored password: it generates one (``GENERATE
PASSWORD``) and changes to it, so it always changes; in check mode it neither
generates nor writes. Either way the vault checks the account's own policy on
``CHANGE PASSWORD`` and its refusal is the failure, with the new password
scrubbed from the message by the client.
"""

from __future__ import annotations

from ._account import AccountRef, change_password, get_password, require_account
from ._checks import clean_text
from ._errors import VaultInputError, VaultNotFoundError
from ._policy import generate_password

RESET_TYPES = ("LOCAL", "REMOTE")


def check_input(desired):
    """Refuse, before any request, what the argspec cannot express (it makes the options exclusive)."""
    clean_text(desired.get("resource"), "resource")
    clean_text(desired.get("account"), "account")
    if desired.get("password") == "":
        raise VaultInputError("password must not be empty (the vault requires NEWPASSWORD)")
    clean_text(desired.get("rotate_with_policy"), "rotate_with_policy")


def converge(task):
    """Entry point of ``vault_account_password``: give the account ``desired["resource"]/desired["account"]`` the
    password ``desired`` asks for, recorded (hidden) in ``task.tracker``.

    Returns ``resource_id`` and ``account_id`` (None in check mode for an account an earlier task would create) and,
    with ``return_password``, ``password``: the account's password after the task, left out when a rotation only
    reports what it would do (check mode).
    """
    ref, new_password = _change(task.client, task.desired, task.check_mode, task.tracker)
    values = {"resource_id": ref.resource_id, "account_id": ref.account_id}
    if task.desired.get("return_password") and new_password is not None:
        values["password"] = new_password
    return values


def _change(client, desired, check_mode, tracker):
    """``(ref, new_password)``: ``new_password`` is the account's password after the task, None when a rotation
    only reports what it would do (check mode)."""
    check_input(desired)
    try:
        ref = require_account(client, desired["resource"], desired["account"])
    except VaultNotFoundError as exc:
        if not check_mode:
            raise
        # In check mode an earlier task may only have reported that it would create the account.
        tracker.record("password", None, None, True, secret=True)
        tracker.warn("%s: in check mode that means an earlier task would create it, so its password would be set" % exc)
        return AccountRef(desired["resource"], desired["account"], None, None), None
    reason, ticket_id = desired.get("reason"), desired.get("ticket_id")
    if desired.get("rotate_with_policy") is not None:
        tracker.record("password", None, None, True, secret=True)
        if check_mode:
            return ref, None
        new_password = generate_password(client, desired["rotate_with_policy"])
    else:
        new_password = desired["password"]
        differs = get_password(client, ref, reason, ticket_id) != new_password
        tracker.record("password", None, None, differs, secret=True)
        if not differs or check_mode:
            return ref, new_password
    change_password(client, ref, new_password, reason, ticket_id, desired.get("reset_type", "LOCAL"))
    return ref, new_password
