# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Resources: find by name, read, converge, and the read-only views of the info modules."""

from __future__ import annotations

import os

from ._api import accounts as accounts_api
from ._api import resources as resources_api
from ._api._declare import require
from ._catalogue import ACCOUNT_BOOLEANS
from ._checks import clean_text
from ._converge import CreatedMeanwhile, Field, VaultObject
from ._custom_fields import (
    check_custom_fields,
    custom_field_input,
    custom_field_strings,
    custom_field_values,
    mask_secret_fields,
    track_custom_fields,
)
from ._errors import VaultAPIError, VaultError, VaultInputError, VaultNotAppliedError, VaultUnsupportedError

# "A type cannot be changed from or to key store, license store, Rackspace or AWS IAM."
FIXED_TYPES = ("key store", "license store", "rackspace", "aws iam")
# "the resource types used with files are License Store and File Store"
FILE_TYPES = ("file store", "license store")
# The account booleans (A 12230 / B 6000), option name -> account input key. The create-resource input has
# none of them, so those of the first account are set by EDIT ACCOUNT right after the creation.
ACCOUNT_FLAGS = {key.lower(): key for key in ACCOUNT_BOOLEANS}

# The create input has no key for the description, department or location ("its field name is not shown"):
# they are sent by EDIT RESOURCE right after the creation. The owner cannot be changed through the API.
FIELDS = (
    Field("type", read="RESOURCE TYPE", create="RESOURCETYPE", edit="RESOURCETYPE"),
    Field("description", read="RESOURCE DESCRIPTION", edit="RESOURCEDESCRIPTION"),
    Field("resource_url", read="RESOURCE URL", create="RESOURCEURL", edit="RESOURCEURL"),
    Field("department", read="DEPARTMENT", edit="DEPARTMENT"),
    Field("location", read="LOCATION", edit="LOCATION"),
    Field("password_policy", read="PASSWORD POLICY", create="RESOURCEPASSWORDPOLICY", edit="RESOURCEPASSWORDPOLICY"),
    Field("owner", read="RESOURCE OWNER", create="OWNERNAME"),
    Field("resource_group", create="RESOURCEGROUPNAME"),
)
# The first account's options that go into the create-resource input.
FIRST_ACCOUNT_FIELDS = (
    Field("name", create="ACCOUNTNAME"),
    Field("password", create="PASSWORD", secret=True),
    Field("password_policy", create="ACCOUNTPASSWORDPOLICY"),
    Field("notes", create="NOTES"),
)


def unapplied_custom_fields(detail, desired_fields):
    """True when ``detail`` (read back right after a creation) lacks a custom field value the task set."""
    values = custom_field_values(detail)
    return any(values.get(label) != value for label, value in (desired_fields or {}).items())


def find_resource_id(client, name):
    """The id of the resource called ``name``, or None when this token sees no such resource: ``GET_RESOURCEID``
    cannot tell an unknown name from another failure, so its None is confirmed against the resource list."""
    found = resources_api.get_resource_id(client, name)
    if found is not None:
        return found
    for item in resources_api.get_resources(client):
        if item.get("RESOURCE NAME") == name:
            return str(item.get("RESOURCE ID"))
    return None


def read_resource(client, resource_id):
    """The resource detail (``GET RESOURCE ACCOUNTLIST`` Details), including its ``ACCOUNT LIST``."""
    return resources_api.get_account_list(client, resource_id)


def associated_group_names(client, resource_id):
    """``(names, None)`` of the groups of a resource (``ASSOCIATED GROUPS``, in the vault's order), or
    ``(None, why)`` when the vault lacks the call."""
    try:
        groups = resources_api.get_associated_groups(client, resource_id)
    except VaultUnsupportedError as exc:
        return None, str(exc)
    return [str(item.get("GROUP NAME")) for item in groups], None


def list_resources(client):
    """Every resource this token sees (``GET RESOURCES`` items), in one request."""
    return resources_api.get_resources(client)


def describe(task):
    """Entry point of ``vault_resource_info``: with ``name``, the resource (``resource_info``, its groups and remote
    apps unless ``include_associated_groups`` or ``include_remote_apps`` is false); without it, ``resources``, every
    resource this token sees."""
    desired = task.desired
    if desired.get("name") is None:
        return {"resources": list_resources(task.client)}
    return resource_info(
        task.client,
        desired["name"],
        desired.get("include_associated_groups") is not False,
        desired.get("include_remote_apps") is not False,
    )


