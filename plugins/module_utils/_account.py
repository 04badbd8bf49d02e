# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Accounts: find by names, read, converge, and fetch their secrets.

Entry points: ``converge(task)`` of ``vault_account``, ``describe(task)`` of ``vault_account_info``."""

from __future__ import annotations

from ._api import accounts as accounts_api
from ._api.accounts import AccountWithoutTotp
from ._checks import clean_text
from ._converge import CreatedMeanwhile, Field, VaultObject
from ._custom_fields import (
    check_custom_fields,
    custom_field_input,
    custom_field_strings,
    mask_secret_fields,
    track_custom_fields,
)
from ._errors import (
    VaultAPIError,
    VaultError,
    VaultInputError,
    VaultNotAppliedError,
    VaultNotFoundError,
    VaultUnsupportedError,
    not_found,
)
from ._policy import policy_label, validate_password
from ._redaction import scrub
from ._resource import ACCOUNT_FLAGS, find_resource_id, read_resource, unapplied_custom_fields
from ._totp import decode_secret, matches

# The account detail holds only DESCRIPTION, LAST ACCESSED TIME, LAST MODIFIED TIME, PASSWORD STATUS, PASSWDID and
# CUSTOM FIELD: the policy, the booleans (A 12230 / B 6000) and the group ids are write-only. The password is
# compared through GET PASSWORD and TOTP through FETCH_CURRENT_TOTP, outside this table.
FIELDS = (
    Field("notes", read="DESCRIPTION", create="NOTES", edit="NOTES"),
    Field("password_policy", create="ACCOUNTPASSWORDPOLICY", edit="ACCOUNTPASSWORDPOLICY"),
    Field("resource_group_ids", create="ACCOUNT_RESOURCE_GROUP_IDS", edit="ACCOUNT_RESOURCE_GROUP_IDS"),
) + tuple(Field(option, create=key, edit=key) for option, key in ACCOUNT_FLAGS.items())
TOTP_DEFAULTS = {"totp_algorithm": "SHA1", "totp_digits": 6, "totp_validity": 30}
# Seconds a TOTP code is valid (TOTP_VALIDITY): at least one second, at most one day.
TOTP_VALIDITY_RANGE = (1, 86400)


class AccountRef:
    """Ids of an account found by names; ``account_id`` is None when the resource has no such account.

    ``vault_message`` keeps what the vault said when ``GET_RESOURCEACCOUNTID`` failed.
    """

    def __init__(self, resource, name, resource_id, account_id, vault_message=None):
        self.resource = resource
        self.name = name
        self.resource_id = resource_id
        self.account_id = account_id
        self.vault_message = vault_message

    @property
    def label(self):
        return "%s/%s" % (self.resource, self.name)


def find_account(client, resource, name):
    """Resolve names to ids with one ``GET_RESOURCEACCOUNTID``; on failure, tell a missing resource from a missing account.

    Raises ``VaultNotFoundError`` when the resource itself does not exist. "Failure is reported in
    ``result.message``": the vault's own words are kept in the error, and in the ref of a missing account.
    A refusal of this token (``is_refusal``) is raised as it is, never taken for a missing name.
    """
    try:
        resource_id, account_id = accounts_api.get_resource_account_ids(client, resource, name)
    except VaultNotFoundError as exc:
        vault_message = exc.vault_message
    else:
        return AccountRef(resource, name, resource_id, account_id)
    resource_id = find_resource_id(client, resource)
    if resource_id is None:
        missing = not_found("resource", resource, _vault_said(vault_message))
        missing.vault_message = vault_message
        raise missing
    for item in read_resource(client, resource_id).get("ACCOUNT LIST") or []:
        if isinstance(item, dict) and item.get("ACCOUNT NAME") == name:
            return AccountRef(resource, name, resource_id, str(item.get("ACCOUNT ID")))
    return AccountRef(resource, name, resource_id, None, vault_message)


def require_account(client, resource, name):
    ref = find_account(client, resource, name)
    if ref.account_id is None:
        raise VaultNotFoundError(
            "resource %s has no account %s (or it is not visible to this token)%s"
            % (resource, name, _vault_said(ref.vault_message)),
            vault_message=ref.vault_message,
        )
    return ref


def _vault_said(vault_message):
    """What a not-found message adds of the vault's own words, when it gave some."""
    return "; the vault said: %s" % vault_message if vault_message else ""


def read_account(client, ref):
    """The account detail as the vault gives it, plus the ids and name it was found by."""
    account = accounts_api.get_account_details(client, ref.resource_id, ref.account_id)
    account.update({"RESOURCE ID": ref.resource_id, "ACCOUNT ID": ref.account_id, "ACCOUNT NAME": ref.name})
    return account


