"""Finding stored records by id or name, failing with the vault's messages.

``x_by_name`` answers ``None`` when there is no such record; ``existing_x``
and ``x_by_id`` raise ``Failure`` with the message the vault gives.
"""

from vault_simulator.core.password_policies import POLICY_NAMES
from vault_simulator.core.records import ACCOUNT, RESOURCE, RESOURCE_GROUP, USER, USER_GROUP
from vault_simulator.core.replies import Failure
from vault_simulator.core.tenancy import in_organization

# Resources and accounts


def resource_by_id(store, resource_id):
    resource = store.get(RESOURCE, resource_id)
    if resource is None:
        raise Failure(f"Resource with ID {resource_id} does not exist")
    return resource


def resource_by_name(store, name, org):
    """The resource called ``name`` in organization ``org``, or ``None``."""
    return next((r for r in store.where(RESOURCE, name=name) if in_organization(r, org)), None)


def existing_resource_by_name(store, name, org):
    resource = resource_by_name(store, name, org)
    if resource is None:
        raise Failure(f"Resource {name} does not exist")
    return resource


def accounts_of(store, resource):
    return store.where(ACCOUNT, resource_id=resource["id"])


def account_by_name(store, resource, name):
    """The account called ``name`` in ``resource`` or ``None``."""
    return next(iter(store.where(ACCOUNT, resource_id=resource["id"], name=name)), None)


def account_by_id(store, resource, account_id):
    account = store.get(ACCOUNT, account_id)
    if account is None or account["resource_id"] != resource["id"]:
        raise Failure(f"Account with ID {account_id} does not exist in resource {resource['name']}")
    return account


def account_and_resource(store, account_id):
    """The account ``account_id`` and its resource, for paths that name only the account."""
    account = store.get(ACCOUNT, account_id)
    if account is None:
        raise Failure(f"Account with ID {account_id} does not exist")
    return account, store.get(RESOURCE, account["resource_id"])


# Users and user groups


def user_by_name(store, name):
    """The user called ``name`` or ``None``."""
    return next(iter(store.where(USER, name=name)), None)


def existing_user_by_name(store, name):
    user = user_by_name(store, name)
    if user is None:
        raise Failure(f"User {name} does not exist")
    return user


def existing_user(store, user_id):
    """The user with id ``user_id`` (a member or a grantee)."""
    user = store.get(USER, user_id)
    if user is None:
        raise Failure(f"User with ID {user_id} does not exist")
    return user


def existing_user_group(store, group_id):
    group = store.get(USER_GROUP, group_id)
    if group is None:
        raise Failure(f"User group with ID {group_id} does not exist")
    return group


# Resource groups


def group_by_name(store, name, org):
    """The resource group called ``name`` in organization ``org``, or ``None``."""
    return next((g for g in store.where(RESOURCE_GROUP, name=name) if in_organization(g, org)), None)


def group_by_id(store, group_id, org):
    """The resource group ``group_id`` of organization ``org``."""
    group = store.get(RESOURCE_GROUP, group_id)
    if group is None or not in_organization(group, org):
        raise Failure(f"Resource group with ID {group_id} does not exist")
    return group


# Password policies


def require_policy(name):
    """Fail unless ``name`` is a password policy of the vault."""
    if name not in POLICY_NAMES:
        raise Failure(f"Password policy {name} does not exist")
    return name
