"""Resources and accounts as the spec's output tables spell them.

The resource detail, its account list items and the account detail are the *wide* views of
``core.dialect``: the spec's keys plus the keys only real servers write (``core.dialect.REAL_*_KEYS``),
which the spec dialect leaves out again. Their values are the simulator's own where it has no such
setting (no autologon, command control or remote-app restriction), and follow its settings where it has
them (``--require-reason``, ``--require-ticket``, ``--access-control``, the password policy).
"""

import re

from vault_simulator.areas.resources.custom_fields import ACCOUNT_LEVEL, RESOURCE_LEVEL, custom_field_output
from vault_simulator.areas.resources.resource_types import RESOURCE_TYPES
from vault_simulator.core.dialect import NOT_AVAILABLE, PASSWORD_CHANGED
from vault_simulator.core.finders import accounts_of
from vault_simulator.core.password_policies import broken_policy_rules
from vault_simulator.core.records import USER
from vault_simulator.core.timefmt import vault_time

# "`*****` (hidden) normally. `[In Use]` when password access control is enabled and the
# password is in use." (Account list item, PASSWORD STATUS)
HIDDEN_PASSWORD = "*****"
IN_USE = "[In Use]"


def resource_list_item(store, resource, edition):
    """An item of GET RESOURCES; ``DNS NAME`` only in edition B."""
    item = {
        "RESOURCE ID": resource["id"],
        "RESOURCE NAME": resource["name"],
        "RESOURCE DESCRIPTION": resource["description"],
        "RESOURCE TYPE": resource["type"],
        "NOOFACCOUNTS": str(len(accounts_of(store, resource))),
    }
    if edition == "B":
        item["DNS NAME"] = resource["dns_name"]
    return item


def resource_detail(store, resource, config):
    """The Details of GET RESOURCE ACCOUNTLIST (wide: with the real servers' keys)."""
    owner = store.get(USER, resource["owner_id"])
    reason = _true_false(config.require_reason)
    return {
        "RESOURCE ID": resource["id"],
        "RESOURCE NAME": resource["name"],
        "RESOURCE DESCRIPTION": resource["description"],
        "RESOURCE TYPE": resource["type"],
        "DNS NAME": resource["dns_name"],
        "PASSWORD POLICY": resource["policy"],
        "DEPARTMENT": resource["department"],
        "LOCATION": resource["location"],
        "RESOURCE URL": resource["url"],
        "RESOURCE OWNER": owner["name"] if owner else "",
        "CUSTOM FIELD": custom_field_output(store, RESOURCE_LEVEL, resource["custom_fields"]),
        "ACCOUNT LIST": [account_list_item(account, resource, config) for account in accounts_of(store, resource)],
        "PASSWORDREQUEST_REASON_MANDATORY": reason,
        "IS_LOCAL_ACCOUNTS_AUTOLOGON_RESTRICTED": "false",
        "IS_SSH_RESTRICTED": "false",
        "NEWSSHTERMINAL": "false",
        "DOMAIN NAME": "",
        "ALLOWOPENURLINBROWSER": "true",
        "ISRDPRESTRICTED": _true_false(_autologons(resource) != _RDP),
    }


def account_list_item(account, resource, config):
    """An item of ACCOUNT LIST (wide: with the real servers' keys)."""
    reason, ticket = _true_false(config.require_reason), _true_false(config.require_ticket)
    return {
        "ACCOUNT ID": account["id"],
        "ACCOUNT NAME": account["name"],
        "PASSWDID": account["id"],
        "ISFAVPASS": "false",
        "PASSWORD STATUS": password_status(account),
        "ACCOUNT_DESCRIPTION": account["notes"],
        "AUTOLOGONLIST": list(_autologons(resource)),
        "PASSWORDREQUEST_REASON_MANDATORY": reason,
        "ISREMOTEAPPONLY": "false",
        "ACCOUNT PASSWORD POLICY": account["policy"],
        "IS_USER_WITH_COMMAND_CONTROL_ROLE": "false",
        "AUTOLOGONSTATUS": "ALLOWED",
        # Ticket ID required in the access control workflow: ticketing and access control both on.
        "IS_TICKETID_REQD_ACW": _true_false(config.require_ticket and config.access_control),
        "IS_COMMAND_CONTROL_CONFIGURED": "false",
        "IS_TICKETID_REQD_MANDATORY": ticket,
        "IS_TICKETID_REQD": ticket,
        "ISREASONREQUIRED": reason,
    }


def password_status(account):
    """``[In Use]`` while the password is checked out under access control (the password
    workflow sets ``in_use`` only when access control is on), else ``*****``."""
    return IN_USE if account.get("in_use") else HIDDEN_PASSWORD


def account_detail(store, account, config):
    """The Details of GET RESOURCE ACCOUNT DETAILS: DESCRIPTION is the account's NOTES (wide: with the
    real servers' keys, and the time its password was last changed for their LAST MODIFIED TIME). The
    password is compliant when it breaks no rule of the account's policy; the reason is the first it breaks."""
    last_accessed = account["last_accessed"]
    password_changed = account.get("password_changed")
    broken = broken_policy_rules(account["policy"], account["password"], account["name"])
    return {
        "DESCRIPTION": account["notes"],
        "LAST ACCESSED TIME": vault_time(last_accessed) if last_accessed else NOT_AVAILABLE,
        "LAST MODIFIED TIME": vault_time(account["last_modified"]),
        "PASSWORD STATUS": password_status(account),
        "PASSWDID": account["id"],
        "CUSTOM FIELD": custom_field_output(store, ACCOUNT_LEVEL, account["custom_fields"]),
        "EXPIRY STATUS": "Valid",
        "COMPLIANT STATUS": "Non-Compliant" if broken else "Compliant",
        "COMPLIANT REASON": _compliance_reason(broken[0]) if broken else "-",
        "PASSWORDREQUEST_REASON_MANDATORY": _true_false(config.require_reason),
        "PASSWORD POLICY": account["policy"],
        PASSWORD_CHANGED: vault_time(password_changed) if password_changed else NOT_AVAILABLE,
    }


# The remote sessions a resource type opens (AUTOLOGONLIST), by its SYNCTYPE: the simulator's own choice.
_SSH, _RDP = ("SSH", "Telnet"), ("Windows Remote Desktop", "RDP Console Session")
_AUTOLOGONS = {"SSH": _SSH, "Windows": _RDP, "Windows Domain": _RDP}
_SYNC_TYPES = {t["RESOURCETYPE"]: t["SYNCTYPE"] for t in RESOURCE_TYPES}


# The recorded wordings of COMPLIANT REASON, for the simulator's phrases of a broken rule (``policy_rules``);
# another rule is "Password " and the simulator's phrase.
_COMPLIANCE_REASONS = (
    (re.compile(r"must be at least (\d+) characters long"), r"Minimum length must be \1"),
    (re.compile(r"must contain at least \d+ (lower|upper)-case letters?"), "Password must have mixed case alphabets"),
)


def _compliance_reason(phrase):
    for pattern, reason in _COMPLIANCE_REASONS:
        if pattern.fullmatch(phrase):
            return pattern.sub(reason, phrase)
    return f"Password {phrase}"


def _autologons(resource):
    return _AUTOLOGONS.get(_SYNC_TYPES.get(resource["type"]), ())


def _true_false(value):
    return "true" if value else "false"
