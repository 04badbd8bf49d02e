# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Downloading the file of an account (File Store, License Store) or of a file additional field to a path
(``vault_account_file``).

The vault offers no checksum or size of a file, so the only way to know whether
the copy on disk is current is to download it again: every run downloads, and
compares SHA-256 digests; only a different or missing file is written.
"""

from __future__ import annotations

import hashlib
import os

from ._account import require_account
from ._api import accounts as accounts_api
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
        details.update(
            {
                "ISCUSTOMFIELD": "true",
                "CUSTOMFIELDTYPE": desired.get("custom_field_type") or "ACCOUNT",
                "CUSTOMFIELDLABEL": desired["custom_field"],
            }
        )
    return details or None


def check_destination(dest):
    """Refuse, before any request, a destination that cannot be written: an existing directory is fine
    (the file goes inside it under the vault's name), otherwise the directory of ``dest`` must exist."""
    if not dest:
        raise VaultInputError("dest must be a file path or an existing directory")
    if os.path.isdir(dest):
        return
    parent = os.path.dirname(os.path.abspath(dest))
    if not os.path.isdir(parent):
        raise VaultInputError("the directory of dest %s does not exist" % dest)
    _check_readable(dest)


def file_path(dest, response):
    """The file to write: ``dest``, or when ``dest`` is a directory the file name the vault gives
    (``Content-Disposition``, its last path component only) inside it."""
    if not os.path.isdir(dest):
        return dest
    name = response.file_name
    if name is None:
        raise VaultInputError(
            "dest %s is a directory and the vault gave no usable file name (Content-Disposition) "
            "to write in it: give the path of the file instead" % dest
        )
    path = os.path.join(dest, name)
    if os.path.isdir(path):
        raise VaultInputError(
            "%s, the vault's file name inside dest, is a directory: give the path of the file to write" % path
        )
    _check_readable(path)
    return path


def _check_readable(path):
    if os.path.exists(path) and not os.access(path, os.R_OK):
        raise VaultInputError("dest %s exists but cannot be read to compare it" % path)


def file_checksum(path):
    """The SHA-256 hex digest of the file at ``path``, or None when there is no file."""
    if not os.path.exists(path):
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def converge(task):
    """Entry point of ``vault_account_file``: make ``desired["dest"]`` (or the vault's file name inside it, for a
    directory) hold the file ``desired`` names; the module's ``task.write_file(path, content)`` replaces the file at
    ``path`` atomically.

    Records the checksum and state before and after in ``task.tracker`` (never the content); returns
    ``{dest, checksum, size}`` of the downloaded file, ``dest`` being the file written.
    """
    client, desired, tracker = task.client, task.desired, task.tracker
    check_destination(desired["dest"])
    ref = require_account(client, desired["resource"], desired["account"])
    response = accounts_api.download_file(client, ref.resource_id, ref.account_id, download_input(desired))
    path = file_path(desired["dest"], response)
    content = response.content or b""
    checksum = hashlib.sha256(content).hexdigest()
    current = file_checksum(path)
    tracker.record("state", "absent" if current is None else "file", "file", current is None)
    tracker.record("checksum", current, checksum, current != checksum)
    if tracker.changed and not task.check_mode:
        task.write_file(path, content)
    return {"dest": path, "checksum": checksum, "size": len(content)}
