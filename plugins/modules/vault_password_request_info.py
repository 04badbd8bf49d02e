#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_password_request_info
short_description: List open password access requests in the credential vault
version_added: 0.2.0
description:
  - Lists the open password access requests (waiting for approval, approved, checked out) as the caller sees them
    (C(GET_PASSWORDREQUEST)), in one request.
  - A user who is not an administrator sees their own requests. An administrator sees the requests of one requester
    at a time, O(requester) when given, otherwise the one the vault chooses (the user whose open request is the
    oldest); RV(requester) says whose they are.
  - Rejected and checked-in requests are not listed by the vault.
author:
  - Credvault Maintainers (@credvault)
options:
  requester:
    description:
      - User name whose requests to list, resolved with C(get_USERID) (one more read). An administrator may name
        any user; other users only themselves.
      - A user the vault gives no id for has no requests - RV(requests) and RV(requester) are empty, and the task
        warns with the vault's message (C(get_USERID) answers alike for an unknown user and a refusal).
    type: str
  resource:
    description: Only the requests for accounts of the resource with this name.
    type: str
  account:
    description: Only the requests for accounts with this name.
    type: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_password_request
"""

EXAMPLES = r"""
- name: The open requests of the token's own user
  credvault.vault.vault_password_request_info:
    url: "{{ vault_url }}"
    auth_token: "{{ requester_token }}"
    ca_path: "{{ vault_ca_path }}"
  register: my_requests

- name: An administrator lists the open requests of jdoe
  credvault.vault.vault_password_request_info:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
    requester: jdoe
  register: jdoe_requests

- name: The requester waits until its request for web-01/root is approved
  credvault.vault.vault_password_request_info:
    url: "{{ vault_url }}"
    auth_token: "{{ requester_token }}"
    ca_path: "{{ vault_ca_path }}"
    resource: web-01
    account: root
  register: pending
  until: pending.requests | selectattr('state', 'in', ['approved', 'checked_out']) | list | length > 0
  retries: 30
  delay: 10
"""

RETURN = r"""
requester:
  description:
    - The user whose requests are listed (C(REQUESTER USERID), C(REQUESTED BY), C(REQUESTED BY FULLNAME)).
    - Empty when the vault gives no id for O(requester).
  returned: success
  type: dict
  contains:
    user_id:
      description: C(REQUESTER USERID).
      type: str
    user_name:
      description: C(REQUESTED BY).
      type: str
    full_name:
      description: C(REQUESTED BY FULLNAME).
      type: str
  sample:
    user_id: "4"
    user_name: jdoe
    full_name: John Doe
requests:
  description:
    - The open requests of RV(requester) (items of C(PASSWORDREQUESTLIST)), with the vault's field names turned
      into snake case and the V(state) their C(STATUS) stands for.
  returned: success
  type: list
  elements: dict
  contains:
    account_id:
      description: C(ACCOUNT ID).
      type: str
    account_name:
      description: C(ACCOUNT NAME).
      type: str
    resource_id:
      description: C(RESOURCE ID).
      type: str
    resource_name:
      description: C(RESOURCE NAME).
      type: str
    passwd_id:
      description: C(PASSWD ID).
      type: str
    status:
      description: C(STATUS) as the vault gives it; it may be empty.
      type: str
    state:
      description:
        - V(requested) (waiting for approval; also for an empty C(STATUS)), V(approved), V(checked_out),
          or V(unknown) for a C(STATUS) the collection does not know.
      type: str
    requested_time:
      description: C(REQUESTED TIME).
      type: str
    reason:
      description: C(REASON) given with the request.
      type: str
  sample:
    - account_id: "2"
      account_name: root
      resource_id: "1"
      resource_name: web-01
      passwd_id: "2"
      status: APPROVED
      state: approved
      requested_time: Nov 22, 2026 8:48 AM
      reason: Release 4.2
"""

from ansible_collections.credvault.vault.plugins.module_utils import _password_request_info
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "requester": {"type": "str"},
        "resource": {"type": "str"},
        "account": {"type": "str"},
    }


def main():
    VaultModule(argument_spec()).run(_password_request_info.describe)


if __name__ == "__main__":
    main()
