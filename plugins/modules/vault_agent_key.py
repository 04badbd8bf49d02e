#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_agent_key
short_description: Fetch or generate the agent key of the credential vault
version_added: 0.4.0
description:
  - Fetches an available agent key - the key the vault's agents install with (C(Fetch Agent Key),
    C(POST /agents/agentkey) without input) - or, with O(generate=true), generates a new one, optionally valid for
    O(validity_hours) (C(generateAgentKey), C(validityPeriod)). Edition A from build 12230, edition B from build 6000;
    with O(edition) and O(build) set, an older vault is not asked and the task fails saying which build it needs (in
    check mode too).
  - The key is a secret and the point of the module. With O(dest) it is written to that file of the Ansible
    B(controller) and never appears in the task's result, at any verbosity. Without O(dest) it is returned in
    RV(agent_key), and the whole result is flagged so that Ansible censors it in its output at any verbosity, as
    for a task with C(no_log) (the registered variable holds the key; keep it out of messages).
  - Fetching reads - V(changed) is false (with O(dest), true when the file was written). Generating is a change - every
    run with O(generate=true) makes a new key and reports V(changed); in check mode nothing is sent and no key is
    returned or written.
  - RV(expires_at) is the key's end (C(agentKeyEndTime), V(DD/MM/YYYY HH:MM:SS)) as ISO 8601.
  - The simulator lets only administrators call it, and, fetching when no key is valid, generates one (valid 24 hours)
    - the spec says no more of what an available key is.
author:
  - Credvault Maintainers (@credvault)
options:
  generate:
    description:
      - V(true) generates a new agent key (C(generateAgentKey) V(true)); V(false) fetches an available one (no input).
    type: bool
    default: false
  validity_hours:
    description:
      - How many hours the generated key stays valid and reusable across installations (C(validityPeriod)), 1 or more.
        The vault's default when not given.
      - Only with O(generate=true); refused before any request otherwise.
    type: int
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.controller_file.key_dest
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
attributes:
  idempotent:
    description: A fetch changes nothing (with O(dest), the file only when the key changed).
    support: partial
    details: O(generate=true) makes a new key on every run.
seealso:
  - module: credvault.vault.vault_agent_install_key
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The available agent key, into a file of the controller (mode 0600); the key is never shown
      credvault.vault.vault_agent_key:
        dest: "{{ key_dir }}/agent.key"
      register: agent_key

    - name: When it expires
      ansible.builtin.debug:
        msg: "The agent key in {{ agent_key.dest }} is valid until {{ agent_key.expires_at }}"

    - name: A new key for a week of installations, returned to the play - no_log keeps it out of the output
      credvault.vault.vault_agent_key:
        generate: true
        validity_hours: 168
      register: weekly_key
      no_log: true

    - name: Hand it to the installer on the managed host without showing it
      ansible.builtin.copy:
        content: "{{ weekly_key.agent_key }}"
        dest: "{{ key_dir }}/weekly-agent.key"
        mode: "0600"
      no_log: true
"""

RETURN = r"""
agent_key:
  description:
    - The agent key (C(agentKey)). A secret - the result that holds it is censored in the output at any verbosity,
      whatever the task says; the registered variable keeps it.
    - Not returned with O(dest), nor in check mode with O(generate=true).
  returned: success, without O(dest)
  type: str
  sample: 3f1c0e7a9b5d42e8a6c4f0b2d8e1a7c5
agent_key_end_time:
  description: When the key stops being valid, as the vault gives it (C(agentKeyEndTime), V(DD/MM/YYYY HH:MM:SS)).
  returned: when a key was fetched or generated
  type: str
  sample: 30/11/2026 09:00:00
expires_at:
  description: RV(agent_key_end_time) as ISO 8601 (the vault's local time, no zone); None when not in that format.
  returned: when a key was fetched or generated
  type: str
  sample: "2026-11-30T09:00:00"
generated:
  description: Whether the run generated a new key (in check mode, would have).
  returned: success
  type: bool
  sample: false
dest:
  description: Absolute path of the key file on the controller.
  returned: when O(dest) is given
  type: str
  sample: /home/ops/keys/agent.key
checksum:
  description: SHA-256 hex digest of the key written to O(dest).
  returned: when O(dest) is given and a key was fetched or generated
  type: str
  sample: 0b5f32779a14d1206c4e88a0173dc2e90b5f32779a14d1206c4e88a0173dc2e9
size:
  description: Size of the key file in bytes.
  returned: when O(dest) is given and a key was fetched or generated
  type: int
  sample: 32
"""

from ansible_collections.credvault.vault.plugins.module_utils import _agent_key
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "generate": {"type": "bool", "default": False},
        "validity_hours": {"type": "int"},
        "dest": {"type": "path"},
    }


def main():
    VaultModule(argument_spec()).run(_agent_key.converge)


if __name__ == "__main__":
    main()
