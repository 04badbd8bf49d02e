# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_agent_key module and keeps the agent key it returns on the controller: with ``dest`` the key is
taken out of the result before anything can show it and written to that file (0600, atomically, idempotent by
content); see ``plugin_utils._secret_handover``."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.plugin_utils._secret_handover import SecretToFileAction


class ActionModule(SecretToFileAction):
    MODULE = "vault_agent_key"
    SECRET = "agent_key"
