#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_resource
short_description: Manage resources in the credential vault
version_added: 0.1.0
description:
  - Create, edit and delete resources (managed systems) in the vault.
  - Only the options given are compared; the module edits only what differs, and a run that changes nothing
    sends only reads.
  - Names, types, owners, policy and group names, and custom field labels must not be empty or start or end
    with spaces; the vault stores them trimmed, so such a value is refused before anything is sent.
  - When several runs create the same resource at once (parallel forks), the runs that lose the race converge
    on the resource the winner created instead of failing.
  - When a step after the creation fails (the edit of description, department or location, or the first
    account's booleans), the task fails with V(changed=true) and says that the resource was created.
  - The created resource is read back, and a setting the vault did not apply (O(type), O(description), O(resource_url),
    O(department), O(location), O(password_policy), O(custom_fields)) fails the task in the same way, naming those
    options. O(owner), O(resource_group) and the O(first_account) settings are not checked this way (the owner may be
    reported in another form; the others are compared by later runs or by M(credvault.vault.vault_account)).
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description: Name of the resource (C(RESOURCENAME)).
    type: str
    required: true
  state:
    description: Whether the resource exists. Deleting a resource deletes its accounts.
    type: str
    choices: [present, absent]
    default: present
  type:
    description:
      - Resource type (C(RESOURCETYPE)), for example V(Linux), V(Windows), V(File Store) or V(License Store).
        Required to create the resource. M(credvault.vault.vault_resource_type_info) lists the types the vault knows.
      - The vault refuses to change a type from or to key store, license store, Rackspace or AWS IAM;
        the module fails before it writes anything in that case (it reads the resource to know its current type).
      - The spec allows a change from V(File Store) to another type (except those above); it does not say what
        becomes of the resource's file then.
    type: str
  description:
    description: Description (C(RESOURCEDESCRIPTION)).
    type: str
  resource_url:
    description: URL of the resource (C(RESOURCEURL)).
    type: str
  department:
    description: Department (C(DEPARTMENT)).
    type: str
  location:
    description: Location (C(LOCATION)).
    type: str
  password_policy:
    description: Name of the resource's password policy (C(RESOURCEPASSWORDPOLICY)).
    type: str
  owner:
    description:
      - User name of the owner (C(OWNERNAME)); for a directory user V(<domain>\\<user>).
      - The vault requires it when an administrator, password administrator or privileged administrator creates a
        resource. The API cannot change the owner of an existing resource, so a different owner only warns.
    type: str
  custom_fields:
    description:
      - Resource-level additional fields, label to value. At most 20.
      - Labels not listed are left as they are.
      - Values are strings or numbers (numbers are sent as written, V(8080) as V("8080")). V(null), booleans,
        lists and mappings are refused; quote them (V("true")) to store the text.
    type: dict
  resource_group:
    description:
      - Static resource group the new resource joins (C(RESOURCEGROUPNAME)); the vault creates the group when it
        does not exist. Used only when the resource is created.
      - On an existing resource the module compares the resource's groups (C(GET ASSOCIATED GROUPS), edition A
        from build 12000, edition B from build 5400) and warns when the resource is not in this group, or that it
        could not compare where the vault lacks that call; it never changes membership. Use
        M(credvault.vault.vault_resource_group) for that.
    type: str
  src:
    description:
      - A file to store in the vault as the resource, uploaded with the creation (multipart part C(file) beside
        C(INPUT_DATA)). Only with O(type) V(File Store) or V(License Store); any other type is refused before
        anything is sent.
      - The path is read where the module runs (usually the controller, as the tasks talk to the vault's API).
        A missing or unreadable file fails before anything is sent.
      - Used only when the resource is created, like O(first_account). The API has no way to replace the file of
        an existing resource, so a different file later is not compared and changes nothing; to replace it,
        delete the resource and create it again (this also deletes its accounts).
      - The alias O(file) is deprecated and will be removed in 1.0.0.
    type: path
    aliases: [file]
  first_account:
    description:
      - The account created together with the resource. Required to create the resource, not applied afterwards
        (manage accounts with M(credvault.vault.vault_account)).
      - On an existing resource the module warns when the resource has no account of that name, or when settings
        other than the name and password are given, since those are neither compared nor applied. The password
        is not compared.
    type: dict
    suboptions:
      name:
        description: Account name (C(ACCOUNTNAME)).
        type: str
        required: true
      password:
        description: The account's password (C(PASSWORD)).
        type: str
        required: true
      password_policy:
        description: Name of the account's password policy (C(ACCOUNTPASSWORDPOLICY)).
        type: str
      notes:
        description: Notes of the account (C(NOTES), reported back as C(DESCRIPTION)).
        type: str
      custom_fields:
        description: Account-level additional fields, label to value. At most 20. Values as in O(custom_fields).
        type: dict
      record_rdp_sessions:
        description:
          - C(RECORD_RDP_SESSIONS). Like the other account booleans here, edition A from build 12230, edition B
            from build 6000; with O(edition) and O(build) set, an older vault is refused before anything is sent.
          - The create-resource input has no account booleans, so the module sets those given by C(EDIT ACCOUNT)
            right after the creation. The vault does not report them back; change them later with
            M(credvault.vault.vault_account) and its O(credvault.vault.vault_account#module:force_settings).
        type: bool
      record_cli_sessions:
        description: C(RECORD_CLI_SESSIONS). See O(first_account.record_rdp_sessions).
        type: bool
      disable_password_resets:
        description: C(DISABLE_PASSWORD_RESETS). See O(first_account.record_rdp_sessions).
        type: bool
      configure_password_reset:
        description: C(CONFIGURE_PASSWORD_RESET). See O(first_account.record_rdp_sessions).
        type: bool
      iis_web_config_reset:
        description: C(IIS_WEB_CONFIG_RESET). See O(first_account.record_rdp_sessions).
        type: bool
      iis_app_pool_restart:
        description: C(IIS_APP_POOL_RESTART). See O(first_account.record_rdp_sessions).
        type: bool
      iis_app_pool_reset:
        description: C(IIS_APP_POOL_RESET). See O(first_account.record_rdp_sessions).
        type: bool
      services_restart:
        description: C(SERVICES_RESTART). See O(first_account.record_rdp_sessions).
        type: bool
      services_reset:
        description: C(SERVICES_RESET). See O(first_account.record_rdp_sessions).
        type: bool
      scheduled_task_reset:
        description: C(SCHEDULED_TASK_RESET). See O(first_account.record_rdp_sessions).
        type: bool
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_account
"""

EXAMPLES = r"""
- name: A Linux server with its root account
  credvault.vault.vault_resource:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
    name: web-01
    type: Linux
    description: Front web server
    resource_url: https://web-01.example.com
    department: Operations
    location: Paris
    owner: admin
    custom_fields:
      Environment: production
    first_account:
      name: root
      password: "{{ web01_root_password }}"

- name: The same, with connection settings from module_defaults
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: A license file kept in the vault (the file is uploaded when the resource is created)
      credvault.vault.vault_resource:
        name: product-license
        type: License Store
        owner: admin
        src: "{{ license_file }}"
        first_account:
          name: license
          password: "{{ license_password }}"

    - name: A Windows server whose administrator sessions are recorded (edition A from 12230, edition B from 6000)
      credvault.vault.vault_resource:
        name: win-01
        type: Windows
        owner: admin
        first_account:
          name: Administrator
          password: "{{ win01_admin_password }}"
          record_rdp_sessions: true
          disable_password_resets: true

    - name: Remove a decommissioned server and its accounts
      credvault.vault.vault_resource:
        name: web-00
        state: absent
"""

RETURN = r"""
resource:
  description:
    - The resource as the vault describes it (C(GET RESOURCE ACCOUNTLIST) Details), with its C(ACCOUNT LIST).
    - Empty after deletion and in check mode when the resource would be created.
    - Values of custom fields whose C(CUSTOMFIELDTYPE) is V(Password) show as V(<hidden>), here and in the diff.
  returned: success
  type: dict
  sample:
    RESOURCE ID: "1"
    RESOURCE NAME: web-01
    RESOURCE TYPE: Linux
    RESOURCE DESCRIPTION: Front web server
    PASSWORD POLICY: Strong
    RESOURCE OWNER: admin
    CUSTOM FIELD: []
    ACCOUNT LIST:
      - ACCOUNT ID: "1"
        ACCOUNT NAME: root
        PASSWDID: "1"
        ISFAVPASS: "false"
        PASSWORD STATUS: "*****"
"""

from ansible_collections.credvault.vault.plugins.module_utils import _resource
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str", "required": True},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "type": {"type": "str"},
        "description": {"type": "str"},
        "resource_url": {"type": "str"},
        "department": {"type": "str"},
        "location": {"type": "str"},
        "password_policy": {"type": "str", "no_log": False},
        "owner": {"type": "str"},
        "custom_fields": {"type": "dict"},
        "resource_group": {"type": "str"},
        "first_account": {
            "type": "dict",
            "options": {
                "name": {"type": "str", "required": True},
                "password": {"type": "str", "required": True, "no_log": True},
                "password_policy": {"type": "str", "no_log": False},
                "notes": {"type": "str"},
                "custom_fields": {"type": "dict"},
                # Flags about password resets, not secrets: say so, or Ansible's name heuristic warns.
                **{flag: {"type": "bool", "no_log": False} for flag in _resource.ACCOUNT_FLAGS},
            },
        },
        "src": {
            "type": "path",
            "aliases": ["file"],
            "deprecated_aliases": [{"name": "file", "version": "1.0.0", "collection_name": "credvault.vault"}],
        },
    }


def main():
    VaultModule(argument_spec()).run(_resource.converge)


if __name__ == "__main__":
    main()
