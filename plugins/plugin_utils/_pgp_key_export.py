# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``vault_pgp_key_export``: the key file of a user's PGP key (``GET /getPGPKey``, B 6200), written on the controller.

Details.User is the "user identity string; escape special characters with a backslash". The vault's unescaping
drops each backslash and keeps the next character literally, so escaping any character is harmless; the characters
escaped are the backslash and the other "specials" of an address (RFC 5322 3.2.3), the characters a user identity
``Full Name <mail@example.com>`` gives a meaning to: ``()<>[]:;@\\,."``. The file is checked to be of the kind
asked for (``_key_armor``). No message holds key material.
"""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._api import ssh_keys as ssh_keys_api
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import write_export
from ansible_collections.credvault.vault.plugins.plugin_utils._key_armor import checked_kind

SPECIALS = '()<>[]:;@\\,."'


def escape_identity(identity):
    """``identity`` with a backslash before each of ``SPECIALS``."""
    return "".join("\\" + character if character in SPECIALS else character for character in identity)


def export_pgp_key(client, identity, export_type):
    """The bytes of the ``export_type`` key file of the PGP key of the user ``identity`` (unescaped)."""
    content = ssh_keys_api.get_pgp_key(client, escape_identity(identity), export_type)
    return checked_kind(content, export_type, "the PGP key of %s" % identity)


def converge(task):
    """Entry point of ``vault_pgp_key_export``: ``dest`` holds the user's key file (``write_export``); returns
    ``{dest, checksum, size}``."""
    desired = task.desired
    return write_export(task, export_pgp_key(task.client, desired["user"], desired["export_type"]))
