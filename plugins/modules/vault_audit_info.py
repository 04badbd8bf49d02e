#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_audit_info
short_description: Read the audit trail of the credential vault
version_added: 0.4.0
description:
  - Reads the audit records of resources or of users (C(GET_AUDIT), C(GET /audit)) for today, yesterday or the last
    seven days, page after page (C(STARTINDEX) and C(LIMIT)), and returns them as one list, newest first as the vault
    gives them.
  - Each record comes back under the vault's own keys (C(AUDITID), C(RESOURCENAME), C(OPERATIONTYPE),
    C(LASTACCESSEDTIME)...), plus C(accessed_at), its C(LASTACCESSEDTIME) as ISO 8601, for C(when) conditions and
    reports.
  - The spec does not say whether C(STARTINDEX) counts from 0 or from 1. Reading starts at 0 and moves on by the
    number of records received, and each record (by C(AUDITID)) is returned once, so either counting gives every
    record once; so does a trail that grows while it is read (new records push older ones to a later page).
  - The next page is read while the last one was full or while RV(total) says more records exist; reading stops at
    an empty page, at a page that brings nothing new (a vault that ignores C(STARTINDEX)), or at O(max_records).
  - Never changes anything. Reading the trail needs a role the vault lets read it (the simulator refuses a Password
    User), else the task fails with the vault's message.
author:
  - Credvault Maintainers (@credvault)
options:
  audit_type:
    description:
      - Which trail to read (C(AUDITTYPE)) - V(resource) (C(Resource), operations on resources, accounts, keys and
        certificates) or V(user) (C(User), operations on users and user groups).
    type: str
    choices: [resource, user]
    default: resource
  duration:
    description:
      - Which days to read (C(DURATION)) - V(today) (C(TODAY)), V(yesterday) (C(YESTERDAY)) or V(last_7_days)
        (C(LAST_7_DAYS)), by the vault's clock.
    type: str
    choices: [today, yesterday, last_7_days]
    default: last_7_days
  max_records:
    description:
      - The most records to return, newest first; RV(truncated) says when more may exist. Not given, every record of
        O(duration) is read.
    type: int
  page_size:
    description:
      - How many records one request asks for (C(LIMIT)), from 1 to 1000. Only the number of requests depends on it.
    type: int
    default: 100
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_server_info
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: What happened to resources today
      credvault.vault.vault_audit_info:
        duration: today
      register: today

    - name: The operations on resource web-01 today, oldest first
      ansible.builtin.debug:
        msg: "{{ item.accessed_at }} {{ item.OPERATEDBY }}: {{ item.OPERATIONTYPE }}"
      loop: "{{ today.records | selectattr('RESOURCENAME', 'equalto', 'web-01') | reverse | list }}"
      loop_control:
        label: "{{ item.AUDITID }}"

    - name: The 20 newest operations on users of the last seven days
      credvault.vault.vault_audit_info:
        audit_type: user
        max_records: 20
      register: users

    - name: How many there were in all
      ansible.builtin.debug:
        msg: "{{ users.records | length }} of {{ users.total }} user records shown"
"""

RETURN = r"""
records:
  description:
    - The audit records (the vault's C(Details) items), newest first, each once, at most O(max_records).
    - Each has the spec's fields C(AUDITID), C(RESOURCENAME), C(ACCOUNTNAME), C(OPERATIONTYPE), C(OPERATEDBY),
      C(IPADDRESS), C(USERNAME), C(REASON), C(NAME), C(CLIENT) (None where not relevant, which the vault writes
      V(N/A) or V(Not Applicable)) and C(LASTACCESSEDTIME) (V(YYYY-MM-DD HH:MM:SS.fff)), plus C(accessed_at).
    - Real vaults key their records otherwise (C(Audit ID), C(Operation Type), C(Time Stamp), C(TIME) in epoch
      milliseconds, and so on), which are read as the spec's keys (C(LASTACCESSEDTIME) from C(Time Stamp), else from C(TIME),
      in UTC), and their other keys are kept. See the guide "Real vaults and the spec".
    - C(accessed_at) is C(LASTACCESSEDTIME) as ISO 8601 (V(YYYY-MM-DDTHH:MM:SS.fff), the vault's local time, no
      zone), None when the vault's value is not in the spec's format.
  returned: success
  type: list
  elements: dict
  sample:
    - AUDITID: "412"
      RESOURCENAME: web-01
      ACCOUNTNAME: null
      OPERATIONTYPE: CREATE RESOURCE
      OPERATEDBY: admin
      IPADDRESS: 10.0.0.5
      USERNAME: admin
      REASON: null
      NAME: admin
      CLIENT: REST API
      LASTACCESSEDTIME: "2026-11-23 07:38:43.120"
      accessed_at: "2026-11-23T07:38:43.120"
total:
  description: How many records of that type and duration the vault holds (C(totalRows) of the last answer); None
    when the vault did not say.
  returned: success
  type: int
  sample: 57
truncated:
  description: Whether O(max_records) stopped the reading while more records may exist.
  returned: success
  type: bool
  sample: false
pages:
  description: How many requests the reading took.
  returned: success
  type: int
  sample: 1
"""

from ansible_collections.credvault.vault.plugins.module_utils import _audit
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "audit_type": {"type": "str", "choices": list(_audit.AUDIT_TYPES), "default": "resource"},
        "duration": {"type": "str", "choices": list(_audit.DURATIONS), "default": "last_7_days"},
        "max_records": {"type": "int"},
        "page_size": {"type": "int", "default": _audit.PAGE_SIZE},
    }


def main():
    VaultModule(argument_spec()).run(_audit.describe)


if __name__ == "__main__":
    main()
