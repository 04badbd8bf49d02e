# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Downloading the file of an account (File Store, License Store) or of a file additional field to a path.

The vault offers no checksum or size of a file, so the only way to know whether
the copy on disk is current is to download it again: every run downloads, and
compares SHA-256 digests; only a different or missing file is written.
"""

from __future__ import annotations

import hashlib
import os

from ._account import require_account
from ._diff import DifferenceTracker
from ._errors import VaultInputError

FIELD_TYPES = ("ACCOUNT", "RESOURCE")
_CHUNK = 1024 * 1024


def download_input(desired):
    """The ``downloadfile`` input: REASON, TICKETID and, for an additional field, ISCUSTOMFIELD,
    CUSTOMFIELDTYPE (``ACCOUNT`` when not given) and CUSTOMFIELDLABEL. None when there is nothing to send."""
    details = {}
    if desired.get("reason"):
        details["REASON"] = desired["reason"]
    if desired.get("ticket_id"):
        details["TICKETID"] = desired["ticket_id"]
    if desired.get("custom_field") is not None:
        details.update({"ISCUSTOMFIELD": "true", "CUSTOMFIELDTYPE": desired.get("custom_field_type") or "ACCOUNT",
                        "CUSTOMFIELDLABEL": desired["custom_field"]})
    return details or None


def check_destination(dest):
    """Refuse, before any request, a destination that cannot be written as a file."""
    if not dest:
        raise VaultInputError("dest must be a file path")
    if os.path.isdir(dest):
        raise VaultInputError("dest %s is a directory: give the path of the file to write" % dest)
    parent = os.path.dirname(os.path.abspath(dest))
    if not os.path.isdir(parent):
        raise VaultInputError("the directory of dest %s does not exist" % dest)
    if os.path.exists(dest) and not os.access(dest, os.R_OK):
        raise VaultInputError("dest %s exists but cannot be read to compare it" % dest)


def file_checksum(path):
    """The SHA-256 hex digest of the file at ``path``, or None when there is no file."""
    if not os.path.exists(path):
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(client, ref, details):
    """The file's content as bytes (``downloadfile`` answers the file itself)."""
    response = client.call("download_file", path={"resource_id": ref.resource_id, "account_id": ref.account_id},
                           details=details)
    return response.content


def ensure_file(client, desired, check_mode, write):
    """Make ``desired["dest"]`` hold the file ``desired`` names; ``write(content)`` replaces it atomically.

    Returns the tracker (checksum and state before and after, never the content) and
    ``{dest, checksum, size}`` of the downloaded file.
    """
    dest = desired["dest"]
    check_destination(dest)
    ref = require_account(client, desired["resource"], desired["account"])
    content = download(client, ref, download_input(desired))
    checksum = hashlib.sha256(content).hexdigest()
    current = file_checksum(dest)
    tracker = DifferenceTracker()
    tracker.record("state", "absent" if current is None else "file", "file", current is None)
    tracker.record("checksum", current, checksum, current != checksum)
    if tracker.changed and not check_mode:
        write(content)
    return tracker, {"dest": dest, "checksum": checksum, "size": len(content)}
