# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The password access workflow: request, approve or reject, check out, check in.

The vault lists only *open* requests (``GET_PASSWORDREQUEST``), one requester at
a time: a requester sees their own; an administrator sees the requester named by
Details.REQUESTEDID (by default, whoever has the oldest open request). A request
that was rejected or checked in is no longer listed, so "no open request" is all
the list can tell about it. Nothing here ever reads or returns a password.

Rejecting a request whose password is checked out is refused by the vault;
the administrator's way to end it is the check-in, so ``rejected`` checks a
checked-out password in: either way the requester is left with no open
request, which is what ``rejected`` promises. Likewise ``checked_in`` (give the
password back, whatever happened: the ``always:`` of a play that checked it
out) from a request that is waiting or approved, never checked out: it rejects
the request, since a request left open could still be approved and checked out
later, with no play left to give the password back.

``_password_request.converge`` (the entry point of ``vault_password_request``)
makes one transition with ``change_request``; a checkout that waits for the
approval first is ``_password_approval``'s. ``_password_request_info`` lists
the open requests with the reads of this file.

Parallel runs of one task on this host (forks) hold the lock of the account's
request (``_object_lock``) while they read and change it, so one run makes the
change and the others find it made. A transition the vault refuses is
followed by one more read: when the request is in the task's state by then,
a parallel run (on another host) made it, and the task reports no change.
"""

from __future__ import annotations

from ._api import passwords as passwords_api
from ._api import users as users_api
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError, VaultResponseError, is_refusal
from ._object_lock import object_lock

# States of an open request, as the list's STATUS shows them, and the states a task converges to.
NONE = "none"  # no open request: never requested, rejected, or checked in
REQUESTED = "requested"
APPROVED = "approved"
CHECKED_OUT = "checked_out"
REJECTED = "rejected"
CHECKED_IN = "checked_in"
UNKNOWN = "unknown"  # a STATUS this collection does not know
LOCKED_KIND = "password request"

REQUESTER_STATES = (REQUESTED, CHECKED_OUT)  # performed by the requester's own token
ADMINISTRATOR_STATES = (APPROVED, REJECTED, CHECKED_IN)  # performed by an administrator for a named requester

# desired state -> states of the open request in which nothing needs to be done
SATISFIED = {
    REQUESTED: (REQUESTED, APPROVED, CHECKED_OUT, UNKNOWN),
    APPROVED: (APPROVED, CHECKED_OUT),
    REJECTED: (NONE,),
    CHECKED_OUT: (CHECKED_OUT,),
    CHECKED_IN: (NONE,),
}
# desired state -> states from which the vault performs the transition (from UNKNOWN the vault decides)
ALLOWED_FROM = {
    REQUESTED: (NONE,),
    APPROVED: (REQUESTED,),
    REJECTED: (REQUESTED, APPROVED),
    CHECKED_OUT: (APPROVED,),
    CHECKED_IN: (CHECKED_OUT,),
}
# (desired state, state found) -> the transition that gives the desired state's promise (no open request) there.
ENDED_BY = {
    (REJECTED, CHECKED_OUT): CHECKED_IN,
    (CHECKED_IN, REQUESTED): REJECTED,
    (CHECKED_IN, APPROVED): REJECTED,
}
ACTIONS = {
    REQUESTED: "request the password",
    APPROVED: "approve the request",
    REJECTED: "reject the request",
    CHECKED_OUT: "check out the password",
    CHECKED_IN: "check in the password",
}
SITUATIONS = {
    NONE: "there is no open request (never made, rejected, or checked in)",
    REQUESTED: "the request is waiting for approval",
    APPROVED: "the request is approved and not checked out",
    CHECKED_OUT: "the password is checked out",
}

# PASSWORDREQUESTLIST item key -> key of the structured request this module returns
ITEM_FIELDS = (
    ("ACCOUNT ID", "account_id"),
    ("ACCOUNT NAME", "account_name"),
    ("RESOURCE ID", "resource_id"),
    ("RESOURCE NAME", "resource_name"),
    ("PASSWD ID", "passwd_id"),
    ("STATUS", "status"),
    ("REQUESTED TIME", "requested_time"),
    ("REASON", "reason"),
)
REQUESTER_FIELDS = (
    ("REQUESTER USERID", "user_id"),
    ("REQUESTED BY", "user_name"),
    ("REQUESTED BY FULLNAME", "full_name"),
)


def state_of_status(status):
    """The state of an open request from its STATUS.

    The spec gives STATUS as a string that "may be empty" and shows no values; the
    request itself answers ``WAITING FOR APPROVAL / CHECKOUT``. An empty STATUS is
    taken as waiting for approval, the state in which a request enters the list.
    """
    text = str(status or "").strip().upper()
    if not text or text.startswith("WAITING"):
        return REQUESTED
    if "CHECKED OUT" in text or "CHECKIN" in text:
        return CHECKED_OUT
    if text.startswith("APPROVED"):
        return APPROVED
    return UNKNOWN


def structured_request(item):
    request = {name: _text(item.get(key)) for key, name in ITEM_FIELDS}
    request["state"] = state_of_status(item.get("STATUS"))
    return request


def resolve_user_id(client, user_name):
    """The id of the requester ``user_name`` (``get_USERID``): ``VaultNotFoundError`` when the vault has no such
    user (``users_api.get_user_id``); a refusal or another failure names the requester."""
    try:
        return users_api.get_user_id(client, user_name)
    except VaultAPIError as exc:
        raise exc.reworded("requester %s: %s" % (user_name, exc), VaultAPIError) from None


def list_requests(client, requester_id=None):
    """One ``GET_PASSWORDREQUEST``: ``(requester, requests)``, both structured.

    Without ``requester_id`` the vault chooses whose requests it lists (the
    caller's own, for a requester). With it, a listing of someone else's requests
    is refused: a vault that ignored REQUESTEDID would otherwise mislead the caller.
    """
    details, items = passwords_api.get_password_requests(client, requester_id)
    requester = {name: _text(details.get(key)) for key, name in REQUESTER_FIELDS}
    if requester_id and items and requester["user_id"] != str(requester_id):
        raise VaultResponseError(
            "GET_PASSWORDREQUEST listed the requests of user %s instead of user %s"
            % (requester["user_id"], requester_id),
            operation="GET_PASSWORDREQUEST",
        )
    return requester, [structured_request(item) for item in items]


def validate(desired):
    """Impossible combinations of options, refused before any request."""
    state = desired["state"]
    for what in ("resource", "account", "requester"):
        clean_text(desired.get(what), what)
    if state in ADMINISTRATOR_STATES and not desired.get("requester"):
        raise VaultInputError("state %s is an administrator's decision: requester (a user name) is required" % state)
    if state in REQUESTER_STATES and desired.get("requester"):
        raise VaultInputError(
            "state %s is performed by the requester's own token: requester is only for "
            "approved, rejected and checked_in" % state
        )
    if state in ADMINISTRATOR_STATES and desired.get("reason"):
        raise VaultInputError(
            "reason is sent only to request or check out a password; the vault's approve, reject and check-in take none"
        )
    validate_wait(state, desired.get("wait_timeout") or 0, desired.get("wait_interval"))


def validate_wait(state, wait_timeout, wait_interval):
    """The wait for approval (``_password_approval``): only before a checkout, with sensible seconds."""
    if wait_timeout < 0:
        raise VaultInputError("wait_timeout must be 0 (do not wait) or a number of seconds, not %d" % wait_timeout)
    if wait_interval is not None and wait_interval < 1:
        raise VaultInputError("wait_interval must be at least 1 second, not %d" % wait_interval)
    if state != CHECKED_OUT and (wait_timeout or wait_interval is not None):
        raise VaultInputError(
            "wait_timeout and wait_interval wait for the approval of a request before its checkout: they are only for "
            "state checked_out, not %s" % state
        )
    if wait_interval is not None and not wait_timeout:
        raise VaultInputError("wait_interval is the poll interval of the wait for approval: set wait_timeout too")


def change_request(client, ref, desired, requester_id, check_mode, tracker):
    """The locked part of ``_password_request.converge``, for the account of ``ref`` (found) and ``requester_id`` (resolved): reads
    the open request, records its state in ``tracker`` and makes the one transition to ``desired["state"]``.
    Returns ``{"state", "request"}``."""
    state = desired["state"]
    with object_lock(client, LOCKED_KIND, lock_identity(desired), check_mode):
        request = open_request(client, requester_id, ref)
        current = request["state"] if request else NONE
        if current in SATISFIED[state]:
            tracker.record("state", current, current, False)
            return {"state": current, "request": request or {}}
        reached = ENDED_BY.get((state, current), state)
        tracker.record("state", current, reached, True)
        transition = Transition(client, ref, dict(desired, state=reached), requester_id, request, current)
        if check_mode:
            transition.predict()
            return {"state": reached, "request": request or {}}
        try:
            transition.perform()
        except VaultAPIError as refused:
            return _made_meanwhile(client, requester_id, ref, state, refused, tracker)
    return {"state": reached, "request": request or {}}


def lock_identity(desired):
    """The identity of the lock of one requester's request for one account (``object_lock``)."""
    return (desired["resource"], desired["account"], desired.get("requester") or "")


def open_request(client, requester_id, ref):
    """The open request (structured) of the requester for the account of ``ref``, or None."""
    requests = list_requests(client, requester_id)[1]
    return next((item for item in requests if item["account_id"] == ref.account_id), None)


def _made_meanwhile(client, requester_id, ref, state, refused, tracker):
    """After a refused transition: no change when the request is in a state that satisfies ``state`` by then (a
    parallel run made it; ``tracker`` records that instead), else ``refused`` is raised. A refusal of this token is
    raised at once."""
    request = None if is_refusal(refused) else open_request(client, requester_id, ref)
    after = request["state"] if request else NONE
    if is_refusal(refused) or after not in SATISFIED[state]:
        raise refused
    tracker.clear()
    tracker.record("state", after, after, False)
    return {"state": after, "request": request or {}}


def without_account(task, missing):
    """The result for an account that does not exist: nothing to do, ``missing`` raised, or (check mode) a warning."""
    desired, tracker = task.desired, task.tracker
    state = desired["state"]
    if NONE in SATISFIED[state]:
        tracker.record("state", NONE, NONE, False)
        return {"state": NONE, "request": {}}
    if not task.check_mode:
        raise missing
    task.warn(
        "account %s/%s does not exist yet: check mode takes it as created by an earlier task, a real run "
        "fails unless it exists by then" % (desired["resource"], desired["account"])
    )
    tracker.record("state", NONE, state, True)
    return {"state": state, "request": {}}


class Transition:
    """One write of the workflow, for one account and requester."""

    def __init__(self, client, ref, desired, requester_id, request, current):
        self.client = client
        self.ref = ref
        self.state = desired["state"]
        self.reason = desired.get("reason")
        self.requester = desired.get("requester")
        self.requester_id = requester_id
        self.passwd_id = (request or {}).get("passwd_id") or ref.account_id
        self.current = current

    @property
    def label(self):
        whose = "of %s " % self.requester if self.requester else ""
        return "%s %sfor %s" % (ACTIONS[self.state], whose, self.ref.label)

    def predict(self):
        """Check mode: fail as the vault would, for the transitions its rules refuse."""
        if self.current != UNKNOWN and self.current not in ALLOWED_FROM[self.state]:
            raise VaultInputError("cannot %s: %s; the vault refuses it" % (self.label, SITUATIONS[self.current]))

    def perform(self):
        """Send the transition; a refusal carries the vault's own message."""
        try:
            self._send()
        except VaultAPIError as exc:
            raise exc.reworded(
                "cannot %s (state found: %s): %s" % (self.label, self.current, exc), VaultAPIError
            ) from None

    def _send(self):
        client, account_id = self.client, self.ref.account_id
        if self.state == REQUESTED:
            passwords_api.request_password(client, account_id, self.reason)
        elif self.state == CHECKED_OUT:
            passwords_api.checkout_password(client, account_id, self.reason)
        elif self.state == APPROVED:
            passwords_api.approve_request(client, account_id, self.requester_id)
        elif self.state == REJECTED:
            passwords_api.reject_request(client, account_id, self.requester_id, self.passwd_id)
        else:
            passwords_api.checkin_password(client, account_id, self.requester_id, self.passwd_id)


def _text(value):
    return None if value is None else str(value)
