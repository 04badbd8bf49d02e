# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""SSH keys of the key store (``{pki_root}``): read, create or import, delete, and their associations.

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
- Import, associate and dissociate answer ``SUCCESS`` in capitals (Common
  request rules 8); the client takes either case.
- Parallel runs: a key is found and created under its lock (the converge
  base), associations are read and changed under one lock per listed triple
  (``_object_lock``). A create, associate or dissociate the vault refuses
  ("already exists", "is already associated") while a read then shows it
  done was done by a parallel run: no change, no failure.
"""

from __future__ import annotations

import base64
import hashlib
import os

from ._checks import clean_text
from ._converge import CreatedMeanwhile, VaultObject
from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, is_refusal
from ._object_lock import object_locks

RSA, DSA, ED25519, ECDSA = "ssh-rsa", "ssh-dss", "ed25519", "ecdsa"
KEY_LENGTHS = {RSA: (1024, 2048, 4096), DSA: (1024,), ED25519: (256,), ECDSA: (256, 384, 521)}
KEY_TYPES = tuple(KEY_LENGTHS)
PARTS = ("key", "resource", "user")
ASSOCIATE, DISSOCIATE = "associate_ssh_key", "dissociate_ssh_key"
# The kind of object locked while a run finds and changes an association (``_object_lock``).
ASSOCIATION = "SSH key association"
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
    return client.call("get_all_ssh_keys").details_list()


def find_key(client, name):
    return next((item for item in list_keys(client) if item.get("KeyName") == name), None)


def get_key(client, name):
    """The list item of key ``name`` from ``GetSSHKey`` (GET in edition A, POST in B), or None when it does not
    exist: a refused ``GetSSHKey`` is followed by the key list, and raised when the key is listed or when the vault
    refused this token (``is_refusal``)."""
    try:
        items = client.call("get_ssh_key", details={"keyName": name}).details_list()
    except VaultAPIError as exc:
        if is_refusal(exc) or find_key(client, name) is not None:
            raise
        return None
    return next((item for item in items if item.get("KeyName") == name), items[0] if items else None)


def keys_of_user(client, resource, user):
    """The key names associated with ``user`` on ``resource`` (``GetSSHKeysForUser``, comma-separated)."""
    details = client.call("get_ssh_keys_for_user", details={"userName": user, "resourceName": resource}).details
    if isinstance(details, list):
        return [str(name) for name in details if str(name).strip()]
    return [name.strip() for name in str(details or "").split(",") if name.strip()]


def associated_users(client):
    """The ``{UserName, ResourceName}`` pairs with at least one key (``GetAllAssociatedUsers``)."""
    return client.call("get_all_associated_users").details_list()


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
        raise VaultInputError("private_key_src %s cannot be read: %s" % (path, exc.strerror or exc)) from None


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
        if desired.get("private_key_src"):
            if desired.get("key_type") or desired.get("length") or desired.get("comment"):
                raise VaultInputError(
                    "an imported key takes its type and length from the file, and the vault keeps no comment "
                    "for it: remove key_type, length and comment, or private_key_src"
                )
            self.content = read_key_file(desired["private_key_src"])
            return
        if not desired.get("key_type"):
            raise VaultInputError("SSH key %s: key_type or private_key_src is needed" % desired["name"])
        self.length = check_type_and_length(desired["key_type"], desired.get("length"))

    def find(self):
        return find_key(self.client, self.desired["name"])

    def create(self, tracker):
        self._track_creation(tracker)
        if self.check_mode:
            return None
        return self._send_create()

    def converge(self, tracker, handle):
        found = self._differences(tracker, handle)
        if found and not self.desired.get("recreate"):
            described = "; ".join(
                "%s is %s in the vault, %s in the task" % (option, current, value)
                for option, (current, value) in sorted(found.items())
            )
            raise VaultInputError(
                "SSH key %s: %s. The API cannot edit a key: change the task, or set recreate: true to delete "
                "the key and create it again (its associations go with it)" % (self.desired["name"], described)
            )
        if not found:
            self._warn_uncompared(tracker, handle)
            return handle
        tracker.record("recreated", False, True, True)
        for option, (current, value) in sorted(found.items()):
            tracker.record(option, current, value, True)
        if self.check_mode:
            return handle
        self.delete(handle)
        try:
            return self._send_create()
        except CreatedMeanwhile as lost:
            return lost.handle

    def delete(self, handle):
        details = {"key_name": handle["KeyName"]}
        if self.desired.get("dissociate") is False:
            details["withoutDisassociation"] = "true"
        try:
            self.client.call("delete_ssh_key", details=details)
        except VaultAPIError as exc:
            return self.deleted_meanwhile(exc)
        return True

    def _wanted(self):
        """The reported values the task asks for, as options (None: cannot be compared). An imported key is
        compared by fingerprint only: whether the vault keeps it encrypted follows the file, not the passphrase."""
        desired = self.desired
        if desired.get("private_key_src"):
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
                    "SSH key %s: the fingerprint of private_key_src could not be computed here (it needs the "
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
        created = not self.desired.get("private_key_src")
        if created and self.desired.get("passphrase") and reported(handle)["passphrase_set"]:
            tracker.warn(
                "SSH key %s: the vault reports only whether a key has a passphrase (isPassphraseAvailable), not which "
                "one, so the passphrase was not compared: a changed passphrase is not applied (to change it, delete "
                "the key with state: absent and create it again)" % name
            )

    def _track_creation(self, tracker):
        desired = self.desired
        tracker.record("passphrase", None, "", bool(desired.get("passphrase")), True)
        if desired.get("private_key_src"):
            tracker.record("private_key_src", None, desired["private_key_src"], True)
            return
        tracker.record("key_type", None, desired["key_type"], True)
        tracker.record("length", None, self.length, True)
        tracker.compare("comment", None, desired.get("comment"))

    def _send(self, key, **request):
        """The create or import; refused because a parallel run created the key first, ``CreatedMeanwhile``."""
        try:
            self.client.call(key, **request)
        except VaultAPIError as exc:
            raise self.created_meanwhile(exc) from None

    def _send_create(self):
        desired = self.desired
        name = desired["name"]
        if desired.get("private_key_src"):
            details = {"keyName": name, "passphrase": desired.get("passphrase") or ""}
            files = {os.path.basename(desired["private_key_src"]): self.content}
            self._send("import_ssh_key", details=details, files=files)
        else:
            details = {"keyName": name, "keyType": desired["key_type"], "passPhrase": desired.get("passphrase") or ""}
            if desired["key_type"] != ED25519:
                details["length"] = str(self.length)
            details["comment"] = desired.get("comment") or ""
            self._send("create_ssh_key", details=details)
        created = get_key(self.client, name)
        if created is None:
            raise VaultNotFoundError("the vault reported SSH key %s created, but it cannot be found" % name)
        return created


def ensure(client, desired, check_mode):
    """Converge key ``desired["name"]`` to ``desired["state"]``; returns the tracker and its list item ({} if none)."""
    tracker, after = SSHKey(client, dict(desired), check_mode).ensure(desired.get("state") or "present")
    return tracker, after or {}


def triples_of(pairs, client):
    """The (key, resource, user) triples of the ``{UserName, ResourceName}`` pairs: one ``GetSSHKeysForUser`` each."""
    found = set()
    for resource, user in sorted(pairs):
        found.update((key, resource, user) for key in keys_of_user(client, resource, user))
    return found


def as_dicts(triples):
    return [{"key": key, "resource": resource, "user": user} for key, resource, user in sorted(triples)]


def converge_associations(client, desired, check_mode):
    """Associate (``present``) or dissociate (``absent``) the listed triples; with ``purge`` (present only) also
    dissociate every other association of the keys listed. Returns the tracker and the result values.

    Reads ``GetAllAssociatedUsers``, then ``GetSSHKeysForUser`` for the pairs that matter (every pair with
    ``purge``, else the listed pairs that have keys), and ``GetAllSSHKeys`` to refuse unknown keys before any
    write (check mode: warns, the keys may come from an earlier task of the run).
    """
    tracker = DifferenceTracker()
    listed = set()
    for number, item in enumerate(desired["associations"], start=1):
        listed.add(tuple(clean_text(item[part], "associations %d %s" % (number, part)) for part in PARTS))
    present = desired.get("state", "present") != "absent"
    if desired.get("purge") and not present:
        raise VaultInputError("purge only applies to state: present")
    if present:
        _check_keys(client, tracker, {key for key, dummy_r, dummy_u in listed}, check_mode)
    with object_locks(client, ASSOCIATION, listed, check_mode):
        pairs = {(pair.get("ResourceName"), pair.get("UserName")) for pair in associated_users(client)}
        if not desired.get("purge"):
            pairs &= {(resource, user) for dummy_k, resource, user in listed}
        current = triples_of(pairs, client)
        if present:
            add = listed - current
            purged = {key for key, dummy_r, dummy_u in listed} if desired.get("purge") else set()
            remove = {triple for triple in current - listed if triple[0] in purged}
        else:
            add, remove = set(), listed & current
        after = (current | add) - remove
        if not check_mode:
            dissociated = _send_each(client, DISSOCIATE, remove)
            associated = _send_each(client, ASSOCIATE, add)
            current = (current | associated) - dissociated
            add, remove = add - associated, remove - dissociated
    tracker.record("associations", as_dicts(current), as_dicts(after), bool(add or remove))
    return tracker, {"associations": as_dicts(after), "added": as_dicts(add), "removed": as_dicts(remove)}


def _send_each(client, key, triples):
    """Send ``key`` (``ASSOCIATE`` or ``DISSOCIATE``) for each triple. A refusal is followed by one read of the
    user's keys: when it shows the triple as wanted, a parallel run made that change first (on another host, or
    without the lock) and the refusal is no failure. Returns those triples."""
    meanwhile = set()
    for triple in sorted(triples):
        name, resource, user = triple
        try:
            client.call(key, details={"keyName": name, "resourceName": resource, "userName": user})
        except VaultAPIError as exc:
            if is_refusal(exc) or (name in keys_of_user(client, resource, user)) != (key == ASSOCIATE):
                raise
            meanwhile.add(triple)
    return meanwhile


def _check_keys(client, tracker, keys, check_mode):
    known = {item.get("KeyName") for item in list_keys(client)}
    unknown = sorted(keys - known)
    if unknown and not check_mode:
        raise VaultNotFoundError("SSH keys %s do not exist in the vault" % ", ".join(unknown))
    if unknown:
        tracker.warn(
            "SSH keys %s do not exist yet: check mode takes them as created by an earlier task, a real run fails "
            "unless they exist by then" % ", ".join(unknown)
        )


def describe(client, options):
    """What ``vault_ssh_key_info`` returns for its ``options``: the key list unless something narrower is asked."""
    info = {}
    if options.get("name") is not None:
        key = get_key(client, clean_text(options["name"], "name"))
        info.update(exists=key is not None, key=key or {})
    if options.get("user") is not None:
        user, resource = clean_text(options["user"], "user"), clean_text(options["resource"], "resource")
        info["key_names"] = keys_of_user(client, resource, user)
    if options.get("associations"):
        info["associations"] = associated_users(client)
    if not info:
        info["ssh_keys"] = list_keys(client)
    return info
