#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_resource_group
short_description: Manage static and dynamic resource groups in the credential vault
version_added: 0.2.0
description:
  - Create and delete static and dynamic resource groups, and keep the resources of a static group.
  - The API has no call that edits a group. Its type, description and parent are read back from the group list
    (C(GET_RESOURCE_GROUPS), edition A from build 12230, edition B from build 6000) and compared; when they differ
    the module fails before writing anything, unless O(recreate=true).
  - O(password_policy), O(no_helpdesk_retrieval) and O(criteria) are never reported back by the vault. They are sent
    when the group is created. On an existing group they are not compared and not applied, and the task warns which
    of them were given; O(force_recreate=true) applies them by deleting the group and creating it again.
  - Whatever the vault could refuse in the creation is checked before anything is written, and so before a
    re-creation deletes the group - names without surrounding spaces, non-empty criteria, the resources of
    O(resources), the O(parent) group and the O(password_policy) (read from C(GET PASSWORD POLICIES); where the vault
    has no policy list for the token, the task warns that the policy was not checked).
  - In check mode, resources of O(resources) and a O(parent) group that do not exist yet are taken as created by an
    earlier task of the same run - the task reports a change and warns, instead of failing.
  - Several runs may ensure the same group at the same time (parallel forks). A creation refused because the group
    exists by then, or a deletion refused because it is gone, is followed by one more read, and the task converges
    to what it finds instead of failing.
  - On vaults without the group list (C(GET_RESOURCE_GROUPS), edition A before 12230, edition B before 6000) the
    group is found by name with C(GET RESOURCE GROUP ID) among the groups the caller owns, which answers only the
    group's id; the type, description and parent of an existing group are then not compared, and the module warns
    when they are given.
  - The API cannot list the members of a group. The module reads, for each resource it must check, the groups that
    resource is in (C(GET ASSOCIATED GROUPS), one request per resource). Without O(purge_resources) only the
    resources of O(resources) are checked; with O(purge_resources=true) every resource the token can see is
    checked (one request per resource), and members the token cannot see are neither shown nor removed.
  - Requests measured against the simulator (edition A 12450) with N resources listed and R resources visible
    to the token. Converged run, reads only - without O(resources) 1; with O(resources) N + 2; with
    O(purge_resources=true) R + 2. Creating a static group with resources - 3 reads and 2 writes (create, associate),
    one more read with O(password_policy). Deleting - 1 read and 1 write.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the group (C(GROUPNAME)). Group names are unique within an organization.
      - The vault stores names trimmed, so a name that is empty or has leading or trailing spaces is refused, as are
        such names in O(parent), O(resources), O(password_policy) and O(criteria).
    type: str
    required: true
  state:
    description:
      - Whether the group exists.
      - Deleting a group leaves its resources in the vault. The vault may delete the group's subgroups with it
        (the spec does not say; the simulator does).
    type: str
    choices: [present, absent]
    default: present
  type:
    description:
      - V(static) groups hold the resources associated with them (O(resources)); V(dynamic) groups hold the
        resources that meet their O(criteria), and cannot have resources associated.
      - Not given, a new group is static and the type of an existing group is left as it is. Given, it is compared
        with the vault's C(resourceGroupType); see O(recreate).
    type: str
    choices: [static, dynamic]
  description:
    description: Description (C(DESCRIPTION)). Compared with the vault's C(resourceGroupDescription); see O(recreate).
    type: str
  parent:
    description:
      - Name of the parent group; the module sends its id (C(PARENTGROUPID)). It must exist (in check mode, a
        missing parent is taken as created by an earlier task, with a warning).
      - V("") means a top-level group. Compared with the vault's C(subGroupOf); see O(recreate).
    type: str
  password_policy:
    description:
      - Password policy name of the group (C(POLICY)). Sent on creation only; see O(force_recreate).
      - Checked against the vault's policies (C(GET PASSWORD POLICIES)) before the group is created or recreated, so
        that an unknown policy fails before anything is written.
    type: str
  no_helpdesk_retrieval:
    description: C(NoHelpDeskRetrieval). Sent on creation only; see O(force_recreate).
    type: bool
  criteria:
    description:
      - The criteria of a dynamic group (C(condition_N), C(operator_N), C(valuefield_N), C(NoOfCriteria)).
        Required when O(type=dynamic), with at least one criterion. Sent on creation only; see O(force_recreate).
    type: list
    elements: dict
    suboptions:
      condition:
        description:
          - What is compared (C(condition_N)), for example V(RESOURCENAME) or V(LOGINNAME) (the names of the
            resource's accounts), the values the spec shows. The complete list is the vault's.
        type: str
        required: true
      operator:
        description: How it is compared (C(operator_N)), for example V(CONTAINS), the value the spec shows.
        type: str
        required: true
      value:
        description: The value compared with (C(valuefield_N)).
        type: str
        required: true
  criteria_match:
    description: Whether a resource must meet V(all) criteria or V(any) one of them (C(andor) V(and) or V(or)).
    type: str
    choices: [all, any]
    default: all
  resources:
    description:
      - Names of the resources of a static group. Every name must exist; an unknown name fails the task before
        anything is written (in check mode, it is taken as created by an earlier task, with a warning).
      - The resources are associated when they are not members (C(ASSOCIATE RESOURCES)). A resource the vault
        refuses fails the task with the vault's message.
      - Not given, the group's resources are not managed.
    type: list
    elements: str
  purge_resources:
    description:
      - With V(true) the group holds exactly O(resources) (the others are disassociated, C(DISASSOCIATE RESOURCES));
        with V(false) at least them.
      - V(true) reads the groups of every resource the token can see; see the description.
    type: bool
    default: false
  recreate:
    description:
      - When the vault's type, description or parent of the group differ from the task's, V(false) fails before
        writing anything and says what differs; V(true) deletes the group and creates it with the task's settings.
        When they do not differ, nothing is recreated, so the task stays idempotent.
      - Recreating gives the group a new id, loses its shares, and takes it off accounts that named it. The static
        members of a static group stay members (unless O(purge_resources=true)), which costs one read per resource
        the token can see. The O(password_policy), O(no_helpdesk_retrieval) and O(criteria) of the new group are
        those of the task (the vault does not report those of the old one). A group with subgroups is never
        recreated.
      - When the creation fails after the deletion, the task fails, reports a change, and says that the group was
        deleted and not recreated, with the vault's reason and the resources the group held.
    type: bool
    default: false
  force_recreate:
    description:
      - V(true) deletes an existing group and creates it again with the task's settings on every run, even when
        nothing the vault reports differs, as O(recreate=true) does when something differs. It is the only way to
        apply a changed O(password_policy), O(no_helpdesk_retrieval) or O(criteria), which the vault cannot report.
      - Not idempotent - every run recreates the group and reports a change. Set it for one run (for example with
        C(-e) on the command line), not in a playbook that runs repeatedly.
      - Refused on vaults without the group list (edition A before 12230, edition B before 6000), where nothing of
        the existing group can be read to keep it.
    type: bool
    default: false
  field_names:
    description:
      - Names under which the group's name, description and policy are sent. V(standard) - C(GROUPNAME),
        C(DESCRIPTION), C(POLICY), the spec's group input. V(alternative) - C(critgroup), C(critdesc),
        C(RuleCriteria), the names the spec's request sample also shows, for vaults that expect them.
    type: str
    choices: [standard, alternative]
    default: standard
attributes:
  idempotent:
    support: partial
    details: With O(force_recreate=true) every run deletes and creates the group again.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_resource
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: A static group holding at least two web servers
      credvault.vault.vault_resource_group:
        name: Web servers
        description: Front web servers
        resources:
          - web-01
          - web-02

    - name: A subgroup holding exactly one server
      credvault.vault.vault_resource_group:
        name: Web servers in Paris
        parent: Web servers
        resources:
          - web-01
        purge_resources: true

    - name: A dynamic group of the resources named db-something with a postgres account
      credvault.vault.vault_resource_group:
        name: Databases
        type: dynamic
        criteria_match: all
        criteria:
          - condition: RESOURCENAME
            operator: CONTAINS
            value: db-
          - condition: LOGINNAME
            operator: CONTAINS
            value: postgres

    - name: Remove a group (its resources stay)
      credvault.vault.vault_resource_group:
        name: Old servers
        state: absent
"""

RETURN = r"""
group:
  description:
    - The group as the vault's group list describes it (C(GET_RESOURCE_GROUPS) list item), after the run; in check
      mode as it is before.
    - Empty after deletion and in check mode when the group would be created.
    - On vaults without the group list, only C(resourceGroupId) and C(resourceGroupName).
  returned: success
  type: dict
  sample:
    resourceGroupId: "3"
    resourceGroupName: Web servers
    resourceGroupDescription: Front web servers
    resourceGroupType: static
    ownerId: "1"
    timeCreated: "2024-05-02 10:11:12.345"
    subGroupOf: ""
    ownership: owned
resources:
  description:
    - Names of the member resources the module checked, after the run (in check mode, before it) - every member
      the token can see with O(purge_resources=true), otherwise those of O(resources) that are members.
  returned: when O(resources) is given and the group is static
  type: list
  elements: str
  sample: [web-01, web-02]
"""

from ansible_collections.credvault.vault.plugins.module_utils import _resource_group
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str", "required": True},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "type": {"type": "str", "choices": ["static", "dynamic"]},
        "description": {"type": "str"},
        "parent": {"type": "str"},
        "password_policy": {"type": "str", "no_log": False},
        "no_helpdesk_retrieval": {"type": "bool"},
        "criteria": {
            "type": "list",
            "elements": "dict",
            "options": {
                "condition": {"type": "str", "required": True},
                "operator": {"type": "str", "required": True},
                "value": {"type": "str", "required": True},
            },
        },
        "criteria_match": {"type": "str", "choices": ["all", "any"], "default": "all"},
        "resources": {"type": "list", "elements": "str"},
        "purge_resources": {"type": "bool", "default": False},
        "recreate": {"type": "bool", "default": False},
        "force_recreate": {"type": "bool", "default": False},
        "field_names": {"type": "str", "choices": ["standard", "alternative"], "default": "standard"},
    }


def main():
    VaultModule(
        argument_spec(),
        mutually_exclusive=[("criteria", "resources")],
        required_if=[("type", "dynamic", ["criteria"]), ("purge_resources", True, ["resources"])],
    ).run(_resource_group.converge)


if __name__ == "__main__":
    main()
