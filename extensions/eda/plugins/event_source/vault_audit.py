# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""An ansible-rulebook event source: one event per new record of the vault's audit trail.

ansible-rulebook runs this file (``runpy.run_path``) and awaits ``main(queue, args)``. The logic is in
``plugins/plugin_utils/_audit_events.py``; the HTTP is the collection's one client, run in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sys

DOCUMENTATION = r"""
---
short_description: Poll the vault's audit trail; one event per new audit record
description:
  - An ansible-rulebook event source that reads the vault's audit trail (C(GET_AUDIT)) every O(interval) seconds
    and puts one event per new record in the rulebook's queue, oldest first, as C(event.vault_audit).
  - "The event holds the record's fields, renamed: C(audit_type) (V(resource) or V(user)), C(audit_id) (AUDITID),
    C(operation) (OPERATIONTYPE), C(resource) (RESOURCENAME), C(account) (ACCOUNTNAME), C(user) (USERNAME),
    C(operated_by) (OPERATEDBY), C(name) (NAME), C(ip_address) (IPADDRESS), C(client) (CLIENT), C(reason) (REASON),
    C(time) (LASTACCESSEDTIME as ISO 8601), C(vault_time) (LASTACCESSEDTIME as the vault wrote it) and C(url) (the
    vault's). A field the vault gives as C(N/A) or C(Not Applicable) is null. An audit record holds no secret, and
    nothing else of the vault's answer goes into an event."
  - Each record is given once, across polls, pages, records arriving while the pages are read, and restarts when
    O(cursor_file) is set, but in the one case below. The first start gives only what comes after it, unless
    O(start_at) says otherwise.
  - How far back a poll reads, the trail's C(totalRows) decides. When the newest page holds as many new records as
    the trail grew by since the last poll, the poll stops there; with nothing new, one request per audit type,
    also right after a burst of records. Otherwise it reads the part of the trail within two minutes of the newest
    record given, for records the vault wrote late, with a time a little before one given. Records leaving the 7
    days the trail gives make the count under-state the new ones; when fewer records are counted than at the last
    poll, or more new ones found than counted, that part is read too. When as many records leave between two polls
    as come late below the newest page, the count looks right and those late records are not given.
  - A record is known by its AUDITID, never by the vault's clock alone. When that clock goes back (a vault writing
    local time that leaves daylight saving time, an NTP step), the records written after the step are older than
    those given before and sink below them in the trail; the source reads on for as many records as the trail grew
    by (its C(totalRows)), through the records it gave (it remembers the ids of the last 10,000). A gap it cannot
    bridge is logged as a warning with the number of records not given.
  - The spec of the vault's API does not list the wording of OPERATIONTYPE; filter with patterns
    (V(*change*password*)), and check the wording of your vault's trail with M(credvault.vault.vault_audit_info).
  - Nor does the spec say whether reading the trail is itself audited. If your vault records it, leave that
    operation out with O(exclude_operations), or each poll gives an event about the poll before.
  - A vault that cannot be reached, or refuses the token, is logged as an error and polled again after a backoff
    (doubling from O(interval) up to O(max_backoff), with jitter); the source keeps running. Arguments that cannot
    work stop it at once with an error.
  - Needs the Python library C(requests) and ansible-core beside ansible-rulebook (ansible-rulebook needs
    C(ansible-galaxy) to find collections anyway).
options:
  url:
    description: The vault's base URL, C(https://host:port).
    type: str
    required: true
    env:
      - name: CREDVAULT_URL
  auth_token:
    description:
      - The API token (C(AUTHTOKEN) header) of a user allowed to read the audit trail.
      - This or O(auth_token_file) is required; set in the rulebook, either wins over the environment.
    type: str
    env:
      - name: CREDVAULT_AUTH_TOKEN
  auth_token_file:
    description:
      - A file holding the API token, read once when the source starts, instead of O(auth_token). It must be a
        regular file that only its owner can read (mode 0600 or 0400); the source does not start otherwise.
    type: path
    env:
      - name: CREDVAULT_AUTH_TOKEN_FILE
  org_name:
    description: The organization (C(orgName) header), for a vault with several.
    type: str
    env:
      - name: CREDVAULT_ORG_NAME
  edition:
    description: The vault's edition; the audit trail is the same in both.
    type: str
    choices: [A, B]
    env:
      - name: CREDVAULT_EDITION
  build:
    description: The vault's build number.
    type: int
    env:
      - name: CREDVAULT_BUILD
  validate_certs:
    description: Verify the vault's TLS certificate.
    type: bool
    default: true
    env:
      - name: CREDVAULT_VALIDATE_CERTS
  ca_path:
    description: A PEM file of the certificate authorities to trust for the vault.
    type: path
    env:
      - name: CREDVAULT_CA_PATH
  client_cert:
    description:
      - A PEM file with the TLS client certificate to show a vault that demands one (its key in the same file or in
        O(client_key)); checked when the source starts.
    type: path
    env:
      - name: CREDVAULT_CLIENT_CERT
  client_key:
    description: A PEM file with the unencrypted private key of O(client_cert).
    type: path
    env:
      - name: CREDVAULT_CLIENT_KEY
  proxy_url:
    description:
      - The HTTP proxy to reach the vault through, C(http://HOST:PORT), with C(USER:PASSWORD@) before the host if it
        asks for them. Without it, C(HTTPS_PROXY), C(ALL_PROXY) and C(NO_PROXY) apply.
    type: str
    env:
      - name: CREDVAULT_PROXY_URL
  timeout:
    description: Seconds to wait for each answer.
    type: float
    default: 30
    env:
      - name: CREDVAULT_TIMEOUT
  retries:
    description: Retries of a request that failed transiently, within one poll.
    type: int
    default: 3
    env:
      - name: CREDVAULT_RETRIES
  audit_types:
    description: The audit trails to read (the API's C(AUDITTYPE) C(Resource) and C(User)).
    type: list
    elements: str
    choices: [resource, user]
    default: [resource, user]
  operations:
    description:
      - Give only records whose OPERATIONTYPE matches one of these shell-style patterns (case-insensitive).
      - Empty gives every operation.
    type: list
    elements: str
    default: []
  exclude_operations:
    description: Give no record whose OPERATIONTYPE matches one of these patterns (case-insensitive).
    type: list
    elements: str
    default: []
  resources:
    description: Give only records whose RESOURCENAME matches one of these patterns (case-insensitive).
    type: list
    elements: str
    default: []
  accounts:
    description: Give only records whose ACCOUNTNAME matches one of these patterns (case-insensitive).
    type: list
    elements: str
    default: []
  interval:
    description: Seconds between two polls.
    type: float
    default: 30
  max_backoff:
    description: The longest wait, in seconds, between two polls after failures.
    type: float
    default: 300
  cursor_file:
    description:
      - A file that keeps the position in the audit trail, so that a restarted rulebook gives what came while it
        was stopped, and nothing twice. Each event handed over is added to a journal beside it (its path with
        C(.journal) appended), and the file is written whole after each poll, the journal then removed; a restart
        reads both, so it repeats at most the one event being handed over when the source stopped. Both are
        readable by their owner only.
      - One file per vault and rulebook source. Without it, each start is a first start.
      - Its directory must exist and be writable (the file is written beside, then renamed, and the journal is
        there); the source checks that at start and stops with an error naming the path otherwise.
    type: path
  start_at:
    description:
      - What the first start (no position in O(cursor_file)) gives.
      - V(now) gives only the records that come after it; V(today) and V(last_7_days) also give that part of the
        trail (the API's C(DURATION) C(TODAY) and C(LAST_7_DAYS)).
    type: str
    choices: [now, today, last_7_days]
    default: now
  page_size:
    description: Records asked for per request (the API's C(LIMIT)).
    type: int
    default: 100
"""

