#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_user_group
short_description: Manage the members of user groups, and delete user groups, in the credential vault
version_added: 0.3.0
description:
  - Adds users to an existing user group, removes users from it, and deletes user groups by name or id.
  - The vault's API has no call that creates a user group. A group named in O(name) with O(state=present) must
    exist; when it does not, the task fails (in check mode too) and says to create it in the vault's web console.
  - Whatever can be refused is checked before anything is written - names without surrounding spaces, the group,
    the users of O(members), and the builds the calls need (with O(edition) and O(build) set).
  - Requests, with N users in O(members) and M in O(absent_members) - 1 read for the group, N + M reads for the
    users' ids (with O(purge_members=true) instead every page of the user list, 100 users a page), N writes
    (C(ADD USER TO USERGROUP), one per user) and 1 write for all removals (C(REMOVE USER FROM USER_GROUP)).
    Deleting - 1 read per name and 1 write (C(DELETE_USERGROUP)) for every group at once.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the user group. Required with O(state=present), which manages one group.
      - The vault stores names trimmed, so a name that is empty or has leading or trailing spaces is refused, as
        are such names in O(names), O(members) and O(absent_members).
    type: str
  names:
    description:
      - Names of user groups to delete, with O(state=absent). A name the vault does not know is no change.
    type: list
    elements: str
  ids:
    description:
      - Ids of user groups to delete, with O(state=absent) (C(userGroupId) of M(credvault.vault.vault_user_group_info)).
      - An id the vault does not have fails the task with the vault's answer (statusCode V(46000), "invalid user
        group id"), naming the group. Check mode does not check ids.
    type: list
    elements: int
  state:
    description:
      - V(present) - the group O(name) exists (it is never created) and holds the users of O(members), and not
        those of O(absent_members).
      - V(absent) - the groups of O(name), O(names) and O(ids) are deleted, all in one request
        (C(DELETE_USERGROUP), edition A from build 12230, edition B from build 6000). Deleting a group leaves its
        users in the vault. The vault's answer for each group is returned in RV(deleted); a group it did not delete
        fails the task, naming the group and giving the vault's message and statusCode.
    type: str
    choices: [present, absent]
    default: present
  members:
    description:
      - Names of users the group must hold (C(ADD USER TO USERGROUP), one request per user).
      - Every user must exist; an unknown name fails the task before anything is written (in check mode it is taken
        as created by an earlier task, with a warning).
      - The API cannot read a group's members, so each user is sent on every run; each one counts as a change unless
        the vault answers that the user is a member already. See the notes.
    type: list
    elements: str
  absent_members:
    description:
      - Names of users the group must not hold, removed in one request (C(REMOVE USER FROM USER_GROUP), edition A
        from build 12230, edition B from build 6000).
      - A user the vault answers is not in the group, or a user that does not exist, is no change (see
        RV(not_members)); any other refusal fails the task, naming the user and the group.
    type: list
    elements: str
  purge_members:
    description:
      - With V(true), every user not in O(members) is removed from the group - one C(REMOVE USER FROM USER_GROUP)
        with every such user, and only those the vault answers it removed count as a change.
      - It needs the list of every user (C(GET_USER(S))), which only edition B has, from build 6320. Elsewhere the
        task is refused before anything is written (with O(edition) and O(build) set, before anything is sent); use
        O(absent_members) there.
    type: bool
    default: false
notes:
  - The API has no call that reads the members of a user group. Users of O(members) are therefore sent on every run,
    and reported as changed unless the vault's answer says the user is a member already (its message says
    C(already)); a vault that answers otherwise makes a task with O(members) report a change on every run. A
    removal is a change only for the users the vault answers it removed.
  - In check mode nothing is written; the users that would be added or sent for removal are returned, and the task
    warns that it cannot tell which of those sent for removal are members.
attributes:
  idempotent:
    support: partial
    details: >-
      Deleting and removing members report a change only when the vault deleted or removed something; O(members) is
      sent on every run, and reported as changed unless the vault answers the users are members already (see the
      notes).
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_user_group_info
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Alice and Bob are in the DBA team (the group itself is made in the vault's web console)
      credvault.vault.vault_user_group:
        name: DBA team
        members:
          - alice
          - bob

    - name: Carol is not
      credvault.vault.vault_user_group:
        name: DBA team
        absent_members:
          - carol

    - name: Edition B from build 6320 - the DBA team holds Alice and Bob and nobody else
      credvault.vault.vault_user_group:
        name: DBA team
        members:
          - alice
          - bob
        purge_members: true

    - name: Find the groups whose name starts with Interns (edition B from build 6320)
      credvault.vault.vault_user_group_info:
        search:
          value: Interns
          column: userGroupName
          operator: startsWith
      register: interns

    - name: Delete them, and the group Old team, in one request
      credvault.vault.vault_user_group:
        names:
          - Old team
        ids: "{{ interns.user_groups | map(attribute='userGroupId') | list }}"
        state: absent
"""

RETURN = r"""
user_group:
  description: The group, C(userGroupName) and C(userGroupId) (from C(GET_USERGROUPID), a string).
  returned: with O(state=present)
  type: dict
  sample:
    userGroupName: DBA team
    userGroupId: "7"
added:
  description:
    - Users added to the group (C(ADD USER TO USERGROUP)), not those the vault answered were members already.
    - In check mode, every user of O(members) (the users that would be sent).
  returned: with O(state=present)
  type: list
  elements: str
  sample: [alice, bob]
removed:
  description:
    - Users the vault answered it removed from the group.
    - In check mode, the users a removal would be sent for, members or not.
  returned: with O(state=present)
  type: list
  elements: str
  sample: [carol]
not_members:
  description: Users of the removal that were not in the group, as the vault answered, or that do not exist.
  returned: with O(state=present)
  type: list
  elements: str
  sample: [dave]
deleted:
  description:
    - The groups deleted, each with the vault's answer for it - C(status), C(message) and C(statusCode).
      C(userGroupName) is null for a group given by id.
    - In check mode, the groups that would be deleted, without an answer.
  returned: with O(state=absent)
  type: list
  elements: dict
  sample:
    - userGroupId: "9"
      userGroupName: Old team
      status: Success
      message: User group Old team has been deleted successfully
      statusCode: 20000
absent:
  description: Names of O(name) and O(names) the vault has no group for (no change).
  returned: with O(state=absent)
  type: list
  elements: str
  sample: [Interns 2023]
"""

from ansible_collections.credvault.vault.plugins.module_utils import _user_group
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str"},
        "names": {"type": "list", "elements": "str"},
        "ids": {"type": "list", "elements": "int"},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "members": {"type": "list", "elements": "str"},
        "absent_members": {"type": "list", "elements": "str"},
        "purge_members": {"type": "bool", "default": False},
    }


def main():
    VaultModule(
        argument_spec(),
        required_one_of=[("name", "names", "ids")],
        mutually_exclusive=[("name", "names"), ("purge_members", "absent_members")],
        required_if=[("state", "present", ["name"]), ("purge_members", True, ["members"])],
    ).run(_user_group.converge)


if __name__ == "__main__":
    main()
