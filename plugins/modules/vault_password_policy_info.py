#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_password_policy_info
short_description: List the password policies of the credential vault
version_added: 0.2.0
description:
  - Returns the vault's password policies (C(GET PASSWORD POLICIES)), all of them or the one named.
  - One request per run. Edition A from build 11300, edition B from build 5300.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of one policy (C(POLICYNAME), exact match). Without it, every policy is returned.
      - An unknown name is not an error; RV(policies) is then empty.
    type: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_password_validate
  - plugin: credvault.vault.vault_generated_password
    plugin_type: lookup
"""

EXAMPLES = r"""
- name: Every password policy
  credvault.vault.vault_password_policy_info:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
  register: all_policies

- name: The name of the default policy
  ansible.builtin.debug:
    msg: "New accounts get policy {{ all_policies.default_policy }}"

- name: One policy, by name
  credvault.vault.vault_password_policy_info:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
    name: Strong
  register: strong

- name: Its minimum length
  ansible.builtin.debug:
    msg: "Strong passwords have at least {{ strong.policies[0]['PASSWORD MIN LENGTH'] }} characters"
"""

RETURN = r"""
organization:
  description: The organization whose policies these are (C(ORGANIZATION)); see O(org_name).
  returned: success
  type: str
  sample: Default Organization
default_policy:
  description: The C(POLICYNAME) of the vault's default policy (C(DEFAULTPOLICY) V(true)), whatever O(name) selects.
  returned: success
  type: str
  sample: Strong
policies:
  description:
    - The policies (C(POLICIES) items), as the vault gives them. Every value is a string.
    - Some keys appear only on some policies.
  returned: success
  type: list
  elements: dict
  contains:
    POLICYID:
      description: Identifier, usable as O(credvault.vault.vault_password_validate#module:policy_id).
      type: str
      sample: "3"
    POLICYNAME:
      description: Name.
      type: str
      sample: Strong
    DESCRIPTION:
      description: Description.
      type: str
    DEFAULTPOLICY:
      description: V(true) for the default policy, else V(false).
      type: str
      sample: "true"
    PASSWORD MIN LENGTH:
      description: Minimum length.
      type: str
      sample: "10"
    PASSWORD MAX LENGTH:
      description: Maximum length.
      type: str
      sample: "32"
    ENFORCE MIXED CASE:
      description: V(true) when lower- and upper-case letters are required.
      type: str
    ENFORCE SPL CHARS:
      description: V(true) when special characters are required.
      type: str
    ENFORCE NUMERALS:
      description: V(true) when digits are required.
      type: str
    ENFORCE STARTING WITH AN ALPHABET:
      description: V(true) when the password must start with a letter.
      type: str
    NO OF SPL CHARS REQUIRED:
      description: Minimum number of special characters.
      type: str
    NUMBER OF NUMERALS:
      description: Minimum number of digits.
      type: str
    NUMBER OF LOWERCASE CHARACTERS REQUIRED:
      description: Minimum number of lower-case letters.
      type: str
    NUMBER OF UPPERCASE CHARACTERS REQUIRED:
      description: Minimum number of upper-case letters.
      type: str
    CHECK DICTIONARY WORD:
      description: Dictionary check on (V(true)) or off; only on some policies, with C(DICTIONARY NAME).
      type: str
    CHECK ANAGRAM OF LOGINNAME:
      description: Login-name rule; only on some policies, with C(PASSWORD CAN CONTAIN LOGINNAME).
      type: str
    CHECK SEQUENCE:
      description:
        - Sequence rules; only on some policies, with C(SEQUENCE LENGTH), C(CHECK NUMERIC SEQUENCE),
          C(CHECK CONSECUTIVE SEQUENCE), C(CHECK ALPHABET SEQUENCE), C(CHECK KEYBOARD SEQUENCE) and
          C(KEYBOARD LAYOUT).
      type: str
    CHECK OBVIOUS SUBSTITUTION:
      description: Pattern rule; only on some policies, with C(CHECK REPEATED SUBSTRING).
      type: str
    CHECK SIMILARITY OF PASSWORDS:
      description: Similarity rule; only on some policies, with C(NUMBER OF PASSWORDS TO CHECK FOR SIMILARITY).
      type: str
    REUSE OF OLD PASSWORDS:
      description: Text of the form C(Don't allow last N passwords).
      type: str
      sample: Don't allow last 4 passwords
    PASSWORD VALIDITY PERIOD:
      description: A number; V(0) in the least strict policy. The vault does not state the unit.
      type: str
      sample: "60"
"""

from ansible_collections.credvault.vault.plugins.module_utils import _policy
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def main():
    vault = VaultModule({"name": {"type": "str"}})

    def work():
        return dict(_policy.describe_policies(vault.client, vault.params["name"]), changed=False)

    vault.run(work)


if __name__ == "__main__":
    main()
