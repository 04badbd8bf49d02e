#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_account_password
short_description: Change or rotate the password of an account in the credential vault
version_added: 0.2.0
description:
  - Sets the password of an existing account to a given value, or rotates it to a value the vault generates with a
    password policy (C(CHANGE PASSWORD)).
  - With O(password) the stored password is read first (C(GET PASSWORD), with the same O(reason) and O(ticket_id))
    and changed only when it differs, so a second run reports no change and sends only reads.
  - With O(rotate_with_policy) the vault generates a new password (C(GENERATE PASSWORD)) and the account gets it,
    so the task always reports a change. The stored password is not read.
  - The vault checks the new password against the account's password policy and refuses what breaks it (too short,
    one of the last passwords, ...); the task then fails with the vault's message, which never holds the password.
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description: Name of the resource that holds the account.
    type: str
    required: true
  account:
    description:
      - Name of the account. It must exist; M(credvault.vault.vault_account) creates accounts.
      - In check mode a missing resource or account is taken as one an earlier task would create; the password is
        then reported as would be set, with a warning.
    type: str
    required: true
  password:
    description:
      - The password the account must have (C(NEWPASSWORD)).
      - Exactly one of O(password) and O(rotate_with_policy) is required.
    type: str
  rotate_with_policy:
    description:
      - Name of a password policy, for example V(Strong). The vault generates a password that satisfies it and the
        account gets that password.
      - The generated password must also satisfy the account's own policy, which the vault checks on the change.
      - In check mode nothing is generated and nothing is changed; the task reports a change.
    type: str
  return_password:
    description:
      - Return the generated password in RV(password). Only with O(rotate_with_policy).
      - The result that holds it is censored, whatever the task says - flagged C(_ansible_no_log), so that Ansible
        hides the whole result (also its diff) in its output and logs at any verbosity, as for a task with
        C(no_log=true); the registered variable holds the password. Keep it out of messages, and set C(no_log) on
        the tasks that use it.
    type: bool
    default: false
  reset_type:
    description:
      - V(LOCAL) changes the password stored in the vault only.
      - V(REMOTE) also resets it on the resource itself; the resource needs remote password reset configured,
        otherwise the vault refuses the change.
      - A given O(password) that the vault already stores is not sent again, whatever the reset type.
    type: str
    choices: [LOCAL, REMOTE]
    default: LOCAL
attributes:
  idempotent:
    support: partial
    details: With O(rotate_with_policy) every run generates and sets a new password.
  action:
    description: Runs through an action plugin, which censors the result that holds the password (O(return_password)).
    support: full
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - The diff shows the password as V(<hidden>) before and after, V(<hidden, changed>) when it changes.
  - Where password access control keeps the caller from reading the password, O(password) cannot be compared and the
    task fails with the vault's message; O(rotate_with_policy) does not read it.
  - C(async) is refused - C(async_status) would show the result uncensored.
seealso:
  - module: credvault.vault.vault_account
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
    - name: Keep the password of an account at a given value (changed only when it differs)
      credvault.vault.vault_account_password:
        resource: db-01
        account: postgres
        password: "{{ postgres_password }}"
        reason: Quarterly credential review

    - name: Rotate a password to one the vault generates; the output censors the result, the variable keeps it
      credvault.vault.vault_account_password:
        resource: db-01
        account: replication
        rotate_with_policy: Strong
        return_password: true
      register: rotated

    - name: Use the new password without showing it
      ansible.builtin.set_fact:
        replication_password: "{{ rotated.password }}"
      no_log: true
"""

RETURN = r"""
resource_id:
  description: Id of the resource (C(RESOURCEID)).
  returned: success
  type: str
  sample: "12"
account_id:
  description: Id of the account (C(ACCOUNTID)).
  returned: success
  type: str
  sample: "27"
password:
  description:
    - The password the vault generated and the account now has.
    - Only with O(return_password=true), and not in check mode.
    - A secret - the result that holds it is censored in the output at any verbosity, whatever the task says; the
      registered variable keeps it.
  returned: when O(return_password=true) and a password was generated
  type: str
"""

from ansible_collections.credvault.vault.plugins.module_utils import _account_password
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import authorization_argument_spec


def argument_spec():
    return {
        "resource": {"type": "str", "required": True},
        "account": {"type": "str", "required": True},
        "password": {"type": "str", "no_log": True},
        "rotate_with_policy": {"type": "str"},
        "return_password": {"type": "bool", "default": False, "no_log": False},
        "reset_type": {"type": "str", "choices": list(_account_password.RESET_TYPES), "default": "LOCAL"},
        **authorization_argument_spec(),
    }


def main():
    VaultModule(
        argument_spec(),
        mutually_exclusive=[("password", "rotate_with_policy")],
        required_one_of=[("password", "rotate_with_policy")],
        required_if=[("return_password", True, ("rotate_with_policy",))],
    ).run(_account_password.converge)


if __name__ == "__main__":
    main()
