# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``vault_password_request``: one transition of the password access workflow (``_password_workflow``), or a
checkout that waits for the approval first (``_password_approval``)."""

from __future__ import annotations

from ._account import require_account
from ._errors import VaultNotFoundError
from ._password_approval import check_out_after_approval
from ._password_workflow import change_request, resolve_user_id, validate, without_account


def converge(task):
    """Entry point of ``vault_password_request``: the request of one requester for one account converged to
    ``task.state``.

    ``task.desired`` holds ``resource``, ``account``, ``state`` and, as the state needs them, ``requester`` (a user
    name) or ``reason``. Returns ``state`` after the task and ``request`` as the vault listed it before; with
    ``wait_timeout`` above 0 (``state=checked_out``), ``_password_approval`` waits for the approval first and adds
    ``requested`` and ``waited``.

    A missing resource or account holds no open request, so ``rejected`` and
    ``checked_in`` are reached without it. For the other states it fails the
    task, except in check mode, where an earlier task of the run may create it.
    """
    desired, client = task.desired, task.client
    if desired.get("wait_timeout"):
        return check_out_after_approval(task)
    validate(desired)
    try:
        ref = require_account(client, desired["resource"], desired["account"])
    except VaultNotFoundError as missing:
        return without_account(task, missing)
    requester_id = resolve_user_id(client, desired["requester"]) if desired.get("requester") else None
    return change_request(client, ref, desired, requester_id, task.check_mode, task.tracker)
