"""Who may see and use which resource and account.

Administrator and Privileged Administrator reach everything, and the owner of
a resource (RESOURCE OWNER) reaches it fully. Any other user reaches what is
shared with them or with one of their user groups (``shares``), at the shared
level; several shares add up to the strongest of them:

- a resource share covers the resource and all its accounts;
- a resource-group share covers every member of the group (static or
  dynamic, ``groups.members_of``) as a resource share would;
- an account share covers that account only. An account the user can view
  makes its resource visible too: GET /resources lists it, and its ACCOUNT
  LIST shows only the accounts the user can view.

Levels, weakest first: ``remoteapponly`` (accounts only: the account is
opened through the shared remote apps, so no password, details or listing),
``view`` (list, read, retrieve the password), ``modify`` (change the password,
edit the account), ``fullaccess`` (edit or delete the resource, add or delete
its accounts, share it further).

Shares live in the vault's store, which every check is given.
"""

from vault_simulator.core.finders import accounts_of
from vault_simulator.core.groups import members_of
from vault_simulator.core.records import ACCOUNT, RESOURCE, RESOURCE_GROUP
from vault_simulator.core.replies import Failure
from vault_simulator.core.shares import shares_of

ROLES = ("Password User", "Password Auditor", "Password Administrator", "Administrator", "Privileged Administrator")
DEFAULT_ROLE = "Password User"
# Roles that must name an OWNERNAME when they create a resource (spec, Authentication 7).
OWNER_NAMING_ROLES = ("Administrator", "Password Administrator", "Privileged Administrator")
FULL_REACH_ROLES = ("Administrator", "Privileged Administrator")
USER_MANAGING_ROLES = ("Administrator", "Privileged Administrator")

# Access levels, weakest first, as the spec's sharing names them.
REMOTE_APP_ONLY = "remoteapponly"
VIEW = "view"
MODIFY = "modify"
FULL_ACCESS = "fullaccess"
_RANKS = {REMOTE_APP_ONLY: 0, VIEW: 1, MODIFY: 2, FULL_ACCESS: 3}
_NONE = -1


def can_access(store, user, resource, level):
    """True when ``user`` may use ``resource`` at ``level`` (view, modify, fullaccess)."""
    if level not in (VIEW, MODIFY, FULL_ACCESS):
        raise ValueError(f"unknown access level {level}")
    if _reaches_fully(user, resource):
        return True
    if _resource_rank(store, user, resource) >= _RANKS[level]:
        return True
    if level != VIEW:
        return False
    viewable = {s["target_id"] for s in shares_of(store, user, ACCOUNT) if _RANKS[s["level"]] >= _RANKS[VIEW]}
    return any(account["id"] in viewable for account in accounts_of(store, resource))


def can_access_account(store, user, resource, account, level):
    """True when ``user`` may use ``account`` of ``resource`` at ``level`` (remoteapponly, view,
    modify, fullaccess): through the resource, or through a share of the account itself."""
    if level not in _RANKS:
        raise ValueError(f"unknown access level {level}")
    if _reaches_fully(user, resource):
        return True
    return max(_resource_rank(store, user, resource), _account_rank(store, user, account)) >= _RANKS[level]


def require_access(store, user, resource, level, action):
    """Fail with "You are not authorized to <action>" unless ``can_access``."""
    if not can_access(store, user, resource, level):
        raise Failure(f"You are not authorized to {action}")


def require_account_access(store, user, resource, account, level, action):
    """Fail with "You are not authorized to <action>" unless ``can_access_account``."""
    if not can_access_account(store, user, resource, account, level):
        raise Failure(f"You are not authorized to {action}")


def require_user_manager(user, action):
    """Only an Administrator or Privileged Administrator manages users, user groups and group shares."""
    if user["role"] not in USER_MANAGING_ROLES:
        raise Failure(f"You are not authorized to {action}")


def _reaches_fully(user, resource):
    return user["role"] in FULL_REACH_ROLES or resource["owner_id"] == user["id"]


def _strongest(shares):
    return max((_RANKS[s["level"]] for s in shares), default=_NONE)


def _resource_rank(store, user, resource):
    direct = [s for s in shares_of(store, user, RESOURCE) if s["target_id"] == resource["id"]]
    through_groups = [
        s
        for s in shares_of(store, user, RESOURCE_GROUP)
        if resource["id"] in members_of(store, store.get(RESOURCE_GROUP, s["target_id"]))
    ]
    return _strongest(direct + through_groups)


def _account_rank(store, user, account):
    return _strongest(s for s in shares_of(store, user, ACCOUNT) if s["target_id"] == account["id"])