def resource_info(client, name, associated_groups=True, remote_apps=True):
    """The resource called ``name`` with its accounts, and optionally its groups and remote apps.

    Returns ``exists``, ``resource`` (``GET RESOURCE ACCOUNTLIST`` Details), ``associated_groups``
    and ``remote_apps`` (lists, or None when not asked for or not available) and ``unavailable``
    (what was not available, to why). A resource the vault does not know is ``exists`` False.
    """
    info = {"exists": False, "resource": {}, "associated_groups": None, "remote_apps": None, "unavailable": {}}
    resource_id = find_resource_id(client, clean_text(name, "name"))
    if resource_id is None:
        return info
    info.update(exists=True, resource=mask_secret_fields(read_resource(client, resource_id)))
    asked = {"associated_groups": associated_groups, "remote_apps": remote_apps}
    reads = {
        "associated_groups": resources_api.get_associated_groups,
        "remote_apps": resources_api.get_associated_remote_apps,
    }
    for key, read in reads.items():
        if not asked[key]:
            continue
        try:
            info[key] = read(client, resource_id)
        except VaultUnsupportedError as exc:
            info["unavailable"][key] = str(exc)
    return info


def check_file(desired):
    """A ``src`` needs a file type and a readable regular file; refused before any request."""
    path = desired.get("src")
    if not path:
        return
    kind = desired.get("type")
    if kind is not None and kind.lower() not in FILE_TYPES:
        raise VaultInputError(
            "resource %s: a file can only be uploaded with type File Store or License Store, "
            "not %s" % (desired["name"], kind)
        )
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise VaultInputError("resource %s: src %s is not a readable file" % (desired["name"], path))


def first_account_flags(desired):
    """The account booleans given for the first account, as account input (key to bool)."""
    account = desired.get("first_account") or {}
    return {key: account[option] for option, key in ACCOUNT_FLAGS.items() if account.get(option) is not None}


def _type_change_refused(current, desired):
    if current is None or desired is None or current.lower() == desired.lower():
        return False
    return current.lower() in FIXED_TYPES or desired.lower() in FIXED_TYPES