def describe(task):
    """Entry point of ``vault_account_info``: with ``name``, the account (``account_info``); without it, the
    accounts of ``resource`` (``list_accounts``, with ``include_details``)."""
    desired = task.desired
    if desired.get("name") is None:
        return list_accounts(task.client, desired["resource"], desired.get("include_details"))
    return account_info(task.client, desired["resource"], desired["name"])


def account_info(client, resource, name):
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
    items = [item for item in read_resource(client, resource_id).get("ACCOUNT LIST") or [] if isinstance(item, dict)]
    if not details:
        return {"resource_exists": True, "accounts": items}
    refs = [AccountRef(resource, item.get("ACCOUNT NAME"), resource_id, str(item.get("ACCOUNT ID"))) for item in items]
    return {"resource_exists": True, "accounts": [mask_secret_fields(read_account(client, ref)) for ref in refs]}


def _authorization(reason, ticket_id):
    details = {}
    if reason:
        details["REASON"] = reason
    if ticket_id:
        details["TICKETID"] = ticket_id
    return details


def get_password(client, ref, reason=None, ticket_id=None):
    """The account's password (``GET PASSWORD``), asked with ``reason`` and ``ticket_id`` when given."""
    details = _authorization(reason, ticket_id)
    return accounts_api.get_password(client, ref.resource_id, ref.account_id, ref.label, details or None)


def get_totp(client, ref):
    """The current code; ``VaultUnsupportedError`` when the vault has no TOTP at all, ``AccountWithoutTotp`` when
    the account has none (``accounts_api.get_totp``)."""
    return accounts_api.get_totp(client, ref.account_id, ref.label)


def change_password(client, ref, new_password, reason=None, ticket_id=None, reset_type="LOCAL"):
    details = {"NEWPASSWORD": new_password, "RESETTYPE": reset_type}
    details.update(_authorization(reason, ticket_id))
    accounts_api.change_password(client, ref.resource_id, ref.account_id, details)


def _totp_input(desired):
    """The TOTP_* input for ``desired``; an empty secret removes the TOTP (the other fields are then omitted)."""
    if desired.get("totp_secret") is None:
        return {}
    if desired["totp_secret"] == "":
        return {"TOTP_SECRET": ""}
    fields = {"TOTP_SECRET": desired["totp_secret"]}
    for option, key in (
        ("totp_algorithm", "TOTP_ALGORITHM"),
        ("totp_digits", "TOTP_DIGITS"),
        ("totp_validity", "TOTP_VALIDITY"),
    ):
        if desired.get(option) is not None:
            fields[key] = str(desired[option])
    return fields


