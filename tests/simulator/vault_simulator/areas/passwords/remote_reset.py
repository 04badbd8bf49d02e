"""Configuring remote password reset for Linux resources, and performing one.

A configuration is stored per resource (kind ``remote_reset``, keyed by the
resource id); CHANGE PASSWORD with RESETTYPE ``REMOTE`` needs one, and then
``reset_remotely`` really sets the password on the host over SSH
(``remote_login`` finds the target and the credentials, ``remote_ssh`` runs
the session). A removed resource takes its configuration with it.
"""

from vault_simulator.areas.passwords.remote_login import (
    login_account,
    login_of,
    loopback_addresses,
    root_password,
    target_host,
)
from vault_simulator.areas.passwords.remote_ssh import RemoteError, set_password
from vault_simulator.core.access import FULL_ACCESS, can_access
from vault_simulator.core.finders import account_by_name
from vault_simulator.core.inputs import flag, string_list, text
from vault_simulator.core.records import ACCOUNT, REMOTE_RESET, RESOURCE
from vault_simulator.core.registry import endpoint
from vault_simulator.core.removals import when_removed
from vault_simulator.core.replies import FAILED, Failure, Reply, success
from vault_simulator.core.tenancy import in_organization

LINUX = "Linux"
CONFIGURED = "Remote password reset configured successfully"
# The remote-reset input fields with a fixed set of values; the first one is the default.
_CHOICES = {
    "REMOTEMODE": ("ssh", "telnet"),
    "RESOURCEIDENTIFIER": ("linux", "others"),
    "AUTHENTICATION": ("passauth", "keyauth"),
    "ELEVATIONTYPE": ("sudo", "su"),
}
_DEFAULT_PORTS = {"ssh": "22", "telnet": "23"}
_FREE_TEXT = (
    "LINUX_USERPROMPT",
    "LINUXROOTUSERPROMPT",
    "LINUX_LANDINGSERVER",
    "REMOTELOGINACCOUNT",
    "ROOTACCOUNT",
    "WDRESOURCEID",
    "WDACCOUNTID",
)


def remote_reset_configured(store, resource):
    """True when remote password reset is configured for ``resource``."""
    return store.get(REMOTE_RESET, resource["id"]) is not None


def reset_remotely(store, resource, account, new_password):
    """Set ``account``'s password to ``new_password`` on the host of ``resource``, as configured.

    Raises ``Failure`` "Remote password reset failed for <resource>/<account>: <reason>"
    (never with a secret in it) when the host was not reached, refused, or did not
    change the password. Only SSH, without a landing server, is performed.
    """
    settings = store.get(REMOTE_RESET, resource["id"])
    try:
        if settings["REMOTEMODE"] != "ssh":
            raise RemoteError(f"the simulator resets over ssh only, not {settings['REMOTEMODE']}")
        if settings["LINUX_LANDINGSERVER"]:
            raise RemoteError("the simulator does not reset through a landing server (LINUX_LANDINGSERVER)")
        if any(character in account["name"] + new_password for character in "\r\n") or ":" in account["name"]:
            raise RemoteError(
                "the account name or the new password cannot be given to chpasswd (a line break or a colon in the name)"
            )
        port = int(settings["LINUX_SSHTELNETPORT"])
        addresses = loopback_addresses(target_host(resource), port)
        login_resource, login = login_account(store, resource, account, settings)
        set_password(
            addresses,
            port,
            login_of(store, settings, login_resource, login),
            account["name"],
            new_password,
            settings["ELEVATIONTYPE"],
            settings["ROOTACCOUNT"],
            root_password(store, resource, settings),
        )
    except RemoteError as error:
        raise Failure(f"Remote password reset failed for {resource['name']}/{account['name']}: {error}") from None


@when_removed(RESOURCE)
def forget_configuration(store, resource):
    store.delete(REMOTE_RESET, resource["id"])


