# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Runs the vault_certificate_share module, naming the task to it so that its forks send the same write once
(``plugin_utils._task_scope``)."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.plugin_utils._task_scope import TaskScopedAction


class ActionModule(TaskScopedAction):
    pass
