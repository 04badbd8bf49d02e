# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Accounts: find by names, read, converge, and fetch their secrets."""

from __future__ import annotations

from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError
from ._resource import (
    check_custom_fields,
    custom_field_input,
    find_resource_id,
    read_resource,
    track_custom_fields,
)
from ._totp import decode_secret, matches

# option -> account input key. The vault does not report these back: the account
# detail holds only DESCRIPTION, LAST ACCESSED TIME, LAST MODIFIED TIME,
# PASSWORD STATUS, PASSWDID and CUSTOM FIELD.
WRITE_ONLY = {
    "password_policy": "ACCOUNTPASSWORDPOLICY",
    "record_rdp_sessions": "RECORD_RDP_SESSIONS",
    "record_cli_sessions": "RECORD_CLI_SESSIONS",
    "disable_password_resets": "DISABLE_PASSWORD_RESETS",
    "configure_password_reset": "CONFIGURE_PASSWORD_RESET",
    "iis_web_config_reset": "IIS_WEB_CONFIG_RESET",
    "iis_app_pool_restart": "IIS_APP_POOL_RESTART",
    "iis_app_pool_reset": "IIS_APP_POOL_RESET",
    "services_restart": "SERVICES_RESTART",
    "services_reset": "SERVICES_RESET",
    "scheduled_task_reset": "SCHEDULED_TASK_RESET",
    "resource_group_ids": "ACCOUNT_RESOURCE_GROUP_IDS",
}
TOTP_DEFAULTS = {"totp_algorithm": "SHA1", "totp_digits": 6, "totp_validity": 30}


class AccountRef:
    """Ids of an account found by names; ``account_id`` is None when the resource has no such account."""

    def __init__(self, resource, name, resource_id, account_id):
        self.resource = resource
        self.name = name
        self.resource_id = resource_id
        self.account_id = account_id

    @property
    def label(self):
        return "%s/%s" % (self.resource, self.name)


def find_account(client, resource, name):
    """Resolve names to ids with one ``GET_RESOURCEACCOUNTID``; on failure, tell a missing resource from a missing account.

    Raises ``VaultNotFoundError`` when the resource itself does not exist.
    """
    try:
        ids = client.call("get_resource_account_ids", query={"RESOURCENAME": resource, "ACCOUNTNAME": name}).details
    except VaultAPIError:
        ids = None
    if isinstance(ids, dict) and ids.get("RESOURCEID") and ids.get("ACCOUNTID"):
        return AccountRef(resource, name, str(ids["RESOURCEID"]), str(ids["ACCOUNTID"]))
    resource_id = find_resource_id(client, resource)
    if resource_id is None:
        raise VaultNotFoundError("resource %s does not exist (or is not visible to this token)" % resource)
    for item in read_resource(client, resource_id).get("ACCOUNT LIST") or []:
        if isinstance(item, dict) and item.get("ACCOUNT NAME") == name:
            return AccountRef(resource, name, resource_id, str(item.get("ACCOUNT ID")))
    return AccountRef(resource, name, resource_id, None)


def require_account(client, resource, name):
    ref = find_account(client, resource, name)
    if ref.account_id is None:
        raise VaultNotFoundError("resource %s has no account %s (or it is not visible to this token)"
                                 % (resource, name))
    return ref


def read_account(client, ref):
    """The account detail as the vault gives it, plus the ids and name it was found by."""
    details = client.call("get_account_details",
                          path={"resource_id": ref.resource_id, "account_id": ref.account_id}).details
    account = dict(details) if isinstance(details, dict) else {}
    account.update({"RESOURCE ID": ref.resource_id, "ACCOUNT ID": ref.account_id, "ACCOUNT NAME": ref.name})
    return account


def _authorization(reason, ticket_id):
    details = {}
    if reason:
        details["REASON"] = reason
    if ticket_id:
        details["TICKETID"] = ticket_id
    return details


def get_password(client, ref, reason=None, ticket_id=None):
    details = _authorization(reason, ticket_id)
    response = client.call("get_password", path={"resource_id": ref.resource_id, "account_id": ref.account_id},
                           details=details or None)
    password = response.details.get("PASSWORD") if isinstance(response.details, dict) else None
    if password is None:
        raise VaultAPIError("GET PASSWORD for %s returned no PASSWORD" % ref.label, operation="GET PASSWORD")
    return str(password)


def get_totp(client, ref):
    response = client.call("get_totp", path={"account_id": ref.account_id})
    code = response.details.get("TOTP") if isinstance(response.details, dict) else None
    if code is None:
        raise VaultAPIError("FETCH_CURRENT_TOTP for %s returned no TOTP" % ref.label, operation="FETCH_CURRENT_TOTP")
    return str(code)


def change_password(client, ref, new_password, reason=None, ticket_id=None, reset_type="LOCAL"):
    details = {"NEWPASSWORD": new_password, "RESETTYPE": reset_type}
    details.update(_authorization(reason, ticket_id))
    client.call("change_password", path={"resource_id": ref.resource_id, "account_id": ref.account_id},
                details=details)


def _totp_input(desired):
    """The TOTP_* input for ``desired``; an empty secret removes the TOTP (the other fields are then omitted)."""
    if desired.get("totp_secret") is None:
        return {}
    if desired["totp_secret"] == "":
        return {"TOTP_SECRET": ""}
    fields = {"TOTP_SECRET": desired["totp_secret"]}
    for option, key in (("totp_algorithm", "TOTP_ALGORITHM"), ("totp_digits", "TOTP_DIGITS"),
                        ("totp_validity", "TOTP_VALIDITY")):
        if desired.get(option) is not None:
            fields[key] = str(desired[option])
    return fields


