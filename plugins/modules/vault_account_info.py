#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_account_info
short_description: Read accounts of a resource in the credential vault
version_added: 0.2.0
description:
  - With O(name), reads one account (C(GET RESOURCE ACCOUNT DETAILS)), in two requests when it exists.
  - Without O(name), lists the accounts of the resource (its C(ACCOUNT LIST)), or with O(include_details) the
    details of each of them.
  - Values come back under the vault's own keys (for example C(ACCOUNT NAME)), as the spec names them.
  - Never changes anything, and never returns a password. Read a password with the lookup
    P(credvault.vault.vault_password#lookup).
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description:
      - Name of the resource that holds the accounts.
      - A resource the vault does not know (or this token does not see) is not an error; RV(resource_exists) is then
        V(false), RV(exists) V(false) and RV(accounts) empty.
    type: str
    required: true
  name:
    description:
      - Name of the account to read. Without it, all accounts of O(resource) are listed.
      - An account the resource does not hold is not an error; RV(exists) is then V(false).
      - The alias O(account) matches the option name of M(credvault.vault.vault_account_password) and
        M(credvault.vault.vault_password_request).
    type: str
    aliases: [account]
  include_details:
    description:
      - Without O(name), read the details of every account (notes, custom fields, times), one more request per
        account. By default only the C(ACCOUNT LIST) items are returned, from a single read of the resource.
      - Not with O(name), which always returns the details.
    type: bool
    default: false
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_account
  - module: credvault.vault.vault_resource_info
  - plugin: credvault.vault.vault_password
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
    - name: One account
      credvault.vault.vault_account_info:
        resource: web-01
        name: root
      register: root_account

    - name: When its password was last changed
      ansible.builtin.debug:
        msg: "{{ root_account.account['LAST MODIFIED TIME'] }}"
      when: root_account.exists

    - name: The names of all accounts of the resource
      credvault.vault.vault_account_info:
        resource: web-01
      register: web01_accounts

    - name: All accounts with their notes and custom fields
      credvault.vault.vault_account_info:
        resource: web-01
        include_details: true
      register: web01_account_details

    - name: Accounts without notes
      ansible.builtin.debug:
        msg: "{{ web01_account_details.accounts | selectattr('DESCRIPTION', 'equalto', '')
                 | map(attribute='ACCOUNT NAME') | list }}"
"""

RETURN = r"""
resource_exists:
  description: Whether the vault holds a resource called O(resource) that this token sees.
  returned: success
  type: bool
  sample: true
exists:
  description: Whether O(resource) holds an account called O(name) that this token sees.
  returned: when O(name) is given
  type: bool
  sample: true
account:
  description:
    - The account as the vault describes it (C(GET RESOURCE ACCOUNT DETAILS) Details) with the C(RESOURCE ID),
      C(ACCOUNT ID) and C(ACCOUNT NAME) it was found by; empty when RV(exists) is V(false). Never the password.
    - Values of custom fields whose C(CUSTOMFIELDTYPE) is V(Password) show as V(<hidden>).
  returned: when O(name) is given
  type: dict
  sample:
    RESOURCE ID: "1"
    ACCOUNT ID: "2"
    ACCOUNT NAME: deploy
    DESCRIPTION: Used by the deployment pipeline
    LAST ACCESSED TIME: null
    LAST MODIFIED TIME: Nov 22, 2026 8:48 AM
    PASSWORD STATUS: "*****"
    PASSWDID: "2"
    CUSTOM FIELD: []
accounts:
  description:
    - The accounts of O(resource) that this token sees, as the C(ACCOUNT LIST) items of C(GET RESOURCE ACCOUNTLIST)
      (C(ACCOUNT ID), C(ACCOUNT NAME), C(PASSWDID), C(ISFAVPASS), C(PASSWORD STATUS)).
    - With O(include_details=true), each item is instead shaped like RV(account).
  returned: when O(name) is not given
  type: list
  elements: dict
  sample:
    - ACCOUNT ID: "1"
      ACCOUNT NAME: root
      PASSWDID: "1"
      ISFAVPASS: "false"
      PASSWORD STATUS: "*****"
"""

from ansible_collections.credvault.vault.plugins.module_utils import _account
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "resource": {"type": "str", "required": True},
        "name": {"type": "str", "aliases": ["account"]},
        "include_details": {"type": "bool", "default": False},
    }


def main():
    VaultModule(argument_spec(), mutually_exclusive=[("name", "include_details")]).run(_account.describe)


if __name__ == "__main__":
    main()
