# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""An opt-in file of account ids for the lookups, so that a warm term costs one request.

It holds ids and names only, never a secret: per vault identity (a sha256 of the URL, the organization and the
token; the token itself is never stored), per resource name and account name, the ``RESOURCEID`` and ``ACCOUNTID``
and when they were resolved. Entries older than the TTL are ignored and dropped at the next save.

The directory is created 0700 and the file written 0600, whatever the umask. A file that is not a regular file of
this user, that group or others may write, or that is a symbolic link is refused with a warning and not used at all.
A file that cannot be read as the cache is ignored with a warning and rewritten. Saving writes a temporary file
next to it and renames it over the file, merging what another process wrote meanwhile.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import tempfile
import threading
import time

FORMAT = 1
DIRECTORY_MODE = 0o700
FILE_MODE = 0o600


def identity(url, org_name, token):
    """The key of one vault and token: sha256 of the three, stripped as the client sends them."""
    parts = [str(value or "").strip() for value in (url, org_name, token)]
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()


class InsecureCacheFile(Exception):
    """The cache file may not be trusted (owner, mode, type); the message says why, without any content."""


class IdCache:
    """The ids of one vault identity, loaded from ``path``; ``warn(message)`` reports a refused or unreadable file.

    ``get``/``put``/``forget`` may be called from several threads; ``save`` writes the changes back.
    """

    def __init__(self, path, key, ttl, warn, clock=time.time):
        self.path = os.path.abspath(os.path.expanduser(path))
        self.key = key
        self.ttl = ttl
        self._warn = warn
        self._clock = clock
        self._lock = threading.Lock()
        self._changes = {}  # (resource, account) -> entry, or None to remove
        self.usable = True
        self._entries = self._identity_entries(self._load())

    def get(self, resource, account):
        """``(resource_id, account_id)`` while the entry is younger than the TTL, else None."""
        with self._lock:
            entry = self._changes.get((resource, account), self._entries.get(resource, {}).get(account))
        if not self._fresh(entry):
            return None
        return entry["resource_id"], entry["account_id"]

    def put(self, resource, account, resource_id, account_id):
        entry = {"resource_id": str(resource_id), "account_id": str(account_id), "resolved_at": self._clock()}
        with self._lock:
            self._changes[(resource, account)] = entry

    def forget(self, resource, account):
        with self._lock:
            self._changes[(resource, account)] = None

    def save(self):
        """Merge the changes into the file as it is now, dropping expired entries; a refused file is left alone."""
        with self._lock:
            changes, self._changes = self._changes, {}
        if not self.usable or not changes:
            return
        document = self._load()
        if not self.usable:
            return
        mine = self._identity_entries(document)
        for (resource, account), entry in changes.items():
            if entry is None:
                mine.get(resource, {}).pop(account, None)
            else:
                mine.setdefault(resource, {})[account] = entry
        document["identities"][self.key] = mine
        self._write(self._pruned(document))
        with self._lock:
            self._entries = mine

    # Reading.

    def _load(self):
        """The document on disk (an empty one when there is none or it is unreadable); refusal sets ``usable``."""
        empty = {"format": FORMAT, "identities": {}}
        try:
            raw = _read_own_file(self.path)
        except FileNotFoundError:
            return empty
        except InsecureCacheFile as exc:
            self.usable = False
            self._warn("id cache %s is not used: %s" % (self.path, exc))
            return empty
        except OSError as exc:
            self.usable = False
            self._warn("id cache %s is not used: it cannot be read (%s)" % (self.path, exc.strerror or exc))
            return empty
        try:
            document = json.loads(raw.decode("utf-8"))
        except ValueError:
            document = None
        if not _well_formed(document):
            self._warn("id cache %s is not a cache file of this collection; it is ignored and rewritten" % self.path)
            return empty
        return document

    def _identity_entries(self, document):
        """This identity's ``{resource: {account: entry}}``, a copy, without what is not shaped so."""
        resources = document["identities"].get(self.key, {})
        return {resource: dict(accounts) for resource, accounts in resources.items() if isinstance(accounts, dict)}

    def _fresh(self, entry):
        if not isinstance(entry, dict) or not isinstance(entry.get("resolved_at"), (int, float)):
            return False
        if not isinstance(entry.get("resource_id"), str) or not isinstance(entry.get("account_id"), str):
            return False
        return 0 <= self._clock() - entry["resolved_at"] < self.ttl

    def _pruned(self, document):
        identities = {}
        for key, resources in document["identities"].items():
            kept = {
                resource: {account: entry for account, entry in accounts.items() if self._fresh(entry)}
                for resource, accounts in resources.items()
                if isinstance(accounts, dict)
            }
            kept = {resource: accounts for resource, accounts in kept.items() if accounts}
            if kept:
                identities[key] = kept
        return {"format": FORMAT, "identities": identities}

    # Writing.

    def _write(self, document):
        directory = os.path.dirname(self.path)
        try:
            _make_private_directory(directory)
            descriptor, temporary = tempfile.mkstemp(prefix=".ids-", suffix=".tmp", dir=directory)
            try:
                with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                    os.fchmod(handle.fileno(), FILE_MODE)
                    json.dump(document, handle, sort_keys=True)
                os.replace(temporary, self.path)
            except BaseException:
                _remove_quietly(temporary)
                raise
        except OSError as exc:
            self._warn("id cache %s could not be written (%s)" % (self.path, exc.strerror or exc))


def _read_own_file(path):
    """The bytes of ``path``, never through a symbolic link, if it is a regular file of this user that only this
    user may write; ``InsecureCacheFile`` otherwise."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InsecureCacheFile("it is a symbolic link") from None
        raise
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise InsecureCacheFile("it is not a regular file")
        if status.st_uid != os.getuid():
            raise InsecureCacheFile("it belongs to another user (uid %d)" % status.st_uid)
        if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise InsecureCacheFile(
                "group or others may write it (mode %04o); make it 0600" % stat.S_IMODE(status.st_mode)
            )
        return handle.read()


def _well_formed(document):
    return (
        isinstance(document, dict)
        and document.get("format") == FORMAT
        and isinstance(document.get("identities"), dict)
        and all(isinstance(resources, dict) for resources in document["identities"].values())
    )


def _make_private_directory(directory):
    """Create ``directory`` (and its parents) 0700 when it is missing; an existing one is left as it is."""
    if os.path.isdir(directory):
        return
    parent = os.path.dirname(directory)
    if parent != directory:
        _make_private_directory(parent)
    try:
        os.mkdir(directory, DIRECTORY_MODE)
    except FileExistsError:
        return
    os.chmod(directory, DIRECTORY_MODE)


def _remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass
