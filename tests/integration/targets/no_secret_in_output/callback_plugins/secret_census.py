# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Test-only callback of the no_secret_in_output target: one JSON line per task start and per task result.

summarize_secrets.py reads these lines to cut the run's stdout and log into one slice per task (the n-th
``task`` line is the n-th ``TASK [...]`` banner) and to know each result's module, mode and returned value.
"""

from __future__ import annotations

import json
import os
import re

from ansible import context
from ansible.plugins.callback import CallbackBase

DOCUMENTATION = r"""
name: secret_census
type: aggregate
short_description: Records every task's module, mode and result for the no_secret_in_output target
description:
  - Appends one JSON line per task start and per task result to the file named by E(SECRET_CENSUS_FILE).
requirements:
  - enabled with E(ANSIBLE_CALLBACKS_ENABLED)
"""

# lookup('credvault.vault.x', ...), query(...), q(...) and with_credvault.vault.x loops, in the task as written.
LOOKUP_USE = re.compile(r"""(?:\b(?:lookup|query|q)\(\s*["']|\bwith_)(credvault\.vault\.\w+)""")


def _mode_flag(result, keyword, cli_name):
    """The task's check_mode/diff as run (templated, per loop item), else the command line's --check/--diff."""
    return result.task_fields.get(keyword) is True or bool(context.CLIARGS.get(cli_name))


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "secret_census"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self):
        super().__init__()
        self._path = os.environ.get("SECRET_CENSUS_FILE")
        self._task_index = 0

    def _record(self, entry):
        if not self._path:
            return
        with open(self._path, "a", encoding="utf-8") as census:
            census.write(json.dumps(entry, default=str, sort_keys=True) + "\n")

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._task_index += 1
        self._record({"event": "task", "index": self._task_index, "name": task.get_name().strip()})

    def v2_playbook_on_handler_task_start(self, task):
        self.v2_playbook_on_task_start(task, False)

    def _result(self, result, failed, skipped=False, item=False):
        task = result._task
        if (task.loop or task.loop_with) and "results" in result._result and not item:
            return  # a loop's items were recorded one by one, with the mode each ran in
        written = json.dumps(task.get_ds(), default=str)
        self._record(
            {
                "event": "result",
                "index": self._task_index,
                "name": task.get_name().strip(),
                "action": task.resolved_action or task.action,
                "lookups": sorted(set(LOOKUP_USE.findall(written))),
                "check": _mode_flag(result, "check_mode", "check"),
                "diff": _mode_flag(result, "diff", "diff"),
                "failed": failed,
                "skipped": skipped,
                "no_log": task.no_log is True,
                "result": result._result,
            }
        )

    def v2_runner_on_ok(self, result):
        self._result(result, False)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result(result, True)

    def v2_runner_on_unreachable(self, result):
        self._result(result, True)

    def v2_runner_on_skipped(self, result):
        self._result(result, False, skipped=True)

    def v2_runner_item_on_ok(self, result):
        self._result(result, False, item=True)

    def v2_runner_item_on_failed(self, result):
        self._result(result, True, item=True)

    def v2_runner_item_on_skipped(self, result):
        self._result(result, False, skipped=True, item=True)
