"""Stored users, and the built-in administrator every simulator starts with."""
from vault_simulator.lookups import USER, user_by_name
from vault_simulator.timefmt import now_iso
from vault_simulator.tokens import TOKEN, issue_token

ADMIN_NAME = "admin"
ADMIN_ROLE = "Privileged Administrator"


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
        current = store.get("admin_token", "current")
        if current and (token is None or token == current["token"]):
            return current["token"]
        if current:
            store.delete(TOKEN, current["token"])
        token = issue_token(store, rng, admin["id"], token)
        store.put("admin_token", "current", {"token": token})
        return token
