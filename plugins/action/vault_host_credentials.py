# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""vault_host_credentials runs here, on the controller, and never connects to the host: the passwords it reads
are what the connection to the host needs. Its result is censored (``_secret_handover.censor``); the role
``credvault.vault.host_credentials`` turns it into the host's connection variables."""

from __future__ import annotations

from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

from ansible_collections.credvault.vault.plugins.module_utils._checks import check_control_characters
from ansible_collections.credvault.vault.plugins.module_utils._client import INSECURE_WARNING
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError
from ansible_collections.credvault.vault.plugins.module_utils._options import (
    client_from_options,
    connection_argument_spec,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._host_credentials import argument_spec, fetch
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import censor

display = Display()
MODULE = "vault_host_credentials"


class ActionModule(ActionBase):
    _requires_connection = False
    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        own_spec = argument_spec()
        args = self.validate_argument_spec(argument_spec=dict(connection_argument_spec(), **own_spec))[1]
        names = {name: args.get(name) for name in ("resource", "login_account", "become_account")}
        result.update(names, changed=False)
        client = None
        try:
            check_control_characters(own_spec, args)
            client = client_from_options(args.get)
            if client.insecure:
                display.warning(INSECURE_WARNING)
            result.update(fetch(client, args))
        except VaultError as exc:
            message = client.failure_message(exc) if client is not None else str(exc)
            result.update(failed=True, msg=message, **exc.to_result())
        finally:
            if client is not None:
                client.close()
        return censor(result, MODULE, self._task)
