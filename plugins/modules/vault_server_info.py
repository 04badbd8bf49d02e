#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_server_info
short_description: Read the credential vault's high-availability status and what this collection can call on it
version_added: 0.4.0
description:
  - Reads the vault's high-availability status (C(Get HA Status), C(GET /server/getHighAvailabilityStatus), edition A
    from build 12230, edition B from build 6000), in one request.
  - A vault without that call is not an error - RV(high_availability) is then empty and RV(unavailable) says why.
    With O(edition) and O(build) set, such a vault is not asked at all; without them, a vault that answers HTTP 404
    is taken to lack it.
  - Also returns the collection's own view of the vault, computed without any request - the O(edition) and O(build)
    this task was given (None when not given), and in RV(endpoints) every endpoint of the spec the collection knows,
    with whether that edition and build have it.
  - Never changes anything. The simulator lets only administrators read the status; a token the vault refuses fails
    the task with the vault's message.
author:
  - Credvault Maintainers (@credvault)
options: {}
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_audit_info
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
    - name: The vault's status and what it offers
      credvault.vault.vault_server_info:
      register: server

    - name: Is this the primary server, and what is the state of high availability
      ansible.builtin.debug:
        msg: >-
          primary: {{ server.high_availability.is_primary_server | default('unknown') }},
          high availability: {{ server.high_availability.haStatus | default(server.unavailable.high_availability) }}

    - name: The endpoints edition B build 6320 lacks
      ansible.builtin.debug:
        msg: "{{ server.endpoints | rejectattr('available') | map(attribute='operation') | list }}"
"""

RETURN = r"""
high_availability:
  description:
    - The vault's high-availability status (C(Details) of C(Get HA Status)) under the vault's keys - C(haStatus),
      C(isPrimaryServer) (the string V(true) or V(false)), C(primaryServer), C(primaryServerStatus),
      C(secondaryServer), C(secondaryServerStatus) - plus C(is_primary_server), C(isPrimaryServer) as a boolean (None
      when the vault said neither).
    - Empty when the vault lacks the call; RV(unavailable) then says why.
  returned: success
  type: dict
  sample:
    haStatus: Not Configured
    isPrimaryServer: "true"
    is_primary_server: true
    primaryServer: vault01.example.com
    primaryServerStatus: Running
    secondaryServer: ""
    secondaryServerStatus: Not Configured
unavailable:
  description: The parts that could not be read, each with why - C(high_availability) when the vault lacks the call.
  returned: success
  type: dict
  sample:
    high_availability: Get HA Status (GET /server/getHighAvailabilityStatus) needs edition A from build 12230 or
      edition B from build 6000; the vault is edition A build 12000
edition:
  description: The edition this task was given (O(edition)), None when not given.
  returned: success
  type: str
  sample: B
build:
  description: The build this task was given (O(build)), None when not given.
  returned: success
  type: int
  sample: 6320
endpoints:
  description:
    - Every endpoint of the spec the collection knows, in the spec's order, computed without any request.
    - C(key) is the collection's name of the endpoint; C(method) and C(operation) are those of RV(edition) (edition B's
      where they differ); C(path) the path under O(url); C(build) the spec's Build column (V(-) for no minimum).
    - C(available) is V(true) or V(false) when RV(edition) and RV(build) decide it, None when they do not (no edition
      given, or a gated endpoint without a build). C(fields) does the same for each input field with its own minimum
      build (empty for most endpoints).
  returned: success
  type: list
  elements: dict
  sample:
    - key: get_ha_status
      method: GET
      path: /restapi/json/v1/server/getHighAvailabilityStatus
      operation: Get HA Status
      build: A 12230 / B 6000
      available: true
      fields: {}
    - key: export_ssh_key
      method: POST
      path: /api/pki/restapi/exportSSHKey
      operation: ExportSSHKey
      build: "-"
      available: true
      fields:
        keyExportType: true
"""

from ansible_collections.credvault.vault.plugins.module_utils import _server_info
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def main():
    VaultModule({}).run(_server_info.describe)


if __name__ == "__main__":
    main()
