# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a vault serves: the catalogue row of a call, and the edition and build gates of the rows and their input
fields, checked before anything is sent. A vault whose edition is not configured shows that it lacks a call only by
not serving it (``NOT_SERVED_STATUSES``); a failure of that kind hints to configure ``edition`` (``edition_hint``)."""

from __future__ import annotations

from collections.abc import Mapping

from ._catalogue import CATALOGUE
from ._errors import VaultCallError, VaultUnsupportedError

# The HTTP status of a path the vault does not serve: how a vault without an endpoint answers.
UNSERVED = 404
# How a vault answers a call it does not serve as sent: no such path (404), or not with this method (405).
NOT_SERVED_STATUSES = (UNSERVED, 405)
EDITION_HINT = (
    "the vault did not serve a call as it was sent, and edition is not set: if this vault is edition B or an "
    "older build, set edition and build, so that the collection sends the calls that vault has and refuses what it "
    "lacks before writing anything"
)


def catalogue_row(key):
    """The catalogue row ``key``; ``VaultCallError`` (never a bare ``KeyError``) when there is none."""
    row = CATALOGUE.get(key) if isinstance(key, str) else None
    if row is None:
        raise VaultCallError("no endpoint %r in the catalogue" % (key,))
    return row


def catalogued(key, path, query):
    """The catalogue row ``key`` for a call filling the placeholders ``path`` and sending the query parameters
    ``query``; ``VaultCallError`` when the call does not fit the row: a defect of the caller, refused before anything
    is sent."""
    row = catalogue_row(key)
    problem = row.call_problem(path, query)
    if problem:
        raise VaultCallError("%s: %s" % (row.operation, problem), operation=row.operation)
    return row


def gates_text(gates):
    """``gates`` ({edition: first build}) in words: "edition <edition> from build <build>" for each, joined by "or"."""
    parts = ["edition %s from build %d" % (edition, build) for edition, build in sorted(gates.items())]
    return " or ".join(parts)


def check_gates(endpoint, details, edition, build):
    """Refuse (``VaultUnsupportedError``), before anything is sent, the catalogue row ``endpoint`` or a gated field of
    ``details`` that ``edition`` at ``build`` lacks; without edition and build, refuse nothing."""
    if edition is None or build is None:
        return
    operation = endpoint.operation_for(edition)
    here = "the vault is edition %s build %d" % (edition, build)
    if not _open(endpoint.gates, edition, build):
        call = "%s (%s %s)" % (operation, endpoint.method_for(edition), endpoint.path)
        raise VaultUnsupportedError("%s needs %s; %s" % (call, gates_text(endpoint.gates), here), operation=operation)
    sent = _keys(details)
    for name, gates in sorted(endpoint.field_gates().items()):
        if name in sent and not _open(gates, edition, build):
            raise VaultUnsupportedError(
                "%s: field %s needs %s; %s" % (operation, name, gates_text(gates), here), operation=operation
            )


def edition_hint(edition, error):
    """ ". Hint: ..." (``EDITION_HINT``) for the failure ``error`` of a call the vault did not serve when ``edition``
    is not configured; "" otherwise."""
    if edition is None and error.http_status in NOT_SERVED_STATUSES:
        return ". Hint: %s" % EDITION_HINT
    return ""


def _open(gates, edition, build):
    return edition in gates and build >= gates[edition]


def _keys(value):
    """Every key of every mapping inside ``value``."""
    keys = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            keys.add(key)
            keys |= _keys(item)
    elif isinstance(value, list):
        for item in value:
            keys |= _keys(item)
    return keys
