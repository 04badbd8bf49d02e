# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The action of a module whose writes no call reads back (shares, certificate shares, certificate groups).

It runs the module as ``ansible.builtin.normal`` does (check mode, async, everything), and names the task to it in
the environment variable ``_object_lock.TASK_VARIABLE``: the task's id (``Task._uuid``), which each fork (host) and
loop item of the task shares and no other task or run has. The module's ``_object_lock.sent_by_this_task`` then
lets one fork send a write and the others find it sent."""

from __future__ import annotations

from ansible.plugins.action.normal import ActionModule as NormalAction

from ansible_collections.credvault.vault.plugins.module_utils._object_lock import TASK_VARIABLE


class TaskScopedAction(NormalAction):
    def _compute_environment_string(self, raw_environment_out=None):
        environment = super()._compute_environment_string(raw_environment_out)
        return "%s %s" % (self._connection._shell.env_prefix(**{TASK_VARIABLE: str(self._task._uuid)}), environment)
