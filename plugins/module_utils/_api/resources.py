# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The resource rows of the catalogue ("Resources and accounts", ``{rest_root}/resources``), one function each."""

from __future__ import annotations

from .._errors import VaultAPIError, is_refusal
from ._declare import UNSUPPORTED, declares


@declares("get_resources")
def get_resources(call) -> list[dict]:
    """GET RESOURCES: every resource this token sees (Details items: ``RESOURCE ID``, ``RESOURCE NAME``, ...)."""
    return call().details_list()


@declares("get_resource_id")
def get_resource_id(call, resource_name) -> str | None:
    """GET_RESOURCEID: Details ``RESOURCEID`` of the resource called ``resource_name``, or None.

    The vault answers a failed status for an unknown name, and the spec shows no error codes to tell that apart
    from other failures: any failure but a refusal of this token (``is_refusal``) is None, which the caller confirms
    against ``get_resources`` before calling the resource absent. A refusal is raised: it says nothing of the name.
    """
    try:
        found = call(path={"resource_name": resource_name}).details_dict()
    except VaultAPIError as exc:
        if is_refusal(exc):
            raise
        return None
    return str(found["RESOURCEID"]) if found.get("RESOURCEID") else None


@declares("get_account_list")
def get_account_list(call, resource_id) -> dict:
    """GET RESOURCE ACCOUNTLIST: the resource's detail (Details: ``RESOURCE TYPE``, ..., ``ACCOUNT LIST``)."""
    return call(path={"resource_id": resource_id}).details_dict()


@declares("create_resource")
def create_resource(call, details, files=None) -> None:
    """CREATE RESOURCE with its first account; ``files`` ``{name: bytes}`` goes in the multipart part ``file``."""
    call(details=details, files=files)


@declares("edit_resource")
def edit_resource(call, resource_id, details) -> None:
    """EDIT RESOURCE: only the keys given change."""
    call(path={"resource_id": resource_id}, details=details)


@declares("delete_resource")
def delete_resource(call, resource_id) -> None:
    """DELETE RESOURCE."""
    call(path={"resource_id": resource_id})


@declares("get_resource_types")
def get_resource_types(call, details=None) -> dict:
    """GET RESOURCE TYPES (A 11300 / B 5300): ``resource_types`` (Details ``RESOURCETYPES`` items) and
    ``organization_name`` (Details ``ORGANIZATIONNAME``); ``details`` may hold ``RESOURCETYPE_CONTAINING``."""
    response = call(details=details)
    return {
        "resource_types": response.details_list("RESOURCETYPES"),
        "organization_name": response.details_dict().get("ORGANIZATIONNAME"),
    }


@declares("get_associated_groups", unserved=UNSUPPORTED)
def get_associated_groups(call, resource_id) -> list[dict]:
    """GET ASSOCIATED GROUPS (A 12000 / B 5400): the groups of a resource (Details ``ASSOCIATED GROUPS`` items:
    ``GROUP ID``, ``GROUP NAME``); ``VaultUnsupportedError`` where the vault lacks the row."""
    return call(path={"resource_id": resource_id}).details_list("ASSOCIATED GROUPS")


@declares("get_associated_remote_apps", unserved=UNSUPPORTED)
def get_associated_remote_apps(call, resource_id) -> list[dict]:
    """GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE (B 6320): the remote apps of a resource (Details items);
    ``VaultUnsupportedError`` where the vault lacks the row."""
    return call(path={"resource_id": resource_id}).details_list()


@declares("configure_remote_password_reset")
def configure_remote_password_reset(call, details):
    """CONFIGURE REMOTE PASSWORD RESET (A 11200 / B 5100): the ``VaultResponse`` (its per-account outcomes)."""
    return call(details=details)
