#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_accounts
short_description: Manage many accounts of one resource in the credential vault in one task
version_added: 0.4.0
description:
  - Add, edit and delete many accounts of one resource at once, with the options and rules of
    M(credvault.vault.vault_account) for each of them.
  - The resource's account list is read once (C(GET RESOURCE ACCOUNTLIST)) and every missing account is added by
    one C(ADD ACCOUNTS). An existing account is read only for what its options need (its detail for O(accounts[].notes)
    and O(accounts[].custom_fields), C(GET PASSWORD) with O(update_password=always), C(FETCH_CURRENT_TOTP) for
    O(accounts[].totp_secret)), and written only where it differs.
  - So a list of names and passwords with O(update_password=on_create) costs four requests when the accounts are
    created (the resource id, the list, C(ADD ACCOUNTS), the list again) and two once they exist.
  - After every write, each added account is read back for the settings the vault could drop without a word - its
    detail when O(accounts[].notes) or O(accounts[].custom_fields) is given, C(FETCH_CURRENT_TOTP) for
    O(accounts[].totp_secret) (a vault without TOTP adds the account without it when O(edition) and O(build) are not
    set). A setting not applied fails the task with V(changed=true), naming the accounts, the options not applied and
    what was written. The write-only settings (policy, booleans, group ids) are never reported, so not checked.
  - Every comparison is read before the first write. In check mode only reads are sent.
  - C(ADD ACCOUNTS) answers for each account; the list read after it decides which were added. Accounts it refused
    fail the task, each named with the vault's reason (its C(STATUS)), and the task says which were added
    (V(changed=true)); the accounts to edit are then left as they were. An account a parallel run added meanwhile is
    converged like an existing one.
  - Names, labels and the policy name must not be empty or start or end with spaces, and a name must not be listed
    twice; such input is refused before anything is sent, in check mode too.
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description:
      - Name of the resource that holds the accounts. It must exist for O(state=present).
      - In check mode a missing resource is taken as one an earlier task would create; every account is then
        reported as would be created, with a warning.
      - With O(state=absent) a missing resource means every account is absent too.
    type: str
    required: true
  accounts:
    description: The accounts, each with the options of M(credvault.vault.vault_account) of the same names.
    type: list
    elements: dict
    required: true
    suboptions:
      name:
        description: Account name (C(ACCOUNTNAME)).
        type: str
        required: true
        aliases: [account]
      password:
        description:
          - The account's password. Required to create the account.
          - See O(update_password) for existing accounts.
        type: str
      notes:
        description: Notes of the account (C(NOTES), reported back as C(DESCRIPTION)).
        type: str
      custom_fields:
        description:
          - Account-level additional fields, label to value. At most 20. Labels not listed are left as they are.
          - Values are strings or numbers (numbers are sent as written). V(null), booleans, lists and mappings are
            refused; quote them (V("true")) to store the text.
        type: dict
      password_policy:
        description: Name of the account's password policy (C(ACCOUNTPASSWORDPOLICY)). See O(force_settings).
        type: str
      totp_secret:
        description:
          - Base32 TOTP secret (C(TOTP_SECRET)); an empty string removes the account's TOTP. Edition A from build
            12430.
          - Compared through the vault's current code (C(FETCH_CURRENT_TOTP)), as M(credvault.vault.vault_account)
            does.
        type: str
      totp_algorithm:
        description: TOTP hash algorithm (C(TOTP_ALGORITHM)); the vault's default is V(SHA1).
        type: str
        choices: [SHA1, SHA256, SHA512]
      totp_digits:
        description: Digits of a TOTP code (C(TOTP_DIGITS)); the vault's default is 6.
        type: int
        choices: [6, 8]
      totp_validity:
        description: Seconds a TOTP code is valid (C(TOTP_VALIDITY)), from 1 to 86400; the vault's default is 30.
        type: int
  state:
    description: Whether the listed accounts exist. With V(absent) each one the resource has is deleted.
    type: str
    choices: [present, absent]
    default: present
  update_password:
    description:
      - V(always) reads each existing account's password (C(GET PASSWORD)) and changes it (C(CHANGE PASSWORD),
        C(RESETTYPE) C(LOCAL)) only when it differs from its O(accounts[].password).
      - V(on_create) sets the passwords only when the accounts are created, and reads no password.
    type: str
    choices: [always, on_create]
    default: always
  force_settings:
    description:
      - The vault does not report O(accounts[].password_policy) back, so it cannot be compared. It is sent when an
        account is created; on an existing account only when O(force_settings=true), which then always reports a
        change.
      - Without O(force_settings), a policy given for an existing account is named in a warning.
    type: bool
    default: false
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_account
  - module: credvault.vault.vault_resource
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  vars:
    # agent-001 to agent-100, without a loop; agent_passwords maps each name to its password (kept in Ansible Vault).
    build_agents: "{{ query('ansible.builtin.sequence', 'start=1 end=100 format=agent-%03d') }}"
  block:
    - name: One hundred accounts in one task, passwords set only when they are created
      credvault.vault.vault_accounts:
        resource: build-farm
        accounts: "{{ dict(build_agents | zip(build_agents | map('extract', agent_passwords)))
                      | dict2items(key_name='name', value_name='password') }}"
        update_password: on_create

    - name: Notes on two accounts, compared and changed only where they differ
      credvault.vault.vault_accounts:
        resource: build-farm
        accounts:
          - name: agent-001
            notes: Release builds
          - name: agent-002
            notes: Nightly builds

    - name: Remove three of them
      credvault.vault.vault_accounts:
        resource: build-farm
        accounts:
          - name: agent-098
          - name: agent-099
          - name: agent-100
        state: absent
"""

RETURN = r"""
accounts:
  description:
    - One entry per account of O(accounts), in that order. Never a password.
  returned: success
  type: list
  elements: dict
  contains:
    name:
      description: The account name.
      type: str
      sample: agent-001
    account_id:
      description: The account's id (C(ACCOUNT ID)); V(null) when the account does not exist (check mode, absent).
      type: str
      sample: "2"
    outcome:
      description: What the task did to the account, or would do in check mode.
      type: str
      choices: [created, updated, unchanged, deleted, absent]
      sample: created
"""

from ansible_collections.credvault.vault.plugins.module_utils import _accounts
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import authorization_argument_spec


def argument_spec():
    account = {
        "name": {"type": "str", "required": True, "aliases": ["account"]},
        "password": {"type": "str", "no_log": True},
        "notes": {"type": "str"},
        "custom_fields": {"type": "dict"},
        "password_policy": {"type": "str", "no_log": False},
        "totp_secret": {"type": "str", "no_log": True},
        "totp_algorithm": {"type": "str", "choices": ["SHA1", "SHA256", "SHA512"]},
        "totp_digits": {"type": "int", "choices": [6, 8]},
        "totp_validity": {"type": "int"},
    }
    return {
        "resource": {"type": "str", "required": True},
        "accounts": {"type": "list", "elements": "dict", "required": True, "options": account},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "update_password": {"type": "str", "choices": ["always", "on_create"], "default": "always", "no_log": False},
        "force_settings": {"type": "bool", "default": False},
        **authorization_argument_spec(),
    }


def main():
    VaultModule(argument_spec()).run(_accounts.converge)


if __name__ == "__main__":
    main()
