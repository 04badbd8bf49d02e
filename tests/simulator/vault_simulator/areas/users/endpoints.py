"""Users and API users: create, look up, list, delete, lock, unlock, reset MFA.

Only an Administrator or Privileged Administrator manages or lists users;
any user may look up a user's id.
"""

import re

from vault_simulator.core.access import DEFAULT_ROLE, ROLES, require_user_manager
from vault_simulator.core.authentication import ADMIN_NAME, issue_token, new_user
from vault_simulator.core.finders import existing_user, existing_user_by_name, require_policy, user_by_name
from vault_simulator.core.inputs import flag, required_text, text
from vault_simulator.core.list_search import search_page
from vault_simulator.core.records import RESOURCE, USER
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.removals import remove
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.timefmt import millis_time

_EXPIRY_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|NeverExpires")
# "searchColumn for users is one of ..." (spec, after the users and user groups table).
USER_SEARCH_COLUMNS = (
    "userId",
    "userName",
    "email",
    "role",
    "department",
    "location",
    "orgName",
    "isApiUser",
    "isTfaEnabled",
    "isSuperAdmin",
    "isUserLocked",
)


@endpoint("POST", "/user", op="CREATE_USER", builds=ANY_BUILD)
def create_user(ctx):
    """Only an Administrator or Privileged Administrator may create users.

    With ISAPIUSER ``true`` Details.AUTHTOKEN is the new user's token, usable at
    once. Otherwise FIRSTNAME, LASTNAME and PASSWORD are required; edition B
    does not require PASSWORD. Edition B adds Details.USERID.
    """
    require_user_manager(ctx.user, "create users")
    details = ctx.details
    name = required_text(details, "USERNAME")
    if user_by_name(ctx.store, name) is not None:
        raise Failure(f"User {name} already exists")
    role = text(details, "ROLE").strip() or DEFAULT_ROLE
    if role not in ROLES:
        raise Failure(f"ROLE must be one of {', '.join(ROLES)}")
    is_api_user = flag(details, "ISAPIUSER")
    if not is_api_user:
        _require_person_fields(ctx)
    policy = text(details, "POLICY")
    expiry_date = text(details, "EXPIRYDATE").strip() or "NeverExpires"
    if not _EXPIRY_DATE.fullmatch(expiry_date):
        raise Failure("EXPIRYDATE must be yyyy-mm-dd or NeverExpires")
    user = new_user(
        ctx.store,
        name,
        role,
        is_api_user,
        first_name=text(details, "FIRSTNAME"),
        last_name=text(details, "LASTNAME"),
        full_name=text(details, "FULLNAME"),
        email=text(details, "EMAIL"),
        department=text(details, "DEPARTMENT"),
        location=text(details, "LOCATION"),
        policy=require_policy(policy) if policy else "",
        is_super_admin=flag(details, "ISSUPERADMIN"),
        expiry_date=expiry_date,
    )
    reply_details = {}
    if ctx.config.edition == "B":
        reply_details["USERID"] = user["id"]
    if is_api_user:
        reply_details["AUTHTOKEN"] = issue_token(ctx.store, ctx.rng, user["id"])
    return success(f"User {name} has been added successfully", reply_details or None)


@endpoint("GET", "/user/getUserId", op="get_USERID", builds=ANY_BUILD)
def user_id_of_name(ctx):
    """USERNAME comes from the query."""
    user = existing_user_by_name(ctx.store, required_text(ctx.query, "USERNAME"))
    return success("User ID fetched successfully", {"USERID": user["id"]})


@endpoint("DELETE", "/user/<user_id>", op="DELETE USER", builds=ANY_BUILD)
def delete_user_by_id(ctx, user_id):
    """See ``_delete_user``."""
    require_user_manager(ctx.user, "delete users")
    return _delete_user(ctx, existing_user(ctx.store, user_id))


@endpoint("DELETE", "/user", op="DELETE USER", builds=ANY_BUILD)
def delete_user_by_name(ctx):
    """USERNAME comes from the query. See ``_delete_user``."""
    require_user_manager(ctx.user, "delete users")
    return _delete_user(ctx, existing_user_by_name(ctx.store, required_text(ctx.query, "USERNAME")))


