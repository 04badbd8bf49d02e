#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_password_request
short_description: Walk the vault's password access workflow (request, approve, reject, check out, check in)
version_added: 0.2.0
description:
  - Converges the password access request of one user for one account to a state of the administrator-approved
    workflow. Where password access control is on, a user who is not an administrator retrieves a password only
    while holding it checked out.
  - The requester's token requests (O(state=requested)) and checks out (O(state=checked_out)); an administrator's
    token approves (O(state=approved)), rejects (O(state=rejected)) and checks in (O(state=checked_in)) the request
    of the user named in O(requester).
  - Every run reads the caller's view of the open requests (C(GET_PASSWORDREQUEST)) first and writes only when the
    request is not yet in the state asked for, so a run that changes nothing sends only reads.
  - The module never reads or returns a password; retrieve it with the P(credvault.vault.vault_password#lookup)
    lookup once it is checked out.
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description:
      - Name of the resource that holds the account. Names that are empty or have leading or trailing spaces are
        refused (the vault stores names trimmed), here and in O(account) and O(requester).
      - With O(state=requested), O(state=approved) or O(state=checked_out), a resource or account that does not
        exist fails the task; in check mode it is taken as created by an earlier task of the run, and the task
        reports a change with a warning.
    type: str
    required: true
  account:
    description: Name of the account whose password is requested. See O(resource) for a missing account.
    type: str
    required: true
  state:
    description:
      - V(requested) - the caller has an open request for the password (C(REQUEST_PASSWORD)). A request already
        open, whether waiting, approved or checked out, is left as it is.
      - V(approved) - the request of O(requester) is approved (C(ADMIN_REQUEST_APPROVE)). A request already checked
        out counts as approved.
      - V(rejected) - O(requester) has no open request for the password; one waiting or approved is rejected
        (C(ADMIN_REQUEST_REJECT)). A checked-out password is checked in instead (C(ADMIN_REQUEST_CHECKIN)), since the
        vault refuses to reject a request whose password is checked out; RV(state) is then V(checked_in).
      - V(checked_out) - the caller holds the password checked out (C(REQUEST_CHECKOUT)); the request must be
        approved. With O(wait_timeout), the task requests the password when needed and waits for the approval first.
      - V(checked_in) - O(requester) no longer holds the password checked out, and has no open request for it; a
        checkout is ended (C(ADMIN_REQUEST_CHECKIN)). A request still waiting or approved, never checked out (the
        approval did not come in time, or a task before the checkout failed), is rejected instead
        (C(ADMIN_REQUEST_REJECT); RV(state) is then V(rejected)), since a request left open could be approved and
        checked out later, with no play left to give the password back. The requester then needs a new request to
        retrieve the password.
      - The vault lists open requests only, so V(rejected) and V(checked_in) are also reached when the requester
        never asked, and when O(resource) or O(account) does not exist (it holds no request).
      - A transition the vault refuses (approving a request that is not open, checking out a request that is not
        approved, checking in a password that is not checked out) fails with the vault's message, and in check mode
        with the reason the vault would give.
    type: str
    choices: [requested, approved, rejected, checked_out, checked_in]
    default: requested
  requester:
    description:
      - User name of the requester whose request an administrator decides on. Required with O(state=approved),
        O(state=rejected) and O(state=checked_in); not accepted with the other states, which act for the token's
        own user.
      - Resolved to the user id with C(get_USERID), one more read.
    type: str
  wait_timeout:
    description:
      - With O(state=checked_out), the most seconds to wait for an administrator to approve the request; V(0)
        does not wait (a request that is not approved fails the task, as the vault refuses the checkout).
      - Above V(0), the task sends C(REQUEST_PASSWORD) (with O(reason)) when the caller has no open request for the
        password, then reads the caller's open requests every O(wait_interval) seconds until the request is
        approved, and checks the password out. A password the caller holds checked out already is left as it is.
      - It fails when the request leaves the vault's list of open requests while waiting (the vault lists no
        rejected request, so this is an administrator's rejection, or a checkout that was ended), and when the
        request is still waiting after O(wait_timeout) seconds; that request is left open, so an administrator can
        still approve it and a later run goes on from it.
      - Only with O(state=checked_out). In check mode the task neither requests nor waits; it reports the change it
        would make.
      - No lock is held while waiting, so the forks of a play wait side by side. The task holds its host while it
        waits; run it with C(async) to go on with other tasks meanwhile (see the examples).
    type: int
    default: 0
    version_added: 0.5.0
  wait_interval:
    description:
      - Seconds between two reads of the open requests while waiting for the approval; at least V(1). When not
        set, V(5).
      - Only with O(wait_timeout) above V(0).
    type: int
    version_added: 0.5.0
extends_documentation_fragment:
  - credvault.vault.authorization.reason
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - O(reason) is sent with the request and with the checkout; it is not accepted with O(state=approved),
    O(state=rejected) and O(state=checked_in), which take no reason.
  - With O(state=requested) or O(state=checked_out) use the token of the requesting user. The vault shows an
    administrator the requests of other users, so an administrator's token cannot tell its own requests apart;
    administrators retrieve passwords without the workflow.
  - A request that was rejected or checked in is not listed by the vault any more; O(state=approved) after a
    check-in therefore fails until the user requests again.
  - The vault makes the check-in an administrator's operation (C(ADMIN_REQUEST_CHECKIN)). To give a password back
    once a play is done with it, end the play's block with an C(always) section in which the administrator's token
    checks it in (O(state=checked_in) with O(requester)), as the examples show. It then runs also when a task of
    the block failed.
seealso:
  - module: credvault.vault.vault_password_request_info
  - plugin: credvault.vault.vault_password
    plugin_type: lookup
"""

EXAMPLES = r"""
- name: The requester asks for the password
  credvault.vault.vault_password_request:
    url: "{{ vault_url }}"
    auth_token: "{{ requester_token }}"
    ca_path: "{{ vault_ca_path }}"
    resource: web-01
    account: root
    reason: Release 4.2
    state: requested

- name: An administrator approves the request of jdoe
  credvault.vault.vault_password_request:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
    resource: web-01
    account: root
    requester: jdoe
    state: approved

- name: The requester waits for the approval in the background, so that the play goes on meanwhile
  credvault.vault.vault_password_request:
    url: "{{ vault_url }}"
    auth_token: "{{ requester_token }}"
    ca_path: "{{ vault_ca_path }}"
    resource: web-01
    account: root
    reason: Release 4.2
    state: checked_out
    wait_timeout: 600
    wait_interval: 10
  async: 660
  poll: 0
  register: approval_wait

- name: Other tasks run meanwhile
  ansible.builtin.debug:
    msg: Preparing release 4.2

- name: Where the password is needed, the background wait must have ended with the checkout
  ansible.builtin.async_status:
    jid: "{{ approval_wait.ansible_job_id }}"
  register: approval
  until: approval.finished
  retries: 130
  delay: 5

- name: The requester uses the password it holds checked out (or waits for it), and gives it back
  block:
    - name: Request the password if there is no open request, wait for the approval, check it out
      credvault.vault.vault_password_request:
        url: "{{ vault_url }}"
        auth_token: "{{ requester_token }}"
        ca_path: "{{ vault_ca_path }}"
        resource: web-01
        account: root
        reason: Release 4.2
        state: checked_out
        wait_timeout: 600
        wait_interval: 10

    - name: The requester reads the password it holds
      ansible.builtin.set_fact:
        root_password: "{{ lookup('credvault.vault.vault_password', 'web-01/root', reason='Release 4.2',
                                  url=vault_url, auth_token=requester_token, ca_path=vault_ca_path) }}"
      no_log: true
  always:
    - name: An administrator ends the checkout, also when a task of the block failed
      credvault.vault.vault_password_request:
        url: "{{ vault_url }}"
        auth_token: "{{ vault_token }}"
        ca_path: "{{ vault_ca_path }}"
        resource: web-01
        account: root
        requester: jdoe
        state: checked_in

