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
    - Besides the keys below, a policy holds the vault's own keys whose names have spaces; read them with brackets, for example
      V(item['PASSWORD MIN LENGTH']). They are described here, not below, because Ansible documents only return keys that dot
      notation can read. The sample shows them with example values.
    - C(PASSWORD MIN LENGTH) - minimum length.
    - C(PASSWORD MAX LENGTH) - maximum length.
    - C(ENFORCE MIXED CASE) - V(true) when lower- and upper-case letters are required.
    - C(ENFORCE SPL CHARS) - V(true) when special characters are required.
    - C(ENFORCE NUMERALS) - V(true) when digits are required.
    - C(ENFORCE STARTING WITH AN ALPHABET) - V(true) when the password must start with a letter.
    - C(NO OF SPL CHARS REQUIRED) - minimum number of special characters.
    - C(NUMBER OF NUMERALS) - minimum number of digits.
    - C(NUMBER OF LOWERCASE CHARACTERS REQUIRED) - minimum number of lower-case letters.
    - C(NUMBER OF UPPERCASE CHARACTERS REQUIRED) - minimum number of upper-case letters.
    - C(CHECK DICTIONARY WORD) - dictionary check on (V(true)) or off; only on some policies, with C(DICTIONARY NAME).
    - C(CHECK ANAGRAM OF LOGINNAME) - login-name rule; only on some policies, with C(PASSWORD CAN CONTAIN LOGINNAME).
    - C(CHECK SEQUENCE) - sequence rules; only on some policies, with C(SEQUENCE LENGTH), C(CHECK NUMERIC SEQUENCE),
      C(CHECK CONSECUTIVE SEQUENCE), C(CHECK ALPHABET SEQUENCE), C(CHECK KEYBOARD SEQUENCE) and C(KEYBOARD LAYOUT).
    - C(CHECK OBVIOUS SUBSTITUTION) - pattern rule; only on some policies, with C(CHECK REPEATED SUBSTRING).
    - C(CHECK SIMILARITY OF PASSWORDS) - similarity rule; only on some policies, with C(NUMBER OF PASSWORDS TO CHECK FOR SIMILARITY).
    - C(REUSE OF OLD PASSWORDS) - text of the form C(Don't allow last N passwords).
    - C(PASSWORD VALIDITY PERIOD) - a number; V(0) in the least strict policy. The vault does not state the unit.
  returned: success
  type: list
  elements: dict
  sample:
    - POLICYID: "3"
      POLICYNAME: Strong
      DESCRIPTION: "Strong passwords: the default policy"
      DEFAULTPOLICY: "true"
      PASSWORD MIN LENGTH: "10"
      PASSWORD MAX LENGTH: "32"
      ENFORCE MIXED CASE: "true"
      ENFORCE SPL CHARS: "true"
      ENFORCE NUMERALS: "true"
      ENFORCE STARTING WITH AN ALPHABET: "true"
      NO OF SPL CHARS REQUIRED: "1"
      NUMBER OF NUMERALS: "1"
      NUMBER OF LOWERCASE CHARACTERS REQUIRED: "1"
      NUMBER OF UPPERCASE CHARACTERS REQUIRED: "1"
      CHECK DICTIONARY WORD: "false"
      DICTIONARY NAME: ""
      CHECK ANAGRAM OF LOGINNAME: "true"
      PASSWORD CAN CONTAIN LOGINNAME: "false"
      CHECK SEQUENCE: "true"
      SEQUENCE LENGTH: "4"
      CHECK NUMERIC SEQUENCE: "true"
      CHECK CONSECUTIVE SEQUENCE: "true"
      CHECK ALPHABET SEQUENCE: "true"
      CHECK KEYBOARD SEQUENCE: "true"
      KEYBOARD LAYOUT: QWERTY
      CHECK OBVIOUS SUBSTITUTION: "false"
      CHECK REPEATED SUBSTRING: "true"
      CHECK SIMILARITY OF PASSWORDS: "false"
      NUMBER OF PASSWORDS TO CHECK FOR SIMILARITY: "0"
      REUSE OF OLD PASSWORDS: Don't allow last 4 passwords
      PASSWORD VALIDITY PERIOD: "60"
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
"""

from ansible_collections.credvault.vault.plugins.module_utils import _password_policy_info
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def main():
    VaultModule({"name": {"type": "str"}}).run(_password_policy_info.describe)


if __name__ == "__main__":
    main()
