"""The current TOTP code of an account (edition A only, from build 12430)."""
from vault_simulator.access import VIEW, require_account_access
from vault_simulator.lookups import ACCOUNT, RESOURCE
from vault_simulator.registry import endpoint
from vault_simulator.replies import Failure, success
from vault_simulator.totp_settings import current_code


@endpoint("GET", "/accounts/<account_id>/totp", op="FETCH_CURRENT_TOTP", builds={"A": 12430})
def fetch_current_totp(ctx, account_id):
    """Details.TOTP is the current code, as a string."""
    account = ctx.store.get(ACCOUNT, account_id)
    if account is None:
        raise Failure(f"Account with ID {account_id} does not exist")
    resource = ctx.store.get(RESOURCE, account["resource_id"])
    require_account_access(ctx.store, ctx.user, resource, account, VIEW,
                           f"retrieve the TOTP of {resource['name']}/{account['name']}")
    if account["totp"] is None:
        raise Failure(f"TOTP is not configured for account {account['name']}")
    return success("TOTP fetched successfully", {"TOTP": current_code(account["totp"])})
