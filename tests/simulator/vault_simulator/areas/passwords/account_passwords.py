"""Retrieving and changing an account's password."""

from vault_simulator.areas.passwords.policy_rules import broken_rules, policy_named, remember_change, remembered
from vault_simulator.areas.passwords.remote_reset import remote_reset_configured, reset_remotely
from vault_simulator.areas.passwords.workflow_records import APPROVER_ROLES, checked_out_by
from vault_simulator.core.access import MODIFY, VIEW, require_account_access
from vault_simulator.core.finders import account_by_id, resource_by_id
from vault_simulator.core.inputs import text
from vault_simulator.core.reason_and_ticket import require_reason, require_ticket
from vault_simulator.core.records import ACCOUNT
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.timefmt import now_iso

REASON_REQUIRED = "A reason is required to retrieve this password"
RESET_TYPES = ("LOCAL", "REMOTE")


@endpoint("GET", "/resources/<resource_id>/accounts/<account_id>/password", op="GET PASSWORD", builds=ANY_BUILD)
def get_password(ctx, resource_id, account_id):
    """Details.PASSWORD. REASON is needed when the vault forces a reason
    (--require-reason), TICKETID when ticketing is enabled (--require-ticket).
    Under password access control (--access-control) a user who is not an
    administrator must hold the password checked out (see ``workflow``)."""
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    label = f"{resource['name']}/{account['name']}"
    require_account_access(ctx.store, ctx.user, resource, account, VIEW, f"retrieve the password of {label}")
    if (
        ctx.config.access_control
        and ctx.user["role"] not in APPROVER_ROLES
        and checked_out_by(ctx.store, account) != ctx.user["id"]
    ):
        raise Failure(
            f"Password access control is on: request the password of {label}, have the request "
            "approved and check it out before retrieving it"
        )
    require_reason(ctx, REASON_REQUIRED)
    require_ticket(ctx)
    account["last_accessed"] = now_iso()
    ctx.store.put(ACCOUNT, account["id"], account)
    return success("Password fetched successfully", {"PASSWORD": account["password"]})


@endpoint("PUT", "/resources/<resource_id>/accounts/<account_id>/password", op="CHANGE PASSWORD", builds=ANY_BUILD)
def change_password(ctx, resource_id, account_id):
    """NEWPASSWORD and RESETTYPE (LOCAL or REMOTE) are required; TICKETID too when
    ticketing is enabled. REMOTE needs remote password reset configured for the
    resource (configureremotepasswordreset) and sets the password on the host over
    SSH first (``remote_reset.reset_remotely``): when that fails, so does the
    change, and the stored password stays as it was.

    The new password must satisfy the account's password policy, login-name rules
    checked against the account name, and must not be one of the passwords the
    account had last (REUSE OF OLD PASSWORDS; the account remembers its passwords
    from the one it was created with). Passwords given on create and add are stored
    as they are: they are existing passwords brought into the vault.
    """
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_account_access(
        ctx.store, ctx.user, resource, account, MODIFY, f"change the password of {resource['name']}/{account['name']}"
    )
    new_password = text(ctx.details, "NEWPASSWORD")
    if not new_password:
        raise Failure("NEWPASSWORD is required")
    reset_type = text(ctx.details, "RESETTYPE")
    if reset_type not in RESET_TYPES:
        raise Failure("RESETTYPE must be LOCAL or REMOTE")
    require_ticket(ctx)
    if reset_type == "REMOTE" and not remote_reset_configured(ctx.store, resource):
        raise Failure(f"Remote password reset is not configured for resource {resource['name']}")
    _require_policy(account, new_password)
    if reset_type == "REMOTE":
        reset_remotely(ctx.store, resource, account, new_password)
    remember_change(account, new_password)
    account["last_modified"] = account["password_changed"] = now_iso()
    ctx.store.put(ACCOUNT, account["id"], account)
    return success("Password changed successfully")


def _require_policy(account, new_password):
    policy = policy_named(account["policy"])
    broken = broken_rules(policy, new_password, account["name"], remembered(account))
    if broken:
        raise Failure(
            f"The new password does not conform to the password policy {account['policy']}: it {'; '.join(broken)}"
        )
