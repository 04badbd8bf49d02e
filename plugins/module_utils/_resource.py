# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Resources: find by name, read, and converge to a desired state with the fewest requests."""

from __future__ import annotations

import os

from ._catalogue import CATALOGUE
from ._checks import clean_text
from ._client import describe_gates
from ._diff import HIDDEN, DifferenceTracker
from ._errors import VaultAPIError, VaultError, VaultInputError, VaultUnsupportedError

MAX_CUSTOM_FIELDS = 20
# "A type cannot be changed from or to key store, license store, Rackspace or AWS IAM."
FIXED_TYPES = ("key store", "license store", "rackspace", "aws iam")
# "the resource types used with files are License Store and File Store"
FILE_TYPES = ("file store", "license store")
# The account booleans (A 12230 / B 6000), option name -> account input key. The create-resource input has
# none of them, so those of the first account are set by EDIT ACCOUNT right after the creation.
ACCOUNT_FLAGS = {key.lower(): key for key in (
    "RECORD_RDP_SESSIONS", "RECORD_CLI_SESSIONS", "DISABLE_PASSWORD_RESETS", "CONFIGURE_PASSWORD_RESET",
    "IIS_WEB_CONFIG_RESET", "IIS_APP_POOL_RESTART", "IIS_APP_POOL_RESET", "SERVICES_RESTART", "SERVICES_RESET",
    "SCHEDULED_TASK_RESET",
)}

# option -> (key in the resource detail, key in the create input, key in the edit input)
FIELDS = {
    "type": ("RESOURCE TYPE", "RESOURCETYPE", "RESOURCETYPE"),
    "description": ("RESOURCE DESCRIPTION", None, "RESOURCEDESCRIPTION"),
    "resource_url": ("RESOURCE URL", "RESOURCEURL", "RESOURCEURL"),
    "department": ("DEPARTMENT", None, "DEPARTMENT"),
    "location": ("LOCATION", None, "LOCATION"),
    "password_policy": ("PASSWORD POLICY", "RESOURCEPASSWORDPOLICY", "RESOURCEPASSWORDPOLICY"),
}


def custom_field_strings(fields, what):
    """``fields`` (label to value, as the task gives them) as the vault stores them: strings.

    Strings are kept and numbers written as YAML wrote them (``8080`` is ``"8080"``);
    ``null``, booleans, lists and mappings are refused, since no string the vault
    could store reads back as them. Labels are refused when empty or space-padded:
    the vault stores a label trimmed.
    """
    if fields is None:
        return None
    strings = {}
    for label, value in fields.items():
        label = clean_text(str(label) if isinstance(label, (int, float)) else label, "%s label" % what)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            kind = "null" if value is None else type(value).__name__
            raise VaultInputError("%s: the value of %s is %s; a custom field value must be a string or a number "
                                  "(quote it, e.g. \"true\")" % (what, label, kind))
        strings[label] = value if isinstance(value, str) else str(value)
    return strings


def custom_field_input(fields):
    """``{label: value}`` as the vault's input list of ``{CUSTOMLABEL, CUSTOMVALUE}``."""
    return [{"CUSTOMLABEL": label, "CUSTOMVALUE": value} for label, value in sorted(fields.items())]


def custom_field_values(detail):
    """The ``CUSTOM FIELD`` output list as ``{CUSTOMFIELDLABEL: CUSTOMFIELDVALUE}``."""
    fields = detail.get("CUSTOM FIELD") if isinstance(detail, dict) else None
    return {item.get("CUSTOMFIELDLABEL"): item.get("CUSTOMFIELDVALUE")
            for item in fields or [] if isinstance(item, dict) and item.get("CUSTOMFIELDLABEL")}


def mask_secret_fields(detail):
    """A copy of a resource or account detail whose ``Password``-typed custom field values are hidden.

    ``CUSTOMFIELDTYPE`` may be ``Password``; such values never go into a module's result or diff.
    """
    if not isinstance(detail, dict) or not isinstance(detail.get("CUSTOM FIELD"), list):
        return detail
    fields = [dict(item, CUSTOMFIELDVALUE=HIDDEN) if _is_secret_field(item) else item
              for item in detail["CUSTOM FIELD"]]
    return dict(detail, **{"CUSTOM FIELD": fields})


