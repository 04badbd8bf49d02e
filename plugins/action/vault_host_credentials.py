# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""vault_host_credentials runs here, on the controller, and never connects to the host: the passwords it reads
are what the connection to the host needs. Its result is censored (``_secret_handover.censor``); the role
``credvault.vault.host_credentials`` turns it into the host's connection variables."""

from __future__ import annotations

from ansible.plugins.action import ActionBase

from ansible_collections.credvault.vault.plugins.plugin_utils._controller_task import run_entry, task_arguments
from ansible_collections.credvault.vault.plugins.plugin_utils._host_credentials import argument_spec, describe
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import censor

MODULE = "vault_host_credentials"


class ActionModule(ActionBase):
    _requires_connection = False
    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        own_spec = argument_spec()
        args = task_arguments(self, own_spec)
        result.update({name: args.get(name) for name in ("resource", "login_account", "become_account")})
        result.update(run_entry(describe, own_spec, args, self._task.check_mode))
        result.setdefault("changed", False)
        return censor(result, MODULE, self._task)