@endpoint(
    "POST",
    "/resources/configureremotepasswordreset",
    op="CONFIGURE REMOTE PASSWORD RESET",
    builds={"A": 11200, "B": 5100},
)
def configure_remote_password_reset(ctx):
    """Configure each resource of Details.RESOURCEIDS; each succeeds or fails on its own.

    Defaults as the spec gives them: REMOTEMODE ssh, RESOURCEIDENTIFIER linux,
    AUTHENTICATION passauth, ELEVATIONTYPE sudo, REMOVEENTER false; RESOURCETYPE,
    when given, must be Linux. Where the spec is silent: LINUX_SSHTELNETPORT
    defaults to 22 (ssh) or 23 (telnet); RESOURCEIDENTIFIER ``others`` logs in with
    the account WDACCOUNTID of resource WDRESOURCEID (both required then), while
    ``linux`` logs in with REMOTELOGINACCOUNT, an account of each resource; ELEVATIONTYPE
    ``su`` needs ROOTACCOUNT, also an account of each resource. A resource is
    configured when it exists in the selected organization, is of type Linux and
    the caller has full access to it.

    Details[`CONFIGURATION RESULT`] lists {STATUS, RESOURCENAME, RESOURCEID} per id
    (RESOURCENAME empty for an unknown id). The result is Failed when none was
    configured.
    """
    settings = _settings(ctx)
    resource_ids = string_list(ctx.details, "RESOURCEIDS")
    if not resource_ids:
        raise Failure("RESOURCEIDS must list at least one resource id")
    results, configured = [], 0
    for resource_id in resource_ids:
        resource = ctx.store.get(RESOURCE, resource_id)
        if resource is not None and not in_organization(resource, ctx.org):
            resource = None
        status = _configure(ctx, resource, resource_id, settings)
        configured += status == CONFIGURED
        results.append(
            {"STATUS": status, "RESOURCENAME": resource["name"] if resource else "", "RESOURCEID": resource_id}
        )
    details = {"CONFIGURATION RESULT": results}
    if not configured:
        return Reply(FAILED, "Remote password reset was not configured for any resource", details)
    return success(f"Remote password reset configured for {configured} of {len(resource_ids)} resources", details)


def _settings(ctx):
    details = ctx.details
    settings = {}
    for key, allowed in _CHOICES.items():
        value = text(details, key).strip() or allowed[0]
        if value not in allowed:
            raise Failure(f"{key} must be one of {', '.join(allowed)}")
        settings[key] = value
    resource_type = text(details, "RESOURCETYPE").strip() or LINUX
    if resource_type != LINUX:
        raise Failure(f"RESOURCETYPE must be {LINUX}: remote password reset is configured for Linux resources")
    port = text(details, "LINUX_SSHTELNETPORT").strip() or _DEFAULT_PORTS[settings["REMOTEMODE"]]
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise Failure("LINUX_SSHTELNETPORT must be a port number")
    settings.update({"LINUX_SSHTELNETPORT": port, "REMOVEENTER": flag(details, "REMOVEENTER")})
    settings.update({key: text(details, key).strip() for key in _FREE_TEXT})
    if settings["RESOURCEIDENTIFIER"] == "others":
        if not settings["WDRESOURCEID"] or not settings["WDACCOUNTID"]:
            raise Failure("WDRESOURCEID and WDACCOUNTID are required when RESOURCEIDENTIFIER is others")
        login_account = ctx.store.get(ACCOUNT, settings["WDACCOUNTID"])
        if login_account is None:
            raise Failure(f"Account with ID {settings['WDACCOUNTID']} does not exist")
        if login_account["resource_id"] != settings["WDRESOURCEID"]:
            raise Failure(
                f"Account with ID {login_account['id']} does not belong to resource with ID {settings['WDRESOURCEID']}"
            )
    if settings["ELEVATIONTYPE"] == "su" and not settings["ROOTACCOUNT"]:
        raise Failure("ROOTACCOUNT is required when ELEVATIONTYPE is su")
    return settings


def _configure(ctx, resource, resource_id, settings):
    """Store ``settings`` for ``resource``; return the item's STATUS text."""
    if resource is None:
        return f"Resource with ID {resource_id} does not exist"
    if resource["type"] != LINUX:
        return f"Resource {resource['name']} is of type {resource['type']}: only Linux resources can be configured"
    if not can_access(ctx.store, ctx.user, resource, FULL_ACCESS):
        return f"You are not authorized to configure remote password reset for resource {resource['name']}"
    needed = [settings["ROOTACCOUNT"] if settings["ELEVATIONTYPE"] == "su" else ""]
    if settings["RESOURCEIDENTIFIER"] == "linux":
        needed.append(settings["REMOTELOGINACCOUNT"])
    missing = [name for name in needed if name and account_by_name(ctx.store, resource, name) is None]
    if missing:
        return f"Account {missing[0]} does not exist in resource {resource['name']}"
    ctx.store.put(REMOTE_RESET, resource["id"], {"resource_id": resource["id"], **settings})
    return CONFIGURED
