"""Stored SSH keys (kind ``ssh_key``) and their associations (kind ``ssh_key_association``).

A key record holds the public key line and the private key file (encrypted
when the key has a passphrase) and the passphrase, which no endpoint shows:
the simulator uses it, as the vault does, to log in with the key for a remote
password reset (``passwords.remote_login``). Key names
are unique in the vault; keys belong to no organization. An association links
a key to an account (the SSH login ``userName``) of a resource by their ids,
so renaming the resource shows under the new name.

The key store is administered by Administrators and Privileged
Administrators: the spec does not say which role may call which endpoint, and
the private keys are the vault's most sensitive secrets. A removed account
takes its associations with it.
"""

from vault_simulator.areas.ssh_keys.key_material import describe, fingerprint, public_key_line
from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.records import ACCOUNT, SSH_KEY, SSH_KEY_ASSOCIATION
from vault_simulator.core.removals import delete_where, when_removed
from vault_simulator.core.replies import Failure
from vault_simulator.core.timefmt import millis_time, now_iso

# "status is Success on success (SUCCESS in the SSH import, associate and dissociate responses)".
UPPER_CASE_SUCCESS = "SUCCESS"


def require_key_manager(user, action):
    """Fail with "You are not authorized to <action>" unless ``user`` administers the key store."""
    if user["role"] not in FULL_REACH_ROLES:
        raise Failure(f"You are not authorized to {action}")


def key_by_name(store, name):
    """The SSH key called ``name`` or ``None``."""
    return next(iter(store.where(SSH_KEY, name=name)), None)


def existing_key(store, name):
    key = key_by_name(store, name)
    if key is None:
        raise Failure(f"SSH key {name} does not exist")
    return key


def require_new_key_name(store, name):
    if key_by_name(store, name) is not None:
        raise Failure(f"SSH key {name} already exists")
    return name


def save_key(ctx, name, private_key, private_file, passphrase="", comment=""):
    """Store a new key made or imported by the caller; return its record."""
    key_type, bits = describe(private_key)
    record = {
        "id": ctx.store.next_id(SSH_KEY),
        "name": name,
        "type": key_type,
        "length": bits,
        "fingerprint": fingerprint(private_key),
        "public_key": public_key_line(private_key, comment),
        "private_key": private_file,
        "has_passphrase": bool(passphrase),
        "passphrase": passphrase,
        "created_by": ctx.user["name"],
        "created": now_iso(),
    }
    ctx.store.put(SSH_KEY, record["id"], record)
    return record


def ssh_key_list_item(key):
    """An "SSH key (list item)": all strings but ``isPassphraseAvailable``; CreationTime ``YYYY-MM-DD HH:MM:SS.fff``
    (the spec shows no format; the one of the other creation times)."""
    return {
        "KeyName": key["name"],
        "KeyType": key["type"],
        "KeyLength": str(key["length"]),
        "FingerPrint": key["fingerprint"],
        "CreatedBy": key["created_by"],
        "CreationTime": millis_time(key["created"]),
        "isPassphraseAvailable": key["has_passphrase"],
    }


def associations_of_key(store, key):
    return [a for a in store.all(SSH_KEY_ASSOCIATION) if a["key_id"] == key["id"]]


def associations_of_account(store, account):
    return [a for a in store.all(SSH_KEY_ASSOCIATION) if a["account_id"] == account["id"]]


@when_removed(ACCOUNT)
def forget_account_associations(store, account):
    delete_where(store, SSH_KEY_ASSOCIATION, lambda a: a["account_id"] == account["id"])
