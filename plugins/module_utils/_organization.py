# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Organizations (edition B): the list, for ``vault_organization_info`` and for choosing an ``org_name``.

``GET_ORGANIZATIONS`` (B 6320) takes no input and answers every organization
as ``{name, id, displayName}`` (strings). The header ``orgName`` - the
connection option ``org_name`` - carries an organization's display name.
"""

from __future__ import annotations

from ._api import users as users_api
from ._checks import clean_text


def list_organizations(client):
    """Every organization as ``{name, id, display_name}``, in one request."""
    return [
        {"name": _text(item.get("name")), "id": _text(item.get("id")), "display_name": _text(item.get("displayName"))}
        for item in users_api.get_organizations(client)
    ]


def describe(task):
    """Entry point of ``vault_organization_info``: ``{"organizations"}``; with ``name`` also ``exists`` and
    ``organization``, the one whose display name (what ``org_name`` takes) is ``name``, else the one whose name is,
    else ``{}``."""
    name = task.desired.get("name")
    clean_text(name, "name")
    organizations = list_organizations(task.client)
    if name is None:
        return {"organizations": organizations}
    found = find_organization(organizations, name)
    return {"organizations": organizations, "exists": found is not None, "organization": found or {}}


def find_organization(organizations, name):
    for key in ("display_name", "name"):
        found = next((item for item in organizations if item[key] == name), None)
        if found is not None:
            return found
    return None


def _text(value):
    return None if value is None else str(value)
