#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_ssh_key_association
short_description: Associate SSH keys of the credential vault with users of resources
version_added: 0.3.0
description:
  - An association is a (key, resource, user) triple - the SSH key opens the login O(associations[].user) of
    O(associations[].resource). V(present) associates the listed triples that are not associated yet
    (C(associateKey)); V(absent) dissociates those that are (C(dissociateKey)).
  - With O(purge=true), every other association of the keys listed is dissociated, so that each listed key is
    associated with exactly the listed users. Associations of other keys are left alone.
  - The module reads the associations before writing - C(GetAllAssociatedUsers) gives each user with at least one
    key, and C(GetSSHKeysForUser), one request per user that matters (every such user with O(purge=true), else the
    listed ones), gives that user's key names. A converged run sends only reads.
  - With V(present), keys the vault does not have (C(GetAllSSHKeys)) fail the task before any write; in check mode
    they are taken as created by an earlier task of the run, with a warning.
author:
  - Credvault Maintainers (@credvault)
options:
  associations:
    description:
      - The triples to associate or dissociate.
    type: list
    elements: dict
    required: true
    suboptions:
      key:
        description:
          - Name of the SSH key.
        type: str
        required: true
      resource:
        description:
          - Name of the resource.
        type: str
        required: true
      user:
        description:
          - Name of the account of O(associations[].resource) (the SSH login).
        type: str
        required: true
  state:
    description:
      - Whether the listed associations exist after the run.
    type: str
    choices: [present, absent]
    default: present
  purge:
    description:
      - With O(state=present), dissociate every other association of the keys listed.
    type: bool
    default: false
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_ssh_key
  - module: credvault.vault.vault_ssh_key_info
"""

EXAMPLES = r"""
- name: Associations of SSH keys with users
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The deploy key opens root and deploy on web-01
      credvault.vault.vault_ssh_key_association:
        associations:
          - key: deploy-key
            resource: web-01
            user: root
          - key: deploy-key
            resource: web-01
            user: deploy

    - name: Exactly root on web-01 for the deploy key (deploy loses it)
      credvault.vault.vault_ssh_key_association:
        associations:
          - key: deploy-key
            resource: web-01
            user: root
        purge: true
      register: purged

    - name: What was removed
      ansible.builtin.debug:
        msg: "{{ purged.removed }}"

    - name: The deploy key no longer opens root on web-01
      credvault.vault.vault_ssh_key_association:
        associations:
          - key: deploy-key
            resource: web-01
            user: root
        state: absent
"""

RETURN = r"""
associations:
  description:
    - The associations the module read - of the listed users, or with O(purge=true) of every user with a key - as
      they are after the run (in check mode, as they would be), sorted.
  returned: always
  type: list
  elements: dict
  sample:
    - key: deploy-key
      resource: web-01
      user: root
added:
  description: The triples associated by the run (in check mode, that would be).
  returned: always
  type: list
  elements: dict
  sample: []
removed:
  description: The triples dissociated by the run (in check mode, that would be).
  returned: always
  type: list
  elements: dict
  sample:
    - key: deploy-key
      resource: web-01
      user: deploy
"""

from ansible_collections.credvault.vault.plugins.module_utils import _ssh_key_association
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "associations": {
            "type": "list",
            "elements": "dict",
            "required": True,
            "options": {
                "key": {"type": "str", "required": True, "no_log": False},
                "resource": {"type": "str", "required": True},
                "user": {"type": "str", "required": True},
            },
        },
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "purge": {"type": "bool", "default": False},
    }


def main():
    VaultModule(argument_spec()).run(_ssh_key_association.converge)


if __name__ == "__main__":
    main()
