# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Modules timed and counted through ``ansible-playbook``: many accounts as a loop of ``vault_account`` tasks
and as one ``vault_accounts`` task, created and then converged; and the start-up of a vault module task
beside ``ansible.builtin.ping``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass

PLAY = """
- name: Benchmark
  hosts: localhost
  gather_facts: false
  module_defaults:
    group/credvault.vault.vault: "{{ connection }}"
  tasks:
%s
"""

TASKS = {
    "loop": """
    - name: Accounts, one task per account
      credvault.vault.vault_account:
        resource: "{{ resource }}"
        name: "{{ item }}"
        password: "{{ 'Bench-Pw-' ~ item }}"
        update_password: on_create
      loop: "{{ names }}"
      no_log: true
""",
    "list": """
    - name: Accounts, one task for all
      credvault.vault.vault_accounts:
        resource: "{{ resource }}"
        accounts: "{{ accounts }}"
        update_password: on_create
      no_log: true
""",
    "ping": """
    - name: Ping
      ansible.builtin.ping:
      loop: "{{ range(count | int) | list }}"
""",
    "info": """
    - name: A vault module that reads one account (two requests)
      credvault.vault.vault_account_info:
        resource: "{{ resource }}"
        name: seed
      loop: "{{ range(count | int) | list }}"
""",
}


@dataclass
class PlayRun:
    name: str
    items: int
    seconds: float
    requests: int
    writes: int

    @property
    def per_item_ms(self):
        return 1000.0 * self.seconds / self.items


def run_play(simulator, work_dir, collections_root, kind, resource, count, name, pipelining=True):
    """Run the play of ``kind`` once; its wall time, the requests the simulator served and the writes among them."""
    variables = os.path.join(work_dir, "vars.json")
    with open(variables, "w", encoding="utf-8") as handle:
        connection = {key: simulator.info[key] for key in ("url", "ca_path")}
        connection["auth_token"] = simulator.info["token"]
        names = ["user-%d" % index for index in range(count)]
        accounts = [{"name": name, "password": "Bench-Pw-" + name} for name in names]
        json.dump(
            {"connection": connection, "resource": resource, "count": count, "names": names, "accounts": accounts},
            handle,
        )
    playbook = os.path.join(work_dir, "%s.yml" % kind)
    with open(playbook, "w", encoding="utf-8") as handle:
        handle.write(PLAY % TASKS[kind])
    env = dict(
        os.environ,
        ANSIBLE_COLLECTIONS_PATH=collections_root,
        ANSIBLE_PIPELINING="1" if pipelining else "0",
        ANSIBLE_STDOUT_CALLBACK="ansible.builtin.default",
        ANSIBLE_DISPLAY_SKIPPED_HOSTS="0",
    )
    command = [
        "ansible-playbook",
        "-i",
        "localhost,",
        "-c",
        "local",
        "-e",
        "ansible_python_interpreter=%s" % sys.executable,
        "-e",
        "@" + variables,
        playbook,
    ]
    simulator.clear_requests()
    start = time.perf_counter()
    finished = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if finished.returncode != 0:
        raise RuntimeError("the %s play failed:\n%s" % (kind, finished.stdout[-3000:]))
    operations = simulator.operations()
    writes = sum(1 for op in operations if not _is_read(op))
    return PlayRun(name, count, seconds, len(operations), writes)


def _is_read(operation):
    return operation.startswith("GET") or operation in ("FETCH_CURRENT_TOTP",)
