"""Who may see and use which resource.

Administrator and Privileged Administrator reach everything; any other role
reaches only the resources it owns (RESOURCE OWNER). Sharing will extend
``can_access``; every check goes through it. The levels asked for:
``view`` to list, read and retrieve; ``modify`` to change a password or edit
an account; ``fullaccess`` to edit or delete a resource and add or delete
its accounts.
"""
from vault_simulator.replies import Failure

ROLES = ("Password User", "Password Auditor", "Password Administrator", "Administrator",
         "Privileged Administrator")
DEFAULT_ROLE = "Password User"
# Roles that must name an OWNERNAME when they create a resource (spec, Authentication 7).
OWNER_NAMING_ROLES = ("Administrator", "Password Administrator", "Privileged Administrator")
FULL_REACH_ROLES = ("Administrator", "Privileged Administrator")
USER_MANAGING_ROLES = ("Administrator", "Privileged Administrator")

# Access levels, weakest first, as the spec's sharing names them.
VIEW = "view"
MODIFY = "modify"
FULL_ACCESS = "fullaccess"


def can_access(user, resource, level):
    """True when ``user`` may use ``resource`` at ``level`` (view, modify, fullaccess)."""
    if level not in (VIEW, MODIFY, FULL_ACCESS):
        raise ValueError(f"unknown access level {level}")
    return user["role"] in FULL_REACH_ROLES or resource["owner_id"] == user["id"]


def require_access(user, resource, level, action):
    """Fail with "You are not authorized to <action>" unless ``can_access``."""
    if not can_access(user, resource, level):
        raise Failure(f"You are not authorized to {action}")
