#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_share
short_description: Share resources, accounts and resource groups with users and user groups, or revoke the shares
version_added: 0.3.0
description:
  - Shares resources (O(resources)), accounts (O(accounts)) and resource groups (O(resource_groups)) with users
    (O(users), O(user_ids)) and user groups (O(user_groups), O(user_group_ids)) at an access level (O(access)), or
    revokes what was shared with them (O(state=absent)). One task may name several of each.
  - 'The access levels the vault gives, checked before any request - resources V(view), V(modify), V(fullaccess);
    an account shared with a user V(view), V(modify), V(remoteapponly) (no V(fullaccess)); an account shared with a
    user group V(view), V(modify), V(fullaccess), V(remoteapponly); resource groups V(view), V(modify),
    V(fullaccess).'
  - 'Calls - where the configured O(edition) and O(build) have them (edition B from build 6320), resources and
    accounts are shared with one bulk call per kind of grantee (C(SHARE_RESOURCE(S)), C(SHARE_ACCOUNTS(S)); the bulk
    calls take user ids or user group ids, not both, so users and user groups are two calls). Otherwise, and
    always without a configured edition and build, one call per resource or account and grantee
    (C(SHARE RESOURCE), C(SHARE ACCOUNT)); the result is the same. An account shared with a user group at
    V(fullaccess) always goes by C(SHARE ACCOUNT), since the bulk call has no V(fullaccess).'
  - Resource groups are shared only by C(SHARE_RESOURCEGROUP(S)) (edition A from build 12450, edition B from
    build 6320). The vault answers it with status code 20001, "a bulk share action was triggered" - the share may
    be applied after the task has returned.
  - Sharing with a user group needs edition A from build 11200 or edition B from build 5100; a configured build
    below that is refused before any request, and so is every other call the configured build lacks.
  - Every name is resolved to its id before the first share call (C(GET_RESOURCEID), C(GET_RESOURCEACCOUNTID),
    C(GET_RESOURCE_GROUPS), C(get_USERID), C(GET_USERGROUPID), C(GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE)), so an
    unknown user, user group, resource, account, resource group or remote app fails the task before anything is
    shared. Ids given in O(user_ids) and O(user_group_ids) are sent as they are; the vault's answer decides.
  - A call the vault refuses fails the task with the vault's message, naming what it shared with whom, and the
    calls sent before it, which stay applied (the task then reports a change). A bulk answer that reports items
    as not shared fails the task naming them.
  - Which roles may share is the vault's decision (the spec does not say); a refusal fails the task with the
    vault's message.
author:
  - Credvault Maintainers (@credvault)
options:
  resources:
    description:
      - Names of the resources to share. A resource share covers all the resource's accounts.
      - Names that are empty or have leading or trailing spaces are refused, here and in every other name
        option (the vault stores names trimmed).
    type: list
    elements: str
  accounts:
    description:
      - The accounts to share, each by its resource's name and its own name.
      - With O(access=remoteapponly) all must be accounts of one resource.
    type: list
    elements: dict
    suboptions:
      resource:
        description: Name of the resource that holds the account.
        type: str
        required: true
      account:
        description: Name of the account.
        type: str
        required: true
  resource_groups:
    description:
      - Names of the resource groups to share (C(SHARE_RESOURCEGROUP(S)), edition A from build 12450, edition B from
        build 6320). A group share covers every resource of the group.
    type: list
    elements: str
  users:
    description: Names of the users to share with (resolved with C(get_USERID)).
    type: list
    elements: str
  user_ids:
    description: Ids of users to share with, sent as they are.
    type: list
    elements: int
  user_groups:
    description: Names of the user groups to share with (resolved with C(GET_USERGROUPID)).
    type: list
    elements: str
  user_group_ids:
    description: Ids of user groups to share with, sent as they are.
    type: list
    elements: int
  access:
    description:
      - The access level to share at (C(ACCESSTYPE), C(accessType)). Required with O(state=present); not accepted
        with O(state=absent).
      - V(view) lets the grantees see the passwords, V(modify) also change them, V(fullaccess) also manage the
        resource and share it further.
      - V(remoteapponly) is only for accounts, and only through C(SHARE_ACCOUNTS(S)) (edition B from build 6320) -
        the grantees open the accounts through the remote apps of O(remote_apps) or O(remote_app_ids), without
        seeing the password.
      - Sharing again replaces the level shared before with the same grantee.
    type: str
    choices: [view, modify, fullaccess, remoteapponly]
  remote_apps:
    description:
      - With O(access=remoteapponly), names of remote apps associated with the accounts' resource (read from
        C(GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE), edition B from build 6320). O(remote_apps) or O(remote_app_ids)
        is required with O(access=remoteapponly), and neither is accepted with another access level.
    type: list
    elements: str
  remote_app_ids:
    description:
      - With O(access=remoteapponly), ids of remote apps associated with the accounts' resource; checked against the
        same list as O(remote_apps).
    type: list
    elements: str
  state:
    description:
      - V(present) shares at O(access); V(absent) revokes what was shared with the grantees (C(revoke)), whatever
        its level. Revoking what was never shared is accepted by the vault.
    type: str
    choices: [present, absent]
    default: present
