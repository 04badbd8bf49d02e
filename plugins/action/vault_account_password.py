# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_account_password module and censors its result when it returns the generated password
(``return_password``): Ansible then hides the result in its output at any verbosity, while the registered variable
keeps the password; see ``plugin_utils._secret_handover``. The run cache then forgets the account's password
(``plugin_utils._run_cache_action``)."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache_action import DropsWrittenSecrets
from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import CensoringAction


class ActionModule(DropsWrittenSecrets, CensoringAction):
    MODULE = "vault_account_password"
