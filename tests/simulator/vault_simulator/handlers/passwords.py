"""Retrieving and changing an account's password."""
from vault_simulator.access import MODIFY, VIEW, require_access
from vault_simulator.inputs import text
from vault_simulator.lookups import ACCOUNT, account_by_id, resource_by_id
from vault_simulator.registry import ANY_BUILD, endpoint
from vault_simulator.replies import Failure, success
from vault_simulator.timefmt import now_iso

REASON_REQUIRED = "A reason is required to retrieve this password"
TICKET_REQUIRED = "A ticket ID is required: ticketing is enabled"
RESET_TYPES = ("LOCAL", "REMOTE")


@endpoint("GET", "/resources/<resource_id>/accounts/<account_id>/password", op="GET PASSWORD", builds=ANY_BUILD)
def get_password(ctx, resource_id, account_id):
    """Details.PASSWORD. REASON is needed when the vault forces a reason
    (--require-reason), TICKETID when ticketing is enabled (--require-ticket)."""
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_access(ctx.user, resource, VIEW, f"retrieve the password of {resource['name']}/{account['name']}")
    if ctx.config.require_reason and not text(ctx.details, "REASON").strip():
        raise Failure(REASON_REQUIRED)
    _require_ticket(ctx)
    account["last_accessed"] = now_iso()
    ctx.store.put(ACCOUNT, account["id"], account)
    return success("Password fetched successfully", {"PASSWORD": account["password"]})


@endpoint("PUT", "/resources/<resource_id>/accounts/<account_id>/password", op="CHANGE PASSWORD",
          builds=ANY_BUILD)
def change_password(ctx, resource_id, account_id):
    """NEWPASSWORD and RESETTYPE (LOCAL or REMOTE) are required; TICKETID too when
    ticketing is enabled. No resource has remote reset configured yet, so REMOTE fails."""
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_access(ctx.user, resource, MODIFY, f"change the password of {resource['name']}/{account['name']}")
    new_password = text(ctx.details, "NEWPASSWORD")
    if not new_password:
        raise Failure("NEWPASSWORD is required")
    reset_type = text(ctx.details, "RESETTYPE")
    if reset_type not in RESET_TYPES:
        raise Failure("RESETTYPE must be LOCAL or REMOTE")
    _require_ticket(ctx)
    if reset_type == "REMOTE":
        raise Failure(f"Remote password reset is not configured for resource {resource['name']}")
    account["password"] = new_password
    account["last_modified"] = now_iso()
    ctx.store.put(ACCOUNT, account["id"], account)
    return success("Password changed successfully")


def _require_ticket(ctx):
    if ctx.config.require_ticket and not text(ctx.details, "TICKETID").strip():
        raise Failure(TICKET_REQUIRED)
