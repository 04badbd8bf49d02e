# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_remote_password_reset module as ``ansible.builtin.normal`` does; then the run cache forgets what it wrote
(``plugin_utils._run_cache_action``)."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache_action import WritingAction


class ActionModule(WritingAction):
    MODULE = "vault_remote_password_reset"
