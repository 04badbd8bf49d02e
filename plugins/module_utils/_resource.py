# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Resources: find by name, read, and converge to a desired state with the fewest requests."""

from __future__ import annotations

import os

from ._catalogue import CATALOGUE
from ._client import describe_gates
from ._diff import HIDDEN, DifferenceTracker
from ._errors import VaultAPIError, VaultInputError, VaultUnsupportedError

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
    resource_id = find_resource_id(client, name)
    tracker = DifferenceTracker()
    tracker.record("state", "present" if resource_id else "absent", "absent", bool(resource_id))
    if resource_id and not check_mode:
        client.call("delete_resource", path={"resource_id": resource_id})
    return tracker, None


def ensure_present(client, desired, check_mode):
    """Create the resource, or edit only what differs. ``desired`` holds the module's options.

    Returns the tracker and the resource as the vault describes it afterwards.
    """
    check_custom_fields(desired.get("custom_fields"), "custom_fields")
    check_file(desired)
    check_fields_supported(client, "edit_account", first_account_flags(desired))
    resource_id = find_resource_id(client, desired["name"])
    if resource_id is None:
        return _create(client, desired, check_mode)
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
    if edit and not check_mode:
        client.call("edit_resource", path={"resource_id": resource_id}, details=edit)
        current = read_resource(client, resource_id)
    return tracker, current


def _create(client, desired, check_mode):
    account = desired.get("first_account")
    if not account:
        raise VaultInputError("resource %s does not exist: first_account (name and password) is required to create "
                              "it, the vault creates a resource together with its first account" % desired["name"])
    if not desired.get("type"):
        raise VaultInputError("resource %s does not exist: type is required to create it" % desired["name"])
    check_custom_fields(account.get("custom_fields"), "first_account.custom_fields")
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
    client.call("create_resource", details=create, files=_upload(desired.get("file")))
    resource_id = find_resource_id(client, desired["name"])
    if resource_id is None:
        raise VaultAPIError("CREATE RESOURCE reported success but resource %s cannot be found" % desired["name"],
                            operation="CREATE RESOURCE")
    if edit:
        # The create input has no field for description, department or location
        # ("its field name is not shown"), so they are set by EDIT RESOURCE.
        client.call("edit_resource", path={"resource_id": resource_id}, details=edit)
    created = read_resource(client, resource_id)
    if flags:
        # The vault does not report the booleans back, so the read above stays true after this edit.
        client.call("edit_account", path={"resource_id": resource_id,
                                          "account_id": _account_id(created, account["name"])}, details=flags)
    return tracker, created


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
    raise VaultAPIError("CREATE RESOURCE reported success but the account %s of resource %s cannot be found"
                        % (name, detail.get("RESOURCE NAME")), operation="CREATE RESOURCE")
