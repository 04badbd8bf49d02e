# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""vault_certificate_export runs here, on the controller: the certificate file or key store goes from the vault to
``dest`` of the controller and never into the task's result (``_controller_files.KeyFileAction``).

With ``return_passphrase`` the private key's passphrase is returned as ``passphrase``, and the result is censored
(``plugin_utils._secret_handover.censor``): ansible-core hides the whole result in every callback (output at any
verbosity), as for a task with ``no_log: true``, while a registered variable still holds it."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.plugin_utils._certificate_export import (
    FORMATS,
    converge,
    holds_private_key,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import KeyFileAction
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import censor


class ActionModule(KeyFileAction):
    ARGUMENT_SPEC = {
        "common_name": {"type": "str", "required": True},
        "serial_number": {"type": "str"},
        "what": {"type": "str", "choices": ["certificate", "keystore"], "default": "certificate"},
        "format": {"type": "str", "choices": list(FORMATS)},
        "return_passphrase": {"type": "bool", "default": False},
    }
    ENTRY = staticmethod(converge)

    def holds_private_key(self, args):
        return holds_private_key(args)

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        return censor(result, "vault_certificate_export", self._task)