def track_custom_fields(tracker, current, desired_fields):
    """Record custom fields in ``tracker`` (``Password``-typed values hidden); return those to send, label to value.

    Labels not in ``desired_fields`` are left as they are: the API has no way to remove one.
    """
    values = custom_field_values(current)
    changed = {label: value for label, value in (desired_fields or {}).items() if values.get(label) != value}
    tracker.record("custom_fields", _masked_values(current, values),
                   _masked_values(current, dict(values, **changed)), bool(changed))
    return changed


def _masked_values(detail, values):
    """``values`` ({label: value}) with the labels of ``Password``-typed fields hidden."""
    secret = {item.get("CUSTOMFIELDLABEL") for item in (detail or {}).get("CUSTOM FIELD") or []
              if _is_secret_field(item)}
    return {label: HIDDEN if label in secret else value for label, value in values.items()}


def _is_secret_field(item):
    return isinstance(item, dict) and str(item.get("CUSTOMFIELDTYPE", "")).lower() == "password"


def check_custom_fields(fields, what):
    if fields and len(fields) > MAX_CUSTOM_FIELDS:
        raise VaultInputError("%s: at most %d custom fields are allowed, %d given"
                              % (what, MAX_CUSTOM_FIELDS, len(fields)))


def check_file(desired):
    """A ``file`` needs a file type and a readable regular file; refused before any request."""
    path = desired.get("file")
    if not path:
        return
    kind = desired.get("type")
    if kind is not None and kind.lower() not in FILE_TYPES:
        raise VaultInputError("resource %s: a file can only be uploaded with type File Store or License Store, "
                              "not %s" % (desired["name"], kind))
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise VaultInputError("resource %s: file %s is not a readable file" % (desired["name"], path))


def first_account_flags(desired):
    """The account booleans given for the first account, as account input (key to bool)."""
    account = desired.get("first_account") or {}
    return {key: account[option] for option, key in ACCOUNT_FLAGS.items() if account.get(option) is not None}


def check_fields_supported(client, key, details):
    """Refuse input fields the configured edition and build lack, as the client would, but before anything is sent.

    Without edition and build the vault's own answer decides (an older vault ignores fields it does not know).
    """
    if not details or client.edition is None or client.build is None:
        return
    edition, build = client.edition, client.build
    endpoint = CATALOGUE[key]
    for name, gates in sorted(endpoint.field_gates().items()):
        if name in details and (edition not in gates or build < gates[edition]):
            raise VaultUnsupportedError("%s: field %s needs %s; the vault is edition %s build %d"
                                        % (endpoint.operation, name, describe_gates(gates), edition, build),
                                        operation=endpoint.operation)


def find_resource_id(client, name):
    """The id of the resource called ``name``, or None when this token sees no such resource.

    ``GET_RESOURCEID`` answers a failed status for an unknown name, and the spec
    shows no error codes to tell that apart from other failures; so a failure is
    confirmed against the resource list before the resource is called absent.
    """
    try:
        found = client.call("get_resource_id", path={"resource_name": name}).details
    except VaultAPIError:
        found = None
    if isinstance(found, dict) and found.get("RESOURCEID"):
        return str(found["RESOURCEID"])
    for item in client.call("get_resources").details or []:
        if isinstance(item, dict) and item.get("RESOURCE NAME") == name:
            return str(item.get("RESOURCE ID"))
    return None


def read_resource(client, resource_id):
    """The resource detail (``GET RESOURCE ACCOUNTLIST`` Details), including its ``ACCOUNT LIST``."""
    details = client.call("get_account_list", path={"resource_id": resource_id}).details
    return details if isinstance(details, dict) else {}


def _type_change_refused(current, desired):
    if current is None or desired is None or current.lower() == desired.lower():
        return False
    return current.lower() in FIXED_TYPES or desired.lower() in FIXED_TYPES


def ensure_absent(client, name, check_mode):
    clean_text(name, "name")
    resource_id = find_resource_id(client, name)
    tracker = DifferenceTracker()
    tracker.record("state", "present" if resource_id else "absent", "absent", bool(resource_id))
    if resource_id and not check_mode:
        client.call("delete_resource", path={"resource_id": resource_id})
    return tracker, None


