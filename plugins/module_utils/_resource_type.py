# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Resource types: the vault's list, for ``vault_resource_type_info``."""

from __future__ import annotations

from ._api import resources as resources_api


def describe(task):
    """Entry point of ``vault_resource_type_info``: ``resource_types`` (``RESOURCETYPES`` items) and
    ``organization_name``, in one request.

    ``containing`` (substrings) is the vault's own ``RESOURCETYPE_CONTAINING`` filter.
    """
    client, containing = task.client, task.desired.get("containing")
    details = {"RESOURCETYPE_CONTAINING": list(containing)} if containing else None
    return resources_api.get_resource_types(client, details)
