# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The resource group rows of the catalogue ("Resource groups", ``{rest_root}/resourcegroup``), one function each."""

from __future__ import annotations

from .._errors import VaultAPIError, is_refusal
from ._declare import UNSUPPORTED, declares


@declares("create_resource_group")
def create_resource_group(call, details) -> None:
    """CREATE RESOURCE GROUP: ``details`` is the group input (GROUPNAME or critgroup, GROUPTYPE, ...)."""
    call(details=details)


@declares("get_resource_groups", unserved=UNSUPPORTED)
def get_resource_groups(call) -> list[dict]:
    """GET_RESOURCE_GROUPS (A 12230 / B 6000): the groups this token sees (Details items: ``resourceGroupId``,
    ``resourceGroupName``, ``resourceGroupType``, ``resourceGroupDescription``, ``subGroupOf``);
    ``VaultUnsupportedError`` where the vault lacks the list."""
    return call().details_list()


@declares("associate_resources")
def associate_resources(call, group_id, resource_ids):
    """ASSOCIATE RESOURCES (A 12000 / B 5400) of ``resource_ids`` (Details ``RESOURCEIDS``, numbers) with the
    group: the ``VaultResponse``, whose Details give a status per resource id."""
    return call(path={"group_id": group_id}, details={"RESOURCEIDS": resource_ids})


@declares("disassociate_resources")
def disassociate_resources(call, group_id, resource_ids):
    """DISASSOCIATE RESOURCES (A 12000 / B 5400), as ``associate_resources``."""
    return call(path={"group_id": group_id}, details={"RESOURCEIDS": resource_ids})


@declares("delete_resource_group")
def delete_resource_group(call, group_id) -> None:
    """DELETE RESOURCE GROUP (A 12000 / B 5400, query ``RESOURCEGROUPID``)."""
    call(query={"RESOURCEGROUPID": group_id})


@declares("get_resource_group_id", unserved=UNSUPPORTED)
def get_resource_group_id(call, resource_group_name) -> str | None:
    """GET RESOURCE GROUP ID (A 12000 / B 5400): Details ``RESOURCEGROUPID`` of the group called
    ``resource_group_name`` among this token's own groups (no ``USERID`` is sent), or None.

    The call fails alike for an unknown name and for a group of another owner: any failure but a refusal of this
    token (``is_refusal``, raised as it is) is None. ``VaultUnsupportedError`` where the vault lacks the row.
    """
    try:
        found = call(query={"RESOURCEGROUPNAME": resource_group_name}).details_dict()
    except VaultAPIError as exc:
        if is_refusal(exc):
            raise
        return None
    return str(found["RESOURCEGROUPID"]) if found.get("RESOURCEGROUPID") else None
