#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_ssh_key_export
short_description: Export an SSH key of the credential vault to a file of the controller
version_added: 0.3.0
description:
  - Writes the public or the private key file of an SSH key of the vault's key store (C(POST /exportSSHKey)) to
    O(dest) on the Ansible B(controller).
  - The task runs on the controller, through its action plugin, whatever the host; the controller reaches the vault,
    O(ca_path) is a path of the controller and the file is written there. Nothing runs on the managed host.
  - The file is written atomically with its mode from the start (a temporary file of mode O(mode) in the same
    directory, synced, then renamed over O(dest)), so no reader sees a partial file or one readable by others.
  - Idempotent by content - every run exports the key and compares its SHA-256 digest with O(dest); a file that
    already holds those bytes is not rewritten (only its mode is corrected). Check mode exports to compare but
    writes nothing.
  - The key file is never returned, logged or shown in a diff; the diff shows the file's state, checksum and mode.
  - The key must be listed by C(GetAllSSHKeys), else the task fails saying that it does not exist.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description: Name of the SSH key (C(keyName)).
    type: str
    required: true
  export_type:
    description:
      - V(private) writes the private key file (encrypted when the key has a passphrase), V(public) the OpenSSH
        public key line (C(keyExportType)).
      - C(keyExportType) exists from edition B build 6200. Edition A, and older B builds, export one file, the private
        key; V(public) is then refused before any request when O(edition) and O(build) say so, and otherwise fails
        when the vault refuses the field. V(private) is sent as C(keyExportType) only when O(edition) and O(build) say
        the vault has it.
      - The file the vault returns is checked to be of that kind (a C(PRIVATE KEY) armor or none); a public export
        holding a private key is refused and written nowhere.
    type: str
    choices: [public, private]
    default: private
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.controller_file
  - credvault.vault.controller_file.key_mode
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_pgp_key_export
  - plugin: credvault.vault.vault_ssh_key
    plugin_type: lookup
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The private key of a deployment key, readable by its owner only
      credvault.vault.vault_ssh_key_export:
        name: deploy-key
        dest: "{{ key_dir }}/deploy-key"

    - name: Its public key (edition B from build 6200)
      credvault.vault.vault_ssh_key_export:
        name: deploy-key
        export_type: public
        dest: "{{ key_dir }}/deploy-key.pub"
        mode: "0644"
"""

RETURN = r"""
dest:
  description: Absolute path of the file on the controller.
  returned: success
  type: str
  sample: /home/ops/keys/deploy-key
checksum:
  description: SHA-256 hex digest of the file.
  returned: success
  type: str
  sample: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
size:
  description: Size of the file in bytes.
  returned: success
  type: int
  sample: 411
"""