- name: An administrator turns down whatever jdoe still has open for web-01/admin
  credvault.vault.vault_password_request:
    url: "{{ vault_url }}"
    auth_token: "{{ vault_token }}"
    ca_path: "{{ vault_ca_path }}"
    resource: web-01
    account: admin
    requester: jdoe
    state: rejected
"""

RETURN = r"""
state:
  description:
    - State of the request after the task (predicted in check mode). V(none) when there is no open request and
      none was asked for; V(rejected) or V(checked_in) when the task rejected the request or ended the checkout
      (also for O(state=rejected) on a checked-out password, and O(state=checked_in) on a request not checked out).
  returned: success
  type: str
  sample: approved
requested:
  description:
    - True when the task sent the request for the password (in check mode, would send it) before waiting.
  returned: with O(state=checked_out) and O(wait_timeout) above V(0)
  type: bool
  sample: true
waited:
  description:
    - Whole seconds the task waited for the approval; V(0) when the request was approved or checked out already
      (and in check mode).
  returned: with O(state=checked_out) and O(wait_timeout) above V(0)
  type: int
  sample: 42
request:
  description:
    - The open request as the vault listed it before the task (an item of C(PASSWORDREQUESTLIST)), with the
      vault's field names turned into snake case and the V(state) its C(STATUS) stands for. Empty when there was
      no open request.
  returned: success
  type: dict
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
    account_id: "2"
    account_name: root
    resource_id: "1"
    resource_name: web-01
    passwd_id: "2"
    status: WAITING FOR APPROVAL
    state: requested
    requested_time: Nov 22, 2026 8:48 AM
    reason: Release 4.2
"""

from ansible_collections.credvault.vault.plugins.module_utils import _password_request, _password_workflow
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import authorization_argument_spec


def argument_spec():
    return {
        "resource": {"type": "str", "required": True},
        "account": {"type": "str", "required": True},
        "state": {
            "type": "str",
            "default": "requested",
            "choices": ["requested", "approved", "rejected", "checked_out", "checked_in"],
        },
        "requester": {"type": "str"},
        "wait_timeout": {"type": "int", "default": 0},
        "wait_interval": {"type": "int"},
        **authorization_argument_spec(ticket=False),
    }


def main():
    VaultModule(
        argument_spec(),
        required_if=[("state", state, ["requester"]) for state in _password_workflow.ADMINISTRATOR_STATES],
    ).run(_password_request.converge)


if __name__ == "__main__":
    main()
