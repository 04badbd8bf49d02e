# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""SSH keys of the key store (``{pki_root}``): read, create or import, delete; the reads of their associations.

The entry point here is ``vault_ssh_key``'s; ``_ssh_key_association`` (associations) and ``_ssh_key_info`` (reads)
use the reads of this file.

What the API offers, and what that means here:

- An "SSH key (list item)" reports ``KeyName, KeyType, KeyLength,
  FingerPrint, CreatedBy, CreationTime`` and ``isPassphraseAvailable``. There
  is no edit call: a key whose type, length or passphrase (present or not)
  differs from the task is only changed by deleting and creating it again
  (``recreate``). The comment is never reported back, so it is not compared.
- "Key types and lengths for creation: ssh-rsa (1024, 2048, 4096), ssh-dss
  (1024), ed25519 (no separate length), ecdsa (256, 384, 521)": anything else
  is refused before any request. ed25519 keys are listed with length 256.
- An imported key is compared by its ``FingerPrint`` (MD5 of the public key
  blob, colon-separated hex) with the file's, computed here when the Python
  ``cryptography`` library can read the file; otherwise the task warns.
- "An association is a (keyName, resourceName, userName) triple". It is read
  in two steps: ``GetAllAssociatedUsers`` gives the ``{UserName,
  ResourceName}`` pairs with at least one key, ``GetSSHKeysForUser`` per pair
  "details: comma-separated key names".
- Import answers ``SUCCESS`` in capitals (Common request rules 8); the
  client takes either case.
- Parallel runs: a key is found and created under its lock (the converge
  base). A create the vault refuses ("already exists") while a read then
  shows the key was done by a parallel run: no change, no failure.
"""

from __future__ import annotations

import base64
import hashlib
import os

from ._api import ssh_keys as ssh_keys_api
from ._checks import clean_text
from ._converge import CreatedMeanwhile, VaultObject
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, is_refusal

RSA, DSA, ED25519, ECDSA = "ssh-rsa", "ssh-dss", "ed25519", "ecdsa"
KEY_LENGTHS = {RSA: (1024, 2048, 4096), DSA: (1024,), ED25519: (256,), ECDSA: (256, 384, 521)}
KEY_TYPES = tuple(KEY_LENGTHS)
ACCEPTED = "ssh-rsa (1024, 2048, 4096), ssh-dss (1024), ed25519 (no separate length), ecdsa (256, 384, 521)"


def check_type_and_length(key_type, length):
    """Refuse a type and length the vault cannot create; returns the length to expect in the list."""
    if key_type not in KEY_LENGTHS:
        raise VaultInputError("key_type %s is not one the vault creates: use one of %s" % (key_type, ACCEPTED))
    allowed = KEY_LENGTHS[key_type]
    if key_type == ED25519 and length in (None, allowed[0]):
        return allowed[0]
    if length in allowed:
        return length
    if length is None:
        raise VaultInputError("key_type %s needs a length: %s" % (key_type, ", ".join(str(n) for n in allowed)))
    raise VaultInputError(
        "length %s is not accepted for key_type %s: the vault creates %s" % (length, key_type, ACCEPTED)
    )


def list_keys(client):
    """Every SSH key list item (``GetAllSSHKeys``)."""
    return ssh_keys_api.get_all_ssh_keys(client)


def find_key(client, name):
    return next((item for item in list_keys(client) if item.get("KeyName") == name), None)


def get_key(client, name):
    """The list item of key ``name`` from ``GetSSHKey`` (GET in edition A, POST in B), or None when it does not
    exist: a refused ``GetSSHKey`` is followed by the key list, and raised when the key is listed or when the vault
    refused this token (``is_refusal``)."""
    try:
        items = ssh_keys_api.get_ssh_key(client, name)
    except VaultAPIError as exc:
        if is_refusal(exc) or find_key(client, name) is not None:
            raise
        return None
    return next((item for item in items if item.get("KeyName") == name), items[0] if items else None)


def keys_of_user(client, resource, user):
    """The key names associated with ``user`` on ``resource`` (``GetSSHKeysForUser``)."""
    return ssh_keys_api.get_ssh_keys_for_user(client, user, resource)


def associated_users(client):
    """The ``{UserName, ResourceName}`` pairs with at least one key (``GetAllAssociatedUsers``)."""
    return ssh_keys_api.get_all_associated_users(client)


def reported(item):
    """What the list item says of a key, as options."""
    length = str(item.get("KeyLength") or "")
    return {
        "key_type": item.get("KeyType"),
        "length": int(length) if length.isdigit() else None,
        "passphrase_set": str(item.get("isPassphraseAvailable")).lower() == "true",
        "fingerprint": item.get("FingerPrint"),
    }


def read_key_file(path):
    """The bytes of the private key file ``path`` on the host the module runs on."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except (IOError, OSError) as exc:
        raise VaultInputError("src %s cannot be read: %s" % (path, exc.strerror or exc)) from None


