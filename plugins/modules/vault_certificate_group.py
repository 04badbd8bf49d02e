#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_certificate_group
short_description: Create, edit, rename and delete certificate groups in the credential vault
version_added: 0.4.0
description:
  - Creates a certificate group, edits its description, mail address and certificates, renames it, or deletes it
    (C(createCertificateGroup), C(editCertificateGroup), C(deleteCertificateGroup); edition A from build 11300,
    edition B from build 5300). A configured O(build) below that is refused before any request.
  - The vault's API has no call that lists or reads certificate groups, so the module cannot tell whether a group
    exists or what it holds, and cannot compare. With O(state=present) every run sends the group - C(createCertificateGroup),
    and when the vault answers that the group already exists, C(editCertificateGroup) with the options given - and
    reports a change, with a warning that it could not compare. With O(state=absent) the delete is sent; a vault
    answer that the group does not exist is no change.
  - The vault's answers are told apart by their words - a message saying the group "already exists" or "does not
    exist" (or "not found"). Any other refusal fails the task with the vault's message.
  - Certificates of O(certificates) are looked up in the certificate list (C(GetAllSSLCertificates)) and sent as
    their C(CertID)s (C(ssl_details)) before the first write, so a certificate that does not exist fails the task
    before anything is written.
  - Which roles may manage certificate groups is the vault's decision (the spec does not say); a refusal fails the
    task with the vault's message.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - Name of the certificate group (C(group_name)); with O(new_name), its current name.
      - A name that is empty or has leading or trailing spaces is refused, here and in O(new_name).
    type: str
    required: true
  new_name:
    description:
      - Rename the group O(name) to this name (only with O(state=present)).
      - The spec says the edit's C(group_name) "carries the new name" and shows no field naming the group to edit;
        the module sends the current name in C(old_group_name), the field the collection's simulator reads. A vault
        that names the group to edit otherwise fails the task.
      - When the vault answers that the group O(name) does not exist, it is taken as renamed already (by an earlier
        run), and the group O(new_name) is edited with the other options; when neither exists the task fails.
    type: str
  description:
    description: Description of the group (C(group_description)). Not sent when not given.
    type: str
  mail:
    description:
      - E-mail address of the group (C(group_mail)). Not sent when not given.
      - What is certainly no e-mail address (not one C(@) between other characters, or a space in it) is refused
        before any request; the vault checks the rest. V("") clears it.
    type: str
  certificates:
    description:
      - The certificates the group holds, replacing those it held (C(ssl_details)). V([]) empties the group; without
        it the group's certificates are left as they are when it is edited.
      - Each is looked up by its common name, and its serial number where several certificates share the name; one
        that does not exist fails the task before anything is written (check mode takes it as created by an earlier
        task, with a warning).
    type: list
    elements: dict
    suboptions:
      common_name:
        description: Common name of the certificate (compared without regard to case).
        type: str
        required: true
      serial_number:
        description: Serial number of the certificate, in hexadecimal (any case, colons allowed).
        type: str
  state:
    description:
      - V(present) creates the group, or edits it when it exists (see the description); V(absent) deletes it.
      - Deleting a group leaves its certificates in the vault and takes away the shares of the group.
    type: str
    choices: [present, absent]
    default: present
attributes:
  diff_mode:
    support: partial
    details:
      - The group cannot be read, so C(before) is always null with O(state=present), and C(after) is what was sent.
  idempotent:
    support: partial
    details:
      - With O(state=present) every run sends the group and reports a change - the API cannot read certificate
        groups. Deleting a group that does not exist is no change.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
  - credvault.vault.sent_once_per_task
notes:
  - C(changed) with O(state=present) means that the group was sent (in check mode, that it would be) - every run,
    but once per task on a host (see below).
    Check mode resolves the certificates, sends nothing, and warns that it cannot tell whether the group exists.
seealso:
  - module: credvault.vault.vault_certificate_share
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
    - name: The web team's certificates, and whom to tell when they expire
      credvault.vault.vault_certificate_group:
        name: Web certificates
        description: Certificates of the public web servers
        mail: web-team@example.com
        certificates:
          - common_name: shop.example.com
          - common_name: intranet.example.com

    - name: Rename it, leaving the rest as it is
      credvault.vault.vault_certificate_group:
        name: Web certificates
        new_name: Public web certificates

    - name: Delete it (its certificates stay)
      credvault.vault.vault_certificate_group:
        name: Public web certificates
        state: absent
"""

RETURN = r"""
action:
  description:
    - What the task did - V(created), V(edited) (the group existed), V(renamed), V(deleted), V(none) (the group to
      delete did not exist), V(sent by another fork) (another fork of the same task on this host sent the
      same group, so nothing was sent). In check mode V(create or edit), V(rename) or V(delete).
  returned: success
  type: str
  sample: created
certificate_group:
  description:
    - The group as sent - C(group_name) (the new name after a rename) and the fields given, C(group_description),
      C(group_mail), C(ssl_details). Null when the group to delete did not exist.
  returned: success
  type: dict
  sample:
    group_name: Web certificates
    group_description: Certificates of the public web servers
    group_mail: web-team@example.com
    ssl_details: "4,7"
certificates:
  description: The certificates of O(certificates) as found - C(common_name), C(serial_number) and C(CertID).
  returned: with O(certificates)
  type: list
  elements: dict
  sample:
    - common_name: shop.example.com
      serial_number: 5a1c0ffee
      CertID: "4"
vault_group:
  description: The group as the vault's answer gives it (C(group_name), C(group_description), C(group_mail),
    C(ssl_details)), or null when the answer holds none. Null in check mode and when another fork sent the group.
  returned: with O(state=present)
  type: dict
vault_message:
  description: The vault's answer when the group to delete did not exist.
  returned: when O(state=absent) and the group did not exist
  type: str
"""

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_group
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str", "required": True},
        "new_name": {"type": "str"},
        "description": {"type": "str"},
        "mail": {"type": "str"},
        "certificates": {
            "type": "list",
            "elements": "dict",
            "options": {"common_name": {"type": "str", "required": True}, "serial_number": {"type": "str"}},
        },
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
    }


def main():
    VaultModule(argument_spec()).run(_certificate_group.converge)


if __name__ == "__main__":
    main()
