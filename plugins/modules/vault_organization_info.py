#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_organization_info
short_description: Read the organizations of the credential vault
version_added: 0.3.0
description:
  - Lists every organization of the vault (C(GET_ORGANIZATIONS), edition B from build 6320), in one request, and
    optionally picks one by name.
  - An organization's display name is what the connection option O(org_name) takes (the C(orgName) header) to make
    a task act in that organization; see the examples.
  - With O(edition) and O(build) set, a vault without the call (edition A, or edition B before 6320) is not asked
    and the task fails saying which build it needs; without them, the vault's answer decides.
  - Never changes anything.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Display name, or else name, of one organization to return in RV(organization). A name the vault does not
        know is not an error; RV(exists) is then V(false).
    type: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_resource_info
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Every organization of the vault
      credvault.vault.vault_organization_info:
      register: organizations

    - name: Their display names
      ansible.builtin.debug:
        msg: "{{ organizations.organizations | map(attribute='display_name') | list }}"

    - name: The organization Branch office
      credvault.vault.vault_organization_info:
        name: Branch office
      register: branch

    - name: Act in that organization - read a resource it holds (org_name is sent as the orgName header)
      credvault.vault.vault_resource_info:
        name: branch-web-01
        org_name: "{{ branch.organization.display_name }}"
      register: branch_web
      when: branch.exists
"""

RETURN = r"""
organizations:
  description: Every organization of the vault - C(name), C(id) and C(display_name) (the vault's C(displayName)).
  returned: success
  type: list
  elements: dict
  sample:
    - name: defaultorganization
      id: "1"
      display_name: Default Organization
    - name: branchoffice
      id: "2"
      display_name: Branch office
exists:
  description: Whether the vault has an organization whose display name or name is O(name).
  returned: when O(name) is given
  type: bool
  sample: true
organization:
  description:
    - The organization whose display name is O(name), else the one whose name is; empty when RV(exists) is V(false).
  returned: when O(name) is given
  type: dict
  sample:
    name: branchoffice
    id: "2"
    display_name: Branch office
"""

from ansible_collections.credvault.vault.plugins.module_utils import _organization
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {"name": {"type": "str"}}


def main():
    VaultModule(argument_spec()).run(_organization.describe)


if __name__ == "__main__":
    main()
