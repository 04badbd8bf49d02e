# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The vault's resources as inventory hosts, for the inventory plugin ``credvault.vault.vault_resources``.

Requests: one ``GET RESOURCES`` for the whole inventory; then, for each resource
the type and name filters keep, one ``GET RESOURCE ACCOUNTLIST`` (its detail:
owner, accounts, custom fields...) when details are read or when its list item
lacks ``DNS NAME`` (edition A), and one ``GET ASSOCIATED GROUPS`` (A 12000 / B 5400)
when resource groups are read.

Host variables come only from the ``LIST_FIELDS`` and ``DETAIL_FIELDS`` allow-lists
of resource fields, the custom fields the user allows by label
(``allowed_custom_fields``; a ``Password``-typed one never) and the names of
accounts and groups: never a password, a key or a token.
"""

from __future__ import annotations

import fnmatch
import re
from urllib.parse import urlsplit, urlunsplit

from ansible_collections.credvault.vault.plugins.module_utils._custom_fields import is_password_field
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultUnsupportedError
from ansible_collections.credvault.vault.plugins.module_utils._resource import (
    associated_group_names,
    list_resources,
    read_resource,
)

# Fields of a GET RESOURCES item to host variable names; "DNS NAME" is there in edition B only.
LIST_FIELDS = {
    "RESOURCE ID": "resource_id",
    "RESOURCE NAME": "resource_name",
    "RESOURCE TYPE": "resource_type",
    "RESOURCE DESCRIPTION": "description",
    "DNS NAME": "dns_name",
    "NOOFACCOUNTS": "account_count",
}
# Fields of the GET RESOURCE ACCOUNTLIST detail taken with details; the detail has "DNS NAME" in both editions.
DETAIL_FIELDS = {
    "RESOURCE ID": "resource_id",
    "RESOURCE NAME": "resource_name",
    "RESOURCE TYPE": "resource_type",
    "RESOURCE DESCRIPTION": "description",
    "DNS NAME": "dns_name",
    "PASSWORD POLICY": "password_policy",
    "DEPARTMENT": "department",
    "LOCATION": "location",
    "RESOURCE URL": "resource_url",
    "RESOURCE OWNER": "owner",
}
# ... and the one taken from it without details, for a list item that lacks it.
DNS_FIELD = {"DNS NAME": "dns_name"}


def label_matcher(patterns):
    """Whether a custom field's label is one of ``patterns``: shell-style wildcards (``fnmatch``: ``*``, ``?``,
    ``[...]``) matched against the whole label, case ignored; a pattern without a wildcard is an exact label."""
    folded = [str(pattern).casefold() for pattern in patterns]
    return lambda label: any(fnmatch.fnmatchcase(str(label).casefold(), pattern) for pattern in folded)


def allowed_custom_fields(detail, allowed):
    """The ``CUSTOM FIELD`` items of a resource detail as ``{CUSTOMFIELDLABEL: CUSTOMFIELDVALUE}``: those whose
    label ``allowed(label)`` accepts, never one whose ``CUSTOMFIELDTYPE`` is ``Password``."""
    fields = detail.get("CUSTOM FIELD")
    return {
        str(field["CUSTOMFIELDLABEL"]): str(field.get("CUSTOMFIELDVALUE", ""))
        for field in (fields if isinstance(fields, list) else [])
        if isinstance(field, dict)
        and field.get("CUSTOMFIELDLABEL")
        and not is_password_field(field)
        and allowed(field["CUSTOMFIELDLABEL"])
    }


def without_user_info(url):
    """A URL without the ``user:password@`` part a resource URL may carry."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def needs_detail(item, details):
    """Whether a resource's detail is read: with ``details``, or for the ``DNS NAME`` its list item lacks."""
    return details or "DNS NAME" not in item


