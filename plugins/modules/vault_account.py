#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_account
short_description: Manage accounts of a resource in the credential vault
version_added: 0.1.0
description:
  - Add, edit and delete the accounts of a resource, set their password and TOTP.
  - Only the options given are compared; the module changes only what differs, and a run that changes nothing
    sends only reads.
  - Names, labels and the policy name must not be empty or start or end with spaces; the vault stores them
    trimmed, so such a value is refused before anything is sent, in check mode too.
  - When several runs add the same account at once (parallel forks), the runs that lose the race converge on the
    account the winner added instead of failing. A refused C(ADD ACCOUNTS) fails with the vault's reason for the
    account (its C(STATUS)).
  - When both the password and other settings change, C(CHANGE PASSWORD) is sent before C(EDIT ACCOUNT), so a
    refused password leaves the account as it was. When the edit changes the policy, the new password is first
    checked against that policy (C(VALIDATE_PASSWORD), where the vault has it). If the second write still fails,
    the task fails with V(changed=true) and says what was already written.
  - A new account is read back after C(ADD ACCOUNTS) - O(notes) and O(custom_fields) from its detail, O(totp_secret)
    through C(FETCH_CURRENT_TOTP) - and a setting the vault dropped without a word fails the task with
    V(changed=true), naming the account created and the options not applied. The write-only settings (O(password_policy),
    the booleans, O(resource_group_ids)) are never reported back, so they cannot be checked.
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description:
      - Name of the resource that holds the account. It must exist for O(state=present).
      - In check mode a missing resource is taken as one an earlier task would create; the account is then
        reported as would be created, with a warning.
      - With O(state=absent) a missing resource means the account is absent too.
    type: str
    required: true
  name:
    description: Account name (C(ACCOUNTNAME)).
    type: str
    required: true
    aliases: [account]
  state:
    description: Whether the account exists.
    type: str
    choices: [present, absent]
    default: present
  password:
    description:
      - The account's password. Required to create the account.
      - See O(update_password) for existing accounts.
    type: str
  update_password:
    description:
      - V(always) reads the stored password (C(GET PASSWORD)) and changes it (C(CHANGE PASSWORD), C(RESETTYPE)
        C(LOCAL)) only when it differs from O(password).
      - V(on_create) sets O(password) only when the account is created.
    type: str
    choices: [always, on_create]
    default: always
  notes:
    description: Notes of the account (C(NOTES), reported back as C(DESCRIPTION)).
    type: str
  custom_fields:
    description:
      - Account-level additional fields, label to value. At most 20. Labels not listed are left as they are.
      - Values are strings or numbers (numbers are sent as written). V(null), booleans, lists and mappings are
        refused; quote them (V("true")) to store the text.
    type: dict
  totp_secret:
    description:
      - Base32 TOTP secret (C(TOTP_SECRET)); an empty string removes the account's TOTP. Edition A from build 12430.
      - The vault never returns the secret; the module compares it through the vault's current code
        (C(FETCH_CURRENT_TOTP)), so a run with the same secret reports no change.
      - On a vault without TOTP (edition B, or edition A before build 12430) the task fails with
        "this vault has no TOTP". For an existing account it writes nothing, whether or not O(edition) and O(build)
        are set. A new account is refused before anything is sent when O(edition) and O(build) are set; without
        them the vault is asked, and a vault that adds the account but drops its TOTP is found out by reading the
        TOTP back - the task fails with V(changed=true), saying that the account was created without its TOTP.
    type: str
  totp_algorithm:
    description: TOTP hash algorithm (C(TOTP_ALGORITHM)); the vault's default is V(SHA1).
    type: str
    choices: [SHA1, SHA256, SHA512]
  totp_digits:
    description: Digits of a TOTP code (C(TOTP_DIGITS)); the vault's default is 6.
    type: int
    choices: [6, 8]
  totp_validity:
    description: Seconds a TOTP code is valid (C(TOTP_VALIDITY)), from 1 to 86400; the vault's default is 30.
    type: int
  password_policy:
    description: Name of the account's password policy (C(ACCOUNTPASSWORDPOLICY)). See O(force_settings).
    type: str
  record_rdp_sessions:
    description: C(RECORD_RDP_SESSIONS). Edition A from build 12230, edition B from build 6000. See O(force_settings).
    type: bool
  record_cli_sessions:
    description: C(RECORD_CLI_SESSIONS). Edition A from build 12230, edition B from build 6000. See O(force_settings).
    type: bool
  disable_password_resets:
    description: C(DISABLE_PASSWORD_RESETS). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  configure_password_reset:
    description: C(CONFIGURE_PASSWORD_RESET). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  iis_web_config_reset:
    description: C(IIS_WEB_CONFIG_RESET). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  iis_app_pool_restart:
    description: C(IIS_APP_POOL_RESTART). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  iis_app_pool_reset:
    description: C(IIS_APP_POOL_RESET). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  services_restart:
    description: C(SERVICES_RESTART). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  services_reset:
    description: C(SERVICES_RESET). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  scheduled_task_reset:
    description: C(SCHEDULED_TASK_RESET). Edition A from 12230, edition B from 6000. See O(force_settings).
    type: bool
  resource_group_ids:
    description: Resource-group ids (C(ACCOUNT_RESOURCE_GROUP_IDS)). Edition A from 12230, edition B from 6000.
    type: list
    elements: str
  force_settings:
    description:
      - The vault does not report O(password_policy), the session and reset flags or O(resource_group_ids) back,
        so they cannot be compared. They are sent when the account is created; on an existing account only when
        O(force_settings=true), which then always reports a change.
      - Without O(force_settings), such settings given for an existing account are named in a warning, since they
        are neither compared nor applied.
    type: bool
    default: false
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_resource
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
    - name: A service account whose password is kept as given
      credvault.vault.vault_account:
        resource: web-01
        name: deploy
        password: "{{ deploy_password }}"
        notes: Used by the deployment pipeline
        custom_fields:
          Owner team: platform

    - name: An account with a TOTP (edition A from build 12430)
      credvault.vault.vault_account:
        resource: web-01
        name: console
        password: "{{ console_password }}"
        update_password: on_create
        totp_secret: "{{ console_totp_secret }}"
        totp_digits: 6

    - name: Remove an account
      credvault.vault.vault_account:
        resource: web-01
        name: legacy
        state: absent
