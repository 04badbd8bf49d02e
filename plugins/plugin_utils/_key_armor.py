# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The kind of a key file, told by its armor: a public or a private key.

A file is private when it holds the PEM, OpenSSH or PGP private key armor (``PRIVATE KEY``, ``OPENSSH PRIVATE KEY``,
``PGP PRIVATE KEY BLOCK``). Whatever was asked of the vault, the file it returns is checked to be of that kind: a
public export holding private key material is refused, so no private key is ever written or returned where a public
one was asked for. No message holds key material.
"""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultResponseError

PUBLIC, PRIVATE = "public", "private"
EXPORT_TYPES = (PUBLIC, PRIVATE)
_PRIVATE_MARKER = b"PRIVATE KEY"  # PEM, OpenSSH ("OPENSSH PRIVATE KEY") and PGP ("PRIVATE KEY BLOCK") armor


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
