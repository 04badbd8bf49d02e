# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The account rows of the catalogue ("Resources and accounts": ``{rest_root}/resources/{resource_id}/accounts``,
``/resources/getResourceIdAccountId``, ``/accounts/{account_id}/totp``), one function each.

``label`` parameters name the account (``resource/account``) in the messages of the answers these functions refuse;
they are not sent."""

from __future__ import annotations

from .._errors import VaultAPIError, VaultNotFoundError, VaultUnsupportedError, is_refusal
from .._gates import gates_text
from ._declare import UNSUPPORTED, declares


class AccountWithoutTotp(VaultAPIError):
    """FETCH_CURRENT_TOTP answered as failed (HTTP 2xx, not a refusal of the token) for an account: the vault has
    TOTP, this account has none (the spec gives no wording; the simulator says "TOTP is not configured for account
    ...")."""


def _account_path(resource_id, account_id):
    return {"resource_id": resource_id, "account_id": account_id}


@declares("get_resource_account_ids")
def get_resource_account_ids(call, resource_name, account_name) -> tuple[str, str]:
    """GET_RESOURCEACCOUNTID: ``(RESOURCEID, ACCOUNTID)`` of the account ``account_name`` of the resource
    ``resource_name`` (query ``RESOURCENAME``, ``ACCOUNTNAME``).

    "Failure is reported in ``result.message``", with no code that tells a missing resource from a missing account
    or another failure: any failure but a refusal of this token (``is_refusal``, raised as it is), and an answer
    without both ids, is ``VaultNotFoundError`` carrying the vault's words (``vault_message``, None for an answer
    without ids); the caller tells which name is missing.
    """
    try:
        ids = call(query={"RESOURCENAME": resource_name, "ACCOUNTNAME": account_name}).details_dict()
    except VaultAPIError as exc:
        if is_refusal(exc):
            raise
        raise exc.reworded(
            "GET_RESOURCEACCOUNTID found no account %s in resource %s: %s" % (account_name, resource_name, exc),
            VaultNotFoundError,
        ) from None
    if not (ids.get("RESOURCEID") and ids.get("ACCOUNTID")):
        raise VaultNotFoundError(
            "GET_RESOURCEACCOUNTID gave no RESOURCEID and ACCOUNTID for account %s of resource %s"
            % (account_name, resource_name),
            operation="GET_RESOURCEACCOUNTID",
        )
    return str(ids["RESOURCEID"]), str(ids["ACCOUNTID"])


@declares("get_account_details")
def get_account_details(call, resource_id, account_id) -> dict:
    """GET RESOURCE ACCOUNT DETAILS: the account detail (Details: ``DESCRIPTION``, ``PASSWORD STATUS``, ``PASSWDID``,
    ``CUSTOM FIELD``, ...); never the password."""
    return call(path=_account_path(resource_id, account_id)).details_dict()


@declares("get_password")
def get_password(call, resource_id, account_id, label, details=None) -> str:
    """GET PASSWORD: Details ``PASSWORD``; ``details`` holds ``REASON`` and ``TICKETID`` when given. An answer
    without ``PASSWORD`` is a ``VaultAPIError``."""
    password = call(path=_account_path(resource_id, account_id), details=details).details_dict().get("PASSWORD")
    if password is None:
        raise VaultAPIError("GET PASSWORD for %s returned no PASSWORD" % label, operation="GET PASSWORD")
    return str(password)


@declares("change_password")
def change_password(call, resource_id, account_id, details) -> None:
    """CHANGE PASSWORD: ``details`` holds ``NEWPASSWORD``, ``RESETTYPE`` and, when given, ``REASON`` and
    ``TICKETID``."""
    call(path=_account_path(resource_id, account_id), details=details)


@declares("delete_account")
def delete_account(call, resource_id, account_id) -> None:
    """DELETE ACCOUNT."""
    call(path=_account_path(resource_id, account_id))


@declares("download_file")
def download_file(call, resource_id, account_id, details=None):
    """The ``downloadfile`` answer, the ``VaultResponse`` whose ``content`` is the file itself (whatever its bytes,
    even empty) and ``file_name`` the vault's name for it; ``details`` holds ``REASON``, ``TICKETID`` and, for a
    file additional field, ``ISCUSTOMFIELD``, ``CUSTOMFIELDTYPE``, ``CUSTOMFIELDLABEL``."""
    return call(path=_account_path(resource_id, account_id), details=details)


@declares("add_accounts")
def add_accounts(call, resource_id, accounts):
    """ADD ACCOUNTS of the items ``accounts`` (Details ``ACCOUNTLIST``; their booleans are gated: A 12230 / B 6000,
    TOTP_*: A 12430). Returns the answer's Details, "a list of one object keyed by each ACCOUNTNAME, each with
    STATUS text"; a failed answer's are on the ``VaultAPIError`` (``details``). Either may hold items refused and
    items added."""
    return call(path={"resource_id": resource_id}, details={"ACCOUNTLIST": list(accounts)}).details


@declares("edit_account")
def edit_account(call, resource_id, account_id, details) -> None:
    """EDIT ACCOUNT: only the keys given change (the account booleans are gated: A 12230 / B 6000, TOTP_*: A 12430)."""
    call(path=_account_path(resource_id, account_id), details=details)


@declares("get_totp", unserved=UNSUPPORTED)
def get_totp(call, account_id, label) -> str:
    """FETCH_CURRENT_TOTP (A 12430): Details ``TOTP``, the account's current code.

    A vault without the row (refused by the configured edition and build, or answered HTTP 404) has no TOTP at all:
    ``VaultUnsupportedError`` saying so, never "this account has none". A failed answer in HTTP 2xx that is not a
    refusal of this token is ``AccountWithoutTotp``; an answer without ``TOTP`` is a ``VaultAPIError``.
    """
    try:
        code = call(path={"account_id": account_id}).details_dict().get("TOTP")
    except VaultUnsupportedError as exc:
        raise VaultUnsupportedError(
            "%s: %s" % (NO_TOTP, exc), operation=exc.operation, http_status=exc.http_status
        ) from None
    except VaultAPIError as exc:
        if is_refusal(exc) or not 200 <= (exc.http_status or 0) < 300:
            raise
        raise exc.reworded("the vault has no TOTP for %s: %s" % (label, exc), AccountWithoutTotp) from None
    if code is None:
        raise VaultAPIError("FETCH_CURRENT_TOTP for %s returned no TOTP" % label, operation="FETCH_CURRENT_TOTP")
    return str(code)


NO_TOTP = "this vault has no TOTP (FETCH_CURRENT_TOTP and the TOTP_* account fields need %s)" % gates_text(
    get_totp.endpoint.gates
)