attributes:
  diff_mode:
    support: partial
    details:
      - The vault has no call that reads shares, so there is nothing to compare - C(before) is always null.
      - C(after) holds C(shares), what the task shares with whom - for each resource, account and resource group (named
        as in RV(calls)), each grantee and the access type, V(revoked) with O(state=absent). RV(calls) lists the calls.
  idempotent:
    support: none
    details:
      - The vault has no call that reads shares, so every run sends its share calls again and reports a change.
        Sharing again at the same level leaves the vault as it was.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
  - credvault.vault.sent_once_per_task
notes:
  - C(changed) means that share calls were sent (in check mode, that they would be). The API cannot read shares
    back, so every run that is asked to share or revoke sends its calls and reports changed, even when the vault
    already was as asked (but once per task on a host, see below and RV(sent_by_another_fork)).
  - Check mode resolves every name, sends no share call, and returns in RV(calls) the calls a real run would make.
    A resource, account, resource group or user that does not exist is then taken as created by an earlier task
    of the same run, with a warning; user groups and remote apps, which the API cannot create, must exist.
seealso:
  - module: credvault.vault.vault_resource
  - module: credvault.vault.vault_resource_group
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
      edition: B
      build: 6320
  block:
    - name: Let jdoe see the passwords of two resources (one SHARE_RESOURCE(S) call)
      credvault.vault.vault_share:
        resources:
          - web-01
          - web-02
        users:
          - jdoe
        access: view

    - name: Give the DBA group full access to one account
      credvault.vault.vault_share:
        accounts:
          - resource: db-01
            account: postgres
        user_groups:
          - DBA
        access: fullaccess

    - name: Let the operators change the passwords of every resource of a resource group
      credvault.vault.vault_share:
        resource_groups:
          - Web servers
        user_groups:
          - Operators
        access: modify

    - name: Let jdoe open db-01/postgres through a remote app only, without seeing its password
      credvault.vault.vault_share:
        accounts:
          - resource: db-01
            account: postgres
        users:
          - jdoe
        access: remoteapponly
        remote_apps:
          - pgAdmin

    - name: Show the calls that would take back what jdoe and the operators have on web-02
      credvault.vault.vault_share:
        resources:
          - web-02
        users:
          - jdoe
        user_groups:
          - Operators
        state: absent
      check_mode: true
      register: planned_revoke

    - name: The calls it would make
      ansible.builtin.debug:
        var: planned_revoke.calls

    - name: Take it back
      credvault.vault.vault_share:
        resources:
          - web-02
        users:
          - jdoe
        user_groups:
          - Operators
        state: absent
"""

RETURN = r"""
calls:
  description:
    - The share calls the task made, in order - in check mode, those it would make. A task that succeeds made (or
      would make) at least one, and so reports a change, unless another fork of the same task on this host
      made the same calls (RV(sent_by_another_fork)); then they are those it would have made.
    - It holds names as the task gave them and ids only where the task gave ids; never a secret.
  returned: success
  type: list
  elements: dict
  contains:
    operation:
      description: The vault's operation name of the call.
      type: str
      choices: [SHARE RESOURCE, SHARE ACCOUNT, SHARE_RESOURCE(S), SHARE_ACCOUNTS(S), SHARE_RESOURCEGROUP(S)]
    what:
      description: What the call shares - C(resource <name>), C(account <resource>/<account>), C(resource group <name>).
      type: list
      elements: str
    whom:
      description: With whom - C(user <name>), C(user id <id>), C(user group <name>), C(user group id <id>).
      type: list
      elements: str
    access:
      description: The access type sent; V(revoke) with O(state=absent).
      type: str
    remote_apps:
      description: Names of the remote apps shared.
      type: list
      elements: str
      returned: when O(access=remoteapponly)
  sample:
    - operation: SHARE_RESOURCE(S)
      what: [resource web-01, resource web-02]
      whom: [user jdoe]
      access: view
    - operation: SHARE_RESOURCE(S)
      what: [resource web-01, resource web-02]
      whom: [user group Operators]
      access: view
sent_by_another_fork:
  description:
    - True when another fork of the same task on this host already sent every call of RV(calls), so this
      task sent none and reports no change. Always false in check mode.
  returned: success
  type: bool
  sample: false
"""

from ansible_collections.credvault.vault.plugins.module_utils import _share
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    def names():
        return {"type": "list", "elements": "str"}

    def ids():
        return {"type": "list", "elements": "int"}

    return {
        "resources": names(),
        "accounts": {
            "type": "list",
            "elements": "dict",
            "options": {"resource": {"type": "str", "required": True}, "account": {"type": "str", "required": True}},
        },
        "resource_groups": names(),
        "users": names(),
        "user_ids": ids(),
        "user_groups": names(),
        "user_group_ids": ids(),
        "access": {"type": "str", "choices": list(_share.ACCESS_LEVELS)},
        "remote_apps": names(),
        "remote_app_ids": names(),
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
    }


def main():
    VaultModule(argument_spec(), required_if=[("state", "present", ["access"])]).run(_share.converge)


if __name__ == "__main__":
    main()