class Resource(VaultObject):
    """A resource, found by name; its handle is its id. The vault creates it together with its first account."""

    KIND = "resource"
    FIELDS = FIELDS

    def check_input(self):
        """Refuse, before any request, what the vault would trim, refuse or never read back."""
        desired = self.desired
        for option in ("type", "owner", "resource_group", "password_policy"):
            clean_text(desired.get(option), option)
        desired["custom_fields"] = custom_field_strings(desired.get("custom_fields"), "custom_fields")
        check_custom_fields(desired["custom_fields"], "custom_fields")
        check_file(desired)
        account = desired.get("first_account")
        if account:
            clean_text(account.get("name"), "first_account.name")
            clean_text(account.get("password_policy"), "first_account.password_policy")
            if not account.get("password"):
                raise VaultInputError("first_account.password must not be empty (the vault requires PASSWORD)")
            fields = custom_field_strings(account.get("custom_fields"), "first_account.custom_fields")
            check_custom_fields(fields, "first_account.custom_fields")
            desired["first_account"] = dict(account, custom_fields=fields)
        require(self.client, accounts_api.edit_account, details=first_account_flags(desired))

    def find(self):
        return find_resource_id(self.client, self.desired["name"])

    def read(self, handle):
        return read_resource(self.client, handle)

    def plan(self, handle, current):
        desired, tracker = self.desired, self.tracker
        if _type_change_refused(current.get("RESOURCE TYPE"), desired.get("type")):
            raise VaultInputError(
                "resource %s: the type cannot change from %s to %s (the vault refuses changes "
                "from or to key store, license store, Rackspace or AWS IAM)"
                % (desired["name"], current.get("RESOURCE TYPE"), desired["type"])
            )
        edit = self.field_changes(tracker, current)
        changed_fields = track_custom_fields(tracker, current, desired.get("custom_fields"))
        if changed_fields:
            edit["RESOURCECUSTOMFIELD"] = custom_field_input(changed_fields)
        self._warn_creation_only(tracker, current)
        return edit

    def write(self, handle, changes):
        resources_api.edit_resource(self.client, handle, changes)

    def delete(self, handle):
        try:
            resources_api.delete_resource(self.client, handle)
        except VaultAPIError as exc:
            return self.deleted_meanwhile(exc)
        return True

    def _warn_creation_only(self, tracker, current):
        """Warn about the creation-only options of an existing resource that differ or cannot be compared.

        ``resource_group`` is compared with ``GET ASSOCIATED GROUPS`` (A 12000 / B 5400) when the
        vault has it; of ``first_account`` only the account's presence can be compared.
        """
        name, group = self.desired["name"], self.desired.get("resource_group")
        if group:
            groups, dummy_why = associated_group_names(self.client, current.get("RESOURCE ID"))
            if groups is None:
                tracker.warn(
                    "resource %s exists: resource_group is applied only when a resource is created, and this "
                    "vault cannot list a resource's groups, so membership of %s was not compared; manage it "
                    "with credvault.vault.vault_resource_group" % (name, group)
                )
            elif group not in groups:
                tracker.warn(
                    "resource %s exists and is not in resource group %s: resource_group is applied only "
                    "when a resource is created; add it with credvault.vault.vault_resource_group" % (name, group)
                )
        account = self.desired.get("first_account")
        if account:
            names = [item.get("ACCOUNT NAME") for item in current.get("ACCOUNT LIST") or [] if isinstance(item, dict)]
            settings = sorted(
                "first_account.%s" % option
                for option, value in account.items()
                if option not in ("name", "password") and value not in (None, {})
            )
            if account["name"] not in names:
                tracker.warn(
                    "resource %s exists and has no account %s: first_account is applied only when a "
                    "resource is created; add the account with credvault.vault.vault_account" % (name, account["name"])
                )
            elif settings:
                tracker.warn(
                    "resource %s exists: %s not compared or applied (first_account is applied only when a "
                    "resource is created); manage the account with credvault.vault.vault_account"
                    % (name, ", ".join(settings) + (" was" if len(settings) == 1 else " were"))
                )

    def create(self, handle, tracker):
        desired = self.desired
        account = desired.get("first_account")
        if not account:
            raise VaultInputError(
                "resource %s does not exist: first_account (name and password) is required to "
                "create it, the vault creates a resource together with its first account" % desired["name"]
            )
        if not desired.get("type"):
            raise VaultInputError("resource %s does not exist: type is required to create it" % desired["name"])
        create, edit = self.creation_input(tracker)
        create["RESOURCENAME"] = desired["name"]
        create.update(
            {
                field.create: account[field.option]
                for field in FIRST_ACCOUNT_FIELDS
                if account.get(field.option) is not None
            }
        )
        if desired.get("custom_fields"):
            tracker.compare("custom_fields", None, desired["custom_fields"])
            create["RESOURCECUSTOMFIELD"] = custom_field_input(desired["custom_fields"])
        if account.get("custom_fields"):
            create["ACCOUNTCUSTOMFIELD"] = custom_field_input(account["custom_fields"])
        flags = first_account_flags(desired)
        if flags:
            tracker.compare("first_account_settings", None, flags)
        if desired.get("src"):
            tracker.compare("src", None, os.path.basename(desired["src"]))
        if self.check_mode:
            return None
        try:
            resources_api.create_resource(self.client, create, files=_upload(desired.get("src")))
        except VaultAPIError:
            resource_id = self.find()
            if resource_id is None:
                raise
            raise CreatedMeanwhile(resource_id) from None
        try:
            return self._complete_creation(edit, flags)
        except VaultError as exc:
            raise exc.reworded("resource %s was created, but not completed: %s" % (desired["name"], exc)) from None

    def _complete_creation(self, edit, flags):
        """After CREATE RESOURCE: the edit of what the create input cannot carry, and the first account's booleans."""
        resource_id = self.find()
        if resource_id is None:
            raise VaultAPIError(
                "CREATE RESOURCE reported success but the resource cannot be found", operation="CREATE RESOURCE"
            )
        if edit:
            self.write(resource_id, edit)
        created = read_resource(self.client, resource_id)
        not_applied = self.unapplied(created)
        if unapplied_custom_fields(created, self.desired.get("custom_fields")):
            not_applied.append("custom_fields")
        if not_applied:
            # Read back, as a later run compares them: a vault that drops a setting would otherwise be "ok" then.
            raise VaultNotAppliedError("the vault did not apply %s" % ", ".join(not_applied), operation="EDIT RESOURCE")
        if flags:
            # The vault does not report the booleans back, so the read above stays true after this edit.
            account_id = _account_id(created, self.desired["first_account"]["name"])
            accounts_api.edit_account(self.client, resource_id, account_id, flags)
        return created


def converge(task):
    """Entry point of ``vault_resource``: the resource ``task.desired`` describes, converged to its ``state``;
    returns ``{"resource"}``, its details after the run with secret custom fields masked ({} when absent)."""
    return {"resource": mask_secret_fields(Resource(task).ensure() or {})}


def _upload(path):
    """``{file name: content}`` for the multipart part ``file`` of CREATE RESOURCE, or None."""
    if not path:
        return None
    try:
        with open(path, "rb") as handle:
            return {os.path.basename(path): handle.read()}
    except OSError as exc:
        raise VaultInputError("src %s cannot be read: %s" % (path, exc.strerror)) from None


def _account_id(detail, name):
    for item in detail.get("ACCOUNT LIST") or []:
        if isinstance(item, dict) and item.get("ACCOUNT NAME") == name:
            return str(item.get("ACCOUNT ID"))
    raise VaultAPIError(
        "CREATE RESOURCE reported success but its account %s cannot be found" % name, operation="CREATE RESOURCE"
    )