@endpoint("PUT", "/user/lock", op="LOCK USER", builds=ANY_BUILD)
def lock_user(ctx):
    """USERNAME comes from the query. A locked user's AUTHTOKEN is refused (isUserLocked
    true) until unlocked. Nobody locks themselves, nor the built-in admin, whose token
    also drives the simulator's admin endpoints. Locking a locked user succeeds."""
    user = _managed_user(ctx, "lock users")
    if user["name"] == ADMIN_NAME:
        raise Failure(f"The built-in administrator {ADMIN_NAME} cannot be locked")
    if user["id"] == ctx.user["id"]:
        raise Failure("You cannot lock your own account")
    user["locked"] = True
    ctx.store.put(USER, user["id"], user)
    return success(f"The account of user {user['name']} is locked")


@endpoint("PUT", "/user/unlock", op="UNLOCK USER", builds=ANY_BUILD)
def unlock_user(ctx):
    """USERNAME comes from the query; unlocking an unlocked user succeeds."""
    user = _managed_user(ctx, "unlock users")
    user["locked"] = False
    ctx.store.put(USER, user["id"], user)
    return success(f"The account of user {user['name']} is unlocked")


@endpoint("PUT", "/user/resetMFA", op="Reset MFA", builds={"A": 12100, "B": 5400})
def reset_mfa(ctx):
    """USERNAME comes from the query. The user enrolls a second factor again at the next
    login (not simulated); isTfaEnabled is unchanged, the reset is audited."""
    user = _managed_user(ctx, "reset the two-factor authentication of users")
    return success(f"Two-factor authentication of user {user['name']} has been reset")


@endpoint("GET", "/user", op="GET_USER(S)", builds={"B": 6320})
def list_users(ctx):
    """Optional ``details``: limit, startIndex, searchValue, searchColumn, searchOperator (see
    ``core.list_search``). Users are not partitioned by organization: every user belongs to the
    selected one, so searchColumn orgName compares with its display name."""
    require_user_manager(ctx.user, "list users")
    items = [_user_item(user) for user in ctx.store.all(USER)]
    org_name = ctx.org["displayName"]
    page, total = search_page(
        ctx.details,
        items,
        USER_SEARCH_COLUMNS,
        "userName",
        lambda item, column: org_name if column == "orgName" else item[column],
    )
    return success("Users fetched successfully", page, totalRows=total)


def _managed_user(ctx, action):
    require_user_manager(ctx.user, action)
    user = existing_user_by_name(ctx.store, required_text(ctx.query, "USERNAME"))
    ctx.audit["username"] = user["name"]
    return user


def _delete_user(ctx, user):
    """Delete ``user`` with what goes with them (``core.removals``): the shares and certificate
    shares given to them, their group memberships and password requests; their AUTHTOKENs stop
    working.

    The built-in admin and the caller cannot be deleted. The spec is silent on the
    resources the user owns: the deleting administrator becomes their owner.
    """
    ctx.audit["username"] = user["name"]
    if user["name"] == ADMIN_NAME:
        raise Failure(f"The built-in administrator {ADMIN_NAME} cannot be deleted")
    if user["id"] == ctx.user["id"]:
        raise Failure("You cannot delete yourself")
    for resource in ctx.store.all(RESOURCE):
        if resource["owner_id"] == user["id"]:
            resource["owner_id"] = ctx.user["id"]
            ctx.store.put(RESOURCE, resource["id"], resource)
    remove(ctx.store, USER, user)
    return success(f"User {user['name']} has been deleted successfully")


def _user_item(user):
    """A user as the spec's "User (list item, edition B)": userId a number, flags booleans,
    trustScore ``N/A`` (no trust scoring is simulated), no add-on or mobile access."""
    return {
        "userId": int(user["id"]),
        "userName": user["name"],
        "role": user["role"],
        "location": user["location"],
        "department": user["department"],
        "email": user["email"],
        "trustScore": "N/A",
        "isApiUser": user["is_api_user"],
        "isSuperAdmin": user["is_super_admin"],
        "isTfaEnabled": False,
        "isUserLocked": user.get("locked", False),
        "isAddonAccessEnabled": False,
        "isMobileAccessEnabled": False,
        "dateCreated": millis_time(user["created"]),
    }


def _require_person_fields(ctx):
    required = ("FIRSTNAME", "LASTNAME", "PASSWORD") if ctx.config.edition == "A" else ("FIRSTNAME", "LASTNAME")
    missing = [key for key in required if not text(ctx.details, key).strip()]
    if missing:
        raise Failure(f"{', '.join(missing)} required to create a user who is not an API user")
