# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Certificate groups: create, edit (and rename), delete.

What the API offers, and what that means here:

- ``createCertificateGroup``, ``editCertificateGroup`` (POST) and
  ``deleteCertificateGroup`` (DELETE), all A 11300 / B 5300, take
  ``group_name``, ``group_description``, ``group_mail`` and ``ssl_details``
  ("string of comma-separated certificate ids": the ``CertID`` of
  ``GetAllSSLCertificates``).
- The spec has no call that lists or reads certificate groups. Whether a group
  exists, and what it holds, cannot be read, so nothing can be compared:
  ``state: present`` sends ``createCertificateGroup`` and, when the vault
  answers that the group already exists, ``editCertificateGroup`` with the
  fields the task gives; either way the task reports changed (and warns that
  it could not compare). ``state: absent`` sends the delete; an answer that the
  group does not exist is no change. The forks of one task on one host
  send a group once: the lock of its (final) name is held around the calls, and
  a fork that finds the same group sent by another fork of the task
  (``_object_lock.sent_by_this_task``) sends nothing and reports no change.
- Rename: the spec says of the edit "same fields as create (group_name carries
  the new name)" and shows no field naming the group to edit. The module sends
  the current name in ``old_group_name`` (what the collection's simulator reads)
  and the new one in ``group_name``. When the vault answers that the group to
  rename does not exist, the group is taken as renamed already (by an earlier
  run) and the new name is edited with the other fields; when that is missing
  too, the task fails.
- Answers are read by their words: an answer whose message says "already
  exists" means the group exists, one that says "does not exist" (or "not
  found") that it does not. Any other refusal fails the task with the vault's
  message.
- Members (``certificates``) are named by ``common_name`` (and
  ``serial_number``) and resolved to ``CertID`` before the first write; an
  unknown certificate fails the task before anything is sent (check mode takes
  it as created by an earlier task, with a warning). ``ssl_details`` replaces
  the group's certificates; it is sent only when ``certificates`` is given
  (``[]`` empties the group).
"""

from __future__ import annotations

import re

from ._api import certificates as certificates_api
from ._api._declare import require
from ._certificate_lookup import missing_certificate, normalized_serial, select_certificate
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, VaultResponseError, refuse_unknown
from ._object_lock import sent_by_this_task

EDIT = "editCertificateGroup"
# The kind of object whose lock is held while a group is sent, and the action of a fork that found it sent.
LOCKED_KIND = "certificate group"
SENT_BY_ANOTHER_FORK = "sent by another fork"
EXISTS = re.compile(r"already exist", re.IGNORECASE)
MISSING = re.compile(r"(does not|doesn't|do not) exist|not found|no such", re.IGNORECASE)
# A loose shape check: what is certainly no e-mail address is refused before any request; the vault decides the rest.
_MAIL = re.compile(r"[^@\s]+@[^@\s]+")
CANNOT_COMPARE = (
    "certificate group %s: the API has no call that reads certificate groups, so the module cannot compare; "
    "every run with state present sends the group and reports changed"
)
NOT_KNOWN_IN_CHECK_MODE = (
    "certificate group %s: check mode cannot tell whether it exists (the API has no call that reads certificate "
    "groups); a real run %s"
)


def validate(desired):
    """Refuse, before any request, what the vault's rules refuse and what the state does not take."""
    clean_text(desired.get("name"), "name")
    if desired.get("new_name") is not None:
        clean_text(desired["new_name"], "new_name")
    if desired["state"] == "absent":
        given = [key for key in ("new_name", "description", "mail", "certificates") if desired.get(key) is not None]
        if given:
            raise VaultInputError("%s: only with state present (state absent deletes the group)" % ", ".join(given))
        return
    mail = desired.get("mail")
    if mail is not None and mail != "" and not _MAIL.fullmatch(mail):
        raise VaultInputError("mail %r is not an e-mail address" % mail)
    for entry in desired.get("certificates") or []:
        clean_text(entry.get("common_name"), "certificates common_name")
        normalized_serial(entry.get("serial_number"), "certificates serial_number")


def converge(task):
    """Entry point of ``vault_certificate_group``: the group of ``task.desired`` sent, or deleted; returns the
    module's values (``action``, ``certificate_group`` and, by state, ``certificates``, ``vault_group``,
    ``vault_message``)."""
    client, desired = task.client, task.desired
    validate(desired)
    if desired["state"] == "absent":
        require(client, certificates_api.delete_certificate_group)
        return delete(task)
    require(client, certificates_api.create_certificate_group, certificates_api.edit_certificate_group)
    return present(task)


def member_ids(client, certificates, tracker, check_mode):
    """``(CertIDs, members)``: the ids of ``certificates`` in order, once each, and each member as
    ``{common_name, serial_number, CertID}``. A certificate that does not exist fails (in check mode: a warning,
    and no id)."""
    ids, members, unknown = [], [], []
    for entry in certificates:
        item = select_certificate(client, entry["common_name"], entry.get("serial_number"))
        if item is None:
            error = missing_certificate(
                client, entry["common_name"], entry.get("serial_number"), "; nothing was changed"
            )
            if not isinstance(error, VaultNotFoundError):
                raise error
            unknown.append(_label(entry))
            continue
        cert_id = item.get("CertID")
        if cert_id is None or isinstance(cert_id, bool) or not str(cert_id).strip().isdigit():
            raise VaultResponseError(
                "GetAllSSLCertificates gave certificate %s no CertID number: %r" % (_label(entry), cert_id),
                operation="GetAllSSLCertificates",
            )
        cert_id = str(int(str(cert_id).strip()))
        if cert_id not in ids:
            ids.append(cert_id)
            members.append(
                {"common_name": item.get("Common Name"), "serial_number": item.get("serialNumber"), "CertID": cert_id}
            )
    refuse_unknown("certificates", unknown, check_mode, tracker.warn)
    return ids, members


def fields(desired, ids):
    """The Details besides the names: only the fields the task gives."""
    details = {}
    if desired.get("description") is not None:
        details["group_description"] = desired["description"]
    if desired.get("mail") is not None:
        details["group_mail"] = desired["mail"]
    if ids is not None:
        details["ssl_details"] = ",".join(ids)
    return details


def present(task):
    """Send the group (create, edit or rename): the API cannot read it, so nothing is compared."""
    client, desired, check_mode, tracker = task.client, task.desired, task.check_mode, task.tracker
    name, new_name = desired["name"], desired.get("new_name")
    ids, members = None, None
    if desired.get("certificates") is not None:
        ids, members = member_ids(client, desired["certificates"], tracker, check_mode)
    extra = fields(desired, ids)
    final = new_name if new_name is not None else name
    group = {"group_name": final}
    group.update(extra)
    if check_mode:
        action = "rename" if new_name is not None and new_name != name else "create or edit"
        tracker.warn(NOT_KNOWN_IN_CHECK_MODE % (name, "sends %s and reports changed" % action))
        sent = None
    else:
        action, sent = send_once(client, name, final, extra)
    if action == SENT_BY_ANOTHER_FORK:
        tracker.record("certificate_group", group, group, False)
    else:
        tracker.warn(CANNOT_COMPARE % final)
        tracker.record("certificate_group", None, group, True)
    return {
        "action": action,
        "certificate_group": group,
        "certificates": members,
        "vault_group": sent,
    }


def send_once(client, name, final, extra):
    """``(action, the group answered)``: the create, edit or rename sent under the lock of the group's final name,
    unless another fork of this task sent the same (``SENT_BY_ANOTHER_FORK``, nothing sent)."""
    parts = {"group": [name, extra]}
    with sent_by_this_task(client, LOCKED_KIND, (final,)) as record:
        if record.repeats(parts):
            return SENT_BY_ANOTHER_FORK, None
        if final != name:
            answer = rename(client, name, final, extra)
        else:
            answer = create_or_edit(client, name, extra)
        record.sent(parts)
        return answer


def create_or_edit(client, name, extra):
    """``createCertificateGroup``; when the group exists, ``editCertificateGroup`` with the fields given."""
    try:
        return "created", _answered_group(certificates_api.create_certificate_group(client, name, extra))
    except VaultAPIError as exc:
        if not EXISTS.search(exc.vault_message or ""):
            raise
    return "edited", _answered_group(certificates_api.edit_certificate_group(client, name, extra))


def rename(client, name, new_name, extra):
    """Edit group ``name`` to ``new_name``; when ``name`` does not exist, edit ``new_name`` (renamed already)."""
    try:
        answered = certificates_api.edit_certificate_group(client, new_name, extra, old_group_name=name)
        return "renamed", _answered_group(answered)
    except VaultAPIError as exc:
        if not MISSING.search(exc.vault_message or ""):
            raise
        first = exc.vault_message
    try:
        answered = certificates_api.edit_certificate_group(client, new_name, extra)
    except VaultAPIError as exc:
        if not MISSING.search(exc.vault_message or ""):
            raise
        raise VaultNotFoundError(
            "certificate group %s cannot be renamed to %s: neither exists (the vault said: %s; and: %s)"
            % (name, new_name, first, exc.vault_message),
            operation=EDIT,
            vault_message=exc.vault_message,
        ) from None
    return "edited", _answered_group(answered)


def delete(task):
    """Delete the group; an answer that it does not exist is no change."""
    client, name, tracker = task.client, task.desired["name"], task.tracker
    if task.check_mode:
        tracker.warn(NOT_KNOWN_IN_CHECK_MODE % (name, "reports changed only if the vault deletes it"))
        tracker.record("certificate_group", {"group_name": name}, None, True)
        return {"action": "delete", "certificate_group": {"group_name": name}}
    with sent_by_this_task(client, LOCKED_KIND, (name,)) as record:
        record.sent({"group": None})  # a create or edit of the group later in the run is sent again
        try:
            certificates_api.delete_certificate_group(client, name)
        except VaultAPIError as exc:
            if not MISSING.search(exc.vault_message or ""):
                raise
            tracker.record("certificate_group", None, None, False)
            return {"action": "none", "certificate_group": None, "vault_message": exc.vault_message}
    tracker.record("certificate_group", {"group_name": name}, None, True)
    return {"action": "deleted", "certificate_group": {"group_name": name}}


def _answered_group(items):
    """The group as the vault answered it (``details[0]`` in the spec's "Certificate group" shape), or None."""
    if not items:
        return None
    return {key: items[0].get(key) for key in ("group_name", "group_description", "group_mail", "ssl_details")}


def _label(entry):
    if entry.get("serial_number") is None:
        return str(entry.get("common_name"))
    return "%s (serial number %s)" % (entry.get("common_name"), entry.get("serial_number"))
