"""Accounts of a resource: list, details, add, edit, delete."""

from vault_simulator.areas.resources.account_fields import apply_account_fields
from vault_simulator.areas.resources.records import new_account
from vault_simulator.areas.resources.views import account_detail, resource_detail
from vault_simulator.core.access import (
    FULL_ACCESS,
    MODIFY,
    VIEW,
    Reach,
    require_access,
    require_account_access,
)
from vault_simulator.core.finders import account_by_id, account_by_name, resource_by_id
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.records import ACCOUNT
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.removals import remove
from vault_simulator.core.replies import FAILED, Failure, Reply, success

ACCOUNT_ADDED = "Account added successfully"


@endpoint("GET", "/resources/<resource_id>/accounts", op="GET RESOURCE ACCOUNTLIST", builds=ANY_BUILD)
def list_accounts(ctx, resource_id):
    """Details is the resource detail, with its ACCOUNT LIST: the accounts the caller can view."""
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, VIEW, f"view resource {resource['name']}")
    detail = resource_detail(ctx.store, resource, ctx.config)
    reach = Reach(ctx.store, ctx.user)
    detail["ACCOUNT LIST"] = [
        item
        for item in detail["ACCOUNT LIST"]
        if reach.can_access_account(resource, ctx.store.get(ACCOUNT, item["ACCOUNT ID"]), VIEW)
    ]
    return success("Resource details with account list fetched successfully", detail)


@endpoint("GET", "/resources/<resource_id>/accounts/<account_id>", op="GET RESOURCE ACCOUNT DETAILS", builds=ANY_BUILD)
def account_details(ctx, resource_id, account_id):
    """Details: DESCRIPTION, LAST ACCESSED TIME, LAST MODIFIED TIME, PASSWORD STATUS,
    PASSWDID, CUSTOM FIELD; never the password."""
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_account_access(
        ctx.store, ctx.user, resource, account, VIEW, f"view account {resource['name']}/{account['name']}"
    )
    return success("Account details fetched successfully", account_detail(ctx.store, account, ctx.config))


@endpoint("POST", "/resources/<resource_id>/accounts", op="ADD ACCOUNTS", builds=ANY_BUILD)
def add_accounts(ctx, resource_id):
    """Add each item of Details.ACCOUNTLIST; each succeeds or fails on its own.

    Details is ``[{"<ACCOUNTNAME>": {"STATUS": "<text>"}, ...}]``: a list of one
    object keyed by each account name (a name repeated in one request keeps
    its first status). The result is Failed only when no account was added.
    """
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, FULL_ACCESS, f"add accounts to resource {resource['name']}")
    items = ctx.details.get("ACCOUNTLIST")
    if not isinstance(items, list) or not items or not all(isinstance(item, dict) for item in items):
        raise Failure("ACCOUNTLIST must be a non-empty list of accounts")
    statuses, added = {}, 0
    for item in items:
        try:
            with ctx.store.transaction():
                _add_account(ctx, resource, item)
            status, added = ACCOUNT_ADDED, added + 1
        except Failure as failure:
            status = failure.message
        statuses.setdefault(text(item, "ACCOUNTNAME"), {"STATUS": status})
    if added == 0:
        return Reply(FAILED, f"No account was added to resource {resource['name']}", [statuses])
    return success(f"{added} of {len(items)} accounts added to resource {resource['name']}", [statuses])


@endpoint("PUT", "/resources/<resource_id>/accounts/<account_id>", op="EDIT ACCOUNT", builds=ANY_BUILD)
def edit_account(ctx, resource_id, account_id):
    """ACCOUNTNAME renames; the other account input fields as in ``account_fields``."""
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_account_access(
        ctx.store, ctx.user, resource, account, MODIFY, f"edit account {resource['name']}/{account['name']}"
    )
    if "ACCOUNTNAME" in ctx.details:
        new_name = required_text(ctx.details, "ACCOUNTNAME")
        if new_name != account["name"] and account_by_name(ctx.store, resource, new_name) is not None:
            raise Failure(f"Account {new_name} already exists in resource {resource['name']}")
        account["name"] = new_name
    apply_account_fields(ctx, account, ctx.details)
    ctx.store.put(ACCOUNT, account["id"], account)
    return success(f"Account {account['name']} has been modified successfully")


@endpoint("DELETE", "/resources/<resource_id>/accounts/<account_id>", op="DELETE ACCOUNT", builds=ANY_BUILD)
def delete_account(ctx, resource_id, account_id):
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_account_access(
        ctx.store, ctx.user, resource, account, FULL_ACCESS, f"delete account {resource['name']}/{account['name']}"
    )
    ctx.audit["account"] = account["name"]
    remove(ctx.store, ACCOUNT, account)
    return success(f"Account {account['name']} has been deleted successfully")


def _add_account(ctx, resource, item):
    name = required_text(item, "ACCOUNTNAME")
    password = text(item, "PASSWORD")
    if not password:
        raise Failure("PASSWORD is required")
    if account_by_name(ctx.store, resource, name) is not None:
        raise Failure(f"Account {name} already exists in resource {resource['name']}")
    account = new_account(ctx.store, resource, name, password)
    apply_account_fields(ctx, account, item)
    ctx.store.put(ACCOUNT, account["id"], account)
