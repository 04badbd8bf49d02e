#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_certificate_share
short_description: Share SSL certificates and certificate groups with users and user groups, or revoke the shares
version_added: 0.4.0
description:
  - Shares a certificate (O(common_name), O(serial_number)) or a certificate group (O(group)) with users (O(users))
    and user groups (O(user_groups)), or revokes the shares (O(state=absent)). The users and groups it is shared
    with see the certificate in the certificate list and may read and download it. There is no access level.
  - 'Calls - one per grantee: C(ShareCertificate) (C(/shareCertificateToUser), C(/shareCertificateToUserGroup),
    C(/shareCertificateGroupToUser), C(/shareCertificateGroupToUserGroup)) and C(RevokeCertificate) (the four
    C(/revokeCertificate...) calls), edition A from build 11300, edition B from build 5300. A configured O(build)
    below that is refused before any request.'
  - Every name is resolved before the first call - the certificate in the certificate list (C(GetAllSSLCertificates)),
    users with C(get_USERID), user groups with C(GET_USERGROUPID) - so an unknown certificate, user or user group
    fails the task before anything is shared. The API cannot read certificate groups, so O(group) is sent by name and
    the vault's answer decides.
  - Every call is sent, even after one failed; the task then fails naming each certificate and grantee the vault
    refused, with its message, and the shares applied before, which stay applied (the task then reports a change).
  - Which roles may share is the vault's decision (the spec does not say); a refusal fails the task with the vault's
    message.
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description:
      - Common name of the certificate to share (compared without regard to case). One of O(common_name) and O(group)
        is required.
      - Names that are empty or have leading or trailing spaces are refused, here and in every other name option.
    type: str
  serial_number:
    description:
      - Serial number of the certificate, in hexadecimal (any case, colons allowed); needed when several
        certificates share O(common_name).
    type: str
  group:
    description: Name of the certificate group to share (every certificate it holds).
    type: str
  users:
    description: Names of the users to share with (resolved with C(get_USERID)).
    type: list
    elements: str
  user_groups:
    description: Names of the user groups to share with (resolved with C(GET_USERGROUPID)).
    type: list
    elements: str
  state:
    description:
      - V(present) shares; V(absent) revokes the shares.
      - With V(absent), a revoke the vault refuses because the certificate or group was not shared (its message says
        "not shared") is no change, and is returned in RV(calls) with outcome V(not shared).
    type: str
    choices: [present, absent]
    default: present
attributes:
  diff_mode:
    support: partial
    details: The vault has no call that reads certificate shares, so there is nothing to compare; the diff shows each
      pair (C(<what> - <whom>)) as V(shared) or V(not shared) after the task and V(unknown) before it (V(not shared)
      when the vault answered a revoke so). RV(calls) lists what is sent.
  idempotent:
    support: partial
    details:
      - The vault has no call that reads certificate shares, so every run with O(state=present) sends its share calls
        again and reports a change. Sharing again leaves the vault as it was.
      - With O(state=absent) a second run reports no change when the vault answers that nothing was shared.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
  - credvault.vault.sent_once_per_task
notes:
  - C(changed) means that share calls were sent and accepted (in check mode, that they would be sent). The API
    cannot read shares back, so every run that is asked to share sends its calls and reports changed, even when the
    vault already was as asked (but once per task on a host, see below). A revoke reports changed only for
    the shares the vault revoked.
  - Check mode resolves every name, sends no share call, and returns in RV(calls) the calls a real run would make.
    A certificate or user that does not exist is then taken as created by an earlier task of the same run, with a
    warning; user groups, which the API cannot create, must exist.
seealso:
  - module: credvault.vault.vault_certificate_group
  - module: credvault.vault.vault_share
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
      edition: A
      build: 12450
  block:
    - name: Let jdoe and the web operators see the certificate of shop.example.com
      credvault.vault.vault_certificate_share:
        common_name: shop.example.com
        users:
          - jdoe
        user_groups:
          - Web operators

    - name: Let the web operators see every certificate of a certificate group
      credvault.vault.vault_certificate_share:
        group: Web certificates
        user_groups:
          - Web operators

    - name: Take the certificate back from jdoe
      credvault.vault.vault_certificate_share:
        common_name: shop.example.com
        users:
          - jdoe
        state: absent
      register: revoked

    - name: What the vault answered
      ansible.builtin.debug:
        var: revoked.calls
"""

RETURN = r"""
calls:
  description:
    - The share or revoke calls, in order, one per grantee - in check mode, those that would be made.
    - It holds names, never an id or a secret.
  returned: success
  type: list
  elements: dict
  contains:
    operation:
      description: The vault's operation name of the call.
      type: str
      choices: [ShareCertificate, RevokeCertificate]
    what:
      description: What is shared - C(certificate <common name> (serial number <serial>)) or C(certificate group <name>).
      type: str
    whom:
      description: With whom - C(user <name>) or C(user group <name>).
      type: str
    outcome:
      description:
        - V(shared) or V(revoked) (a change); V(not shared) - a revoke the vault refused because nothing was shared (no
          change); V(sent by another fork) - another fork of the same task on this host sent this share, so
          none was sent (no change); V(would be sent) in check mode.
      type: str
      choices: [shared, revoked, not shared, sent by another fork, would be sent]
    message:
      description: The vault's message; null in check mode and when another fork sent the share.
      type: str
  sample:
    - operation: ShareCertificate
      what: certificate shop.example.com (serial number 5a1c0ffee)
      whom: user jdoe
      outcome: shared
      message: Certificate shop.example.com (serial number 5a1c0ffee) shared with user jdoe successfully
"""

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_share
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "common_name": {"type": "str"},
        "serial_number": {"type": "str"},
        "group": {"type": "str"},
        "users": {"type": "list", "elements": "str"},
        "user_groups": {"type": "list", "elements": "str"},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
    }


def main():
    VaultModule(
        argument_spec(),
        required_one_of=[("common_name", "group"), ("users", "user_groups")],
        mutually_exclusive=[("common_name", "group"), ("group", "serial_number")],
    ).run(_certificate_share.converge)


if __name__ == "__main__":
    main()
