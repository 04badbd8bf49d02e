"""Associations of SSH keys with users on resources (PKI root).

"An association is a (keyName, resourceName, userName) triple": resourceName
names a resource of the selected organization and userName an account of it
(the SSH login the key opens). Associating and dissociating need ``modify``
access to that account (through its resource or a share of the account),
reading associations ``view`` access; the key only has to exist (a resource
owner may associate a key an administrator made).
"""

from vault_simulator.areas.ssh_keys.records import UPPER_CASE_SUCCESS, associations_of_account, existing_key
from vault_simulator.core.access import MODIFY, VIEW, Reach, require_account_access
from vault_simulator.core.finders import account_by_name, existing_resource_by_name
from vault_simulator.core.inputs import required_text
from vault_simulator.core.records import ACCOUNT, RESOURCE, SSH_KEY, SSH_KEY_ASSOCIATION
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, Reply, success
from vault_simulator.core.styles import PKI
from vault_simulator.core.tenancy import in_organization


@endpoint("POST", "/associateKey", op="associateKey", builds=ANY_BUILD, style=PKI)
def associate_key(ctx):
    """Details: keyName, resourceName, userName. Associating the same triple twice fails."""
    key, resource, account = _triple(ctx, "associate SSH keys with")
    if _association(ctx.store, key, account) is not None:
        raise Failure(
            f"SSH key {key['name']} is already associated with user {account['name']} on resource {resource['name']}"
        )
    association_id = ctx.store.next_id(SSH_KEY_ASSOCIATION)
    ctx.store.put(
        SSH_KEY_ASSOCIATION,
        association_id,
        {"id": association_id, "key_id": key["id"], "resource_id": resource["id"], "account_id": account["id"]},
    )
    return Reply(
        UPPER_CASE_SUCCESS,
        f"SSH key {key['name']} associated with user {account['name']} on resource {resource['name']} successfully",
    )


@endpoint("POST", "/dissociateKey", op="dissociateKey", builds=ANY_BUILD, style=PKI)
def dissociate_key(ctx):
    """Details: keyName, resourceName, userName, as associated before."""
    key, resource, account = _triple(ctx, "dissociate SSH keys from")
    association = _association(ctx.store, key, account)
    if association is None:
        raise Failure(
            f"SSH key {key['name']} is not associated with user {account['name']} on resource {resource['name']}"
        )
    ctx.store.delete(SSH_KEY_ASSOCIATION, association["id"])
    return Reply(
        UPPER_CASE_SUCCESS,
        f"SSH key {key['name']} dissociated from user {account['name']} on resource {resource['name']} successfully",
    )


@endpoint("GET", "/getSSHkeysforuser", op="GetSSHKeysForUser", builds=ANY_BUILD, style=PKI)
def keys_of_user(ctx):
    """Details: userName, resourceName. details is the key names joined by commas, oldest association
    first (an empty string when none is associated)."""
    resource, account = _account(ctx, VIEW, "view the SSH keys of")
    names = [ctx.store.get(SSH_KEY, a["key_id"])["name"] for a in associations_of_account(ctx.store, account)]
    return success(
        f"SSH keys of user {account['name']} on resource {resource['name']} fetched successfully", ",".join(names)
    )


@endpoint("GET", "/getAllAssociatedUsers", op="GetAllAssociatedUsers", builds=ANY_BUILD, style=PKI)
def associated_users(ctx):
    """One {UserName, ResourceName} per user with at least one key (not one per key), for the resources of
    the selected organization the caller can view; associations whose account is gone are not shown."""
    pairs = []
    reach = Reach(ctx.store, ctx.user)
    for association in ctx.store.all(SSH_KEY_ASSOCIATION):
        resource = ctx.store.get(RESOURCE, association["resource_id"])
        account = ctx.store.get(ACCOUNT, association["account_id"])
        if (
            resource is None
            or account is None
            or not in_organization(resource, ctx.org)
            or not reach.can_access_account(resource, account, VIEW)
        ):
            continue
        pair = {"UserName": account["name"], "ResourceName": resource["name"]}
        if pair not in pairs:
            pairs.append(pair)
    return success("Associated users fetched successfully", pairs, totalRows=len(pairs))


def _triple(ctx, action):
    key = existing_key(ctx.store, required_text(ctx.details, "keyName"))
    resource, account = _account(ctx, MODIFY, action)
    return key, resource, account


def _account(ctx, level, action):
    """The resource (resourceName) and its account (userName), with ``level`` access to the account."""
    resource_name = required_text(ctx.details, "resourceName")
    user_name = required_text(ctx.details, "userName")
    resource = existing_resource_by_name(ctx.store, resource_name, ctx.org)
    account = account_by_name(ctx.store, resource, user_name)
    if account is None:
        raise Failure(f"Account {user_name} does not exist in resource {resource_name}")
    require_account_access(ctx.store, ctx.user, resource, account, level, f"{action} users of resource {resource_name}")
    ctx.audit["resource"], ctx.audit["account"] = resource["name"], account["name"]
    return resource, account


def _association(store, key, account):
    return next((a for a in associations_of_account(store, account) if a["key_id"] == key["id"]), None)
