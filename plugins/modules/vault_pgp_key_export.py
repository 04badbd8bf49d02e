#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_pgp_key_export
short_description: Export the PGP key of a user of the credential vault to a file of the controller
version_added: 0.3.0
description:
  - Writes the public or the private PGP key of a vault user (C(GET /getPGPKey), edition B from build 6200), as the
    vault's armored key file, to O(dest) on the Ansible B(controller).
  - The task runs on the controller, through its action plugin, whatever the host; the controller reaches the vault,
    O(ca_path) is a path of the controller and the file is written there. Nothing runs on the managed host.
  - The file is written atomically with its mode from the start (a temporary file of mode O(mode) in the same
    directory, synced, then renamed over O(dest)); a file that already holds the key's bytes is not rewritten (only
    its mode is corrected). Check mode fetches to compare but writes nothing.
  - The key file is never returned, logged or shown in a diff; the diff shows the file's state, checksum and mode.
author:
  - Credvault Maintainers (@credvault)
options:
  user:
    description:
      - The user's identity (C(User)) as the vault knows it, for example V(Jane Doe <jdoe@example.com>) or the user
        name. Give it as it is, without escapes.
      - The spec says to "escape special characters with a backslash"; the module puts a backslash before each of
        the characters an identity C(Full Name <mail@example.com>) gives a meaning to, the specials of RFC 5322 -
        parentheses, angle and square brackets, colon, semicolon, at sign, backslash, comma, full stop and double
        quote. The vault drops each escaping backslash and keeps the next character as it is.
    type: str
    required: true
  export_type:
    description:
      - V(public) writes the public key, V(private) the secret key (C(keyExportType)); the vault gives a private key
        only to its own user or an administrator.
      - The file the vault returns is checked to be of that kind; a public fetch holding a private key is refused
        and written nowhere.
    type: str
    choices: [public, private]
    default: public
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.controller_file
  - credvault.vault.controller_file.key_mode
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - Named C(vault_pgp_key_info) before 0.5.0; that name still runs this module, with a deprecation warning, until
    1.0.0.
seealso:
  - module: credvault.vault.vault_ssh_key_export
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The public PGP key of a user, to encrypt files for her
      credvault.vault.vault_pgp_key_export:
        user: Jane Doe <jdoe@example.com>
        dest: "{{ key_dir }}/jdoe.asc"
        mode: "0644"

    - name: The API user's own private PGP key, readable by its owner only
      credvault.vault.vault_pgp_key_export:
        user: admin
        export_type: private
        dest: "{{ key_dir }}/admin-private.asc"
"""

RETURN = r"""
dest:
  description: Absolute path of the file on the controller.
  returned: success
  type: str
  sample: /home/ops/keys/jdoe.asc
checksum:
  description: SHA-256 hex digest of the file.
  returned: success
  type: str
  sample: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
size:
  description: Size of the file in bytes.
  returned: success
  type: int
  sample: 1723
"""
