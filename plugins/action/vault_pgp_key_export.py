# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""vault_pgp_key_export runs here, on the controller: the key file goes from the vault to ``dest`` of the
controller and never into the task's result (``_controller_files.KeyFileAction``)."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import KeyFileAction
from ansible_collections.credvault.vault.plugins.plugin_utils._key_armor import EXPORT_TYPES, PRIVATE, PUBLIC
from ansible_collections.credvault.vault.plugins.plugin_utils._pgp_key_export import converge


class ActionModule(KeyFileAction):
    ARGUMENT_SPEC = {
        "user": {"type": "str", "required": True},
        "export_type": {"type": "str", "choices": list(EXPORT_TYPES), "default": PUBLIC},
    }
    ENTRY = staticmethod(converge)

    def holds_private_key(self, args):
        return args["export_type"] == PRIVATE
