# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The forks of one task and a write no call reads back: plugins/module_utils/_object_lock.py (sent_by_this_task).
    DOCUMENTATION = r"""
options: {}
notes:
  - The forks of one task on one host (a task run for many hosts on the controller, or a loop's items) send a write
    the API cannot read back once. The object's lock (an empty file in the directory C(credvault-vault-locks-<uid>)
    of the system's temporary directory) is held around the calls; the fork that sends them records what it sent
    beside the lock, and a fork of the same task that finds all of its calls recorded sends nothing and reports no
    change. Another task, a later run, or another controller sends them again. The action plugin names the task to
    the module (the environment variable C(CREDVAULT_VAULT_TASK)); a module run without it sends every time.
"""
