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

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultNotFoundError, VaultUnsupportedError
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import write_export
from ansible_collections.credvault.vault.plugins.plugin_utils._key_armor import PUBLIC, checked_kind


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


def converge(task):
    """Entry point of ``vault_ssh_key_export``: ``dest`` holds the key file (``write_export``); returns
    ``{dest, checksum, size}``."""
    desired = task.desired
    return write_export(task, export_ssh_key(task.client, desired["name"], desired["export_type"]))
