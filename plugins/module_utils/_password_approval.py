# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Waiting for an administrator's approval, then checking out: ``state=checked_out`` with ``wait_timeout``.

The requester's token requests the password when it has no open request, reads its own open requests
(``GET_PASSWORDREQUEST``) every ``wait_interval`` seconds until an administrator has approved the request, and
checks the password out. The vault lists open requests only, so a request that leaves the list while waiting was
rejected (or approved, checked out and checked in by someone else in between): the wait fails, as it does when
``wait_timeout`` seconds pass first; the request is then left open, for a later run to go on from.

The request's lock (``_object_lock``) is held while reading and writing, never while sleeping, so parallel runs of
the task (forks) wait side by side; the first to find the approval checks out, the others find it checked out.

Time is read through this module's ``clock`` and ``sleep``, which unit tests replace; the client's own retries do
not use them.
"""

from __future__ import annotations

import time

from . import _password_workflow as workflow
from ._account import require_account
from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultError, VaultNotFoundError, is_refusal
from ._object_lock import object_lock

clock = time.monotonic
sleep = time.sleep

DEFAULT_INTERVAL = 5


class ApprovalWaitError(VaultError):
    """The request was not approved: it left the list of open requests, or the time was up first."""


def check_out_after_approval(task):
    """``_password_request.converge`` when ``task.desired["wait_timeout"]`` is above 0 (``state`` is then
    ``checked_out``): request, wait for the approval, check out.

    The result adds ``requested`` (the task requested the password; in check mode: would) and ``waited`` (whole
    seconds spent waiting). The task changed when it requested or checked out.
    """
    client, desired, check_mode, tracker = task.client, task.desired, task.check_mode, task.tracker
    workflow.validate(desired)
    try:
        ref = require_account(client, desired["resource"], desired["account"])
    except VaultNotFoundError as missing:
        return dict(workflow.without_account(task, missing), requested=True, waited=0)
    with object_lock(client, workflow.LOCKED_KIND, workflow.lock_identity(desired), check_mode):
        request = workflow.open_request(client, None, ref)
        before = request["state"] if request else workflow.NONE
        if before == workflow.CHECKED_OUT or check_mode:
            tracker.record("state", before, workflow.CHECKED_OUT, before != workflow.CHECKED_OUT)
            return {
                "state": workflow.CHECKED_OUT,
                "request": request or {},
                "requested": before == workflow.NONE,
                "waited": 0,
            }
        requested, current = _request(client, ref, desired) if before == workflow.NONE else (False, before)
    waited = wait_for_approval(client, ref, current, desired)
    # The checkout alone, recorded apart: the task records the whole way, from the state before the request.
    checkout = DifferenceTracker()
    result = workflow.change_request(client, ref, desired, None, False, checkout)
    tracker.record("state", before, result["state"], requested or checkout.changed)
    return {"state": result["state"], "request": request or {}, "requested": requested, "waited": waited}


def _request(client, ref, desired):
    """``(requested, state)``: send ``REQUEST_PASSWORD`` and the state of the open request after it.

    A request the vault does not accept while a parallel run (another controller) has just made one is not a
    failure: that run's request, found by one more read, is the one to wait for. A refusal of this token, or a
    failure that leaves no open request, is raised."""
    try:
        workflow.Transition(client, ref, dict(desired, state=workflow.REQUESTED), None, None, workflow.NONE).perform()
    except VaultAPIError as failure:
        request = None if is_refusal(failure) else workflow.open_request(client, None, ref)
        if request is None:
            raise
        return False, request["state"]
    return True, workflow.REQUESTED


def wait_for_approval(client, ref, current, desired):
    """Whole seconds waited until the request for ``ref`` (in state ``current``) no longer waits for approval;
    ``ApprovalWaitError`` when it leaves the list of open requests or ``desired["wait_timeout"]`` seconds pass."""
    timeout = desired["wait_timeout"]
    interval = desired.get("wait_interval") or DEFAULT_INTERVAL
    started = clock()
    while current == workflow.REQUESTED:
        waited = clock() - started
        if waited >= timeout:
            raise ApprovalWaitError(
                "the request for %s is still waiting for approval after %d s (wait_timeout); it is left open: an "
                "administrator can still approve it, and a later run goes on from it" % (ref.label, round(waited))
            )
        sleep(min(interval, timeout - waited))
        request = workflow.open_request(client, None, ref)
        current = request["state"] if request else workflow.NONE
    if current == workflow.NONE:
        raise ApprovalWaitError(
            "the request for %s was rejected (or ended) by an administrator while waiting for approval: the vault "
            "no longer lists it, so there is nothing to check out; request the password again" % ref.label
        )
    return round(clock() - started)
