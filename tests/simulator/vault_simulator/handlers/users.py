"""Creating users and API users, and looking up a user's id."""
import re

from vault_simulator.access import DEFAULT_ROLE, ROLES, USER_MANAGING_ROLES
from vault_simulator.inputs import flag, required_text, text
from vault_simulator.lookups import existing_user_by_name, require_policy, user_by_name
from vault_simulator.registry import ANY_BUILD, endpoint
from vault_simulator.replies import Failure, success
from vault_simulator.tokens import issue_token
from vault_simulator.user_records import new_user

_EXPIRY_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|NeverExpires")


@endpoint("POST", "/user", op="CREATE_USER", builds=ANY_BUILD)
def create_user(ctx):
    """Only an Administrator or Privileged Administrator may create users.

    With ISAPIUSER ``true`` Details.AUTHTOKEN is the new user's token, usable at
    once. Otherwise FIRSTNAME, LASTNAME and PASSWORD are required; edition B
    does not require PASSWORD. Edition B adds Details.USERID.
    """
    if ctx.user["role"] not in USER_MANAGING_ROLES:
        raise Failure("You are not authorized to create users")
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
        ctx.store, name, role, is_api_user,
        first_name=text(details, "FIRSTNAME"), last_name=text(details, "LASTNAME"),
        full_name=text(details, "FULLNAME"), email=text(details, "EMAIL"),
        department=text(details, "DEPARTMENT"), location=text(details, "LOCATION"),
        policy=require_policy(policy) if policy else "", is_super_admin=flag(details, "ISSUPERADMIN"),
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


def _require_person_fields(ctx):
    required = ("FIRSTNAME", "LASTNAME", "PASSWORD") if ctx.config.edition == "A" else ("FIRSTNAME", "LASTNAME")
    missing = [key for key in required if not text(ctx.details, key).strip()]
    if missing:
        raise Failure(f"{', '.join(missing)} required to create a user who is not an API user")