def check_input(desired):
    """Refuse, before any request, what the vault would trim, refuse or never read back; return ``desired``
    with its custom field values as strings."""
    for option in ("name", "type", "owner", "resource_group", "password_policy"):
        clean_text(desired.get(option), option)
    desired = dict(desired, custom_fields=custom_field_strings(desired.get("custom_fields"), "custom_fields"))
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
    return desired


def ensure_present(client, desired, check_mode):
    """Create the resource, or edit only what differs. ``desired`` holds the module's options.

    Returns the tracker and the resource as the vault describes it afterwards.
    A resource another run creates between our read and our CREATE RESOURCE
    (parallel forks) is converged like one that existed.
    """
    desired = check_input(desired)
    check_fields_supported(client, "edit_account", first_account_flags(desired))
    resource_id = find_resource_id(client, desired["name"])
    if resource_id is None:
        try:
            return _create(client, desired, check_mode)
        except _CreatedMeanwhile as meanwhile:
            resource_id = meanwhile.resource_id
    return _converge(client, desired, resource_id, check_mode)


def _converge(client, desired, resource_id, check_mode):
    current = read_resource(client, resource_id)
    tracker = DifferenceTracker()
    tracker.record("state", "present", "present", False)
    edit = {}
    if _type_change_refused(current.get("RESOURCE TYPE"), desired.get("type")):
        raise VaultInputError("resource %s: the type cannot change from %s to %s (the vault refuses changes "
                              "from or to key store, license store, Rackspace or AWS IAM)"
                              % (desired["name"], current.get("RESOURCE TYPE"), desired["type"]))
    for option, (output_key, _create_key, edit_key) in FIELDS.items():
        if tracker.compare(option, current.get(output_key), desired.get(option)):
            edit[edit_key] = desired[option]
    changed_fields = track_custom_fields(tracker, current, desired.get("custom_fields"))
    if changed_fields:
        edit["RESOURCECUSTOMFIELD"] = custom_field_input(changed_fields)
    _warn_creation_only(client, tracker, desired, current)
    if edit and not check_mode:
        client.call("edit_resource", path={"resource_id": resource_id}, details=edit)
        current = read_resource(client, resource_id)
    return tracker, current


def _warn_creation_only(client, tracker, desired, current):
    """Warn about the creation-only options of an existing resource that differ or cannot be compared.

    ``resource_group`` is compared with ``GET ASSOCIATED GROUPS`` (A 12000 / B 5400) when the
    vault has it; of ``first_account`` only the account's presence can be compared.
    """
    name = desired["name"]
    group = desired.get("resource_group")
    if group:
        groups = associated_group_names(client, current.get("RESOURCE ID"))
        if groups is None:
            tracker.warn("resource %s exists: resource_group is applied only when a resource is created, and this "
                         "vault cannot list a resource's groups, so membership of %s was not compared; manage it "
                         "with credvault.vault.vault_resource_group" % (name, group))
        elif group not in groups:
            tracker.warn("resource %s exists and is not in resource group %s: resource_group is applied only when a "
                         "resource is created; add it with credvault.vault.vault_resource_group" % (name, group))
    account = desired.get("first_account")
    if account:
        names = [item.get("ACCOUNT NAME") for item in current.get("ACCOUNT LIST") or [] if isinstance(item, dict)]
        settings = sorted("first_account.%s" % option for option, value in account.items()
                          if option not in ("name", "password") and value not in (None, {}))
        if account["name"] not in names:
            tracker.warn("resource %s exists and has no account %s: first_account is applied only when a resource "
                         "is created; add the account with credvault.vault.vault_account" % (name, account["name"]))
        elif settings:
            tracker.warn("resource %s exists: %s not compared or applied (first_account is applied only when a "
                         "resource is created); manage the account with credvault.vault.vault_account"
                         % (name, ", ".join(settings) + (" was" if len(settings) == 1 else " were")))


def associated_group_names(client, resource_id):
    """Names of the groups of a resource (``ASSOCIATED GROUPS``), or None when the vault lacks the call."""
    try:
        details = client.call("get_associated_groups", path={"resource_id": resource_id}).details
    except VaultUnsupportedError:
        return None
    except VaultError as exc:
        if exc.http_status == 404:
            return None
        raise
    groups = details.get("ASSOCIATED GROUPS") if isinstance(details, dict) else None
    return {str(item.get("GROUP NAME")) for item in groups or [] if isinstance(item, dict)}


