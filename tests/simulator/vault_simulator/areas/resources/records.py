"""Resource and account records: a new account, and what goes with removed records.

A removed resource takes its accounts with it (each removed with what goes
with an account: shares, password requests, SSH key associations); a removed
resource group leaves the ACCOUNT_RESOURCE_GROUP_IDS of every account.
"""

from vault_simulator.core.finders import accounts_of
from vault_simulator.core.records import ACCOUNT, RESOURCE, RESOURCE_GROUP
from vault_simulator.core.removals import remove, when_removed
from vault_simulator.core.timefmt import now_iso


def new_account(store, resource, name, password):
    """A new account of ``resource`` with the resource's password policy (stored by the caller)."""
    return {
        "id": store.next_id(ACCOUNT),
        "resource_id": resource["id"],
        "name": name,
        "password": password,
        "policy": resource["policy"],
        "notes": "",
        "custom_fields": [],
        "last_accessed": None,
        "last_modified": now_iso(),
        "flags": {},
        "resource_group_ids": [],
        "totp": None,
    }


@when_removed(RESOURCE)
def remove_accounts(store, resource):
    for account in accounts_of(store, resource):
        remove(store, ACCOUNT, account)


@when_removed(RESOURCE_GROUP)
def leave_removed_group(store, group):
    for account in store.all(ACCOUNT):
        kept = [i for i in account.get("resource_group_ids", []) if i != group["id"]]
        if kept != account.get("resource_group_ids", []):
            account["resource_group_ids"] = kept
            store.put(ACCOUNT, account["id"], account)
