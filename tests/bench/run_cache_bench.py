# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The lookup written in ``group_vars``, as users write it for the secrets of their templates: every task on every
host templates it again. One ``ansible-playbook`` run of HOSTS hosts (``ansible_connection: local``) x TASKS tasks,
without and with ``run_cache``; the simulator's request log counts the requests and the audited retrievals
(``GET PASSWORD``); every task checks the password it got."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from host_credentials_bench import HostRun
from simulator import password_of

FORKS = 5
TASK = """
    - name: Use the password (%d)
      ansible.builtin.assert:
        that: app_password == expected
        quiet: true
"""


def _write_play(work_dir, pair, hosts, tasks):
    """The inventory, group_vars/all.yml with the lookup, and the play; the play's path."""
    play_dir = os.path.join(work_dir, "run-cache")
    os.makedirs(os.path.join(play_dir, "group_vars"), exist_ok=True)
    with open(os.path.join(play_dir, "inventory"), "w", encoding="utf-8") as handle:
        handle.write("[bench]\n" + "".join("host%03d ansible_connection=local\n" % n for n in range(hosts)))
    with open(os.path.join(play_dir, "group_vars", "all.yml"), "w", encoding="utf-8") as handle:
        handle.write(
            "app_password: \"{{ lookup('credvault.vault.vault_password', '%s/%s') }}\"\n"
            "expected: %s\n" % (pair[0], pair[1], password_of(*pair))
        )
    playbook = os.path.join(play_dir, "play.yml")
    with open(playbook, "w", encoding="utf-8") as handle:
        handle.write(
            "- name: The lookup of group_vars in every task\n  hosts: bench\n  gather_facts: false\n  tasks:\n"
        )
        handle.write("".join(TASK % number for number in range(tasks)))
    return playbook


def run_once(simulator, collections, playbook, name, hosts, tasks, cache):
    info = simulator.info
    env = dict(
        os.environ,
        ANSIBLE_COLLECTIONS_PATH=collections,
        CREDVAULT_URL=info["url"],
        CREDVAULT_AUTH_TOKEN=info["token"],
        CREDVAULT_CA_PATH=info["ca_path"],
        CREDVAULT_RUN_CACHE="true" if cache else "false",
    )
    command = ["ansible-playbook", "-i", os.path.join(os.path.dirname(playbook), "inventory"), "-f", str(FORKS)]
    command += ["-e", "ansible_python_interpreter=%s" % sys.executable, playbook]
    simulator.clear_requests()
    start = time.perf_counter()
    finished = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if finished.returncode != 0:
        raise RuntimeError("the run cache play (%s) failed:\n%s" % (name, finished.stdout[-3000:]))
    operations = simulator.operations()
    return HostRun(name, hosts, tasks, seconds, len(operations), operations.count("GET PASSWORD"))


def measure(simulator, collections, work_dir, pair, hosts, tasks):
    """Without the cache (the reference, first), then with it, in one run."""
    playbook = _write_play(work_dir, pair, hosts, tasks)
    return [
        run_once(simulator, collections, playbook, "without run_cache", hosts, tasks, cache=False),
        run_once(simulator, collections, playbook, "run_cache=true", hosts, tasks, cache=True),
    ]
