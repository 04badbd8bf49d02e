# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""vault_certificate_fetch runs here, on the controller: the certificate file or key store goes from the vault to
``dest`` of the controller and never into the task's result (``_controller_files.KeyFileAction``).

With ``return_passphrase`` the private key's passphrase is returned as ``passphrase``, and the result is censored
(``plugin_utils._secret_handover.censor``): ansible-core hides the whole result in every callback (output at any
verbosity), as for a task with ``no_log: true``, while a registered variable still holds it."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._certificate_files import (
    FORMATS,
    fetch,
    holds_private_key,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import KeyFileAction, destination
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import censor


def current_content(path):
    """The bytes of the file ``dest`` names, or None when there is none (or it cannot be read)."""
    try:
        with open(destination(path, "dest"), "rb") as handle:
            return handle.read()
    except OSError:
        return None


class ActionModule(KeyFileAction):
    ARGUMENT_SPEC = {
        "common_name": {"type": "str", "required": True},
        "serial_number": {"type": "str"},
        "what": {"type": "str", "choices": ["certificate", "keystore"], "default": "certificate"},
        "format": {"type": "str", "choices": list(FORMATS)},
        "return_passphrase": {"type": "bool", "default": False},
    }

    def export(self, client, args):
        content, self._certificate, self._passphrase = fetch(client, args, current_content(args["dest"]))
        return content

    def holds_private_key(self, args):
        return holds_private_key(args)

    def run(self, tmp=None, task_vars=None):
        self._certificate, self._passphrase = {}, None
        result = super().run(tmp, task_vars)
        if result.get("failed"):
            return result
        result["certificate"] = self._certificate
        if self._passphrase is not None:
            result["passphrase"] = self._passphrase
        return censor(result, "vault_certificate_fetch", self._task)
