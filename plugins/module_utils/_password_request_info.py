# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What ``vault_password_request_info`` reads: the open password requests the caller sees (``_password_request``)."""

from __future__ import annotations

from ._checks import clean_text
from ._errors import VaultAPIError, VaultNotFoundError
from ._password_workflow import list_requests, resolve_user_id


def describe(task):
    """Entry point of ``vault_password_request_info``: ``{"requester", "requests"}``, the open requests the caller
    sees, of ``requester`` (a user name) when given, filtered by ``resource`` and ``account`` names.

    A requester the vault gives no id for has no requests: ``get_USERID``
    answers the same failure for an unknown user and for a refusal, so its
    message goes into a warning rather than failing the task.
    """
    client, options = task.client, task.desired
    requester, resource, account = options.get("requester"), options.get("resource"), options.get("account")
    for value, what in ((requester, "requester"), (resource, "resource"), (account, "account")):
        clean_text(value, what)
    requester_id = None
    if requester:
        try:
            requester_id = resolve_user_id(client, requester)
        except VaultNotFoundError as exc:
            return _without_requester_id(task, requester, exc)
        except VaultAPIError as exc:
            if not _refusal(exc):
                raise
            return _without_requester_id(task, requester, exc)
    listed_by, requests = list_requests(client, requester_id)
    wanted = [
        item
        for item in requests
        if resource in (None, item["resource_name"]) and account in (None, item["account_name"])
    ]
    return {"requester": listed_by, "requests": wanted}


def _without_requester_id(task, requester, failure):
    """No requests, and a warning with the vault's words of ``failure``, for a requester it gives no id for."""
    task.warn(
        "the vault gave no user id for requester %s, so no requests are listed: %s"
        % (requester, failure.vault_message or failure)
    )
    return {"requester": {}, "requests": []}


def _refusal(exc):
    """A failed ``result.status`` in an HTTP 2xx answer: the vault handled the call and said no."""
    return exc.http_status is not None and 200 <= exc.http_status < 300
