"""GET /getPGPKey (edition B from 6200): the PGP key of a vault user, as an armored file.

The vault holds one PGP key per user; the spec has no endpoint that creates
one, so it is made on the first fetch of an existing user (RSA 2048, from
the simulator's randomness, so ``--seed`` reproduces it) and kept.

Details.User is the user identity string, "escape special characters with a
backslash": a backslash makes the next character literal and is dropped. The
identity is the key's User ID, ``<Full Name> <<email>>`` (the full name, else
first and last name, else the user name), or just the user name when the
user has no e-mail address; the plain user name is accepted too.

Details.keyExportType is ``public`` (the default) or ``private`` (the secret
key, not protected by a passphrase: see ``openpgp``). Anyone may fetch a
public key; a private key only its own user or an Administrator or
Privileged Administrator.
"""

import time

from cryptography.hazmat.primitives import serialization

from vault_simulator.areas.pgp_keys.openpgp import armored_private_key, armored_public_key
from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.records import PGP_KEY, USER
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import Failure, FileReply
from vault_simulator.core.seeded_keys import rsa_key
from vault_simulator.core.styles import PKI

PGP_KEY_BITS = 2048
PUBLIC, PRIVATE = "public", "private"


@endpoint("GET", "/getPGPKey", op="GetPGPKey", builds={"B": 6200}, style=PKI)
def get_pgp_key(ctx):
    identity = unescaped(required_text(ctx.details, "User"))
    export_type = text(ctx.details, "keyExportType").strip() or PUBLIC
    if export_type not in (PUBLIC, PRIVATE):
        raise Failure(f"keyExportType must be {PUBLIC} or {PRIVATE}")
    user = _user_of_identity(ctx.store, identity)
    if user is None:
        raise Failure(f"User {identity} does not exist")
    ctx.audit["username"] = user["name"]
    if export_type == PRIVATE and user["id"] != ctx.user["id"] and ctx.user["role"] not in FULL_REACH_ROLES:
        raise Failure(f"You are not authorized to export the private PGP key of {identity}")
    record = ctx.store.get(PGP_KEY, user["id"]) or _new_pgp_key(ctx, user)
    private_key = serialization.load_pem_private_key(record["private_key"].encode("ascii"), None)
    armor = armored_private_key if export_type == PRIVATE else armored_public_key
    content = armor(private_key, record["identity"], record["created"])
    return FileReply(f"{user['name']}_{export_type}.asc", content.encode("utf-8"), "application/pgp-keys")


def unescaped(identity):
    """``identity`` with each backslash escape replaced by the character it escapes."""
    characters, escaping = [], False
    for character in identity:
        if escaping or character != "\\":
            characters.append(character)
        escaping = not escaping and character == "\\"
    if escaping:
        raise Failure("User ends with a lone backslash: escape a backslash as \\\\")
    return "".join(characters)


def _user_of_identity(store, identity):
    """The oldest user whose name or identity (``user_identity``) is ``identity``: found by name, or by each
    e-mail address the identity can end with (what follows a `` <``, up to the closing ``>``)."""
    candidates = store.where(USER, name=identity)
    if identity.endswith(">"):
        emails = {identity[at + 2 : -1] for at in range(len(identity)) if identity.startswith(" <", at)}
        candidates += [user for email in emails for user in store.where(USER, email=email)]
    matches = [user for user in candidates if identity in (user["name"], user_identity(user))]
    return min(matches, key=lambda user: int(user["id"]), default=None)


def user_identity(user):
    """``Full Name <email>``, or the user name for a user without e-mail address."""
    if not user.get("email"):
        return user["name"]
    full_name = user.get("full_name") or f"{user.get('first_name', '')} {user.get('last_name', '')}".strip()
    return f"{full_name or user['name']} <{user['email']}>"


def _new_pgp_key(ctx, user):
    private_key = rsa_key(ctx.rng, PGP_KEY_BITS, ctx.config.seed is not None)
    record = {
        "user_id": user["id"],
        "identity": user_identity(user),
        "created": int(time.time()),
        "private_key": private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode("ascii"),
    }
    ctx.store.put(PGP_KEY, user["id"], record)
    return record
