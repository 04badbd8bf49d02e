# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The SSH and PGP key rows of the catalogue ("SSH and PGP keys", ``{pki_root}``), one function each.

An SSH key list item is ``KeyName, KeyType, KeyLength, FingerPrint, CreatedBy, CreationTime`` and
``isPassphraseAvailable``; "an association is a (keyName, resourceName, userName) triple".
"""

from __future__ import annotations

from ._declare import declares


@declares("create_ssh_key")
def create_ssh_key(call, details) -> None:
    """CreateSSHKey: Details ``keyName``, ``keyType``, ``passPhrase``, ``length`` (not for ed25519), ``comment``."""
    call(details=details)


@declares("import_ssh_key")
def import_ssh_key(call, key_name, passphrase, files) -> None:
    """addSSHKey: Details ``keyName`` and ``passphrase`` (of the file); ``files`` ``{name: bytes}``, the private key
    file, goes in the multipart part ``File``."""
    call(details={"keyName": key_name, "passphrase": passphrase}, files=files)


@declares("delete_ssh_key")
def delete_ssh_key(call, key_name, keep_associations=False) -> None:
    """DeleteSSHKey: Details ``key_name`` (the spec's spelling here), and ``withoutDisassociation`` ``"true"`` to
    keep the key's associations (``keep_associations``)."""
    details = {"key_name": key_name}
    if keep_associations:
        details["withoutDisassociation"] = "true"
    call(details=details)


@declares("get_all_ssh_keys")
def get_all_ssh_keys(call) -> list[dict]:
    """GetAllSSHKeys: every SSH key list item (Details items)."""
    return call().details_list()


@declares("get_ssh_key")
def get_ssh_key(call, key_name) -> list[dict]:
    """GetSSHKey (GET in edition A, POST in B): Details ``keyName``; the list items answered (Details)."""
    return call(details={"keyName": key_name}).details_list()


@declares("export_ssh_key")
def export_ssh_key(call, details) -> bytes:
    """ExportSSHKey: the bytes of the key file answered (empty when none came). Details ``keyName``, and
    ``keyExportType`` (``public`` or ``private``), a field of edition B from build 6200."""
    return call(details=details).content or b""


@declares("get_ssh_keys_for_user")
def get_ssh_keys_for_user(call, user_name, resource_name) -> list[str]:
    """GetSSHKeysForUser: Details ``userName``, ``resourceName``; the key names of the user on the resource.

    The spec's "details: comma-separated key names" is split here (blank names left out); an answer whose Details
    is a list of names is taken as it is."""
    details = call(details={"userName": user_name, "resourceName": resource_name}).details
    if isinstance(details, list):
        return [str(name) for name in details if str(name).strip()]
    return [name.strip() for name in str(details or "").split(",") if name.strip()]


@declares("get_all_associated_users")
def get_all_associated_users(call) -> list[dict]:
    """GetAllAssociatedUsers: the ``{UserName, ResourceName}`` pairs with at least one key (Details items)."""
    return call().details_list()


def _association(key_name, resource_name, user_name):
    return {"keyName": key_name, "resourceName": resource_name, "userName": user_name}


@declares("associate_ssh_key")
def associate_ssh_key(call, key_name, resource_name, user_name) -> None:
    """associateKey: Details ``keyName``, ``resourceName``, ``userName``."""
    call(details=_association(key_name, resource_name, user_name))


@declares("dissociate_ssh_key")
def dissociate_ssh_key(call, key_name, resource_name, user_name) -> None:
    """dissociateKey: Details ``keyName``, ``resourceName``, ``userName``."""
    call(details=_association(key_name, resource_name, user_name))


@declares("get_pgp_key")
def get_pgp_key(call, user, export_type) -> bytes:
    """GetPGPKey (B 6200): the bytes of the key file answered (empty when none came). Details ``User``, the "user
    identity string" with its special characters escaped by the caller, and ``keyExportType``."""
    return call(details={"User": user, "keyExportType": export_type}).content or b""
