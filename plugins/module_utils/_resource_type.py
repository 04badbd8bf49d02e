# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Resource types: the vault's list, for ``vault_resource_type_info``."""

from __future__ import annotations


def describe(task):
    """Entry point of ``vault_resource_type_info``: ``resource_types`` (``RESOURCETYPES`` items) and
    ``organization_name``, in one request.

    ``containing`` (substrings) is the vault's own ``RESOURCETYPE_CONTAINING`` filter.
    """
    client, containing = task.client, task.desired.get("containing")
    details = {"RESOURCETYPE_CONTAINING": list(containing)} if containing else None
    response = client.call("get_resource_types", details=details)
    return {
        "resource_types": response.details_list("RESOURCETYPES"),
        "organization_name": response.details_dict().get("ORGANIZATIONNAME"),
    }
