# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Host login passwords from the vault, two ways, timed and counted over real SSH password logins.

* naive: ``ansible_password`` in group_vars is a ``vault_password`` lookup. Ansible templates a host's connection
  variables for every task, so the lookup runs again for every task of every host (twice per task, as measured
  on ansible-core 2.16, 2.19 and 2.21: the task executor reads the connection variables more than once).
* role: ``credvault.vault.host_credentials`` at the start of the play fetches each host's password once.

Both plays run the same ``ansible.builtin.raw: "true"`` tasks (cheap, but each one goes through the connection
plugin, which reads ``ansible_password``) on the same hosts: ``host-01`` ... in the inventory, all reaching the
private sshd of ssh_server.py as its one user, whose password is stored in the simulator as account ``login`` of
every host's resource. The server accepts passwords only, so every task that succeeds logged in with the password
that came from the vault. Ansible's ssh connection keeps its default ControlPersist: each host logs in once per
play (its own control socket) and its later tasks reuse that connection, as in any real run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass

from ssh_server import LoginUser, SshServer, close_masters

FORKS = 5  # Ansible's default
HOST_ACCOUNT = "login"
NAIVE = "naive: vault_password lookup in ansible_password (group_vars)"
ROLE = "role credvault.vault.host_credentials"
FOLDERS = {NAIVE: "naive", ROLE: "role"}
RETRIEVAL = "GET PASSWORD"

GROUP_VARS = {
    NAIVE: {"ansible_password": "{{ lookup('credvault.vault.vault_password', inventory_hostname ~ '/login') }}"},
    ROLE: {"host_credentials_login_account": HOST_ACCOUNT},
}
ROLES = {NAIVE: "", ROLE: "  roles:\n    - role: credvault.vault.host_credentials\n"}

PLAY = """
- name: Host credentials benchmark
  hosts: all
  gather_facts: false
%s  tasks:
%s"""

TASK = """
    - name: Connect %d
      ansible.builtin.raw: "true"
"""

# The play recap; raw is the only task that reports "changed", once per host and task.
RECAP = re.compile(r"^(\S+)\s+:\s+ok=\d+\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.MULTILINE)


@dataclass
class HostRun:
    name: str
    hosts: int
    tasks: int
    seconds: float
    requests: int
    retrievals: int

    @property
    def requests_per_host(self):
        return self.requests / self.hosts


def host_names(count):
    return ["host-%02d" % (index + 1) for index in range(count)]


def measure_both(simulator, work_dir, collections_root, hosts, tasks):
    """Both variants on ``hosts`` inventory hosts with ``tasks`` tasks each: [naive, role]."""
    names = host_names(hosts)
    with LoginUser() as user, SshServer(os.path.join(work_dir, "sshd"), user.name) as server:
        simulator.seed([(name, HOST_ACCOUNT) for name in names], password=lambda resource, account: user.password)
        runs = [
            run_play(simulator, work_dir, collections_root, variant, names, tasks, server) for variant in (NAIVE, ROLE)
        ]
    _check_counts(*runs)
    return runs


def _check_counts(naive, role):
    """The role's promise, in every run of the bench (make test's smoke too): one retrieval per host and run (two
    requests: GET_RESOURCEACCOUNTID and GET PASSWORD); the naive lookup retrieves at least once per task."""
    if (role.requests, role.retrievals) != (2 * role.hosts, role.hosts):
        raise RuntimeError(
            "the role sent %d requests with %d retrievals for %d hosts, not %d and %d"
            % (role.requests, role.retrievals, role.hosts, 2 * role.hosts, role.hosts)
        )
    if naive.retrievals < naive.hosts * naive.tasks:
        raise RuntimeError("the naive lookup made %d retrievals, fewer than one per task" % naive.retrievals)


def run_play(simulator, work_dir, collections_root, variant, names, tasks, server):
    """One ``ansible-playbook`` run of ``variant``; fails unless every task succeeded on every host."""
    folder = os.path.join(work_dir, FOLDERS[variant])
    control_paths = {name: os.path.join(folder, "cp", name) for name in names}
    os.makedirs(os.path.join(folder, "cp"))
    os.makedirs(os.path.join(folder, "group_vars"))
    inventory = os.path.join(folder, "hosts.yml")
    with open(inventory, "w", encoding="utf-8") as handle:
        json.dump(_inventory(server, control_paths), handle)  # JSON is YAML
    with open(os.path.join(folder, "group_vars", "all.yml"), "w", encoding="utf-8") as handle:
        json.dump(GROUP_VARS[variant], handle)
    playbook = os.path.join(folder, "play.yml")
    with open(playbook, "w", encoding="utf-8") as handle:
        handle.write(PLAY % (ROLES[variant], "".join(TASK % (number + 1) for number in range(tasks))))
    env = dict(
        os.environ,
        ANSIBLE_COLLECTIONS_PATH=collections_root,
        ANSIBLE_FORKS=str(FORKS),
        ANSIBLE_STDOUT_CALLBACK="ansible.builtin.default",
        ANSIBLE_NOCOLOR="1",
        CREDVAULT_URL=simulator.info["url"],
        CREDVAULT_AUTH_TOKEN=simulator.info["token"],
        CREDVAULT_CA_PATH=simulator.info["ca_path"],
    )
    simulator.clear_requests()
    start = time.perf_counter()
    try:
        finished = subprocess.run(
            ["ansible-playbook", "-i", inventory, playbook], env=env, capture_output=True, text=True, check=False
        )
        seconds = time.perf_counter() - start
    finally:
        close_masters(control_paths.values())
    _check_every_task(variant, finished, names, tasks, server)
    operations = simulator.operations()
    return HostRun(variant, len(names), tasks, seconds, len(operations), operations.count(RETRIEVAL))


def _inventory(server, control_paths):
    common = {
        "ansible_connection": "ssh",
        "ansible_host": "127.0.0.1",
        "ansible_port": server.port,
        "ansible_user": server.user,
        "ansible_ssh_common_args": "-o UserKnownHostsFile=%s -o StrictHostKeyChecking=yes" % server.known_hosts,
    }
    # A control socket per host: all hosts are the same address, port and user, so ssh's default ControlPath
    # would be one socket for all, and one login would serve every host.
    hosts = {name: {"ansible_control_path": path} for name, path in control_paths.items()}
    return {"all": {"vars": common, "hosts": hosts}}


def _check_every_task(variant, finished, names, tasks, server):
    recap = {match.group(1): [int(count) for count in match.groups()[1:]] for match in RECAP.finditer(finished.stdout)}
    wrong = [name for name in names if recap.get(name) != [tasks, 0, 0]]
    if finished.returncode != 0 or wrong:
        raise RuntimeError(
            "%s: not every task succeeded (hosts: %s)\n%s\n%s\nsshd's log ends:\n%s"
            % (variant, ", ".join(wrong) or "-", finished.stdout[-3000:], finished.stderr[-2000:], server.log_tail())
        )