# docs/examples/eda/rulebook.yml, which make eda-check runs (a unit test keeps them the same).
EXAMPLES = r"""
---
# Event-Driven Ansible: when the password of a watched account changes in the vault, update the configuration of
# the service that uses it (update_service.yml). Run from this directory, so that run_playbook finds the playbook:
#
#   ansible-rulebook -r rulebook.yml -i inventory.yml --vars vars.yml
#
# The vault_audit source polls the vault's audit trail; it connects with the CREDVAULT_* environment variables
# (CREDVAULT_URL, CREDVAULT_AUTH_TOKEN, CREDVAULT_CA_PATH...), as the playbook's lookup does. vars.yml names the
# accounts to watch, the cursor file and the service's files.
- name: Update services when their vault password changes
  hosts: all
  sources:
    - name: Password changes in the vault's audit trail
      credvault.vault.vault_audit:
        audit_types: [resource]
        # The spec does not fix the wording of OPERATIONTYPE: match it with patterns (case-insensitive), and leave
        # out refused changes ("CHANGE PASSWORD (Failed)" on the test vault).
        operations: ["*change*password*"]
        exclude_operations: ["*failed*"]
        resources: "{{ watched_resources }}"
        accounts: "{{ watched_accounts }}"
        interval: "{{ poll_interval }}"
        # Where the source keeps its place in the trail: after a restart it goes on from there, so a change made
        # while ansible-rulebook was stopped is still handled, and none is handled twice.
        cursor_file: "{{ cursor_file }}"
  rules:
    - name: Put the new password into the service's configuration
      condition: event.vault_audit.account is defined
      action:
        run_playbook:
          name: update_service.yml
          extra_vars:
            vault_resource: "{{ event.vault_audit.resource }}"
            vault_account: "{{ event.vault_audit.account }}"
            vault_audit_id: "{{ event.vault_audit.audit_id }}"
            service_config_file: "{{ service_config_file }}"
            service_update_log: "{{ service_update_log }}"
"""

