#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_ssh_key
short_description: Create, import and delete SSH keys in the credential vault's key store
version_added: 0.3.0
description:
  - Creates an SSH key pair in the vault (C(CreateSSHKey)), or imports a private key file (C(addSSHKey)), and deletes
    keys (C(DeleteSSHKey)). Keys are found by name (C(GetAllSSHKeys)).
  - The vault creates these key types and lengths, and no others - C(ssh-rsa) 1024, 2048 or 4096 bits; C(ssh-dss)
    1024 bits (DSA keys have one size in SSH); C(ed25519) with no separate length (the vault lists it as 256);
    C(ecdsa) 256, 384 or 521 bits (the NIST curves P-256, P-384 and P-521). Any other combination is refused before
    any request.
  - The API has no call that edits a key. An existing key is compared on what the vault reports - type, length and
    whether it has a passphrase for a created key, the fingerprint for an imported one. When they differ the module
    fails before writing anything, unless O(recreate=true), which deletes the key and creates or imports it again.
    Its associations with users go with the deleted key.
  - The comment is never reported back; on an existing key it is not compared, and the task warns when it sets
    O(comment). The vault reports only whether a key has a passphrase (C(isPassphraseAvailable)), never which one - a
    changed O(passphrase) on a key that has one is not applied, and the task warns (see O(passphrase)).
  - The fingerprint of O(src) is computed with the Python C(cryptography) library where the module runs;
    without it, or when it cannot read the file, the existing key is not compared with the file and the task warns.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the key, unique in the vault.
    type: str
    required: true
  state:
    description:
      - V(present) creates or imports the key when it does not exist; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  key_type:
    description:
      - Type of a key the vault creates. Needed to create one, unless O(src) is given.
    type: str
    choices: [ssh-rsa, ssh-dss, ed25519, ecdsa]
  length:
    description:
      - Bits of the key the vault creates - see the accepted combinations above. Leave it out for V(ed25519).
    type: int
  passphrase:
    description:
      - Passphrase that encrypts the created private key, or that decrypts the imported file. Never shown.
      - On an existing key made by the vault, only its presence is compared - the vault reports whether a key has
        a passphrase (C(isPassphraseAvailable)), not which. A key without one, when the task sets one (or the
        reverse), differs (see O(recreate)); a key with one is kept as it is whatever passphrase the task sets, and
        the task warns that the passphrase was not compared. To change the passphrase, delete the key (O(state=absent)) and create it
        again. An imported key is compared by the fingerprint of its file; the passphrase only opens the file.
    type: str
  comment:
    description:
      - Comment at the end of the public key line of a created key; one line. Not kept for an imported key.
      - The vault never reports it, so on an existing key it is not compared; the task warns when it sets it.
    type: str
  src:
    description:
      - Path of an OpenSSH or PEM private key file to import, instead of creating a key.
      - The module reads the file on the host it runs on. To import a file of the controller, run the task with
        C(delegate_to) set to V(localhost) (or on a local connection).
      - Excludes O(key_type), O(length) and O(comment), which the file decides.
      - The alias O(private_key_src) is deprecated and will be removed in 1.0.0.
    type: path
    aliases: [private_key_src]
  recreate:
    description:
      - When the existing key differs from the task in what the vault reports, delete it and create or import it
        again, instead of failing. Its associations are lost.
    type: bool
    default: false
  dissociate:
    description:
      - With O(state=absent) or a re-creation, V(true) lets the vault dissociate the key from its users before
        deleting it; V(false) deletes it without that (C(withoutDisassociation)).
    type: bool
    default: true
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_ssh_key_info
  - module: credvault.vault.vault_ssh_key_association
"""

EXAMPLES = r"""
- name: SSH keys of the key store
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: A 4096-bit RSA key made by the vault, with a passphrase
      credvault.vault.vault_ssh_key:
        name: deploy-key
        key_type: ssh-rsa
        length: 4096
        passphrase: "{{ deploy_key_passphrase }}"
        comment: deploy@example.com

    - name: An ed25519 key (no separate length)
      credvault.vault.vault_ssh_key:
        name: backup-key
        key_type: ed25519

    - name: Import a private key file of the controller
      credvault.vault.vault_ssh_key:
        name: imported-key
        src: "{{ private_key_path }}"
        passphrase: "{{ private_key_passphrase }}"
      delegate_to: localhost

    - name: Make the backup key ecdsa instead (deletes and creates it again)
      credvault.vault.vault_ssh_key:
        name: backup-key
        key_type: ecdsa
        length: 384
        recreate: true

    - name: Delete a key without first dissociating it from its users
      credvault.vault.vault_ssh_key:
        name: imported-key
        state: absent
        dissociate: false
"""

RETURN = r"""
key:
  description:
    - The key as the vault lists it (C(GetSSHKey) list item) after the run; in check mode as it is before.
    - Empty after deletion, and in check mode when the key would be created.
  returned: always
  type: dict
  sample:
    KeyName: deploy-key
    KeyType: ssh-rsa
    KeyLength: "4096"
    FingerPrint: "0b:5f:32:77:9a:14:d1:20:6c:4e:88:a0:17:3d:c2:e9"
    CreatedBy: admin
    CreationTime: "2024-05-02 10:11:12.345"
    isPassphraseAvailable: true
"""

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str", "required": True},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "key_type": {"type": "str", "choices": list(_ssh_key.KEY_TYPES)},
        "length": {"type": "int"},
        "passphrase": {"type": "str", "no_log": True},
        "comment": {"type": "str"},
        "src": {
            "type": "path",
            "aliases": ["private_key_src"],
            "deprecated_aliases": [
                {"name": "private_key_src", "version": "1.0.0", "collection_name": "credvault.vault"}
            ],
        },
        "recreate": {"type": "bool", "default": False},
        "dissociate": {"type": "bool", "default": True},
    }


def main():
    VaultModule(argument_spec(), mutually_exclusive=[("src", "key_type")]).run(_ssh_key.converge)


if __name__ == "__main__":
    main()
