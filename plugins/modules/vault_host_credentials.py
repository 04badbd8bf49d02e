#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_host_credentials
short_description: Read a host's login and become passwords from the credential vault, on the controller
version_added: 0.5.0
description:
  - Reads the password of the account O(login_account) and of the account O(become_account) of the resource
    O(resource) (C(GET_RESOURCEACCOUNTID) and C(GET PASSWORD), two requests per account; one account named for
    both is read once) and returns them as RV(login_password) and RV(become_password).
  - The task runs on the Ansible B(controller), through its action plugin, and never connects to the host, whose
    connection needs these passwords. The role P(credvault.vault.host_credentials#role) runs it once per host and
    run and makes the passwords the host's C(ansible_password) and C(ansible_become_password).
  - The result is censored in every output, at any verbosity, as with C(no_log), whatever the task says, while a
    registered variable keeps the passwords; from ansible-core 2.22 they are also registered with ansible-core's
    Secrets API, which masks them as C($REDACTED$) wherever they are printed.
  - A resource or account that does not exist, a refusal (no access, reason or ticket missing) and an unreachable
    vault fail the task for this host only, with a message naming the resource, the account and its use (login or
    become), never a password.
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description: Name of the host's resource in the vault.
    type: str
    required: true
  login_account:
    description: Name of the account whose password logs in to the host (C(ansible_password)).
    type: str
  become_account:
    description:
      - Name of the account whose password C(become) uses (C(ansible_become_password)), for example the login
        account itself for C(sudo), or V(root) for C(su).
      - Give O(login_account), O(become_account) or both.
    type: str
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
notes:
  - The module is implemented by an action plugin; C(module_defaults) of the group C(credvault.vault.vault) apply.
  - Every run reads the passwords again, which the vault audits as a retrieval with O(reason); the role
    P(credvault.vault.host_credentials#role) runs it once per host per run.
seealso:
  - plugin: credvault.vault.vault_password
    plugin_type: lookup
"""

EXAMPLES = r"""
- name: The deploy account's password, kept in a registered variable for this host's connection
  credvault.vault.vault_host_credentials:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
    resource: "{{ inventory_hostname }}"
    login_account: deploy
    become_account: root
    reason: Release 4.2
  register: host_credentials

- name: Connect with them from now on (set_fact keeps them in memory, never in the fact cache)
  ansible.builtin.set_fact:
    ansible_password: "{{ host_credentials.login_password }}"
    ansible_become_password: "{{ host_credentials.become_password }}"
  no_log: true
"""

RETURN = r"""
resource:
  description: O(resource).
  returned: always
  type: str
  sample: web-01
login_account:
  description: O(login_account), null when not given.
  returned: always
  type: str
  sample: deploy
become_account:
  description: O(become_account), null when not given.
  returned: always
  type: str
  sample: root
login_password:
  description: The password of O(login_account). The task's result is censored in every output.
  returned: success, when O(login_account) is given
  type: str
  sample: "********"
become_password:
  description: The password of O(become_account). The task's result is censored in every output.
  returned: success, when O(become_account) is given
  type: str
  sample: "********"
"""