LOG = logging.getLogger("credvault.vault.vault_audit")
COLLECTIONS_ROOT_DEPTH = 7  # extensions/eda/plugins/event_source/<file> in ansible_collections/credvault/vault


def _import_logic():
    """The collection's code: importable as ``ansible_collections.credvault.vault`` when its root is on the path;
    ansible-rulebook runs this file by its path, so the root is found from it otherwise."""
    try:
        from ansible_collections.credvault.vault.plugins.plugin_utils import _event_source
    except ImportError:
        root = os.path.abspath(__file__)
        for _level in range(COLLECTIONS_ROOT_DEPTH + 1):
            root = os.path.dirname(root)
        sys.path.append(root)
        from ansible_collections.credvault.vault.plugins.plugin_utils import _event_source
    return _event_source


def backoff(failures, interval, max_backoff):
    """Seconds to wait after ``failures`` failed polls in a row: doubling from ``interval``, at most
    ``max_backoff``, with jitter (between half and all of it) so that sources do not poll in step."""
    return min(max_backoff, interval * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)


async def main(queue, args):
    """Poll until cancelled; an event is handed over (``queue.put``) before the cursor notes it given (in its
    journal), and the cursor is written after each poll (the first one included: the position of an empty trail)."""
    logic = _import_logic()
    settings = logic.source_settings(args)
    events = logic.audit_events(settings)
    failures = 0
    while True:
        try:
            found = await asyncio.to_thread(events.poll)
        except logic.VaultError as error:
            failures += 1
            delay = backoff(failures, settings["interval"], settings["max_backoff"])
            LOG.error("reading the audit trail of %s failed: %s; next try in %.0f s", events.url, error, delay)
            await asyncio.sleep(delay)
            continue
        while events.warnings:
            LOG.warning(events.warnings.pop(0))
        if failures:
            LOG.warning("the audit trail of %s is read again after %d failed polls", events.url, failures)
            failures = 0
        for event, audit_type, audit_id, moment in found:
            if event is not None:
                await queue.put(event)
            events.note(audit_type, audit_id, moment)
        events.cursor.save()
        await asyncio.sleep(settings["interval"])
