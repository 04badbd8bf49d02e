# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``vault_ssh_key_export``: the key file of an SSH key (``POST /exportSSHKey``), written on the controller.

Details.keyName, and "edition B also keyExportType (public or private)", a field from B 6200. keyExportType is sent
when a public key is asked for, or when the configured vault has the field; so ``public`` on edition A or an older
B build is refused before sending by the client's field gate. A private key on a vault without the field is "the
file the vault returns", the key file itself. The file is checked to be of the kind asked for (``_key_armor``).

``export_ssh_key`` is also the lookup ``vault_ssh_key``'s. No message holds key material.
"""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._api import ssh_keys as ssh_keys_api
from ansible_collections.credvault.vault.plugins.module_utils._api._declare import require
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultUnsupportedError, not_found
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import write_export
from ansible_collections.credvault.vault.plugins.plugin_utils._key_armor import PUBLIC, checked_kind


def has_export_types(client):
    """True when the configured vault has keyExportType (B 6200); False for a vault of unknown edition or build."""
    if client.edition is None or client.build is None:
        return False
    try:
        require(client, ssh_keys_api.export_ssh_key, details={"keyName": "", "keyExportType": PUBLIC})
    except VaultUnsupportedError:
        return False
    return True


def require_ssh_key(client, name):
    """Refuse a key ``name`` that ``GetAllSSHKeys`` does not list (``VaultNotFoundError``)."""
    names = [item.get("KeyName") for item in ssh_keys_api.get_all_ssh_keys(client)]
    if name not in names:
        raise not_found("SSH key", name)


def export_input(client, name, export_type):
    """The exportSSHKey Details: keyName, and keyExportType for a public key or a vault that has the field."""
    details = {"keyName": name}
    if export_type == PUBLIC or has_export_types(client):
        details["keyExportType"] = export_type
    return details


def export_ssh_key(client, name, export_type):
    """The bytes of the ``export_type`` key file of the SSH key ``name``; a missing key is ``VaultNotFoundError``."""
    details = export_input(client, name, export_type)
    require(client, ssh_keys_api.export_ssh_key, details=details)
    require_ssh_key(client, name)
    content = ssh_keys_api.export_ssh_key(client, details)
    return checked_kind(content, export_type, "SSH key %s" % name)


def converge(task):
    """Entry point of ``vault_ssh_key_export``: ``dest`` holds the key file (``write_export``); returns
    ``{dest, checksum, size}``."""
    desired = task.desired
    return write_export(task, export_ssh_key(task.client, desired["name"], desired["export_type"]))
