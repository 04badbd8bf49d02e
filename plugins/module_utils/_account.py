# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Accounts: find by names, read, converge, and fetch their secrets."""

from __future__ import annotations

from ._checks import clean_text
from ._client import scrub
from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultError, VaultInputError, VaultNotFoundError, VaultUnsupportedError
from ._policy import describe, validate_password
from ._resource import (
    check_custom_fields,
    custom_field_input,
    custom_field_strings,
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
# Seconds a TOTP code is valid (TOTP_VALIDITY): at least one second, at most one day.
TOTP_VALIDITY_RANGE = (1, 86400)
NO_TOTP = "this vault has no TOTP (FETCH_CURRENT_TOTP and the TOTP_* account fields need edition A from build 12430)"


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
    """The current code; ``VaultUnsupportedError`` when the vault has no TOTP at all.

    An endpoint a vault lacks is refused by the client (edition and build set) or
    answered HTTP 404 (the simulator, like an unserved path); both mean "this vault
    has no TOTP", never "this account has none".
    """
    try:
        response = client.call("get_totp", path={"account_id": ref.account_id})
    except VaultUnsupportedError as exc:
        raise VaultUnsupportedError("%s: %s" % (NO_TOTP, exc), operation=exc.operation) from None
    except VaultError as exc:
        if exc.http_status == 404:
            raise VaultUnsupportedError("%s; the vault answered HTTP 404: %s" % (NO_TOTP, exc),
                                        operation=exc.operation, http_status=404,
                                        vault_message=exc.vault_message) from None
        raise
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


def check_input(desired):
    """Refuse, before any request, what the vault would trim or refuse; return ``desired`` with custom field
    values as strings. Check mode therefore never reports a change the real run would fail on."""
    for option in ("resource", "name", "password_policy"):
        clean_text(desired.get(option), option)
    if desired.get("password") == "":
        raise VaultInputError("password must not be empty (the vault requires PASSWORD)")
    fields = custom_field_strings(desired.get("custom_fields"), "custom_fields")
    check_custom_fields(fields, "custom_fields")
    validity = desired.get("totp_validity")
    low, high = TOTP_VALIDITY_RANGE
    if validity is not None and not low <= validity <= high:
        raise VaultInputError("totp_validity must be between %d and %d seconds, not %d" % (low, high, validity))
    if desired.get("totp_secret"):
        try:
            decode_secret(desired["totp_secret"])
        except ValueError as exc:
            raise VaultInputError(str(exc)) from None
    return dict(desired, custom_fields=fields)


def ensure_absent(client, resource, name, check_mode):
    """Delete the account; an account whose resource is gone is already absent."""
    clean_text(resource, "resource")
    clean_text(name, "name")
    tracker = DifferenceTracker()
    try:
        ref = find_account(client, resource, name)
    except VaultNotFoundError:
        tracker.record("state", "absent", "absent", False)
        return tracker, None
    tracker.record("state", "present" if ref.account_id else "absent", "absent", bool(ref.account_id))
    if ref.account_id and not check_mode:
        client.call("delete_account", path={"resource_id": ref.resource_id, "account_id": ref.account_id})
    return tracker, None


def ensure_present(client, desired, check_mode):
    """Create the account, or change only what differs. Returns the tracker and the account afterwards.

    In check mode a missing resource is one an earlier task would create: the
    account would be created in it. An account another run adds between our read
    and our ADD ACCOUNTS (parallel forks) is converged like one that existed.
    """
    desired = check_input(desired)
    try:
        ref = find_account(client, desired["resource"], desired["name"])
    except VaultNotFoundError:
        if not check_mode:
            raise
        return _create_in_missing_resource(desired)
    if ref.account_id is None:
        try:
            return _create(client, ref, desired, check_mode)
        except _AddedMeanwhile as meanwhile:
            ref = meanwhile.ref
    return _converge(client, ref, desired, check_mode)


def _converge(client, ref, desired, check_mode):
    current = read_account(client, ref)
    tracker = DifferenceTracker()
    tracker.record("state", "present", "present", False)
    edit = {}
    if tracker.compare("notes", current.get("DESCRIPTION"), desired.get("notes")):
        edit["NOTES"] = desired["notes"]
    changed_fields = track_custom_fields(tracker, current, desired.get("custom_fields"))
    if changed_fields:
        edit["ACCOUNTCUSTOMFIELD"] = custom_field_input(changed_fields)
    write_only = _write_only_input(desired)
    if desired.get("force_settings"):
        tracker.record("settings", None, sorted(write_only), bool(write_only))
        edit.update(write_only)
    elif write_only:
        options = sorted(option for option in WRITE_ONLY if desired.get(option) is not None)
        one = len(options) == 1
        tracker.warn("account %s exists: %s %s not compared or applied (the vault does not report %s back); set "
                     "force_settings: true to apply %s" % (ref.label, ", ".join(options), "was" if one else "were",
                                                           "it" if one else "them", "it" if one else "them"))
    if _totp_differs(client, ref, desired, tracker):
        edit.update(_totp_input(desired))
    if edit:
        edit["ACCOUNTNAME"] = ref.name  # "On edit, ACCOUNTNAME is sent together with" TOTP_SECRET
    new_password = _password_to_set(client, ref, desired, tracker)
    if not check_mode and (edit or new_password is not None):
        _write(client, ref, desired, edit, new_password)
        current = read_account(client, ref)
    return tracker, current


def _write(client, ref, desired, edit, new_password):
    """EDIT ACCOUNT and CHANGE PASSWORD, ordered so that the likelier refusal comes before any write.

    CHANGE PASSWORD (policy, reuse of old passwords) goes first. When the edit
    changes the policy, the password must satisfy the new one: it is checked
    with VALIDATE_PASSWORD before the edit, where the vault has that call.
    """
    reason, ticket_id = desired.get("reason"), desired.get("ticket_id")
    path = {"resource_id": ref.resource_id, "account_id": ref.account_id}
    if new_password is None:
        client.call("edit_account", path=path, details=edit)
        return
    if "ACCOUNTPASSWORDPOLICY" not in edit:
        change_password(client, ref, new_password, reason, ticket_id)
        if edit:
            _after_first_write(ref, "its password was changed", lambda: client.call(
                "edit_account", path=path, details=edit))
        return
    _require_valid_for_policy(client, ref, new_password, edit["ACCOUNTPASSWORDPOLICY"])
    client.call("edit_account", path=path, details=edit)
    _after_first_write(ref, "EDIT ACCOUNT was applied", lambda: change_password(
        client, ref, new_password, reason, ticket_id))


def _after_first_write(ref, done, step):
    """Run ``step``; if it fails, say plainly what was already written (the module reports changed)."""
    try:
        step()
    except VaultError as exc:
        raise type(exc)("account %s: %s, but then: %s" % (ref.label, done, exc), operation=exc.operation,
                        http_status=exc.http_status, vault_message=exc.vault_message) from None


def _require_valid_for_policy(client, ref, password, policy):
    """Refuse before any write a password the account's new policy would refuse; skipped where the vault
    has no VALIDATE_PASSWORD (A 12230 / B 6000)."""
    try:
        verdict = validate_password(client, password, name=policy)
    except VaultUnsupportedError:
        return
    except VaultError as exc:
        if exc.http_status == 404:
            return
        raise
    if not verdict.valid:
        raise VaultInputError("account %s: password does not satisfy %s, so nothing was changed: %s"
                              % (ref.label, describe(policy), scrub(verdict.message, [password])))


def _create_in_missing_resource(desired):
    """Check mode only: what creating the account in a resource an earlier task would create reports."""
    label = "%s/%s" % (desired["resource"], desired["name"])
    if desired.get("password") is None:
        raise VaultInputError("account %s does not exist: password is required to create it" % label)
    tracker = DifferenceTracker()
    tracker.record("state", "absent", "present", True)
    tracker.warn("resource %s does not exist: in check mode that means an earlier task would create it, so "
                 "account %s would be created in it" % (desired["resource"], label))
    return tracker, None


def _totp_differs(client, ref, desired, tracker):
    """Compare TOTP through the current code: the vault never returns the secret.

    A failed FETCH_CURRENT_TOTP in an HTTP 2xx answer means "this account has no
    TOTP"; a vault without TOTP (``VaultUnsupportedError``) and any other failure
    fail the task, since the TOTP fields could not be applied there either.
    """
    secret = desired.get("totp_secret")
    if secret is None:
        return False
    try:
        code = get_totp(client, ref)
    except VaultAPIError as exc:
        if exc.http_status is None or not 200 <= exc.http_status < 300:
            raise
        code = None
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


class _AddedMeanwhile(Exception):
    """ADD ACCOUNTS was refused because another run added the account meanwhile."""

    def __init__(self, ref):
        super().__init__(ref.label)
        self.ref = ref


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
    try:
        response = client.call("add_accounts", path={"resource_id": ref.resource_id},
                               details={"ACCOUNTLIST": [account]})
    except VaultAPIError as exc:
        raise _refusal_or_added_meanwhile(client, ref, exc, desired["password"]) from None
    created = find_account(client, ref.resource, ref.name)
    if created.account_id is None:
        status = scrub(_item_status(response.details, ref.name) or "no status given", [desired["password"]])
        raise VaultAPIError("ADD ACCOUNTS did not add %s: %s" % (ref.label, status), operation="ADD ACCOUNTS",
                            vault_message=status)
    return tracker, read_account(client, created)


def _refusal_or_added_meanwhile(client, ref, refusal, password):
    """The error to raise after a refused ADD ACCOUNTS: ``_AddedMeanwhile`` when the account exists now, else
    a ``VaultAPIError`` with the item's reason.

    ADD ACCOUNTS answers "a list of one object keyed by each ACCOUNTNAME, each
    with STATUS text"; that STATUS ("PASSWORD is required", "Account svc already
    exists") is what the user needs, rather than the call's own message.
    """
    found = find_account(client, ref.resource, ref.name)
    if found.account_id is not None:
        return _AddedMeanwhile(found)
    status = _item_status(refusal.details, ref.name)
    reason = scrub(status or refusal.vault_message or "no reason given", [password])
    return VaultAPIError("ADD ACCOUNTS refused account %s: %s" % (ref.label, reason), operation=refusal.operation,
                         http_status=refusal.http_status, vault_message=reason)


def _item_status(details, name):
    """The per-account ``STATUS`` text of ``ADD ACCOUNTS``, or None when the answer has none."""
    for item in details if isinstance(details, list) else [details]:
        if isinstance(item, dict) and isinstance(item.get(name), dict) and item[name].get("STATUS") is not None:
            return str(item[name]["STATUS"])
    return None