"""

RETURN = r"""
account:
  description:
    - The account as the vault describes it (C(GET RESOURCE ACCOUNT DETAILS) Details) with the C(RESOURCE ID),
      C(ACCOUNT ID) and C(ACCOUNT NAME) it was found by. Never the password.
    - Empty after deletion and in check mode when the account would be created.
    - Values of custom fields whose C(CUSTOMFIELDTYPE) is V(Password) show as V(<hidden>), here and in the diff.
  returned: success
  type: dict
  sample:
    RESOURCE ID: "1"
    ACCOUNT ID: "2"
    ACCOUNT NAME: deploy
    DESCRIPTION: Used by the deployment pipeline
    LAST ACCESSED TIME: null
    LAST MODIFIED TIME: Nov 22, 2026 8:48 AM
    PASSWORD STATUS: "*****"
    PASSWDID: "2"
    CUSTOM FIELD: []
"""

from ansible_collections.credvault.vault.plugins.module_utils import _account
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import authorization_argument_spec
from ansible_collections.credvault.vault.plugins.module_utils._resource import ACCOUNT_FLAGS


def argument_spec():
    spec = {
        "resource": {"type": "str", "required": True},
        "name": {"type": "str", "required": True, "aliases": ["account"]},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "password": {"type": "str", "no_log": True},
        "update_password": {"type": "str", "choices": ["always", "on_create"], "default": "always", "no_log": False},
        **authorization_argument_spec(),
        "notes": {"type": "str"},
        "custom_fields": {"type": "dict"},
        "totp_secret": {"type": "str", "no_log": True},
        "totp_algorithm": {"type": "str", "choices": ["SHA1", "SHA256", "SHA512"]},
        "totp_digits": {"type": "int", "choices": [6, 8]},
        "totp_validity": {"type": "int"},
        "password_policy": {"type": "str", "no_log": False},
        "resource_group_ids": {"type": "list", "elements": "str"},
        "force_settings": {"type": "bool", "default": False},
    }
    for flag in ACCOUNT_FLAGS:
        # Flags about password resets, not secrets: say so, or Ansible's name heuristic warns.
        spec[flag] = {"type": "bool", "no_log": False}
    return spec


def main():
    VaultModule(argument_spec()).run(_account.converge)


if __name__ == "__main__":
    main()
