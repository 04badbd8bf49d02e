# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Remote password reset of Linux resources (``CONFIGURE REMOTE PASSWORD RESET``).

What the API offers, and what that means here:

- One write, ``POST /resources/configureremotepasswordreset`` (A 11200 / B 5100), whose Details are the
  "remote-reset input": REMOTEMODE, LINUX_SSHTELNETPORT, LINUX_USERPROMPT, LINUXROOTUSERPROMPT,
  LINUX_LANDINGSERVER, RESOURCEIDENTIFIER, WDRESOURCEID, WDACCOUNTID, REMOTELOGINACCOUNT, AUTHENTICATION,
  ELEVATIONTYPE, ROOTACCOUNT, RESOURCEIDS, RESOURCETYPE, REMOVEENTER. Its answer is
  Details[``CONFIGURATION RESULT``], one {STATUS, RESOURCENAME, RESOURCEID} per resource.
- No call reads the configuration back, so it cannot be compared: every run that sends reports a change, and
  check mode reports what would be sent. Resource and account names are resolved to ids with reads only.
- The vault configures each resource on its own and refuses one that is not of type Linux or lacks the login
  (or root) account; both are read first (the resource's ACCOUNT LIST), so such a task fails before sending,
  naming every such resource, rather than half configured.
- The STATUS texts are not listed by the spec. A STATUS counts as a success when it says so (``Success``,
  ``... configured successfully``) and holds no word of failure; anything else, or a resource the answer does
  not mention, fails the task naming the resource.
- The input holds no secret: accounts are given by name or id, their passwords stay in the vault.
"""

from __future__ import annotations

import re

from ._account import find_account
from ._api import resources as resources_api
from ._api._declare import require
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, refuse_unknown
from ._resource import find_resource_id, read_resource

OPERATION = "CONFIGURE REMOTE PASSWORD RESET"
RESULT_KEY = "CONFIGURATION RESULT"
# Option value -> remote-reset input value, where the two differ.
AUTHENTICATIONS = {"password": "passauth", "key": "keyauth"}
MODES = ("ssh", "telnet")
IDENTIFIERS = ("linux", "others")
ELEVATIONS = ("sudo", "su")
# Options sent as they are (text), option -> input key.
TEXT_FIELDS = (
    ("user_prompt", "LINUX_USERPROMPT"),
    ("root_prompt", "LINUXROOTUSERPROMPT"),
    ("landing_server", "LINUX_LANDINGSERVER"),
    ("login_account", "REMOTELOGINACCOUNT"),
    ("root_account", "ROOTACCOUNT"),
)
# Placeholder id of a resource or account check mode takes as created by an earlier task.
NOT_CREATED = None
# The only resource type remote password reset configures ("Configure remote password reset for Linux resources";
# RESOURCETYPE "string (Linux)").
LINUX = "Linux"
_SUCCESS = re.compile(r"(?<![a-z])success", re.IGNORECASE)
_FAILURE = re.compile(r"\b(?:not|no|unable|fail\w*|error\w*|denied|invalid|refused)\b", re.IGNORECASE)


class RemoteResetFailed(VaultAPIError):
    """The vault answered, and at least one resource is not configured. Carries ``results`` and ``sent``."""

    def __init__(self, message, results, sent, **kwargs):
        super().__init__(message, **kwargs)
        self.results = results
        self.sent = sent

    def to_result(self):
        return dict(super().to_result(), results=self.results, sent=self.sent)


def _record_sending(tracker, sent):
    """The diff of a configuration that cannot be read back: nothing before, what is (or would be) sent after."""
    tracker.changed_names.append("configuration")
    tracker.before, tracker.after = {}, dict(sent)
    tracker.headers.update(
        before_header="remote password reset configuration (the vault cannot report it)",
        after_header="%s input" % OPERATION,
    )


def is_success(status):
    """True when a ``CONFIGURATION RESULT`` STATUS reports the resource configured."""
    text = str(status or "")
    return bool(_SUCCESS.search(text)) and not _FAILURE.search(text)


def check_input(desired):
    """Refuse, before any request, what the vault would refuse or what would configure nothing useful.

    Returns the resource names without duplicates, in the order given."""
    names = []
    for number, name in enumerate(desired.get("resources") or [], start=1):
        clean_text(name, "resources %d" % number)
        if name not in names:
            names.append(name)
    if not names:
        raise VaultInputError("resources must name at least one resource (RESOURCEIDS)")
    for option, allowed in (
        ("mode", MODES),
        ("resource_identifier", IDENTIFIERS),
        ("elevation", ELEVATIONS),
        ("authentication", tuple(AUTHENTICATIONS)),
    ):
        value = desired.get(option)
        if value is not None and value not in allowed:
            raise VaultInputError("%s must be one of %s, not %s" % (option, ", ".join(allowed), value))
    port = desired.get("port")
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536):
        raise VaultInputError("port must be a port number from 1 to 65535, not %s" % port)
    for option in ("login_account", "root_account", "domain_resource", "domain_account", "resource_type"):
        clean_text(desired.get(option), option)
    if desired.get("resource_type") not in (None, LINUX):
        raise VaultInputError(
            "resource_type must be %s: remote password reset is configured for Linux resources only, not %s"
            % (LINUX, desired["resource_type"])
        )
    for option in ("user_prompt", "root_prompt", "landing_server"):
        if desired.get(option) == "":
            raise VaultInputError("%s must not be empty: leave it out to send nothing" % option)
    others = desired.get("resource_identifier") == "others"
    domain = [option for option in ("domain_resource", "domain_account") if desired.get(option)]
    if others and len(domain) < 2:
        raise VaultInputError(
            "resource_identifier others logs in with an account of another resource: domain_resource and "
            "domain_account are both required (WDRESOURCEID, WDACCOUNTID)"
        )
    if domain and not others:
        raise VaultInputError(
            "%s only apply with resource_identifier others (the login account of another resource)"
            % " and ".join(domain)
        )
    if not others and not desired.get("login_account"):
        raise VaultInputError(
            "login_account is required with resource_identifier linux: the account of each resource that "
            "logs in (REMOTELOGINACCOUNT)"
        )
    if desired.get("elevation") == "su" and not desired.get("root_account"):
        raise VaultInputError("root_account is required with elevation su: the account su switches to (ROOTACCOUNT)")
    return names


def remote_reset_input(desired, resource_ids, domain_ids=None):
    """The remote-reset input (Details) of the options, ``resource_ids`` (RESOURCEIDS) and ``domain_ids``
    ((WDRESOURCEID, WDACCOUNTID) with resource_identifier others). Defaults as the spec gives them."""
    details = {
        "REMOTEMODE": desired.get("mode") or "ssh",
        "RESOURCEIDENTIFIER": desired.get("resource_identifier") or "linux",
        "AUTHENTICATION": AUTHENTICATIONS[desired.get("authentication") or "password"],
        "ELEVATIONTYPE": desired.get("elevation") or "sudo",
        "RESOURCEIDS": list(resource_ids),
        "RESOURCETYPE": desired.get("resource_type") or "Linux",
        "REMOVEENTER": "true" if desired.get("remove_enter") else "false",
    }
    if desired.get("port") is not None:
        details["LINUX_SSHTELNETPORT"] = str(desired["port"])
    for option, key in TEXT_FIELDS:
        if desired.get(option) is not None:
            details[key] = desired[option]
    if domain_ids is not None:
        details["WDRESOURCEID"], details["WDACCOUNTID"] = domain_ids
    return details


def _resolve_resources(client, names, tracker, check_mode):
    """{name: id} of ``names``; an unknown name fails naming every unknown one (check mode: warns, id None)."""
    ids = {name: find_resource_id(client, name) for name in names}
    refuse_unknown("resources", [name for name in names if ids[name] is None], check_mode, tracker.warn)
    return ids


def _accounts_each_resource_needs(desired):
    """``{option: account name}`` of the accounts that must be in every resource: ``login_account`` with
    resource_identifier linux, ``root_account`` with elevation su."""
    needed = {}
    if desired.get("resource_identifier") != "others" and desired.get("login_account"):
        needed["login_account"] = desired["login_account"]
    if desired.get("elevation") == "su":
        needed["root_account"] = desired["root_account"]
    return needed


def _check_resources(client, desired, ids, tracker, check_mode):
    """Refuse, before sending, what the vault would refuse resource by resource: a resource that is not of type
    Linux, or one without the login or root account (one ``GET RESOURCE ACCOUNTLIST`` per resource found). Every
    such resource is named; check mode warns instead, as for names not created yet."""
    needed = _accounts_each_resource_needs(desired)
    problems = []
    for name, resource_id in ids.items():
        if resource_id is None:
            continue
        detail = read_resource(client, resource_id)
        kind = detail.get("RESOURCE TYPE")
        if kind != LINUX:
            problems.append("resource %s is of type %s, not %s" % (name, kind, LINUX))
            continue
        accounts = {item.get("ACCOUNT NAME") for item in detail.get("ACCOUNT LIST") or [] if isinstance(item, dict)}
        for option, account in sorted(needed.items()):
            if account not in accounts:
                problems.append(
                    "resource %s has no account %s (%s; or it is not visible to this token)" % (name, account, option)
                )
    if not problems:
        return
    message = "remote password reset is configured for Linux resources with the accounts it uses: %s" % "; ".join(
        problems
    )
    if not check_mode:
        raise VaultInputError(message + ": nothing was sent")
    tracker.warn(message + ": a real run fails unless an earlier task fixes this")


def _resolve_domain(client, desired, tracker, check_mode):
    """(WDRESOURCEID, WDACCOUNTID) of ``domain_resource``/``domain_account``; check mode warns for missing ones."""
    resource, account = desired["domain_resource"], desired["domain_account"]
    try:
        ref = find_account(client, resource, account)
    except VaultNotFoundError as exc:
        if not check_mode:
            raise VaultNotFoundError("domain_resource: %s: nothing was sent" % exc) from None
        tracker.warn(
            "domain_resource: %s: check mode takes it as created by an earlier task, a real run fails unless it "
            "exists by then" % exc
        )
        return NOT_CREATED, NOT_CREATED
    if ref.account_id is None:
        message = "domain_account: resource %s has no account %s (or it is not visible to this token)" % (
            resource,
            account,
        )
        if not check_mode:
            raise VaultNotFoundError(message + ": nothing was sent", vault_message=ref.vault_message)
        tracker.warn(message + ": check mode takes it as created by an earlier task, a real run fails unless it exists")
        return ref.resource_id, NOT_CREATED
    return ref.resource_id, ref.account_id


def _readable(details, names, desired):
    """``details`` with the names of its ids beside them (RESOURCENAMES, WDRESOURCENAME, WDACCOUNTNAME), which are
    not sent."""
    sent = dict(details)
    sent["RESOURCENAMES"] = list(names)
    if "WDRESOURCEID" in details:
        sent["WDRESOURCENAME"] = desired["domain_resource"]
        sent["WDACCOUNTNAME"] = desired["domain_account"]
    return sent


def results_of(items, ids):
    """One {resource, resource_id, status, success} per resource of ``ids`` ({name: id}), in the task's order.

    A resource the answer does not mention is a failure with status None."""
    by_id = {}
    for item in items:
        if isinstance(item, dict) and item.get("RESOURCEID") is not None:
            by_id.setdefault(str(item["RESOURCEID"]), item)
    results = []
    for name, resource_id in ids.items():
        item = by_id.get(resource_id)
        status = None if item is None or item.get("STATUS") is None else str(item["STATUS"])
        results.append({"resource": name, "resource_id": resource_id, "status": status, "success": is_success(status)})
    return results


def _failure_message(results):
    """Names each resource not configured with the vault's STATUS for it, then those that were configured."""
    failed = [item for item in results if not item["success"]]
    described = "; ".join(
        "%s: %s" % (item["resource"], item["status"] if item["status"] is not None else "the vault reported nothing")
        for item in failed
    )
    message = "remote password reset was not configured for %d of %d resources - %s" % (
        len(failed),
        len(results),
        described,
    )
    configured = [item["resource"] for item in results if item["success"]]
    if configured:
        message += " (configured: %s)" % ", ".join(configured)
    return message


def converge(task):
    """Entry point of ``vault_remote_password_reset``: configure remote password reset as ``task.desired`` says for
    the resources it names.

    Every run reports a change (the configuration cannot be read back). Returns ``{"results", "sent"}`` (results
    empty in check mode). Raises ``RemoteResetFailed`` (with the results) when a resource is not configured, other
    ``VaultError`` before anything is sent for bad input, unknown names or a vault that lacks the call.
    """
    client, desired, check_mode, tracker = task.client, task.desired, task.check_mode, task.tracker
    names = check_input(desired)
    require(client, resources_api.configure_remote_password_reset)
    ids = _resolve_resources(client, names, tracker, check_mode)
    _check_resources(client, desired, ids, tracker, check_mode)
    domain_ids = None
    if desired.get("resource_identifier") == "others":
        domain_ids = _resolve_domain(client, desired, tracker, check_mode)
    details = remote_reset_input(desired, [ids[name] for name in names], domain_ids)
    sent = _readable(details, names, desired)
    _record_sending(tracker, sent)
    if check_mode:
        return {"results": [], "sent": sent}
    try:
        response = resources_api.configure_remote_password_reset(client, details)
    except VaultAPIError as exc:
        items = exc.details.get(RESULT_KEY) if isinstance(exc.details, dict) else None
        if not isinstance(items, list):
            raise
        results = results_of(items, ids)
        if all(item["success"] for item in results):
            raise  # a refusal whose items all say success: the vault's own message is all there is
        raise RemoteResetFailed(
            "%s (the vault said: %s)" % (_failure_message(results), exc.vault_message),
            results,
            sent,
            operation=exc.operation,
            http_status=exc.http_status,
            vault_message=exc.vault_message,
        ) from None
    results = results_of(response.details_list(RESULT_KEY), ids)
    if not all(item["success"] for item in results):
        raise RemoteResetFailed(
            _failure_message(results),
            results,
            sent,
            operation=OPERATION,
            http_status=response.http_status,
            vault_message=response.message,
        )
    return {"results": results, "sent": sent}
