# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Sharing SSL certificates and certificate groups with users and user groups, and revoking it.

What the API offers, and what that means here:

- Eight POST calls (A 11300 / B 5300), one target with one grantee each:
  ``/shareCertificateToUser`` and ``/shareCertificateToUserGroup``
  (``common_name``, ``serial_number``, ``userId`` or ``userGroupId``),
  ``/shareCertificateGroupToUser`` and ``/shareCertificateGroupToUserGroup``
  (``certificate_group_name``, ``userId`` or ``userGroupId``), answered
  ``ShareCertificate``; the four ``revoke...`` calls take the same input and
  answer ``RevokeCertificate``. There is no access level.
- No call reads a certificate share back. As for ``vault_share``, nothing can
  be compared: with ``state: present`` every run sends its share calls, and a
  task reports ``changed`` exactly when it sent share calls (in check mode:
  would send them). The forks of one task on one host send them once: the
  target's lock is held around the calls, and a fork that finds every pair
  already sent by another fork of the task (``_object_lock.sent_by_this_task``)
  sends nothing and reports no change (outcome ``sent by another fork``). With
  ``state: absent`` the revoke calls are sent every run; a pair the vault answers is "not shared" is no change (the answer says
  so), every revoke accepted is a change.
- The certificate is resolved with ``GetAllSSLCertificates`` and the users and
  user groups with ``get_USERID`` and ``GET_USERGROUPID`` before the first
  share call, so an unknown name fails the task before anything is shared
  (check mode takes an unknown certificate or user as created by an earlier
  task, with a warning; user groups, which the API cannot create, must
  exist). The spec cannot read certificate groups: a group is sent by name and
  the vault's answer decides.
- Every pair is sent, even after one failed; the task then fails naming each
  pair that failed with the vault's words, and the pairs applied (which stay
  applied; the task reports changed when any was).
"""

from __future__ import annotations

import re

from ._api import certificates as certificates_api
from ._api._declare import require
from ._certificate_lookup import missing_certificate, normalized_serial, select_certificate
from ._checks import clean_text
from ._errors import VaultAPIError, VaultError, VaultInputError, VaultNotFoundError
from ._object_lock import sent_by_this_task
from ._user import require_user_id
from ._user_group import require_user_group_id

USER, USER_GROUP = "user", "user group"
CERTIFICATE, GROUP = "certificate", "certificate group"
SHARE, REVOKE = "ShareCertificate", "RevokeCertificate"
NOT_SHARED = re.compile(r"\bnot shared\b", re.IGNORECASE)

# (target kind, grantee kind, state) -> the gateway function: ``(client, target, grantee id)`` -> the answer's message
ROWS = {
    (CERTIFICATE, USER, "present"): certificates_api.share_certificate_with_user,
    (CERTIFICATE, USER_GROUP, "present"): certificates_api.share_certificate_with_group,
    (GROUP, USER, "present"): certificates_api.share_certificate_group_with_user,
    (GROUP, USER_GROUP, "present"): certificates_api.share_certificate_group_with_group,
    (CERTIFICATE, USER, "absent"): certificates_api.revoke_certificate_from_user,
    (CERTIFICATE, USER_GROUP, "absent"): certificates_api.revoke_certificate_from_group,
    (GROUP, USER, "absent"): certificates_api.revoke_certificate_group_from_user,
    (GROUP, USER_GROUP, "absent"): certificates_api.revoke_certificate_group_from_group,
}

# What the result says of each pair.
SHARED, REVOKED, WAS_NOT_SHARED, FAILED, PLANNED = "shared", "revoked", "not shared", "failed", "would be sent"
SENT_BY_ANOTHER_FORK = "sent by another fork"
# The kind of object whose lock is held while its share calls are sent (``_object_lock``).
LOCKED_KIND = "certificate share target"
# What the diff shows of a pair before the task: no call reads certificate shares.
UNKNOWN = "unknown"


def _names(values, what):
    return list(dict.fromkeys(clean_text(value, what) for value in values or []))


def validate(desired):
    """``(target kind, grantee names by kind)``; refuses before any request what the vault would refuse."""
    if (desired.get("common_name") is None) == (desired.get("group") is None):
        raise VaultInputError("give one of common_name (a certificate) and group (a certificate group)")
    if desired.get("group") is not None:
        if desired.get("serial_number") is not None:
            raise VaultInputError("serial_number selects a certificate: not with group")
        clean_text(desired["group"], "group")
        kind = GROUP
    else:
        clean_text(desired["common_name"], "common_name")
        normalized_serial(desired.get("serial_number"))
        kind = CERTIFICATE
    grantees = {
        USER: _names(desired.get("users"), "users entry"),
        USER_GROUP: _names(desired.get("user_groups"), "user_groups entry"),
    }
    if not grantees[USER] and not grantees[USER_GROUP]:
        raise VaultInputError("give the users or user_groups to share with (or revoke from)")
    return kind, grantees


def converge(task):
    """Entry point of ``vault_certificate_share``: share (or with ``state: absent`` revoke) as ``task.desired`` says;
    records each pair in ``task.tracker`` (``record_pair``) and returns ``{"calls"}``, one entry per call made (in
    check mode: that would be made)."""
    client, desired, check_mode, tracker = task.client, task.desired, task.check_mode, task.tracker
    kind, grantees = validate(desired)
    state = desired["state"]
    for grantee_kind, names in grantees.items():
        if names:
            require(client, ROWS[(kind, grantee_kind, state)])
    target, label = resolve_target(client, desired, kind, check_mode, tracker)
    ids = resolve_grantees(client, grantees, check_mode, tracker)
    calls = []
    for grantee_kind in (USER, USER_GROUP):
        for name in grantees[grantee_kind]:
            calls.append(
                {
                    "operation": SHARE if state == "present" else REVOKE,
                    "what": label,
                    "whom": "%s %s" % (grantee_kind, name),
                    "send": ROWS[(kind, grantee_kind, state)],
                    "target": target,
                    "grantee_id": ids.get((grantee_kind, name)),
                }
            )
    if check_mode:
        results = [dict(_entry(call), outcome=PLANNED, message=None) for call in calls]
    else:
        results = send_once(client, label, calls, state)
    for result in results:
        record_pair(tracker, result, state)
    return {"calls": results}


def send_once(client, label, calls, state):
    """Send the calls under the target's lock, unless another fork of this task sent the same shares."""
    pairs = {call["whom"]: state for call in calls}
    with sent_by_this_task(client, LOCKED_KIND, (label,)) as record:
        if state == "present" and record.repeats(pairs):
            return [dict(_entry(call), outcome=SENT_BY_ANOTHER_FORK, message=None) for call in calls]
        results = send_all(client, calls, state)
        record.sent(pairs)
        return results


