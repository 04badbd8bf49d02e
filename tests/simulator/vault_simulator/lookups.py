"""Finding stored records by id or name, failing with the vault's messages."""
from vault_simulator.data.password_policies import POLICY_NAMES
from vault_simulator.replies import Failure

# Store kinds.
RESOURCE = "resource"
ACCOUNT = "account"
USER = "user"
RESOURCE_GROUP = "resource_group"


def resource_by_id(store, resource_id):
    resource = store.get(RESOURCE, resource_id)
    if resource is None:
        raise Failure(f"Resource with ID {resource_id} does not exist")
    return resource


def in_organization(record, org):
    """True when ``record`` (a resource or resource group) belongs to organization ``org``."""
    return record.get("org_id", "1") == org["id"]


def resource_by_name(store, name, org):
    """The resource called ``name`` in organization ``org``, or ``None``."""
    return next((r for r in store.all(RESOURCE) if r["name"] == name and in_organization(r, org)), None)


def existing_resource_by_name(store, name, org):
    resource = resource_by_name(store, name, org)
    if resource is None:
        raise Failure(f"Resource {name} does not exist")
    return resource


def accounts_of(store, resource):
    return [a for a in store.all(ACCOUNT) if a["resource_id"] == resource["id"]]


def account_by_name(store, resource, name):
    """The account called ``name`` in ``resource`` or ``None``."""
    return next((a for a in accounts_of(store, resource) if a["name"] == name), None)


def account_by_id(store, resource, account_id):
    account = store.get(ACCOUNT, account_id)
    if account is None or account["resource_id"] != resource["id"]:
        raise Failure(f"Account with ID {account_id} does not exist in resource {resource['name']}")
    return account


def user_by_name(store, name):
    """The user called ``name`` or ``None``."""
    return next((u for u in store.all(USER) if u["name"] == name), None)


def existing_user_by_name(store, name):
    user = user_by_name(store, name)
    if user is None:
        raise Failure(f"User {name} does not exist")
    return user


def require_policy(name):
    """Fail unless ``name`` is a password policy of the vault."""
    if name not in POLICY_NAMES:
        raise Failure(f"Password policy {name} does not exist")
    return name
