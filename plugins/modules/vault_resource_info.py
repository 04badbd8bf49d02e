#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_resource_info
short_description: Read resources of the credential vault
version_added: 0.2.0
description:
  - Without O(name), lists every resource this token sees (C(GET RESOURCES)), in one request.
  - With O(name), reads that resource with its accounts (C(GET RESOURCE ACCOUNTLIST)), the resource groups it
    belongs to (C(GET ASSOCIATED GROUPS)) and, in edition B, the remote apps associated with it
    (C(GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE)).
  - Values come back under the vault's own keys (for example C(RESOURCE NAME)), as the spec names them.
  - Never changes anything, and never returns a password.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the resource to read. Without it, all resources are listed.
      - A name the vault does not know is not an error; RV(exists) is then V(false).
    type: str
  include_associated_groups:
    description:
      - Read the resource groups the resource belongs to, static or dynamic (one more request). Only with O(name);
        not set, it counts as V(true).
      - The vault has this from build 12000 in edition A and 5400 in edition B. With O(edition) and O(build) set, an
        older vault is not asked; without them, an answer of HTTP 404 is taken as "not available". Either way
        RV(associated_groups) is then V(null) and RV(unavailable) says why; the task does not fail.
    type: bool
  include_remote_apps:
    description:
      - Read the remote apps associated with the resource (one more request). Only with O(name); not set, it counts
        as V(true).
      - Edition B only, from build 6320; handled like O(include_associated_groups) when the vault lacks it. Set
        O(edition) and O(build) (or this option to V(false)) to spare an edition A vault the request.
    type: bool
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_resource
  - module: credvault.vault.vault_account_info
  - module: credvault.vault.vault_resource_type_info
"""

EXAMPLES = r"""
- name: All resources this token sees
  credvault.vault.vault_resource_info:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
  register: all_resources

- name: Names of the Linux resources
  ansible.builtin.debug:
    msg: "{{ all_resources.resources | selectattr('RESOURCE TYPE', 'equalto', 'Linux')
             | map(attribute='RESOURCE NAME') | list }}"

- name: One resource with its accounts and groups
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Read web-01 (edition A has no remote apps, so do not ask for them)
      credvault.vault.vault_resource_info:
        name: web-01
        include_remote_apps: false
      register: web01

    - name: Its account names and group names
      ansible.builtin.debug:
        msg:
          accounts: "{{ web01.resource['ACCOUNT LIST'] | map(attribute='ACCOUNT NAME') | list }}"
          groups: "{{ web01.associated_groups | default([], true) | map(attribute='GROUP NAME') | list }}"
      when: web01.exists
"""

RETURN = r"""
resources:
  description: Every resource this token sees (C(GET RESOURCES) Details); C(DNS NAME) in edition B only.
  returned: when O(name) is not given
  type: list
  elements: dict
  sample:
    - RESOURCE ID: "1"
      RESOURCE NAME: web-01
      RESOURCE DESCRIPTION: Front web server
      RESOURCE TYPE: Linux
      NOOFACCOUNTS: "2"
exists:
  description: Whether the vault holds a resource called O(name) that this token sees.
  returned: when O(name) is given
  type: bool
  sample: true
resource:
  description:
    - The resource as the vault describes it (C(GET RESOURCE ACCOUNTLIST) Details), with its C(ACCOUNT LIST);
      empty when RV(exists) is V(false).
    - Values of custom fields whose C(CUSTOMFIELDTYPE) is V(Password) show as V(<hidden>).
  returned: when O(name) is given
  type: dict
  sample:
    RESOURCE ID: "1"
    RESOURCE NAME: web-01
    RESOURCE DESCRIPTION: Front web server
    RESOURCE TYPE: Linux
    DNS NAME: web-01
    PASSWORD POLICY: Strong
    DEPARTMENT: Operations
    LOCATION: Paris
    RESOURCE URL: https://web-01.example.com
    RESOURCE OWNER: admin
    CUSTOM FIELD:
      - CUSTOMFIELDLABEL: Environment
        CUSTOMFIELDVALUE: production
        CUSTOMFIELDTYPE: Character
        CUSTOMFIELDCOLUMNNAME: COLUMN_CHAR1
    ACCOUNT LIST:
      - ACCOUNT ID: "1"
        ACCOUNT NAME: root
        PASSWDID: "1"
        ISFAVPASS: "false"
        PASSWORD STATUS: "*****"
associated_groups:
  description:
    - The resource groups the resource belongs to (C(GET ASSOCIATED GROUPS) Details C(ASSOCIATED GROUPS)), each
      C(GROUP ID) (a number) and C(GROUP NAME).
    - V(null) when the resource does not exist, when O(include_associated_groups=false), or when the vault does not
      have the endpoint (see RV(unavailable)).
  returned: when O(name) is given
  type: list
  elements: dict
  sample:
    - GROUP ID: 301
      GROUP NAME: Web servers
remote_apps:
  description:
    - The remote apps associated with the resource (C(GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE) Details), each
      C(name) and C(id). Edition B from build 6320.
    - V(null) when the resource does not exist, when O(include_remote_apps=false), or when the vault does not have
      the endpoint (see RV(unavailable)).
  returned: when O(name) is given
  type: list
  elements: dict
  sample:
    - name: Remote desktop
      id: "901"
unavailable:
  description: What the vault could not give, to why (the build it needs, or its answer).
  returned: when O(name) is given
  type: dict
  sample:
    remote_apps: >-
      GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE (GET /resources/{resource_id}/associated-remote-apps) needs edition B
      from build 6320; the vault is edition A build 12450
"""

from ansible_collections.credvault.vault.plugins.module_utils import _resource
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str"},
        # No default, so that giving either without a name is an error (defaults count as given for required_by).
        "include_associated_groups": {"type": "bool"},
        "include_remote_apps": {"type": "bool"},
    }


def main():
    VaultModule(argument_spec(), required_by={"include_associated_groups": "name", "include_remote_apps": "name"}).run(
        _resource.describe
    )


if __name__ == "__main__":
    main()
