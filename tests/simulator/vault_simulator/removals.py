"""What goes with a deleted account or resource.

"A deleted resource takes its accounts, shares and group memberships with
it": an account takes its shares, password requests and SSH key
associations; a resource takes its accounts, its own shares, its static
group memberships, its remote password reset settings and its places in
remote apps.
"""
from vault_simulator.handlers.remote_reset import REMOTE_RESET
from vault_simulator.lookups import ACCOUNT, RESOURCE, accounts_of
from vault_simulator.password_requests import PASSWORD_REQUEST
from vault_simulator.remote_app_records import REMOTE_APP
from vault_simulator.resource_groups import leave_all_groups
from vault_simulator.shares import SHARE
from vault_simulator.ssh_key_records import SSH_KEY_ASSOCIATION


def remove_account(store, account):
    _delete_where(store, SHARE, lambda s: (s["target_kind"], s["target_id"]) == (ACCOUNT, account["id"]))
    _delete_where(store, PASSWORD_REQUEST, lambda r: r["account_id"] == account["id"])
    _delete_where(store, SSH_KEY_ASSOCIATION, lambda a: a["account_id"] == account["id"])
    store.delete(ACCOUNT, account["id"])


def remove_resource(store, resource):
    for account in accounts_of(store, resource):
        remove_account(store, account)
    _delete_where(store, SHARE, lambda s: (s["target_kind"], s["target_id"]) == (RESOURCE, resource["id"]))
    leave_all_groups(store, resource)
    store.delete(REMOTE_RESET, resource["id"])
    for app in store.all(REMOTE_APP):
        if resource["id"] in app["resource_ids"]:
            app["resource_ids"].remove(resource["id"])
            store.put(REMOTE_APP, app["id"], app)
    store.delete(RESOURCE, resource["id"])


def _delete_where(store, kind, matches):
    for record in store.all(kind):
        if matches(record):
            store.delete(kind, record["id"])
