"""Who is calling: users (kind ``user``), their AUTHTOKENs (kind ``token``, keyed by the
token itself) and the built-in administrator every simulator starts with.

The user record is written here because the core makes the first user (``admin``)
and authenticates every request; the users area creates, changes and deletes users.
A removed user's tokens stop working.
"""

import uuid

from vault_simulator.core.finders import user_by_name
from vault_simulator.core.records import ADMIN_TOKEN, TOKEN, USER
from vault_simulator.core.removals import when_removed
from vault_simulator.core.timefmt import now_iso

ADMIN_NAME = "admin"
ADMIN_ROLE = "Privileged Administrator"
_ADMIN_TOKEN_ID = "current"


def new_user(store, name, role, is_api_user, **profile):
    """Store a user; ``profile`` holds the optional create-user fields."""
    user = {
        "id": store.next_id(USER),
        "name": name,
        "role": role,
        "is_api_user": is_api_user,
        "first_name": profile.get("first_name", ""),
        "last_name": profile.get("last_name", ""),
        "full_name": profile.get("full_name", ""),
        "email": profile.get("email", ""),
        "department": profile.get("department", ""),
        "location": profile.get("location", ""),
        "policy": profile.get("policy", ""),
        "is_super_admin": profile.get("is_super_admin", False),
        "expiry_date": profile.get("expiry_date", "NeverExpires"),
        "created": now_iso(),
    }
    store.put(USER, user["id"], user)
    return user


def ensure_admin(store, rng, token=None):
    """Create the ``admin`` API user on first start; return its AUTHTOKEN.

    A given ``token`` replaces the stored one; otherwise a kept state keeps
    its token, and a new state gets a random one.
    """
    with store.transaction():
        admin = user_by_name(store, ADMIN_NAME)
        if admin is None:
            admin = new_user(store, ADMIN_NAME, ADMIN_ROLE, True, full_name="Administrator")
        current = store.get(ADMIN_TOKEN, _ADMIN_TOKEN_ID)
        if current and (token is None or token == current["token"]):
            return current["token"]
        if current:
            store.delete(TOKEN, current["token"])
        token = issue_token(store, rng, admin["id"], token)
        store.put(ADMIN_TOKEN, _ADMIN_TOKEN_ID, {"token": token})
        return token


def new_token(rng):
    """A fresh token shaped like the vault's: upper-case hex with dashes."""
    return str(uuid.UUID(bytes=rng.token_bytes(16), version=4)).upper()


def issue_token(store, rng, user_id, token=None):
    token = token or new_token(rng)
    store.put(TOKEN, token, {"user_id": user_id, "token": token})
    return token


@when_removed(USER)
def revoke_tokens(store, user):
    """Delete every AUTHTOKEN of ``user``."""
    for record in store.all(TOKEN):
        if record["user_id"] == user["id"] and "token" in record:
            store.delete(TOKEN, record["token"])


def user_of_token(store, token):
    """The user a token belongs to, or ``None`` for a missing or unknown token."""
    if not token:
        return None
    record = store.get(TOKEN, token)
    return None if record is None else store.get(USER, record["user_id"])