def send_all(client, calls, state):
    """Send every call, even after one failed; their result entries. Any failed pair fails the task, naming each
    failed pair with the vault's words, and the pairs applied."""
    results = []
    for call in calls:
        try:
            results.append(send(client, call, state))
        except VaultError as exc:
            raise exc.reworded("%s - %s: %s%s" % (call["what"], call["whom"], exc, _applied(results))) from None
    failed = [result for result in results if result["outcome"] == FAILED]
    if failed:
        raise VaultAPIError(
            "%s failed for %s%s"
            % (
                failed[0]["operation"],
                "; ".join("%s - %s: %s" % (r["what"], r["whom"], r["message"]) for r in failed),
                _applied(results),
            ),
            operation=failed[0]["operation"],
            vault_message=failed[0]["message"],
        )
    return results


def record_pair(tracker, result, state):
    """Record one pair (``<what> - <whom>``) as shared or not shared after the task. No call reads shares, so what
    it was before is ``unknown``; only a revoke the vault answered "not shared" shows it, and changes nothing, and a
    share another fork of the task sent is shared before and after."""
    pair = "%s - %s" % (result["what"], result["whom"])
    if result["outcome"] == SENT_BY_ANOTHER_FORK:
        tracker.record(pair, SHARED, SHARED, False)
    elif result["outcome"] == WAS_NOT_SHARED:
        tracker.record(pair, WAS_NOT_SHARED, WAS_NOT_SHARED, False)
    else:
        tracker.record(pair, UNKNOWN, SHARED if state == "present" else WAS_NOT_SHARED, True)


def resolve_target(client, desired, kind, check_mode, tracker):
    """``(the target, its label)``: a group's name, or a certificate's selector (``common_name``, and
    ``serial_number`` when known)."""
    if kind == GROUP:
        return desired["group"], "%s %s" % (GROUP, desired["group"])
    item = select_certificate(client, desired["common_name"], desired.get("serial_number"))
    if item is None:
        wanted = desired["common_name"]
        if desired.get("serial_number") is not None:
            wanted = "%s (serial number %s)" % (wanted, desired["serial_number"])
        error = missing_certificate(
            client, desired["common_name"], desired.get("serial_number"), "" if check_mode else "; nothing was shared"
        )
        if not check_mode or not isinstance(error, VaultNotFoundError):
            raise error
        tracker.warn(
            "%s: check mode takes it as created by an earlier task, a real run fails unless it exists by then" % error
        )
        selected = {"common_name": desired["common_name"]}
        if desired.get("serial_number") is not None:
            selected["serial_number"] = desired["serial_number"]
        return selected, "%s %s" % (CERTIFICATE, wanted)
    selected = {"common_name": item.get("Common Name")}
    if item.get("serialNumber"):
        selected["serial_number"] = str(item["serialNumber"])
    return selected, "%s %s (serial number %s)" % (CERTIFICATE, item.get("Common Name"), item.get("serialNumber"))


def resolve_grantees(client, grantees, check_mode, tracker):
    """``{(kind, name): id}``; unknown users are taken as created earlier in check mode (id None)."""
    ids = {}
    for name in grantees[USER]:
        try:
            ids[(USER, name)] = require_user_id(client, name)
        except VaultNotFoundError as exc:
            if not check_mode:
                raise VaultNotFoundError("%s; nothing was shared" % exc, vault_message=exc.vault_message) from None
            tracker.warn(
                "%s: check mode takes it as created by an earlier task, a real run fails unless it exists by then" % exc
            )
            ids[(USER, name)] = None
    for name in grantees[USER_GROUP]:
        ids[(USER_GROUP, name)] = require_user_group_id(client, name)
    return ids


def send(client, call, state):
    """One call; its result entry (outcome ``shared``, ``revoked``, ``not shared`` or ``failed``)."""
    try:
        message = call["send"](client, call["target"], call["grantee_id"])
    except VaultAPIError as exc:
        if state == "absent" and NOT_SHARED.search(exc.vault_message or ""):
            return dict(_entry(call), outcome=WAS_NOT_SHARED, message=exc.vault_message)
        return dict(_entry(call), outcome=FAILED, message=exc.vault_message or str(exc))
    return dict(_entry(call), outcome=SHARED if state == "present" else REVOKED, message=message)


def _applied(results):
    """``; applied: <pairs>`` for the pairs the vault shared or revoked (they stay applied), or nothing."""
    applied = ["%s - %s" % (r["what"], r["whom"]) for r in results if r["outcome"] in (SHARED, REVOKED)]
    return "; applied, and they stay so: %s" % "; ".join(applied) if applied else ""


def _entry(call):
    return {"operation": call["operation"], "what": call["what"], "whom": call["whom"]}
