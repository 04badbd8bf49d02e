# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A password checked against a policy, for ``vault_password_validate`` (the policy calls are ``_policy``'s)."""

from __future__ import annotations

from ._policy import require_valid, validate_password


def describe(task):
    """Entry point of ``vault_password_validate``: ``valid`` and ``message``, the vault's verdict on ``password``
    against ``policy`` or ``policy_id``; with ``fail_on_invalid`` an invalid password fails the task
    (``InvalidPasswordError``). Read-only: validating writes nothing."""
    desired = task.desired
    verdict = validate_password(task.client, desired["password"], desired.get("policy"), desired.get("policy_id"))
    if desired.get("fail_on_invalid"):
        require_valid(verdict, desired.get("policy"), desired.get("policy_id"))
    return {"valid": verdict.valid, "message": verdict.message}
