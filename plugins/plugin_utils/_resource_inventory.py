# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The vault's resources as inventory hosts, for the inventory plugin ``credvault.vault.vault_resources``.

Requests: one ``GET RESOURCES`` for the whole inventory; then, for each resource
the type and name filters keep, one ``GET RESOURCE ACCOUNTLIST`` (its detail:
custom fields, owner, accounts...) when details are read, and one
``GET ASSOCIATED GROUPS`` (A 12000 / B 5400) when resource groups are read.

Host variables come only from the ``FIELDS`` allow-list of resource fields,
the labels and values of custom fields that hold no secret (``public_custom_fields``)
and the names of accounts and groups: never a password, a Password-typed
custom field, a key or a token.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from ansible_collections.credvault.vault.plugins.module_utils._custom_fields import is_password_field
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultUnsupportedError
from ansible_collections.credvault.vault.plugins.module_utils._resource import (
    associated_group_names,
    list_resources,
    read_resource,
)

# Resource fields (GET RESOURCES items and the GET RESOURCE ACCOUNTLIST detail) to host variable names.
# "DNS NAME" is in the list items of edition B only, and in the detail of both editions.
FIELDS = {
    "RESOURCE ID": "resource_id",
    "RESOURCE NAME": "resource_name",
    "RESOURCE TYPE": "resource_type",
    "RESOURCE DESCRIPTION": "description",
    "DNS NAME": "dns_name",
    "NOOFACCOUNTS": "account_count",
    "PASSWORD POLICY": "password_policy",
    "DEPARTMENT": "department",
    "LOCATION": "location",
    "RESOURCE URL": "resource_url",
    "RESOURCE OWNER": "owner",
}
# A custom field whose label holds one of these words (any case, as a whole word or inside one) is left out,
# whatever its CUSTOMFIELDTYPE: it may hold a secret in a Character field.
SECRET_WORDS = ("password", "passwd", "passphrase", "secret", "token", "credential", "privatekey", "apikey")
# ... and one whose label has one of these as a whole word ("SSH key", "PIN", "totp_seed"; not "Monkey").
SECRET_TOKENS = ("pwd", "pass", "key", "pin", "otp", "totp", "seed")
HOSTNAME_SOURCES = ("dns_name", "resource_name")


def is_secret_label(label):
    """Whether a custom field's label names a secret (``SECRET_WORDS``, ``SECRET_TOKENS``)."""
    text = str(label)
    words = re.findall(r"[a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text).lower())
    squashed = "".join(words)
    return any(word in squashed for word in SECRET_WORDS) or any(word in SECRET_TOKENS for word in words)


def is_secret_field(field):
    """A custom field (``{CUSTOMFIELDVALUE, CUSTOMFIELDTYPE, CUSTOMFIELDLABEL, ...}``) that is ``Password``-typed or
    whose label names a secret."""
    return is_password_field(field) or is_secret_label(field.get("CUSTOMFIELDLABEL", ""))


def public_custom_fields(detail):
    """The ``CUSTOM FIELD`` items of a resource detail as ``{CUSTOMFIELDLABEL: CUSTOMFIELDVALUE}``, secrets left out."""
    fields = detail.get("CUSTOM FIELD")
    return {
        str(field["CUSTOMFIELDLABEL"]): str(field.get("CUSTOMFIELDVALUE", ""))
        for field in (fields if isinstance(fields, list) else [])
        if isinstance(field, dict) and field.get("CUSTOMFIELDLABEL") and not is_secret_field(field)
    }


def without_user_info(url):
    """A URL without the ``user:password@`` part a resource URL may carry."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def resource_facts(item, detail=None, group_names=None):
    """The host variables (without prefix) of one resource: its ``GET RESOURCES`` item, its detail when read
    (custom fields and account names added) and its group names when read."""
    facts = {}
    for source in (item, detail or {}):
        facts.update({name: str(source[field]) for field, name in FIELDS.items() if source.get(field) is not None})
    if facts.get("resource_url"):
        facts["resource_url"] = without_user_info(facts["resource_url"])
    if detail is not None:
        facts["custom_fields"] = public_custom_fields(detail)
        accounts = detail.get("ACCOUNT LIST")
        facts["accounts"] = sorted(
            str(account["ACCOUNT NAME"])
            for account in (accounts if isinstance(accounts, list) else [])
            if isinstance(account, dict) and account.get("ACCOUNT NAME")
        )
    if group_names is not None:
        facts["resource_groups"] = sorted(group_names)
    return facts


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


def read_resources(client, run_all, types=None, name_pattern=None, groups=None, details=True, resource_groups=True):
    """``(facts of each resource kept, in order of resource id; a warning or None)``.

    ``groups`` (names) keeps the resources in any of them and reads every resource's
    groups, whatever ``resource_groups``, and reads the detail of those kept only. The first resource's groups are read
    alone: when the vault lacks the call, no other resource is asked (a warning,
    or a failure when ``groups`` needs them).
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
            return resource_facts(item, read_resource(client, resource_id) if details else None, names)

        return read

    facts = run_all([reader(index, item) for index, item in enumerate(items)])
    return [resource for resource in facts if resource is not None], warning
