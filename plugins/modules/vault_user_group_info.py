#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_user_group_info
short_description: Read user groups of the credential vault
version_added: 0.3.0
description:
  - With O(name), reads the id of that user group (C(GET_USERGROUPID), edition A from build 11200, edition B from
    build 5100), in one request.
  - Without O(name), lists the user groups (C(GET_USERGROUP(S)), edition B from build 6320), every one or those
    O(search) matches. The vault gives the list a page at a time; the module reads page after page (100 groups a
    page, the spec's default list size) and returns every group found.
  - With O(edition) and O(build) set, a vault without the call is not asked and the task fails saying which build
    it needs; without them, the vault's answer decides.
  - Never changes anything.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the user group to read. A name the vault does not know is not an error; RV(exists) is then V(false).
      - The spec shows no code that tells a failed C(GET_USERGROUPID) for an unknown name from another failure; the
        group is then reported absent, with a warning when the vault's words (RV(vault_message)) do not say it is
        missing.
    type: str
  search:
    description:
      - Only the groups that match, as the vault compares (C(searchValue), C(searchColumn), C(searchOperator)).
        Whether case matters is the vault's choice (the simulator ignores it).
    type: dict
    suboptions:
      value:
        description: The value compared with (C(searchValue)).
        type: str
        required: true
      column:
        description: What is compared (C(searchColumn)).
        type: str
        choices: [userGroupId, userGroupName, description]
        default: userGroupName
      operator:
        description: How it is compared (C(searchOperator)).
        type: str
        choices: [contains, doesNotContain, equals, notEquals, startsWith, endsWith]
        default: contains
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_user_group
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The id of the DBA team
      credvault.vault.vault_user_group_info:
        name: DBA team
      register: dba_team

    - name: Every user group (edition B from build 6320)
      credvault.vault.vault_user_group_info:
      register: all_groups

    - name: The user groups whose description mentions databases
      credvault.vault.vault_user_group_info:
        search:
          value: database
          column: description
          operator: contains
      register: database_groups

    - name: Their names
      ansible.builtin.debug:
        msg: "{{ database_groups.user_groups | map(attribute='userGroupName') | list }}"
"""

RETURN = r"""
exists:
  description: Whether the vault has a user group called O(name).
  returned: when O(name) is given
  type: bool
  sample: true
user_group:
  description: C(userGroupName) and C(userGroupId) (a string, as C(GET_USERGROUPID) gives it); empty when RV(exists)
    is V(false).
  returned: when O(name) is given
  type: dict
  sample:
    userGroupName: DBA team
    userGroupId: "7"
vault_message:
  description: The vault's words when C(GET_USERGROUPID) failed for O(name) (the group is then reported absent).
  returned: when O(name) is given
  type: str
  sample: User group DBA team does not exist
user_groups:
  description: Every user group listed (or matched by O(search)), as the list gives them - C(userGroupId) a number.
  returned: when O(name) is not given
  type: list
  elements: dict
  sample:
    - userGroupName: DBA team
      userGroupId: 7
      dateCreated: "2024-05-02 10:11:12.345"
      description: Database administrators
"""

from ansible_collections.credvault.vault.plugins.module_utils import _user_group
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._paging import SEARCH_OPERATORS


def argument_spec():
    return {
        "name": {"type": "str"},
        "search": {
            "type": "dict",
            "options": {
                "value": {"type": "str", "required": True},
                "column": {"type": "str", "choices": list(_user_group.SEARCH_COLUMNS), "default": "userGroupName"},
                "operator": {"type": "str", "choices": list(SEARCH_OPERATORS), "default": "contains"},
            },
        },
    }


def main():
    VaultModule(argument_spec(), mutually_exclusive=[("name", "search")]).run(_user_group.describe)


if __name__ == "__main__":
    main()
