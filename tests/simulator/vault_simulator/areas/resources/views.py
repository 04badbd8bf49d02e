"""Resources and accounts as the spec's output tables spell them."""

from vault_simulator.areas.resources.custom_fields import ACCOUNT_LEVEL, RESOURCE_LEVEL, custom_field_output
from vault_simulator.core.finders import accounts_of
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


def resource_detail(store, resource):
    """The Details of GET RESOURCE ACCOUNTLIST."""
    owner = store.get(USER, resource["owner_id"])
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
        "ACCOUNT LIST": [account_list_item(account) for account in accounts_of(store, resource)],
    }


def account_list_item(account):
    return {
        "ACCOUNT ID": account["id"],
        "ACCOUNT NAME": account["name"],
        "PASSWDID": account["id"],
        "ISFAVPASS": "false",
        "PASSWORD STATUS": password_status(account),
    }


def password_status(account):
    """``[In Use]`` while the password is checked out under access control (the password
    workflow sets ``in_use`` only when access control is on), else ``*****``."""
    return IN_USE if account.get("in_use") else HIDDEN_PASSWORD


def account_detail(store, account):
    """The Details of GET RESOURCE ACCOUNT DETAILS: DESCRIPTION is the account's NOTES."""
    last_accessed = account["last_accessed"]
    return {
        "DESCRIPTION": account["notes"],
        "LAST ACCESSED TIME": vault_time(last_accessed) if last_accessed else "N/A",
        "LAST MODIFIED TIME": vault_time(account["last_modified"]),
        "PASSWORD STATUS": password_status(account),
        "PASSWDID": account["id"],
        "CUSTOM FIELD": custom_field_output(store, ACCOUNT_LEVEL, account["custom_fields"]),
    }