class _CreatedMeanwhile(Exception):
    """CREATE RESOURCE was refused because another run created the resource meanwhile."""

    def __init__(self, resource_id):
        super().__init__(resource_id)
        self.resource_id = resource_id


def _create(client, desired, check_mode):
    account = desired.get("first_account")
    if not account:
        raise VaultInputError("resource %s does not exist: first_account (name and password) is required to create "
                              "it, the vault creates a resource together with its first account" % desired["name"])
    if not desired.get("type"):
        raise VaultInputError("resource %s does not exist: type is required to create it" % desired["name"])
    tracker = DifferenceTracker()
    tracker.record("state", "absent", "present", True)
    create = {"RESOURCENAME": desired["name"], "ACCOUNTNAME": account["name"], "PASSWORD": account["password"]}
    edit = {}
    for option, (_output_key, create_key, edit_key) in FIELDS.items():
        value = desired.get(option)
        tracker.compare(option, None, value)
        if value is not None:
            (create if create_key else edit)[create_key or edit_key] = value
    optional = (("owner", "OWNERNAME"), ("resource_group", "RESOURCEGROUPNAME"))
    for option, key in optional:
        if desired.get(option):
            tracker.compare(option, None, desired[option])
            create[key] = desired[option]
    if desired.get("custom_fields"):
        tracker.compare("custom_fields", None, desired["custom_fields"])
        create["RESOURCECUSTOMFIELD"] = custom_field_input(desired["custom_fields"])
    for option, key in (("password_policy", "ACCOUNTPASSWORDPOLICY"), ("notes", "NOTES")):
        if account.get(option) is not None:
            create[key] = account[option]
    if account.get("custom_fields"):
        create["ACCOUNTCUSTOMFIELD"] = custom_field_input(account["custom_fields"])
    flags = first_account_flags(desired)
    if flags:
        tracker.compare("first_account_settings", None, flags)
    if desired.get("file"):
        tracker.compare("file", None, os.path.basename(desired["file"]))
    if check_mode:
        return tracker, None
    upload = _upload(desired.get("file"))
    try:
        client.call("create_resource", details=create, files=upload)
    except VaultAPIError:
        resource_id = find_resource_id(client, desired["name"])
        if resource_id is None:
            raise
        raise _CreatedMeanwhile(resource_id) from None
    try:
        return tracker, _complete_creation(client, desired, edit, flags)
    except VaultError as exc:
        raise type(exc)("resource %s was created, but not completed: %s" % (desired["name"], exc),
                        operation=exc.operation, http_status=exc.http_status,
                        vault_message=exc.vault_message) from None


def _complete_creation(client, desired, edit, flags):
    """After CREATE RESOURCE: the edit of what the create input cannot carry, and the first account's booleans."""
    resource_id = find_resource_id(client, desired["name"])
    if resource_id is None:
        raise VaultAPIError("CREATE RESOURCE reported success but the resource cannot be found",
                            operation="CREATE RESOURCE")
    if edit:
        # The create input has no field for description, department or location
        # ("its field name is not shown"), so they are set by EDIT RESOURCE.
        client.call("edit_resource", path={"resource_id": resource_id}, details=edit)
    created = read_resource(client, resource_id)
    if flags:
        # The vault does not report the booleans back, so the read above stays true after this edit.
        account_id = _account_id(created, desired["first_account"]["name"])
        client.call("edit_account", path={"resource_id": resource_id, "account_id": account_id}, details=flags)
    return created


def _upload(path):
    """``{file name: content}`` for the multipart part ``file`` of CREATE RESOURCE, or None."""
    if not path:
        return None
    try:
        with open(path, "rb") as handle:
            return {os.path.basename(path): handle.read()}
    except OSError as exc:
        raise VaultInputError("file %s cannot be read: %s" % (path, exc.strerror)) from None


def _account_id(detail, name):
    for item in detail.get("ACCOUNT LIST") or []:
        if isinstance(item, dict) and item.get("ACCOUNT NAME") == name:
            return str(item.get("ACCOUNT ID"))
    raise VaultAPIError("CREATE RESOURCE reported success but its account %s cannot be found" % name,
                        operation="CREATE RESOURCE")