def resource_facts(item, detail=None, group_names=None, details=True, custom_fields=None):
    """The host variables (without prefix) of one resource: its ``GET RESOURCES`` item; its detail when read
    (with ``details`` the ``DETAIL_FIELDS`` and account names, else its DNS name only); the custom fields
    ``custom_fields(label)`` allows, when given; its group names when read."""
    facts = _named_fields(item, LIST_FIELDS)
    if detail is not None:
        facts.update(_named_fields(detail, DETAIL_FIELDS if details else DNS_FIELD))
    if facts.get("resource_url"):
        facts["resource_url"] = without_user_info(facts["resource_url"])
    if detail is not None and details:
        accounts = detail.get("ACCOUNT LIST")
        facts["accounts"] = sorted(
            str(account["ACCOUNT NAME"])
            for account in (accounts if isinstance(accounts, list) else [])
            if isinstance(account, dict) and account.get("ACCOUNT NAME")
        )
        if custom_fields is not None:
            facts["custom_fields"] = allowed_custom_fields(detail, custom_fields)
    if group_names is not None:
        facts["resource_groups"] = sorted(group_names)
    return facts


def _named_fields(source, fields):
    return {name: str(source[field]) for field, name in fields.items() if source.get(field) is not None}


def host_name(facts, source):
    """``dns_name``: the DNS name, else the resource name; ``resource_name``: the resource name."""
    if source == "dns_name" and facts.get("dns_name", "").strip():
        return facts["dns_name"].strip()
    return facts["resource_name"]


def group_name(prefix, name):
    """``prefix`` and ``name`` lowercased, every character other than a-z, 0-9 and _ made ``_``."""
    return prefix + re.sub(r"[^a-z0-9_]", "_", name.lower())


def selected(item, types, name_pattern):
    """Whether a ``GET RESOURCES`` item passes the type (any case) and name (``re.search``) filters."""
    if types and str(item.get("RESOURCE TYPE", "")).lower() not in {kind.lower() for kind in types}:
        return False
    return name_pattern is None or name_pattern.search(str(item.get("RESOURCE NAME", ""))) is not None


def check_token(client):
    """One ``GET RESOURCES``, its answer dropped: the client's error when the vault does not accept the token.

    Only the vault knows whether a token is (still) valid, so this is asked before the inventory cache answers.
    """
    list_resources(client)


def read_resources(
    client,
    run_all,
    types=None,
    name_pattern=None,
    groups=None,
    details=True,
    resource_groups=True,
    custom_fields=None,
):
    """``(facts of each resource kept, in order of resource id; a warning or None)``.

    ``groups`` (names) keeps the resources in any of them and reads every resource's
    groups, whatever ``resource_groups``, and reads the detail of those kept only. The first resource's groups are read
    alone: when the vault lacks the call, no other resource is asked (a warning,
    or a failure when ``groups`` needs them). ``custom_fields`` (a label test, ``label_matcher``) chooses the
    custom fields kept; None keeps no ``custom_fields`` variable.
    """
    items = [item for item in list_resources(client) if item.get("RESOURCE ID") and selected(item, types, name_pattern)]
    items.sort(key=lambda item: (len(str(item["RESOURCE ID"])), str(item["RESOURCE ID"])))
    read_groups = bool(resource_groups or groups)
    warning = None
    if read_groups and items:
        first_groups, why = associated_group_names(client, str(items[0]["RESOURCE ID"]))
        if first_groups is None:
            if groups:
                raise VaultUnsupportedError("filters.groups needs the groups of each resource, and %s" % why)
            warning = "resource groups are not read (no vault_group_* groups): %s" % why
            read_groups = False

    def reader(index, item):
        def read():
            resource_id = str(item["RESOURCE ID"])
            names = None
            if read_groups:
                names = first_groups if index == 0 else associated_group_names(client, resource_id)[0]
            if groups and not set(groups) & set(names):
                return None
            detail = read_resource(client, resource_id) if needs_detail(item, details) else None
            return resource_facts(item, detail, names, details=details, custom_fields=custom_fields)

        return read

    facts = run_all([reader(index, item) for index, item in enumerate(items)])
    return [resource for resource in facts if resource is not None], warning
