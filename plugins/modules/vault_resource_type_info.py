#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_resource_type_info
short_description: List the resource types of the credential vault
version_added: 0.2.0
description:
  - Lists the resource types the vault knows (C(GET RESOURCE TYPES)), in one request; their names are the values of
    O(credvault.vault.vault_resource#module:type).
  - The vault has this from build 11300 in edition A and 5300 in edition B. With O(edition) and O(build) set, an
    older vault fails the task before anything is sent.
  - Values come back under the vault's own keys (for example C(RESOURCETYPE)), as the spec names them.
author:
  - Credvault Maintainers (@credvault)
options:
  containing:
    description:
      - Keep only the types whose name contains one of these substrings (C(RESOURCETYPE_CONTAINING), the vault's own
        filter). Empty or not given, all types are listed.
      - No type matching is not an error; RV(resource_types) is then empty.
    type: list
    elements: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_resource
"""

EXAMPLES = r"""
- name: Every resource type
  credvault.vault.vault_resource_type_info:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
  register: all_types

- name: The types that hold files, and those whose name mentions Windows or SQL
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: File types
      credvault.vault.vault_resource_type_info:
        containing: [Store]
      register: store_types

    - name: Windows and SQL types
      credvault.vault.vault_resource_type_info:
        containing:
          - Windows
          - SQL
      register: windows_and_sql_types

    - name: Their names
      ansible.builtin.debug:
        msg: "{{ windows_and_sql_types.resource_types | map(attribute='RESOURCETYPE') | list }}"
"""

RETURN = r"""
resource_types:
  description:
    - The resource types (C(GET RESOURCE TYPES) Details C(RESOURCETYPES)), as the vault describes them.
  returned: success
  type: list
  elements: dict
  sample:
    - RESOURCETYPE: Linux
      DEFAULTRESOURCETYPE: "true"
      CUSTOMRESOURCETYPE: "false"
      ISDEFAULT_SUPPORTED_RESOURCETYPE: "true"
      ISSYNCSUPPORTED: "true"
      ISCERTIFICATE: "false"
      CATEGORY: Operating Systems
      SYNCTYPE: SSH
      OSID: "2"
      COMMAND_SET: [Linux Password Reset]
      RESOURCE_ATTRIBUTES: [Resource Name, DNS Name, Description, Department, Location, Resource URL]
      ACCOUNT_ATTRIBUTES: [User Account, Password, Notes]
organization_name:
  description: The organization the types belong to (C(ORGANIZATIONNAME)).
  returned: success
  type: str
  sample: Default Organization
"""

from ansible_collections.credvault.vault.plugins.module_utils import _resource_type
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {"containing": {"type": "list", "elements": "str"}}


def main():
    VaultModule(argument_spec()).run(_resource_type.describe)


if __name__ == "__main__":
    main()
