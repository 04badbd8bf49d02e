# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The account rows of the catalogue ("Resources and accounts": ``{rest_root}/resources/{resource_id}/accounts``,
``/accounts/{account_id}/totp``), one function each."""

from __future__ import annotations

from ._declare import declares


@declares("edit_account")
def edit_account(call, resource_id, account_id, details) -> None:
    """EDIT ACCOUNT: only the keys given change (the account booleans are gated: A 12230 / B 6000, TOTP_*: A 12430)."""
    call(path={"resource_id": resource_id, "account_id": account_id}, details=details)
