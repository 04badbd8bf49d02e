# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Read-only views of resources, accounts and resource types, for the ``_info`` modules.

Every function only reads. Values come back under the spec's own keys, with
``Password``-typed custom field values hidden.

One rule for every info module: a name the vault does not know, of the object
asked for or of the object it belongs to, gives an empty answer (``exists``
False, an empty list), never a failure. Names the vault would trim are
refused before sending; refusals and connection errors fail.
"""

from __future__ import annotations

from ._account import AccountRef, find_account, read_account
from ._checks import clean_text
from ._errors import VaultAPIError, VaultNotFoundError, VaultResponseError, VaultUnsupportedError
from ._resource import find_resource_id, mask_secret_fields, read_resource

# A vault without an endpoint answers HTTP 404 (the spec shows no other sign of it).
_UNSUPPORTED_HTTP_STATUS = 404


def list_resources(client):
    """Every resource this token sees (``GET RESOURCES`` items), in one request."""
    return _dicts(client.call("get_resources").details)


def describe_resource(client, name, associated_groups=True, remote_apps=True):
    """The resource called ``name`` with its accounts, and optionally its groups and remote apps.

    Returns ``exists``, ``resource`` (``GET RESOURCE ACCOUNTLIST`` Details), ``associated_groups``
    and ``remote_apps`` (lists, or None when not asked for or not available) and ``unavailable``
    (what was not available, to why).
    """
    info = {"exists": False, "resource": {}, "associated_groups": None, "remote_apps": None, "unavailable": {}}
    resource_id = find_resource_id(client, clean_text(name, "name"))
    if resource_id is None:
        return info
    info.update(exists=True, resource=mask_secret_fields(read_resource(client, resource_id)))
    path = {"resource_id": resource_id}
    if associated_groups:
        details = _optional_read(client, "get_associated_groups", path, "associated_groups", info["unavailable"])
        if details is not None:
            info["associated_groups"] = _dicts(details.get("ASSOCIATED GROUPS") if isinstance(details, dict) else None)
    if remote_apps:
        details = _optional_read(client, "get_associated_remote_apps", path, "remote_apps", info["unavailable"])
        if details is not None:
            info["remote_apps"] = _dicts(details)
    return info


def _optional_read(client, key, path, name, unavailable):
    """Details of a read the vault may lack; None, with ``unavailable[name]`` saying why, when it does.

    The configured edition and build refuse it before anything is sent; an
    unconfigured vault that lacks the endpoint answers HTTP 404.
    """
    try:
        details = client.call(key, path=path).details
    except VaultUnsupportedError as exc:
        unavailable[name] = str(exc)
        return None
    except (VaultAPIError, VaultResponseError) as exc:
        if exc.http_status != _UNSUPPORTED_HTTP_STATUS:
            raise
        unavailable[name] = "the vault does not serve it: %s" % exc
        return None
    return {} if details is None else details


def describe_account(client, resource, name):
    """``exists``, ``resource_exists`` and ``account`` (``GET RESOURCE ACCOUNT DETAILS`` with its ids and name).

    A missing resource or account is ``exists`` False; never the password.
    """
    clean_text(resource, "resource")
    clean_text(name, "name")
    try:
        ref = find_account(client, resource, name)
    except VaultNotFoundError:
        return {"exists": False, "resource_exists": False, "account": {}}
    if ref.account_id is None:
        return {"exists": False, "resource_exists": True, "account": {}}
    return {"exists": True, "resource_exists": True, "account": mask_secret_fields(read_account(client, ref))}


def list_accounts(client, resource, details=False):
    """``resource_exists`` and ``accounts``: the ``ACCOUNT LIST`` items of ``resource``, or with ``details`` each
    account's detail (one more request per account). A missing resource has no accounts.
    """
    resource_id = find_resource_id(client, clean_text(resource, "resource"))
    if resource_id is None:
        return {"resource_exists": False, "accounts": []}
    items = _dicts(read_resource(client, resource_id).get("ACCOUNT LIST"))
    if not details:
        return {"resource_exists": True, "accounts": items}
    refs = [AccountRef(resource, item.get("ACCOUNT NAME"), resource_id, str(item.get("ACCOUNT ID"))) for item in items]
    return {"resource_exists": True, "accounts": [mask_secret_fields(read_account(client, ref)) for ref in refs]}


def list_resource_types(client, containing=None):
    """``resource_types`` (``RESOURCETYPES`` items) and ``organization_name``, in one request.

    ``containing`` (substrings) is the vault's own ``RESOURCETYPE_CONTAINING`` filter.
    """
    details = {"RESOURCETYPE_CONTAINING": list(containing)} if containing else None
    found = client.call("get_resource_types", details=details).details
    found = found if isinstance(found, dict) else {}
    return {"resource_types": _dicts(found.get("RESOURCETYPES")), "organization_name": found.get("ORGANIZATIONNAME")}


def _dicts(items):
    """The dict items of a list from the vault (anything else in it is dropped)."""
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []
