#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_agent_install_key
short_description: Get the agent install key of the credential vault
version_added: 0.4.0
description:
  - Gets the vault's agent install key (C(GetAgentInstallKey), C(POST /generateInstallKey), no input; edition A from
    build 11300, edition B from build 5300). With O(edition) and O(build) set, an older vault is not asked and the task
    fails saying which build it needs (in check mode too).
  - The key is a secret and the point of the module. With O(dest) it is written to that file of the Ansible
    B(controller) and never appears in the task's result, at any verbosity. Without O(dest) it is returned in
    RV(install_key), and the whole result is flagged so that Ansible censors it in its output at any verbosity, as
    for a task with C(no_log) (the registered variable holds the key; keep it out of messages).
  - Treated as a read - V(changed) is false (with O(dest), true when the file was written), and the call is sent in
    check mode too. The spec names the call "generate" but says nothing of a new key per call, and a vault keeps one
    install key for the agents it trusts (the simulator makes it on first use, then returns that one), so a second run
    returns the same key and leaves O(dest) alone.
  - The simulator lets only administrators call it.
author:
  - Credvault Maintainers (@credvault)
options: {}
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.controller_file.key_dest
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_agent_key
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The agent install key, into a file of the controller (mode 0600); the key is never shown
      credvault.vault.vault_agent_install_key:
        dest: "{{ key_dir }}/agent-install.key"
      register: install_key

    - name: Where it is
      ansible.builtin.debug:
        msg: "The install key is in {{ install_key.dest }} (changed: {{ install_key.changed }})"

    - name: The key returned to the play - no_log keeps it out of the output
      credvault.vault.vault_agent_install_key:
      register: returned_key
      no_log: true
"""

RETURN = r"""
install_key:
  description:
    - The agent install key (C(AgentInstallKey)). A secret - the result that holds it is censored in the output at any
      verbosity, whatever the task says; the registered variable keeps it.
  returned: success, without O(dest)
  type: str
  sample: 9c1f3a0e5b7d4c2a8e6f1b3d5a7c9e0f2b4d6a8c0e1f3a5b
dest:
  description: Absolute path of the key file on the controller.
  returned: when O(dest) is given
  type: str
  sample: /home/ops/keys/agent-install.key
checksum:
  description: SHA-256 hex digest of the key written to O(dest).
  returned: when O(dest) is given and the key was read
  type: str
  sample: 0b5f32779a14d1206c4e88a0173dc2e90b5f32779a14d1206c4e88a0173dc2e9
size:
  description: Size of the key file in bytes.
  returned: when O(dest) is given and the key was read
  type: int
  sample: 48
"""

from ansible_collections.credvault.vault.plugins.module_utils import _agent_install_key
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def main():
    VaultModule({"dest": {"type": "path"}}).run(_agent_install_key.converge)


if __name__ == "__main__":
    main()