class Account(VaultObject):
    """An account, found by resource and account name; its handle is an ``AccountRef``, also for a missing account
    (``account_id`` None), whose ``resource_id`` is where ``create`` adds it.

    ``find`` raises ``VaultNotFoundError`` when the resource is missing: with
    ``state: absent`` the account is then absent too, and in check mode it would be
    created in a resource an earlier task would create.
    """

    KIND = "account"
    FIELDS = FIELDS

    @property
    def label(self):
        return "account %s/%s" % (self.desired["resource"], self.desired["name"])

    @property
    def lock_identity(self):
        return (self.desired["resource"], self.desired["name"])

    def check_names(self):
        clean_text(self.desired.get("resource"), "resource")
        clean_text(self.desired.get("name"), "name")

    def check_input(self):
        """Refuse what the vault would trim or refuse; check mode therefore never reports a change the real run
        would fail on."""
        desired = self.desired
        clean_text(desired.get("password_policy"), "password_policy")
        if desired.get("password") == "":
            raise VaultInputError("password must not be empty (the vault requires PASSWORD)")
        desired["custom_fields"] = custom_field_strings(desired.get("custom_fields"), "custom_fields")
        check_custom_fields(desired["custom_fields"], "custom_fields")
        validity = desired.get("totp_validity")
        low, high = TOTP_VALIDITY_RANGE
        if validity is not None and not low <= validity <= high:
            raise VaultInputError("totp_validity must be between %d and %d seconds, not %d" % (low, high, validity))
        if desired.get("totp_secret"):
            try:
                decode_secret(desired["totp_secret"])
            except ValueError as exc:
                raise VaultInputError(str(exc)) from None

    def check_create_input(self):
        if self.desired.get("password") is None:
            raise VaultInputError("%s does not exist: password is required to create it" % self.label)

    def find(self):
        return find_account(self.client, self.desired["resource"], self.desired["name"])

    def exists(self, handle):
        return handle is not None and handle.account_id is not None

    def read(self, handle):
        return read_account(self.client, handle)

    def needs_detail(self):
        """True when an option compared with the account detail (notes, custom fields) is given."""
        desired = self.desired
        readable = any(desired.get(field.option) is not None for field in FIELDS if not field.write_only)
        return readable or bool(desired.get("custom_fields"))

    def plan(self, handle, current):
        """Edit input and new password for ``handle``; ``current`` None means the detail was not read (see
        ``needs_detail``), so only the password, TOTP and write-only settings are compared."""
        desired, tracker = self.desired, self.tracker
        edit = {}
        if current is not None:
            edit = self.field_changes(tracker, current)
            changed_fields = track_custom_fields(tracker, current, desired.get("custom_fields"))
            if changed_fields:
                edit["ACCOUNTCUSTOMFIELD"] = custom_field_input(changed_fields)
        write_only = self.write_only_input()
        if desired.get("force_settings"):
            tracker.record("settings", None, sorted(write_only), bool(write_only))
            edit.update(write_only)
        elif write_only:
            options = sorted(
                field.option for field in FIELDS if field.write_only and desired.get(field.option) is not None
            )
            one = len(options) == 1
            tracker.warn(
                "%s exists: %s %s not compared or applied (the vault does not report %s back); set "
                "force_settings: true to apply %s"
                % (
                    self.label,
                    ", ".join(options),
                    "was" if one else "were",
                    "it" if one else "them",
                    "it" if one else "them",
                )
            )
        if _totp_differs(self.client, handle, desired, tracker):
            edit.update(_totp_input(desired))
        if edit:
            edit["ACCOUNTNAME"] = handle.name  # "On edit, ACCOUNTNAME is sent together with" TOTP_SECRET
        new_password = _password_to_set(self.client, handle, desired, tracker)
        if not edit and new_password is None:
            return None
        return {"edit": edit, "password": new_password}

    def write(self, handle, changes):
        _write(self.client, handle, self.desired, changes["edit"], changes["password"])

    def delete(self, handle):
        try:
            accounts_api.delete_account(self.client, handle.resource_id, handle.account_id)
        except VaultAPIError as exc:
            return self.deleted_meanwhile(exc)
        return True

    def creation_item(self, tracker):
        """The account's item of ``ADD ACCOUNTS`` Details.ACCOUNTLIST, its settings recorded in ``tracker``; refused
        when the task lacks what the creation needs."""
        self.check_create_input()
        desired = self.desired
        tracker.record("password", None, None, True, secret=True)
        account, dummy_edit = self.creation_input(tracker)
        account.update({"ACCOUNTNAME": desired["name"], "PASSWORD": desired["password"]})
        if desired.get("custom_fields"):
            tracker.compare("custom_fields", None, desired["custom_fields"])
            account["ACCOUNTCUSTOMFIELD"] = custom_field_input(desired["custom_fields"])
        if desired.get("totp_secret"):
            tracker.record("totp", None, None, True, secret=True)
            account.update(_totp_input(desired))
        return account

    def create(self, handle, tracker):
        account = self.creation_item(tracker)
        if self.check_mode:
            return None
        password = self.desired["password"]
        try:
            statuses = accounts_api.add_accounts(self.client, handle.resource_id, [account])
        except VaultAPIError as exc:
            raise _refusal_or_added_meanwhile(self.client, handle, exc, password) from None
        created = find_account(self.client, handle.resource, handle.name)
        if not self.exists(created):
            status = scrub(item_status(statuses, handle.name) or "no status given", [password])
            raise VaultAPIError(
                "ADD ACCOUNTS did not add %s: %s" % (handle.label, status),
                operation="ADD ACCOUNTS",
                vault_message=status,
            )
        detail = read_account(self.client, created)
        not_applied = self.not_applied(created, detail)
        if not_applied:
            raise VaultNotAppliedError(
                "%s was created, but the vault did not apply %s" % (self.label, "; ".join(not_applied)),
                operation="ADD ACCOUNTS",
            )
        return detail

    def not_applied(self, ref, detail):
        """What the vault dropped of the task's settings when it added the account, found by reading back: notes
        and custom fields in ``detail`` (the account detail; None when it was not read) and the TOTP through
        FETCH_CURRENT_TOTP. The password policy, the booleans and the group ids are write-only: never reported,
        they cannot be checked. Option names and reasons only, never a value."""
        desired, found = self.desired, []
        if detail is not None:
            found.extend(self.unapplied(detail))
            if unapplied_custom_fields(detail, desired.get("custom_fields")):
                found.append("custom_fields")
        if desired.get("totp_secret"):
            try:
                differs = _totp_state_differs(self.client, ref, desired)
            except VaultUnsupportedError as exc:
                found.append("totp_secret (%s)" % exc)
            else:
                if differs:
                    found.append("totp_secret (FETCH_CURRENT_TOTP shows no TOTP, or another one, for the new account)")
        return found


def converge(task):
    """Entry point of ``vault_account``: the account ``task.desired`` describes, converged to its ``state``;
    returns ``{"account"}``, its detail after the run with secret custom fields masked ({} when absent)."""
    return {"account": mask_secret_fields(Account(task).ensure() or {})}


