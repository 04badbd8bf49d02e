# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Exporting SSH keys (``POST /exportSSHKey``) and PGP keys (``GET /getPGPKey``): "the key file".

SSH keys: Details.keyName, and "edition B also keyExportType (public or private)",
a field from B 6200. keyExportType is sent when a public key is asked for, or when
the configured vault has the field; so ``public`` on edition A or an older B build
is refused before sending by the client's field gate. A private key on a vault
without the field is "the file the vault returns", the key file itself.

Whatever was sent, the file is checked to be of the kind asked for, by its PEM or
OpenSSH armor: a public export holding private key material is refused, so no
private key is ever written or returned where a public one was asked for.

PGP keys (B 6200): Details.User is the "user identity string; escape special
characters with a backslash". The vault's unescaping (the simulator's
``areas/pgp_keys``) drops each backslash and keeps the next character literally,
so escaping any character is harmless; the characters escaped are the backslash
and the other "specials" of an address (RFC 5322 3.2.3), the characters a user
identity ``Full Name <mail@example.com>`` gives a meaning to: ``()<>[]:;@\\,."``.

No message holds key material.
"""

from __future__ import annotations

from ._errors import VaultNotFoundError, VaultResponseError, VaultUnsupportedError

PUBLIC, PRIVATE = "public", "private"
EXPORT_TYPES = (PUBLIC, PRIVATE)
SPECIALS = '()<>[]:;@\\,."'
_PRIVATE_MARKER = b"PRIVATE KEY"  # PEM, OpenSSH ("OPENSSH PRIVATE KEY") and PGP ("PRIVATE KEY BLOCK") armor


def escape_identity(identity):
    """``identity`` with a backslash before each of ``SPECIALS``."""
    return "".join("\\" + character if character in SPECIALS else character for character in identity)


def has_export_types(client):
    """True when the configured vault has keyExportType (B 6200); False for a vault of unknown edition or build."""
    if client.edition is None or client.build is None:
        return False
    try:
        client.check_supported("export_ssh_key", {"keyName": "", "keyExportType": PUBLIC})
    except VaultUnsupportedError:
        return False
    return True


def require_ssh_key(client, name):
    """Refuse a key ``name`` that ``GetAllSSHKeys`` does not list (``VaultNotFoundError``)."""
    names = [item.get("KeyName") for item in client.call("get_all_ssh_keys").details_list()]
    if name not in names:
        raise VaultNotFoundError("SSH key %s does not exist (or is not visible to this token)" % name)


def export_input(client, name, export_type):
    """The exportSSHKey Details: keyName, and keyExportType for a public key or a vault that has the field."""
    details = {"keyName": name}
    if export_type == PUBLIC or has_export_types(client):
        details["keyExportType"] = export_type
    return details


def export_ssh_key(client, name, export_type):
    """The bytes of the ``export_type`` key file of the SSH key ``name``; a missing key is ``VaultNotFoundError``."""
    details = export_input(client, name, export_type)
    client.check_supported("export_ssh_key", details)
    require_ssh_key(client, name)
    content = client.call("export_ssh_key", details=details).content or b""
    return checked_kind(content, export_type, "SSH key %s" % name)


def export_pgp_key(client, identity, export_type):
    """The bytes of the ``export_type`` key file of the PGP key of the user ``identity`` (unescaped)."""
    details = {"User": escape_identity(identity), "keyExportType": export_type}
    content = client.call("get_pgp_key", details=details).content or b""
    return checked_kind(content, export_type, "the PGP key of %s" % identity)


def is_private(content):
    return _PRIVATE_MARKER in content


def checked_kind(content, export_type, label):
    """``content`` when it is a key file of ``export_type``; refused, without showing it, otherwise."""
    if not content.strip():
        raise VaultResponseError("the vault returned an empty file for %s" % label)
    if export_type == PUBLIC and is_private(content):
        raise VaultResponseError(
            "the vault returned a private key file for the public key of %s; it is neither written nor returned" % label
        )
    if export_type == PRIVATE and not is_private(content):
        raise VaultResponseError("the vault returned no private key file for the private key of %s" % label)
    return content
