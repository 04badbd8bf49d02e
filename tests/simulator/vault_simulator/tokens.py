"""AUTHTOKEN values and their owners (kind ``token``, keyed by the token itself)."""
import uuid

TOKEN = "token"


def new_token(rng):
    """A fresh token shaped like the vault's: upper-case hex with dashes."""
    return str(uuid.UUID(bytes=rng.token_bytes(16), version=4)).upper()


def issue_token(store, rng, user_id, token=None):
    token = token or new_token(rng)
    store.put(TOKEN, token, {"user_id": user_id, "token": token})
    return token


def revoke_tokens(store, user_id):
    """Delete every AUTHTOKEN of ``user_id``."""
    for record in store.all(TOKEN):
        if record["user_id"] == user_id and "token" in record:
            store.delete(TOKEN, record["token"])


def user_of_token(store, token):
    """The user a token belongs to, or ``None`` for a missing or unknown token."""
    if not token:
        return None
    record = store.get(TOKEN, token)
    return None if record is None else store.get("user", record["user_id"])
