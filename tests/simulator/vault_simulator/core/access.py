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

from functools import cached_property

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
    return Reach(store, user).can_access(resource, level)


def can_access_account(store, user, resource, account, level):
    """True when ``user`` may use ``account`` of ``resource`` at ``level`` (remoteapponly, view,
    modify, fullaccess): through the resource, or through a share of the account itself."""
    return Reach(store, user).can_access_account(resource, account, level)


class Reach:
    """What ``user`` reaches, with the shares given to them (and their groups' members) read once, on first need:
    one ``Reach`` answers for every item of a list as ``can_access`` does for one."""

    def __init__(self, store, user):
        self.store = store
        self.user = user

    def can_access(self, resource, level):
        """As the module's ``can_access``."""
        if level not in (VIEW, MODIFY, FULL_ACCESS):
            raise ValueError(f"unknown access level {level}")
        if _reaches_fully(self.user, resource):
            return True
        if self._resource_ranks.get(resource["id"], _NONE) >= _RANKS[level]:
            return True
        return level == VIEW and resource["id"] in self._resources_of_viewable_accounts

    def can_access_account(self, resource, account, level):
        """As the module's ``can_access_account``."""
        if level not in _RANKS:
            raise ValueError(f"unknown access level {level}")
        if _reaches_fully(self.user, resource):
            return True
        ranks = (self._resource_ranks.get(resource["id"], _NONE), self._account_ranks.get(account["id"], _NONE))
        return max(ranks) >= _RANKS[level]

    @cached_property
    def _resource_ranks(self):
        """Resource id: the strongest rank of the shares of that resource and of the resource groups holding it."""
        ranks = {}
        for share in shares_of(self.store, self.user, RESOURCE):
            _strengthen(ranks, share["target_id"], share["level"])
        for share in shares_of(self.store, self.user, RESOURCE_GROUP):
            for resource_id in members_of(self.store, self.store.get(RESOURCE_GROUP, share["target_id"])):
                _strengthen(ranks, resource_id, share["level"])
        return ranks

    @cached_property
    def _account_ranks(self):
        """Account id: the strongest rank of the shares of that account."""
        ranks = {}
        for share in shares_of(self.store, self.user, ACCOUNT):
            _strengthen(ranks, share["target_id"], share["level"])
        return ranks

    @cached_property
    def _resources_of_viewable_accounts(self):
        """The ids of the resources one of whose accounts the user may view through a share of that account."""
        viewable = [account_id for account_id, rank in self._account_ranks.items() if rank >= _RANKS[VIEW]]
        accounts = [self.store.get(ACCOUNT, account_id) for account_id in viewable]
        return {account["resource_id"] for account in accounts if account is not None}


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


def _strengthen(ranks, target_id, level):
    ranks[target_id] = max(ranks.get(target_id, _NONE), _RANKS[level])
