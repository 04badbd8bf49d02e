"""The account input fields shared by ADD ACCOUNTS, EDIT ACCOUNT and CREATE RESOURCE.

Fields that the running edition and build do not have are ignored, as an
older vault would ignore them.
"""

from vault_simulator.areas.resources.custom_fields import ACCOUNT_LEVEL, merge_custom_fields, read_custom_fields
from vault_simulator.areas.resources.totp import TOTP_FIELDS, updated_totp
from vault_simulator.core.finders import group_by_id, require_policy
from vault_simulator.core.inputs import flag, string_list, text
from vault_simulator.core.timefmt import now_iso

SESSION_AND_RESET_FLAGS = (
    "RECORD_RDP_SESSIONS",
    "RECORD_CLI_SESSIONS",
    "DISABLE_PASSWORD_RESETS",
    "CONFIGURE_PASSWORD_RESET",
    "IIS_WEB_CONFIG_RESET",
    "IIS_APP_POOL_RESTART",
    "IIS_APP_POOL_RESET",
    "SERVICES_RESTART",
    "SERVICES_RESET",
    "SCHEDULED_TASK_RESET",
)
FLAG_BUILDS = {"A": 12230, "B": 6000}  # also ACCOUNT_RESOURCE_GROUP_IDS
TOTP_BUILDS = {"A": 12430}


def apply_account_fields(ctx, account, details):
    """Change ``account`` (not stored yet) by ACCOUNTPASSWORDPOLICY, NOTES,
    ACCOUNTCUSTOMFIELD and the build-gated flags, ACCOUNT_RESOURCE_GROUP_IDS and
    TOTP_* fields."""
    if text(details, "ACCOUNTPASSWORDPOLICY"):
        account["policy"] = require_policy(text(details, "ACCOUNTPASSWORDPOLICY"))
    if "NOTES" in details:
        account["notes"] = text(details, "NOTES")
    if "ACCOUNTCUSTOMFIELD" in details:
        pairs = read_custom_fields(details, "ACCOUNTCUSTOMFIELD")
        account["custom_fields"] = merge_custom_fields(ctx.store, ACCOUNT_LEVEL, account["custom_fields"], pairs)
    if ctx.supports(FLAG_BUILDS):
        for name in SESSION_AND_RESET_FLAGS:
            if name in details:
                account["flags"][name] = flag(details, name)
        if "ACCOUNT_RESOURCE_GROUP_IDS" in details:
            account["resource_group_ids"] = _existing_group_ids(ctx, details)
    if ctx.supports(TOTP_BUILDS) and any(name in details for name in TOTP_FIELDS):
        account["totp"] = updated_totp(account["totp"], details)
    account["last_modified"] = now_iso()


def _existing_group_ids(ctx, details):
    """The group ids given, each of a group of the caller's organization."""
    group_ids = string_list(details, "ACCOUNT_RESOURCE_GROUP_IDS")
    for group_id in group_ids:
        group_by_id(ctx.store, group_id, ctx.org)
    return group_ids
