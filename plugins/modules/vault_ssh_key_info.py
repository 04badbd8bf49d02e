#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_ssh_key_info
short_description: Read the SSH keys of the credential vault and their associations
version_added: 0.3.0
description:
  - Without options, lists every SSH key of the key store (C(GetAllSSHKeys)), in one request.
  - With O(name), reads that key (C(GetSSHKey); edition A answers it on GET, edition B on POST, which the module
    picks from O(edition); without O(edition) it asks with GET, then with POST when the vault does not serve GET).
  - With O(user) and O(resource), returns the names of the keys associated with that account of that resource
    (C(GetSSHKeysForUser), which answers them comma-separated).
  - With O(associations=true), returns every user with at least one key (C(GetAllAssociatedUsers)), as
    C(UserName) and C(ResourceName) pairs.
  - Values come back under the vault's own keys (for example C(KeyName)). Never changes anything, and never returns
    a private key or a passphrase.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the SSH key to read. A name the vault does not know is not an error; RV(exists) is then V(false).
    type: str
  user:
    description:
      - Account (SSH login) whose keys are read, on O(resource).
    type: str
  resource:
    description:
      - Resource of O(user).
    type: str
  associations:
    description:
      - Return every user with at least one key, in RV(associations).
    type: bool
    default: false
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_ssh_key
  - module: credvault.vault.vault_ssh_key_association
"""

EXAMPLES = r"""
- name: Read SSH keys
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Every SSH key of the key store
      credvault.vault.vault_ssh_key_info:
      register: all_keys

    - name: One key, with its type and length
      credvault.vault.vault_ssh_key_info:
        name: deploy-key
      register: deploy_key

    - name: The keys of user root on resource web-01
      credvault.vault.vault_ssh_key_info:
        user: root
        resource: web-01
      register: root_keys

    - name: Every user with at least one key
      credvault.vault.vault_ssh_key_info:
        associations: true
      register: associated

    - name: Show them
      ansible.builtin.debug:
        msg:
          key_names: "{{ all_keys.ssh_keys | map(attribute='KeyName') | list }}"
          deploy_key: "{{ deploy_key.key.KeyType | default('missing') }} {{ deploy_key.key.KeyLength | default('') }}"
          root_keys: "{{ root_keys.key_names }}"
          users: "{{ associated.associations }}"
"""

RETURN = r"""
ssh_keys:
  description: Every SSH key (C(GetAllSSHKeys) list items).
  returned: when neither O(name), O(user) nor O(associations) is given
  type: list
  elements: dict
  sample:
    - KeyName: deploy-key
      KeyType: ssh-rsa
      KeyLength: "4096"
      FingerPrint: "0b:5f:32:77:9a:14:d1:20:6c:4e:88:a0:17:3d:c2:e9"
      CreatedBy: admin
      CreationTime: "2024-05-02 10:11:12.345"
      isPassphraseAvailable: true
exists:
  description: Whether the key O(name) exists.
  returned: when O(name) is given
  type: bool
key:
  description: The key O(name) (C(GetSSHKey) list item); empty when it does not exist.
  returned: when O(name) is given
  type: dict
  sample:
    KeyName: deploy-key
    KeyType: ed25519
    KeyLength: "256"
key_names:
  description: Names of the keys associated with O(user) on O(resource), oldest association first.
  returned: when O(user) and O(resource) are given
  type: list
  elements: str
  sample: [deploy-key, backup-key]
associations:
  description: Every user with at least one key (C(GetAllAssociatedUsers)), one item per user, not per key.
  returned: when O(associations=true)
  type: list
  elements: dict
  sample:
    - UserName: root
      ResourceName: web-01
"""

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key_info
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str"},
        "user": {"type": "str"},
        "resource": {"type": "str"},
        "associations": {"type": "bool", "default": False},
    }


def main():
    VaultModule(argument_spec(), required_together=[("user", "resource")]).run(_ssh_key_info.describe)


if __name__ == "__main__":
    main()
