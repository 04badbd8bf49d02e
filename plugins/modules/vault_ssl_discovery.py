#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_ssl_discovery
short_description: Have the credential vault discover the SSL certificates of a host or an IPv4 range
version_added: 0.4.0
description:
  - The vault connects to O(host) (C(sslCertSingleDiscovery)), or to every address from O(start_address) to
    O(end_address) (C(sslCertRangeDiscovery)), on O(port), and stores each certificate it finds.
  - Returns the vault's outcome per host - C(SUCCESS) when a certificate was found, C(FAILURE) with the vault's
    reason otherwise (for example connection refused or timed out, no certificate found at the port).
  - "An action: it reports a change when any host answered C(SUCCESS), because the vault stores what it finds (the
    answer does not say whether the vault already had the certificate). A run where every host failed reports no
    change."
  - Addresses are checked before any request - both must be IPv4 addresses, O(end_address) must not come before
    O(start_address), and the range may hold at most 65536 addresses (a /16; the vault probes each one while the
    request waits, so discover a larger network in several ranges); so are O(port) (1 to 65535) and
    O(discovery_timeout) (1 or more).
author:
  - Credvault Maintainers (@credvault)
options:
  host:
    description:
      - Host name or address to discover (C(HOST)).
      - Excludes O(start_address) and O(end_address).
    type: str
  start_address:
    description: First IPv4 address of the range to discover (C(StartIpAddress)). Needs O(end_address).
    type: str
  end_address:
    description:
      - Last IPv4 address of the range, included (C(EndIpAddress)). Needs O(start_address).
      - The range holds at most 65536 addresses, for example V(10.1.0.0) to V(10.1.255.255).
    type: str
  port:
    description: TCP port the vault connects to (C(PORT)).
    type: int
    default: 443
  discovery_timeout:
    description:
      - How long the vault tries each host (C(TIMEOUT)), in seconds - the spec does not state the unit, its samples
        are 300 for one host and 3 for a range.
      - The vault answers after probing, so the request waits up to O(discovery_timeout) seconds per address plus
        30 seconds for the answer, even when the connection's O(timeout) is shorter.
    type: int
    default: 10
  fail_on_failure:
    description:
      - Fail the task when any host answered C(FAILURE) (or an unreadable outcome), naming each such host with the
        vault's text. Certificates found at the other hosts are stored all the same, so the failure reports
        C(changed) when any was found.
    type: bool
    default: false
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying the vault.
    support: full
    details: Check mode sends nothing. It cannot tell what a discovery would find, so it reports a change and warns.
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode); secrets masked.
    support: full
    details: The diff lists the hosts where certificates were found.
  idempotent:
    description: A second run with the same options reports no change and sends only reads.
    support: none
    details: Each run discovers again and reports a change whenever a certificate is found.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
seealso:
  - module: credvault.vault.vault_certificate_info
"""

EXAMPLES = r"""
- name: SSL discovery
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The certificate of one web server
      credvault.vault.vault_ssl_discovery:
        host: "{{ web_server }}"
        port: "{{ web_port }}"
        discovery_timeout: 30
      register: one_host

    - name: Every certificate served on port 8443 in a small range, short timeout per address
      credvault.vault.vault_ssl_discovery:
        start_address: "{{ range_start }}"
        end_address: "{{ range_end }}"
        port: 8443
        discovery_timeout: 3
      register: in_range

    - name: Show where certificates were found
      ansible.builtin.debug:
        msg:
          web: "{{ one_host.hosts | map(attribute='text') | list }}"
          found_in_range: "{{ in_range.hosts | selectattr('success') | map(attribute='host') | list }}"
"""

RETURN = r"""
hosts:
  description:
    - One item per host the vault probed, in address order.
    - C(outcome) is C(SUCCESS) or C(FAILURE) as the vault answered, or V(null) when the vault's item was not
      C([outcome, text]); C(text) is the vault's text (or says what was unreadable); C(success) is V(true) for
      C(SUCCESS) only.
    - Empty in check mode.
  returned: always
  type: list
  elements: dict
  sample:
    - host: 192.0.2.10
      outcome: SUCCESS
      text: Certificate www.example.com (serial number 5a1f0c3e9b2d4e77) found at port 443 and added to the vault
      success: true
    - host: 192.0.2.11
      outcome: FAILURE
      text: Connection failed - connection refused, no certificate found at port 443
      success: false
"""

from ansible_collections.credvault.vault.plugins.module_utils import _ssl_discovery
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "host": {"type": "str"},
        "start_address": {"type": "str"},
        "end_address": {"type": "str"},
        "port": {"type": "int", "default": 443},
        "discovery_timeout": {"type": "int", "default": 10},
        "fail_on_failure": {"type": "bool", "default": False},
    }


def main():
    VaultModule(
        argument_spec(),
        mutually_exclusive=[("host", "start_address"), ("host", "end_address")],
        required_together=[("start_address", "end_address")],
        required_one_of=[("host", "start_address")],
    ).run(_ssl_discovery.converge)


if __name__ == "__main__":
    main()
