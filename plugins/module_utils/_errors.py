# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Typed errors raised by the client. The client never fails a module itself.

Messages carry the operation name, the HTTP status and the vault's own message,
and never a header, a token or a secret value sent in the request.
"""

from __future__ import annotations

import re

# The vault's words when it will not serve this token, whatever the object: "You are not authorized to ...",
# "Authentication failed: the user of this AUTHTOKEN is locked", "User is not allowed to access from this host".
# The spec lists no error codes ("Complete list of error messages and codes: not shown"), so these words, the
# operation name of real servers' refusals and HTTP 401/403 are all that tell a refusal from a miss.
_REFUSAL_WORDS = re.compile(
    r"not authori[sz]ed|authentication failed|\blocked\b|permission denied|access (is )?denied|forbidden"
    r"|not allowed to access",
    re.IGNORECASE,
)
_REFUSAL_STATUSES = (401, 403)
# The operation name real servers give a refused token, whatever was called, with HTTP 200: {"name":
# "Authentication", "result": {"status": "Failed", "message": "API key received is not associated to any user.
# Authentication failed."}}, or "User is not allowed to access from this host" for a token used from another address
# than its API user's (tardate/LittleCodingKata, security/pmp/rest_api/README.md).
AUTHENTICATION = "Authentication"
# The vault's words when it refuses the token itself, whatever it asks for: every request of the token fails alike.
_TOKEN_REFUSAL_WORDS = re.compile(r"authentication failed|\blocked\b|not allowed to access from", re.IGNORECASE)
# Password access control: a Password User must request a password, have the request approved and check it out before
# retrieving it; until then its retrieval is refused to this token, others' not.
_ACCESS_CONTROL_WORDS = re.compile(r"access control", re.IGNORECASE)


class VaultError(Exception):
    """Base of every error the client raises.

    ``names_its_writes`` is True for an error whose message already names every write the task sent before the
    failure (``restated``): the module base then adds no list of its own. ``may_have_been_applied`` is True for a
    write whose answer was lost."""

    names_its_writes = False
    may_have_been_applied = False

    def __init__(self, message, operation=None, http_status=None, vault_message=None, details=None):
        super().__init__(message)
        self.operation = operation
        self.http_status = http_status
        self.vault_message = vault_message
        # The failed answer's Details, for per-item outcomes (ADD ACCOUNTS' STATUS); never put in a result.
        self.details = details

    def restated(self, message):
        """This error with domain code's ``message``, which names the writes the task sent before it."""
        error = type(self)(
            message, operation=self.operation, http_status=self.http_status, vault_message=self.vault_message
        )
        error.names_its_writes = True
        return error

    def reworded(self, message, kind=None):
        """This error (as a ``kind`` when given) with ``message``, keeping what the vault said: its operation, HTTP
        status and message."""
        return (kind or type(self))(
            message, operation=self.operation, http_status=self.http_status, vault_message=self.vault_message
        )

    def to_result(self):
        """The fields a module returns beside ``msg`` when it fails."""
        return {"operation": self.operation, "http_status": self.http_status, "vault_message": self.vault_message}


class VaultConfigError(VaultError):
    """The connection options are unusable (missing url or token, bad edition...)."""


class VaultUnsupportedError(VaultError):
    """The configured edition or build lacks the endpoint or one of the fields sent."""


class VaultConnectionError(VaultError):
    """No answer: connection refused, TLS failure, timeout."""


class VaultResponseError(VaultError):
    """The vault answered, but not in any shape the spec describes."""


class VaultAPIError(VaultError):
    """The vault answered with a failed ``result.status``."""


class VaultInputError(VaultError):
    """The request would be refused by the vault's own rules; caught before anything is sent."""


class VaultNotAppliedError(VaultError):
    """The vault answered success to a write, but reading back shows part of it was not applied."""


class VaultNotFoundError(VaultError):
    """A named resource or account does not exist (or is not visible to this token)."""


class VaultCallError(VaultError):
    """A call the endpoint catalogue does not describe (an unknown row, a path placeholder or query parameter the row
    lacks): a defect of the collection, raised before anything is sent."""


def refuse_unknown(kinds, names, check_mode, warn):
    """Objects the task names that the vault does not know (``kinds``: "resources", "SSH keys", ...): a real run
    fails naming every one, before any write; check mode takes them as created by an earlier task of the run and
    ``warn``s instead, so that a dry run of a whole playbook goes on."""
    if not names:
        return
    listed = ", ".join(names)
    if not check_mode:
        raise VaultNotFoundError(
            "%s %s do not exist (or are not visible to this token); nothing was changed" % (kinds, listed)
        )
    warn(
        "%s %s do not exist yet: check mode takes them as created by an earlier task, a real run fails unless they "
        "exist by then" % (kinds, listed)
    )


def not_found(kind, name, consequence=""):
    """The error for an object of ``kind`` called ``name`` that this token does not see; ``consequence`` (``", so
    ..."``) says what that means for the task."""
    return VaultNotFoundError("%s %s does not exist (or is not visible to this token)%s" % (kind, name, consequence))


def is_refusal(exc):
    """True when ``exc`` is the vault refusing this token (HTTP 401 or 403, or its words say so), as opposed to a
    name it does not know. A name lookup that fails with a refusal must raise it, never report the name missing."""
    if not isinstance(exc, VaultAPIError):
        return False
    if exc.http_status in _REFUSAL_STATUSES or exc.operation == AUTHENTICATION:
        return True
    return bool(_REFUSAL_WORDS.search(exc.vault_message or ""))


def is_denial(exc):
    """True when the vault refuses this token one object while it serves it others: HTTP 403, "You are not authorized
    to ...", "Permission denied", "Access denied", a password under access control that is not checked out. A refusal
    of the token itself (HTTP 401, the operation "Authentication", "Authentication failed", a locked user, a host the
    token may not be used from) is not one: every object would be refused alike."""
    if not isinstance(exc, VaultAPIError):
        return False
    words = exc.vault_message or ""
    if exc.http_status == 401 or exc.operation == AUTHENTICATION or _TOKEN_REFUSAL_WORDS.search(words):
        return False
    return is_refusal(exc) or bool(_ACCESS_CONTROL_WORDS.search(words))
