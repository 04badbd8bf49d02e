# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The rows of the catalogue's "Password workflow and policies" (``{rest_root}/accounts/...`` and
``/passwords/...``), one function each."""

from __future__ import annotations

from .._errors import VaultAPIError
from ._declare import UNSUPPORTED, declares


def _reason(reason):
    """The input of a request or checkout: ``REASON`` when given, else none."""
    return {"REASON": reason} if reason else None


def _decision(account_id, requester_id):
    return {"account_id": account_id, "requester_id": requester_id}


@declares("request_password")
def request_password(call, account_id, reason=None) -> None:
    """REQUEST_PASSWORD for the token's own user, with ``REASON`` when given."""
    call(path={"account_id": account_id}, details=_reason(reason))


@declares("get_password_requests")
def get_password_requests(call, requester_id=None) -> tuple[dict, list[dict]]:
    """GET_PASSWORDREQUEST: ``(Details, its PASSWORDREQUESTLIST items)`` of the open requests of one requester.

    Details name the requester (``REQUESTER USERID``, ``REQUESTED BY``, ``REQUESTED BY FULLNAME``). With
    ``requester_id`` (Details ``REQUESTEDID``) an administrator asks for that user's; without it the vault chooses
    (the caller's own, for a requester)."""
    response = call(details={"REQUESTEDID": requester_id} if requester_id else None)
    return response.details_dict(), response.details_list("PASSWORDREQUESTLIST")


@declares("approve_request")
def approve_request(call, account_id, requester_id) -> None:
    """ADMIN_REQUEST_APPROVE: approve the open request of ``requester_id`` for the account (no input)."""
    call(path=_decision(account_id, requester_id))


@declares("reject_request")
def reject_request(call, account_id, requester_id, passwd_id) -> None:
    """ADMIN_REQUEST_REJECT of the open request of ``requester_id``: Details ``PASSWDID``, ``REQUESTEDID``."""
    call(path=_decision(account_id, requester_id), details={"PASSWDID": passwd_id, "REQUESTEDID": requester_id})


@declares("checkin_password")
def checkin_password(call, account_id, requester_id, passwd_id) -> None:
    """ADMIN_REQUEST_CHECKIN of the password ``requester_id`` checked out: Details ``PASSWDID``, ``REQUESTEDID``."""
    call(path=_decision(account_id, requester_id), details={"PASSWDID": passwd_id, "REQUESTEDID": requester_id})


@declares("checkout_password")
def checkout_password(call, account_id, reason=None) -> None:
    """REQUEST_CHECKOUT of an approved request of the token's own user, with ``REASON`` when given."""
    call(path={"account_id": account_id}, details=_reason(reason))


@declares("generate_password")
def generate_password(call, policy_name) -> str:
    """GENERATE PASSWORD by the policy called ``policy_name`` (Details ``POLICY``): Details ``PASSWORD``. An answer
    without a password (none, not a string, or empty) is a ``VaultAPIError``."""
    password = call(details={"POLICY": policy_name}).details_dict().get("PASSWORD")
    if not isinstance(password, str) or not password:
        raise VaultAPIError(
            "GENERATE PASSWORD answered without a password for password policy %s" % policy_name,
            operation="GENERATE PASSWORD",
        )
    return password


@declares("get_password_policies", unserved=UNSUPPORTED)
def get_password_policies(call) -> tuple[str | None, list[dict]]:
    """GET PASSWORD POLICIES (A 11300 / B 5300): ``(ORGANIZATION, POLICIES items)`` (items: ``POLICYNAME``,
    ``POLICYID``, ``DEFAULTPOLICY``, ...), as the vault gives them; ``VaultUnsupportedError`` where the vault lacks
    the row."""
    response = call()
    return response.details_dict().get("ORGANIZATION"), response.details_list("POLICIES")


@declares("validate_password", unserved=UNSUPPORTED)
def validate_password(call, password, policy_name=None, policy_id=None) -> str | None:
    """VALIDATE_PASSWORD (A 12230 / B 6000) of ``password`` against the policy called ``policy_name`` (lower-case
    ``details`` ``passwordPolicy``) or with id ``policy_id`` (``passwordPolicyId``): ``result.message`` of a valid
    password (the spec shows ``Valid``). An invalid one is a failed answer (``VaultAPIError``); a vault without the
    row raises ``VaultUnsupportedError``."""
    details = {"password": password}
    if policy_name is not None:
        details["passwordPolicy"] = policy_name
    else:
        details["passwordPolicyId"] = str(policy_id)
    return call(details=details).message