def file_fingerprint(content, passphrase):
    """The MD5 fingerprint of the key in ``content`` as the vault shows it, or None when it cannot be read here.

    ``cryptography`` is imported here, when a key file is compared, not with the module: it would add about
    30 ms to every task of the modules that import this file."""
    try:
        from cryptography.hazmat.primitives import serialization  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    password = passphrase.encode("utf-8") if passphrase else None
    for attempt in (password, None):
        try:
            if b"BEGIN OPENSSH PRIVATE KEY" in content:
                key = serialization.load_ssh_private_key(content, attempt)
            else:
                key = serialization.load_pem_private_key(content, attempt)
        except Exception:  # pylint: disable=broad-except
            continue  # wrong or needless passphrase, or an unreadable file: the vault decides
        line = key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        digest = hashlib.md5(base64.b64decode(line.split(b" ")[1])).digest()
        return ":".join("%02x" % byte for byte in bytearray(digest))
    return None


class SSHKey(VaultObject):
    """An SSH key of the key store, found by name; its handle is its list item. The API cannot edit a key: an
    existing one that differs fails, or with ``recreate`` is deleted and created (or imported) again."""

    KIND = "SSH key"

    def check_input(self):
        desired = self.desired
        clean_text(desired.get("comment"), "comment")
        if desired.get("comment") and "\n" in desired["comment"]:
            raise VaultInputError("comment must be a single line: it ends the public key line")
        if desired.get("src"):
            if desired.get("key_type") or desired.get("length") or desired.get("comment"):
                raise VaultInputError(
                    "an imported key takes its type and length from the file, and the vault keeps no comment "
                    "for it: remove key_type, length and comment, or src"
                )
            self.content = read_key_file(desired["src"])
            return
        if not desired.get("key_type"):
            raise VaultInputError("SSH key %s: key_type or src is needed" % desired["name"])
        self.length = check_type_and_length(desired["key_type"], desired.get("length"))

    def find(self):
        return find_key(self.client, self.desired["name"])

    def create(self, handle, tracker):
        self._track_creation(tracker)
        if self.check_mode:
            return None
        return self._send_create()

    def plan(self, handle, current):
        """The reported settings that differ: with ``recreate``, recorded and returned for ``apply``; else the task
        fails (``refuse_differences``)."""
        tracker = self.tracker
        found = self._differences(tracker, handle)
        self.refuse_differences(found, " (its associations go with it)")
        if not found:
            self._warn_uncompared(tracker, handle)
            return None
        tracker.record("recreated", False, True, True)
        for option, (stored, value) in sorted(found.items()):
            tracker.record(option, stored, value, True)
        return found

    def apply(self, handle, current, changes):
        """Delete the key and create (or import) it again; one a parallel run created meanwhile is the key after."""
        self.delete(handle)
        try:
            return self._send_create()
        except CreatedMeanwhile as lost:
            return lost.handle

    def delete(self, handle):
        keep_associations = self.desired.get("dissociate") is False
        try:
            ssh_keys_api.delete_ssh_key(self.client, handle["KeyName"], keep_associations)
        except VaultAPIError as exc:
            return self.deleted_meanwhile(exc)
        return True

    def _wanted(self):
        """The reported values the task asks for, as options (None: cannot be compared). An imported key is
        compared by fingerprint only: whether the vault keeps it encrypted follows the file, not the passphrase."""
        desired = self.desired
        if desired.get("src"):
            return {"fingerprint": file_fingerprint(self.content, desired.get("passphrase"))}
        return {
            "key_type": desired["key_type"],
            "length": self.length,
            "passphrase_set": bool(desired.get("passphrase")),
        }

    def _differences(self, tracker, handle):
        current = reported(handle)
        found = {}
        for option, value in sorted(self._wanted().items()):
            if value is None:
                tracker.warn(
                    "SSH key %s: the fingerprint of src could not be computed here (it needs the "
                    "Python cryptography library and a readable file), so the existing key was not compared with "
                    "the file" % self.desired["name"]
                )
            elif current[option] != value:
                found[option] = (current[option], value)
            else:
                tracker.compare(option, current[option], None)
        return found

    def _warn_uncompared(self, tracker, handle):
        """Say what the task sets that the vault cannot report, for a key kept as it is: its comment, and which
        passphrase it has (``isPassphraseAvailable`` says only whether it has one). Nothing when the task leaves
        them out, or sets no passphrase (then the key must have none, which is compared), nor for an imported key,
        whose passphrase only opens the file compared by fingerprint."""
        name = self.desired["name"]
        if self.desired.get("comment") is not None:
            tracker.warn("SSH key %s: the vault does not report a key's comment, so it was not compared" % name)
        created = not self.desired.get("src")
        if created and self.desired.get("passphrase") and reported(handle)["passphrase_set"]:
            tracker.warn(
                "SSH key %s: the vault reports only whether a key has a passphrase (isPassphraseAvailable), not which "
                "one, so the passphrase was not compared: a changed passphrase is not applied (to change it, delete "
                "the key with state: absent and create it again)" % name
            )

    def _track_creation(self, tracker):
        desired = self.desired
        tracker.record("passphrase", None, "", bool(desired.get("passphrase")), True)
        if desired.get("src"):
            tracker.record("src", None, desired["src"], True)
            return
        tracker.record("key_type", None, desired["key_type"], True)
        tracker.record("length", None, self.length, True)
        tracker.compare("comment", None, desired.get("comment"))

    def _send(self, write, *arguments):
        """The create or import (``write``, a gateway function, with ``arguments``); refused because a parallel run
        created the key first, ``CreatedMeanwhile``."""
        try:
            write(self.client, *arguments)
        except VaultAPIError as exc:
            raise self.created_meanwhile(exc) from None

    def _send_create(self):
        desired = self.desired
        name = desired["name"]
        if desired.get("src"):
            files = {os.path.basename(desired["src"]): self.content}
            self._send(ssh_keys_api.import_ssh_key, name, desired.get("passphrase") or "", files)
        else:
            details = {"keyName": name, "keyType": desired["key_type"], "passPhrase": desired.get("passphrase") or ""}
            if desired["key_type"] != ED25519:
                details["length"] = str(self.length)
            details["comment"] = desired.get("comment") or ""
            self._send(ssh_keys_api.create_ssh_key, details)
        created = get_key(self.client, name)
        if created is None:
            raise VaultNotFoundError("the vault reported SSH key %s created, but it cannot be found" % name)
        return created


def converge(task):
    """Entry point of ``vault_ssh_key``: key ``task.desired["name"]`` converged to its ``state``; returns ``{"key"}``,
    its list item after the run ({} when absent, or in check mode when it would be created)."""
    return {"key": SSHKey(task).ensure() or {}}
