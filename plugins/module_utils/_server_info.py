# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The service's own information (``vault_server_info``): its high-availability status, and the collection's view
of the vault.

- ``Get HA Status`` (``GET /server/getHighAvailabilityStatus``, A 12230 / B
  6000) answers Details haStatus, isPrimaryServer (the string ``true`` or
  ``false``), primaryServer, primaryServerStatus, secondaryServer and
  secondaryServerStatus. A vault without the call is not an error: the status
  is then empty and ``unavailable`` says why (``VaultUnsupportedError``).
- ``available_endpoints(edition, build)`` is computed from the catalogue and its
  Build gates alone, without any request: which rows of the spec the configured
  edition and build have.
"""

from __future__ import annotations

from ._api import service as service_api
from ._catalogue import CATALOGUE, PKI
from ._errors import VaultUnsupportedError
from ._settings import PKI_ROOT, REST_ROOT


def _open(gates, edition, build):
    """True or False when ``edition`` and ``build`` decide the ``gates``, None when they cannot."""
    if edition is None:
        if all(edition_ in gates and gates[edition_] == 0 for edition_ in ("A", "B")):
            return True
        return None
    if edition not in gates:
        return False
    if gates[edition] == 0:
        return True
    if build is None:
        return None
    return build >= gates[edition]


def available_endpoints(edition=None, build=None):
    """Every catalogue row as ``{key, method, path, operation, build, available, fields}``, in the spec's order.

    ``method`` and ``operation`` are those of ``edition`` (edition B's where they differ); ``path`` is the full path
    under the base URL; ``build`` the spec's Build cell; ``available`` True or False when ``edition`` and ``build``
    decide it, None when they do not (no edition, or a gated row without a build); ``fields`` the same for each
    input field gated by build (``{}`` for most rows).
    """
    rows = []
    for row in CATALOGUE.values():
        root = PKI_ROOT if row.root == PKI else REST_ROOT
        rows.append(
            {
                "key": row.key,
                "method": row.method_for(edition),
                "path": root + row.path,
                "operation": row.operation_for(edition),
                "build": row.build,
                "available": _open(row.gates, edition, build),
                "fields": {name: _open(gates, edition, build) for name, gates in sorted(row.field_gates().items())},
            }
        )
    return rows


def _boolean(value):
    """isPrimaryServer (``true``/``false``, any case, or a JSON boolean) as a boolean; None otherwise."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, str) else ""
    return {"true": True, "false": False}.get(text)


def high_availability(client):
    """``(status, why)``: the HA status Details plus ``is_primary_server`` (a boolean, None when the answer says
    neither), with ``why`` None; or ``({}, why)`` when the vault lacks the call."""
    try:
        details = service_api.get_ha_status(client)
    except VaultUnsupportedError as exc:
        return {}, str(exc)
    return dict(details, is_primary_server=_boolean(details.get("isPrimaryServer"))), None


def describe(task):
    """Entry point of ``vault_server_info``: the HA status, the configured edition and build, and the endpoints."""
    client = task.client
    status, why = high_availability(client)
    return {
        "high_availability": status,
        "unavailable": {} if why is None else {"high_availability": why},
        "edition": client.edition,
        "build": client.build,
        "endpoints": available_endpoints(client.edition, client.build),
    }