def _write_only_input(desired):
    return {key: desired[option] for option, key in WRITE_ONLY.items() if desired.get(option) is not None}


def validate(desired):
    check_custom_fields(desired.get("custom_fields"), "custom_fields")
    if desired.get("totp_secret"):
        decode_secret(desired["totp_secret"])


def ensure_absent(client, resource, name, check_mode):
    ref = find_account(client, resource, name)
    tracker = DifferenceTracker()
    tracker.record("state", "present" if ref.account_id else "absent", "absent", bool(ref.account_id))
    if ref.account_id and not check_mode:
        client.call("delete_account", path={"resource_id": ref.resource_id, "account_id": ref.account_id})
    return tracker, None


def ensure_present(client, desired, check_mode):
    """Create the account, or change only what differs. Returns the tracker and the account afterwards."""
    try:
        validate(desired)
    except ValueError as exc:
        raise VaultInputError(str(exc)) from None
    ref = find_account(client, desired["resource"], desired["name"])
    if ref.account_id is None:
        return _create(client, ref, desired, check_mode)
    current = read_account(client, ref)
    tracker = DifferenceTracker()
    tracker.record("state", "present", "present", False)
    edit = {}
    if tracker.compare("notes", current.get("DESCRIPTION"), desired.get("notes")):
        edit["NOTES"] = desired["notes"]
    changed_fields = track_custom_fields(tracker, current, desired.get("custom_fields"))
    if changed_fields:
        edit["ACCOUNTCUSTOMFIELD"] = custom_field_input(changed_fields)
    if desired.get("force_settings"):
        write_only = _write_only_input(desired)
        tracker.record("settings", None, sorted(write_only), bool(write_only))
        edit.update(write_only)
    if _totp_differs(client, ref, desired, tracker):
        edit.update(_totp_input(desired))
    if edit:
        edit["ACCOUNTNAME"] = ref.name  # "On edit, ACCOUNTNAME is sent together with" TOTP_SECRET
    new_password = _password_to_set(client, ref, desired, tracker)
    if not check_mode:
        if edit:
            client.call("edit_account", path={"resource_id": ref.resource_id, "account_id": ref.account_id},
                        details=edit)
        if new_password is not None:
            change_password(client, ref, new_password, desired.get("reason"), desired.get("ticket_id"))
        if edit or new_password is not None:
            current = read_account(client, ref)
    return tracker, current


def _totp_differs(client, ref, desired, tracker):
    """Compare TOTP through the current code: the vault never returns the secret."""
    secret = desired.get("totp_secret")
    if secret is None:
        return False
    try:
        code = get_totp(client, ref)
    except VaultAPIError:
        code = None  # FETCH_CURRENT_TOTP fails for an account without TOTP
    if secret == "":
        differs = code is not None
    else:
        options = dict(TOTP_DEFAULTS, **{k: desired[k] for k in TOTP_DEFAULTS if desired.get(k) is not None})
        differs = code is None or len(code) != int(options["totp_digits"]) or not matches(
            code, secret, options["totp_algorithm"], int(options["totp_digits"]), int(options["totp_validity"]))
    tracker.record("totp", None, None, differs, secret=True)
    return differs


def _password_to_set(client, ref, desired, tracker):
    password = desired.get("password")
    if password is None or desired.get("update_password") != "always":
        return None
    differs = get_password(client, ref, desired.get("reason"), desired.get("ticket_id")) != password
    tracker.record("password", None, None, differs, secret=True)
    return password if differs else None


def _create(client, ref, desired, check_mode):
    if desired.get("password") is None:
        raise VaultInputError("account %s does not exist: password is required to create it" % ref.label)
    tracker = DifferenceTracker()
    tracker.record("state", "absent", "present", True)
    tracker.record("password", None, None, True, secret=True)
    account = {"ACCOUNTNAME": desired["name"], "PASSWORD": desired["password"]}
    if desired.get("notes") is not None:
        tracker.compare("notes", None, desired["notes"])
        account["NOTES"] = desired["notes"]
    if desired.get("custom_fields"):
        tracker.compare("custom_fields", None, desired["custom_fields"])
        account["ACCOUNTCUSTOMFIELD"] = custom_field_input(desired["custom_fields"])
    account.update(_write_only_input(desired))
    if desired.get("totp_secret"):
        tracker.record("totp", None, None, True, secret=True)
        account.update(_totp_input(desired))
    if check_mode:
        return tracker, None
    response = client.call("add_accounts", path={"resource_id": ref.resource_id},
                           details={"ACCOUNTLIST": [account]})
    created = find_account(client, ref.resource, ref.name)
    if created.account_id is None:
        raise VaultAPIError("ADD ACCOUNTS did not add %s: %s" % (ref.label, _item_status(response.details, ref.name)),
                            operation="ADD ACCOUNTS")
    return tracker, read_account(client, created)


def _item_status(details, name):
    """The per-account ``STATUS`` text of ``ADD ACCOUNTS`` (a list of one object keyed by each ACCOUNTNAME)."""
    for item in details if isinstance(details, list) else [details]:
        if isinstance(item, dict) and isinstance(item.get(name), dict):
            return str(item[name].get("STATUS", "no status given"))
    return "no status given"