def _write(client, ref, desired, edit, new_password):
    """EDIT ACCOUNT and CHANGE PASSWORD, ordered so that the likelier refusal comes before any write.

    CHANGE PASSWORD (policy, reuse of old passwords) goes first. When the edit
    changes the policy, the password must satisfy the new one: it is checked
    with VALIDATE_PASSWORD before the edit, where the vault has that call.
    """
    reason, ticket_id = desired.get("reason"), desired.get("ticket_id")

    def send_edit():
        accounts_api.edit_account(client, ref.resource_id, ref.account_id, edit)

    if new_password is None:
        send_edit()
        return
    if "ACCOUNTPASSWORDPOLICY" not in edit:
        change_password(client, ref, new_password, reason, ticket_id)
        if edit:
            _after_first_write(ref, "its password was changed", send_edit)
        return
    _require_valid_for_policy(client, ref, new_password, edit["ACCOUNTPASSWORDPOLICY"])
    send_edit()
    _after_first_write(
        ref, "EDIT ACCOUNT was applied", lambda: change_password(client, ref, new_password, reason, ticket_id)
    )


def _after_first_write(ref, done, step):
    """Run ``step``; if it fails, say plainly what was already written (the module reports changed)."""
    try:
        step()
    except VaultError as exc:
        raise exc.restated("account %s: %s, but then: %s" % (ref.label, done, exc)) from None


def _require_valid_for_policy(client, ref, password, policy):
    """Refuse before any write a password the account's new policy would refuse; skipped where the vault
    has no VALIDATE_PASSWORD (A 12230 / B 6000)."""
    try:
        verdict = validate_password(client, password, name=policy)
    except VaultUnsupportedError:
        return
    if not verdict.valid:
        raise VaultInputError(
            "account %s: password does not satisfy %s (VALIDATE_PASSWORD), so nothing was changed: %s"
            % (ref.label, policy_label(policy), scrub(verdict.message, [password]))
        )


def _totp_differs(client, ref, desired, tracker):
    """Compare TOTP through the current code: the vault never returns the secret.

    A failed FETCH_CURRENT_TOTP in an HTTP 2xx answer means "this account has no
    TOTP"; a vault without TOTP (``VaultUnsupportedError``) and any other failure
    fail the task, since the TOTP fields could not be applied there either.
    """
    if desired.get("totp_secret") is None:
        return False
    differs = _totp_state_differs(client, ref, desired)
    tracker.record("totp", None, None, differs, secret=True)
    return differs


def _totp_state_differs(client, ref, desired):
    """True when the account's TOTP (its current code) is not the one ``desired`` sets (no TOTP for an empty
    secret); ``VaultUnsupportedError`` when the vault has no TOTP."""
    secret = desired["totp_secret"]
    try:
        code = get_totp(client, ref)
    except AccountWithoutTotp:
        code = None
    if secret == "":
        differs = code is not None
    else:
        options = dict(TOTP_DEFAULTS, **{k: desired[k] for k in TOTP_DEFAULTS if desired.get(k) is not None})
        differs = (
            code is None
            or len(code) != int(options["totp_digits"])
            or not matches(
                code, secret, options["totp_algorithm"], int(options["totp_digits"]), int(options["totp_validity"])
            )
        )
    return differs


def _password_to_set(client, ref, desired, tracker):
    password = desired.get("password")
    if password is None or desired.get("update_password") != "always":
        return None
    differs = get_password(client, ref, desired.get("reason"), desired.get("ticket_id")) != password
    tracker.record("password", None, None, differs, secret=True)
    return password if differs else None


def _refusal_or_added_meanwhile(client, ref, refusal, password):
    """The error to raise after a refused ADD ACCOUNTS: ``CreatedMeanwhile`` when the account exists now, else
    a ``VaultAPIError`` with the item's reason.

    ADD ACCOUNTS answers "a list of one object keyed by each ACCOUNTNAME, each
    with STATUS text"; that STATUS ("PASSWORD is required", "Account svc already
    exists") is what the user needs, rather than the call's own message.
    """
    found = find_account(client, ref.resource, ref.name)
    if found.account_id is not None:
        return CreatedMeanwhile(found)
    status = item_status(refusal.details, ref.name)
    reason = scrub(status or refusal.vault_message or "no reason given", [password])
    return VaultAPIError(
        "ADD ACCOUNTS refused account %s: %s" % (ref.label, reason),
        operation=refusal.operation,
        http_status=refusal.http_status,
        vault_message=reason,
    )


def item_status(details, name):
    """The per-account ``STATUS`` text of ``ADD ACCOUNTS``, or None when the answer has none."""
    for item in details if isinstance(details, list) else [details]:
        if isinstance(item, dict) and isinstance(item.get(name), dict) and item[name].get("STATUS") is not None:
            return str(item[name]["STATUS"])
    return None
