#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_user_info
short_description: Read users of the credential vault
version_added: 0.3.0
description:
  - With O(name), looks the user up (C(get_USERID), every build) and returns its id; where the vault lists users
    (C(GET_USER(S)), edition B from build 6320) also its list item.
  - The spec shows no code that tells a failed C(get_USERID) for an unknown name from another failure. Where the vault
    lists users, a failed C(get_USERID) for a user the list holds fails the task with the vault's words; elsewhere the
    user is reported absent, with a warning when the vault's words (RV(vault_message)) do not say it is missing.
  - Without O(name), lists the users (C(GET_USER(S)), edition B from build 6320) - all of them, or those O(search)
    matches. The list is read page after page (O(page_size) users a request) until the vault's C(totalRows) users
    have come or a page comes back short or empty, and every match is returned. Elsewhere the task fails, saying
    why; a lookup by O(name) works on every build.
  - Never changes anything, and never returns a password or a token.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the user to look up. A name the vault does not know is not an error; RV(exists) is then V(false).
      - The vault's list search ignores case, so the list item returned is the one whose C(userName) is exactly
        O(name).
    type: str
  search:
    description:
      - Which users to list (C(searchValue), C(searchColumn), C(searchOperator)). Not given, every user is listed.
      - Matching is the vault's (the simulator compares without case).
    type: dict
    suboptions:
      value:
        description: The value searched for (C(searchValue)).
        type: str
        required: true
      column:
        description: What is searched (C(searchColumn)).
        type: str
        choices: [userId, userName, email, role, department, location, orgName, isApiUser, isTfaEnabled,
                  isSuperAdmin, isUserLocked]
        default: userName
      operator:
        description: How it is compared (C(searchOperator)).
        type: str
        choices: [contains, doesNotContain, equals, notEquals, startsWith, endsWith]
        default: contains
  page_size:
    description:
      - How many users one request asks for (C(limit)). The spec's default list size when no limit is sent is
        100.
    type: int
    default: 100
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_user
"""

EXAMPLES = r"""
- name: Users of the vault (edition B)
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Look up one user
      credvault.vault.vault_user_info:
        name: jdoe
      register: jdoe

    - name: Its id, and whether it is locked
      ansible.builtin.debug:
        msg: "jdoe has id {{ jdoe.user_id }}; locked: {{ jdoe.user.isUserLocked | default('unknown') }}"
      when: jdoe.exists

    - name: Every API user
      credvault.vault.vault_user_info:
        search:
          column: isApiUser
          operator: equals
          value: "true"
      register: api_users

    - name: Their names
      ansible.builtin.debug:
        msg: "{{ api_users.users | map(attribute='userName') | list }}"

    - name: Every user, read 50 at a time
      credvault.vault.vault_user_info:
        page_size: 50
      register: everyone
"""

RETURN = r"""
exists:
  description: Whether the vault has a user called O(name).
  returned: when O(name) is given
  type: bool
  sample: true
user_id:
  description: The id of the user O(name) (C(get_USERID) C(USERID)); V(null) when it does not exist.
  returned: when O(name) is given
  type: str
  sample: "12"
vault_message:
  description: The vault's words when C(get_USERID) failed for O(name) (the user is then reported absent).
  returned: when O(name) is given
  type: str
  sample: User jdoe does not exist
user:
  description:
    - The user O(name) as the vault's user list describes it (C(GET_USER(S)) item).
    - Empty when the user does not exist, and where the vault has no user list (edition A, edition B before 6320).
  returned: when O(name) is given
  type: dict
  sample:
    userId: 12
    userName: jdoe
    role: Password User
    location: Paris
    department: Operations
    email: jdoe@example.com
    trustScore: N/A
    isApiUser: false
    isSuperAdmin: false
    isTfaEnabled: false
    isUserLocked: false
    isAddonAccessEnabled: false
    isMobileAccessEnabled: false
    dateCreated: "2024-05-02 10:11:12.345"
users:
  description: Every user the list holds, or that O(search) matches (C(GET_USER(S)) items, as in RV(user)).
  returned: when O(name) is not given
  type: list
  elements: dict
  sample:
    - userId: 1
      userName: admin
      role: Privileged Administrator
      location: ""
      department: ""
      email: ""
      trustScore: N/A
      isApiUser: true
      isSuperAdmin: true
      isTfaEnabled: false
      isUserLocked: false
      isAddonAccessEnabled: false
      isMobileAccessEnabled: false
      dateCreated: "2024-05-01 09:00:00.000"
"""

from ansible_collections.credvault.vault.plugins.module_utils import _user
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._paging import PAGE_SIZE, SEARCH_OPERATORS


def argument_spec():
    return {
        "name": {"type": "str"},
        "search": {
            "type": "dict",
            "options": {
                "value": {"type": "str", "required": True},
                "column": {"type": "str", "choices": list(_user.SEARCH_COLUMNS), "default": "userName"},
                "operator": {"type": "str", "choices": list(SEARCH_OPERATORS), "default": "contains"},
            },
        },
        "page_size": {"type": "int", "default": PAGE_SIZE},
    }


def main():
    VaultModule(argument_spec(), mutually_exclusive=[("name", "search")]).run(_user.describe)


if __name__ == "__main__":
    main()
