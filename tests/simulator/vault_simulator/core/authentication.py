"""Who is calling: users (kind ``user``), their AUTHTOKENs (kind ``token``, keyed by the
token itself) and the built-in administrator every simulator starts with.

The user record is written here because the core makes the first user (``admin``)
and authenticates every request; the users area creates, changes and deletes users.
A removed user's tokens stop working.

A user's ``allowed_hosts`` (IP addresses or networks; none: any address) restricts
where its tokens may be used from, as a real vault's API user is restricted to its
host: set by the seed file (``allowed_hosts``) or ``PUT /__simulator/users/<name>/allowed-hosts``
``{"hosts": [...]}`` (``GET`` reads them, an empty list lifts the restriction).
"""

import ipaddress
import uuid

from flask import jsonify, request

from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.finders import user_by_name
from vault_simulator.core.records import ADMIN_TOKEN, TOKEN, USER
from vault_simulator.core.removals import when_removed
from vault_simulator.core.simulator import current_simulator
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


def allowed_hosts(hosts):
    """``hosts`` checked: a list of IP addresses or networks (``10.0.0.5``, ``10.0.0.0/24``), returned as
    their normal text; raises ``ValueError`` naming the first that is not one."""
    if not isinstance(hosts, list):
        raise ValueError("allowed hosts must be a list of IP addresses or networks")
    checked = []
    for host in hosts:
        try:
            checked.append(str(ipaddress.ip_network(str(host).strip(), strict=False)))
        except ValueError:
            raise ValueError(f"{host!r} is not an IP address or network") from None
    return checked


def allowed_from(user, address):
    """True when ``user``'s tokens may be used from ``address``: it has no ``allowed_hosts``, or one holds it."""
    hosts = user.get("allowed_hosts") or []
    if not hosts:
        return True
    try:
        caller = ipaddress.ip_address(address)
    except ValueError:
        return False
    if caller.version == 6 and caller.ipv4_mapped:
        caller = caller.ipv4_mapped
    return any(caller in ipaddress.ip_network(host) for host in hosts)


@admin_blueprint.get("/users/<user_name>/allowed-hosts")
def get_allowed_hosts(user_name):
    user = user_by_name(current_simulator().store, user_name)
    if user is None:
        return jsonify({"error": f"no user {user_name}"}), 404
    return jsonify({"hosts": user.get("allowed_hosts") or []})


@admin_blueprint.put("/users/<user_name>/allowed-hosts")
def put_allowed_hosts(user_name):
    """Restrict the user's tokens to ``{"hosts": [...]}``; an empty list lifts the restriction."""
    document = request.get_json(silent=True)
    if not isinstance(document, dict) or "hosts" not in document:
        return jsonify({"error": 'expected {"hosts": [IP addresses or networks]}'}), 400
    try:
        hosts = allowed_hosts(document["hosts"])
    except ValueError as error:
        return jsonify({"error": str(error)}), 400
    store = current_simulator().store
    with store.transaction():
        user = user_by_name(store, user_name)
        if user is None:
            return jsonify({"error": f"no user {user_name}"}), 404
        user["allowed_hosts"] = hosts
        store.put(USER, user["id"], user)
    return jsonify({"hosts": hosts})
