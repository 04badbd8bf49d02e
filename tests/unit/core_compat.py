# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one place where the unit tests meet the differences between the ansible-core versions the collection
supports (2.16 to 2.22); the plugins' own is ``plugins/plugin_utils/_compat.py``.

- Module arguments: a module reads them from ``basic._ANSIBLE_ARGS``; from 2.19 with ``basic._ANSIBLE_PROFILE``
  (the serialization profile: ``legacy`` is plain JSON), and module code behaves as in a module process only while
  ``ansible.module_utils._internal.is_controller`` is false (importing any controller module sets it; ``warn()``
  would then go to the controller's display instead of the module's result). 2.16 to 2.18 have neither (2.18 has
  ``ansible.module_utils._internal``, without ``is_controller``).
- A module's JSON result: its ``warnings`` are strings before 2.19, warning summaries (the text in ``event.msg``)
  from 2.19; from 2.22 it hands its ``no_log`` values to the controller in ``_ansible_new_secrets``, which the
  controller takes out of the result and registers as secrets to mask (the Secrets API).
- The in-memory inventory cache: before 2.19, ``get_cache_plugin`` accepts it only by its short name ``memory``
  (it refuses ``ansible.builtin.memory`` with "Cache options were provided but may not reconcile correctly").
- Templates: from 2.19 a string is templated only when trusted (``trust_as_template``); before, every string is.
- What callbacks (output, log, AWX/AAP job events) get for a task's result: 2.16 to 2.18
  ``TaskResult.clean_copy()``, 2.19 and 2.20 ``_RawTaskResult.as_callback_task_result()``, from 2.21
  ``CallbackTaskResult`` of a ``UnifiedTaskResult``; a loop's result is assembled as each version's executor does.
"""

from __future__ import annotations

import json
from unittest import mock

from ansible.module_utils import basic
from ansible.module_utils.common import warnings as ansible_warnings

from ansible_collections.credvault.vault.plugins.plugin_utils._compat import CORE

MEMORY_CACHE_PLUGIN = "memory" if CORE < (2, 19) else "ansible.builtin.memory"


def as_module_process(monkeypatch):
    """Module code runs as in a new module process: no warnings left from an earlier run, not on the controller."""
    monkeypatch.setattr(ansible_warnings, "_global_warnings", type(ansible_warnings._global_warnings)())
    if CORE >= (2, 19):
        from ansible.module_utils import _internal

        monkeypatch.setattr(_internal, "is_controller", False)


def set_module_args(monkeypatch, args):
    """The next ``AnsibleModule`` starts, in a new module process, with the arguments ``args``."""
    as_module_process(monkeypatch)
    monkeypatch.setattr(basic, "_ANSIBLE_ARGS", json.dumps({"ANSIBLE_MODULE_ARGS": args}).encode())
    if CORE >= (2, 19):
        monkeypatch.setattr(basic, "_ANSIBLE_PROFILE", "legacy")


def warning_messages(result):
    """The texts of the warnings in a module's JSON ``result``."""
    warnings = result.get("warnings") or []
    if CORE < (2, 19):
        return list(warnings)
    return [warning["event"]["msg"] for warning in warnings]


def as_controller_takes_it(result):
    """A module's JSON ``result`` without what the controller takes out before anything may show it (2.22+)."""
    return {key: value for key, value in result.items() if key != "_ansible_new_secrets"}


def trusted_template(text):
    """``text`` as a template that ``Templar.template`` renders, as in a playbook."""
    if CORE < (2, 19):
        return text
    from ansible.template import trust_as_template

    return trust_as_template(text)


def callback_view(task, result):
    """What ansible-core hands every callback for ``result``, the result of ``task`` (or of one of its items)."""
    from ansible.executor import task_result

    if CORE < (2, 19):
        return task_result.TaskResult(mock.MagicMock(), task, result, {}).clean_copy()._result
    if CORE < (2, 21):
        return task_result._RawTaskResult(mock.MagicMock(), task, result, {}).as_callback_task_result().result
    from ansible._internal._task import UnifiedTaskResult

    return task_result.CallbackTaskResult(
        mock.MagicMock(), task, UnifiedTaskResult.from_action_result_dict(result)
    ).result


def loop_callback_view(task, item_runs):
    """What ansible-core hands every callback for the result of a loop of ``task`` whose items ran as ``item_runs``:
    (the copy of the task the item ran with, as its action plugin left it; the item's result) each."""
    items = [result for _item_task, result in item_runs]
    if CORE < (2, 19):
        # TaskExecutor._run_loop: the loop's task takes the no_log of any item's copy; the result is not flagged.
        task.no_log = any(item_task.no_log for item_task, _result in item_runs)
        return callback_view(task, {"results": items})
    if CORE < (2, 21):
        # TaskExecutor.run: the loop's result is flagged as soon as one item's is.
        return callback_view(task, {"results": items, "_ansible_no_log": any(i.get("_ansible_no_log") for i in items)})
    from ansible._internal._task import UnifiedTaskResult
    from ansible.executor.task_result import CallbackTaskResult

    # TaskContext.build_loop_result
    loop = UnifiedTaskResult.from_action_result_dict()
    loop.loop_results = [UnifiedTaskResult.from_action_result_dict(item) for item in items]
    loop.no_log = any(item.no_log for item in loop.loop_results)
    return CallbackTaskResult(mock.MagicMock(), task, loop).result
