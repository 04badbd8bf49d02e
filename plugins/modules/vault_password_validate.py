#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_password_validate
short_description: Check a password against a password policy of the credential vault
version_added: 0.2.0
description:
  - Asks the vault whether a password satisfies a password policy (C(VALIDATE_PASSWORD)), named by O(policy) or
    by O(policy_id). The vault checks; nothing is stored and the task never reports a change.
  - Like M(ansible.builtin.assert), the task fails when the password is invalid, with the vault's message naming
    what the password breaks. With O(fail_on_invalid=false) it succeeds and returns RV(valid) and RV(message).
  - An unknown policy always fails, with the names and ids of the policies the vault has.
  - A valid password costs one request. An invalid one costs two, because the vault's answer alone does not tell an
    invalid password from an unknown policy, so the policy list (C(GET PASSWORD POLICIES)) is read to tell them apart.
  - Edition A from build 12230, edition B from build 6000.
author:
  - Credvault Maintainers (@credvault)
options:
  password:
    description: The password to check (C(password)). It is never logged nor returned.
    type: str
    required: true
  policy:
    description: Name of the policy (C(passwordPolicy)). Exactly one of O(policy) and O(policy_id) is required.
    type: str
  policy_id:
    description:
      - Id of the policy (C(passwordPolicyId)), the C(POLICYID) of M(credvault.vault.vault_password_policy_info).
    type: str
  fail_on_invalid:
    description:
      - Whether an invalid password fails the task. The failure carries RV(valid) and RV(message) too.
      - V(false) reports the verdict in RV(valid) only, for playbooks that decide themselves.
    type: bool
    default: true
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
notes:
  - The password goes to the vault in the request body over HTTPS; it does not appear in the result, the messages
    or the logs.
seealso:
  - module: credvault.vault.vault_password_policy_info
  - plugin: credvault.vault.vault_generated_password
    plugin_type: lookup
  - module: ansible.builtin.assert
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Stop here unless the new password satisfies the Strong policy
      credvault.vault.vault_password_validate:
        password: "{{ new_db_password }}"
        policy: Strong

    - name: The custom policy for database accounts
      credvault.vault.vault_password_policy_info:
        name: Database Accounts
      register: database_policy

    - name: Ask without failing, against a policy given by its id
      credvault.vault.vault_password_validate:
        password: "{{ candidate_password }}"
        policy_id: "{{ database_policy.policies[0].POLICYID }}"
        fail_on_invalid: false
      register: verdict

    - name: Show what is wrong with the password
      ansible.builtin.debug:
        msg: "{{ 'accepted' if verdict.valid else 'refused: ' ~ verdict.message }}"
"""

RETURN = r"""
valid:
  description: Whether the password satisfies the policy. Also returned when an invalid password fails the task.
  returned: success or when the password is invalid
  type: bool
  sample: false
message:
  description:
    - The vault's message, C(result.message). V(Valid) for a valid password; for an invalid one, the vault's
      explanation (the rules broken, as the vault words them).
  returned: success or when the password is invalid
  type: str
  sample: "Invalid: the password must be at least 10 characters long; must start with a letter (policy Strong)"
"""

from ansible_collections.credvault.vault.plugins.module_utils import _password_validate
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "password": {"type": "str", "required": True, "no_log": True},
        "policy": {"type": "str"},
        "policy_id": {"type": "str"},
        "fail_on_invalid": {"type": "bool", "default": True},
    }


def main():
    VaultModule(
        argument_spec(), mutually_exclusive=[("policy", "policy_id")], required_one_of=[("policy", "policy_id")]
    ).run(_password_validate.describe)


if __name__ == "__main__":
    main()
