#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_certificate_deploy
short_description: Deploy an SSL certificate stored in the credential vault to the servers the vault knows
version_added: 0.4.0
description:
  - Deploys a certificate of the vault, with its private key, to one server (O(server)) or to every server the vault
    has stored (C(DeployCertificate), edition A from build 11300, edition B from build 5300). A configured O(build)
    below that is refused before any request.
  - The vault's servers are the hosts where its SSL discovery found a certificate (for example with
    M(credvault.vault.vault_ssl_discovery)); the module cannot list them.
  - The certificate is named by O(common_name), and O(serial_number) where several certificates share it. It is looked
    up in the certificate list (C(GetAllSSLCertificates)) first, so a certificate that does not exist, or a common
    name shared by several certificates without O(serial_number), fails the task before anything is sent - in check
    mode too.
  - The vault answers one status per server, returned in RV(deploy_status). A server whose status is not C(Success)
    fails the task, which names each such server and quotes the vault's message; the servers that were deployed to
    stay so, and the task then reports a change.
  - Requests - 1 read of the certificate list (plus 1 of C(GetCertificateDetails) when the list leaves out a serial
    number) and 1 write.
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description:
      - Common name of the certificate to deploy (compared without regard to case).
      - A name that is empty or has leading or trailing spaces is refused.
    type: str
    required: true
  serial_number:
    description:
      - Serial number of the certificate, in hexadecimal (any case, colons allowed); needed when several certificates
        share O(common_name).
    type: str
  server:
    description:
      - Name of the server to deploy to (C(serverName)), as the vault's discovery stored it.
      - Without it the certificate is deployed to every server the vault has stored.
      - Check mode cannot tell whether the vault knows the server (no call lists servers); a real run fails with the
        vault's message when it does not.
    type: str
attributes:
  diff_mode:
    support: partial
    details: Deploying is an action; the diff shows only that the deployment is sent, RV(deploy_status) says what the
      vault did.
  idempotent:
    support: none
    details:
      - Deploying is an action - every run sends it and reports a change.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - C(changed) means that the deployment was sent (in check mode, that it would be). Every run sends it again.
  - Check mode looks the certificate up and sends nothing; RV(deploy_status) is then empty.
seealso:
  - module: credvault.vault.vault_ssl_discovery
  - module: credvault.vault.vault_certificate_info
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
    - name: See which certificate a deployment of intranet.example.com would take (nothing is sent)
      credvault.vault.vault_certificate_deploy:
        common_name: intranet.example.com
      check_mode: true
      register: planned

    - name: The certificate it found
      ansible.builtin.debug:
        var: planned.certificate

    - name: Deploy it to the server discovered as localhost
      credvault.vault.vault_certificate_deploy:
        common_name: intranet.example.com
        server: localhost

    - name: Deploy it to every server the vault knows
      credvault.vault.vault_certificate_deploy:
        common_name: intranet.example.com
      register: everywhere

    - name: Where it went
      ansible.builtin.debug:
        msg: "{{ everywhere.deploy_status | map(attribute='server') | list }}"
"""

RETURN = r"""
certificate:
  description: The certificate deployed - its C(common_name) and C(serial_number) as the vault lists them.
  returned: success
  type: dict
  sample:
    common_name: intranet.example.com
    serial_number: 5a1c0ffee
server:
  description: O(server) as given; null when the certificate went to every stored server.
  returned: success
  type: str
  sample: localhost
deploy_status:
  description:
    - The vault's C(deployStatus), one entry per server - C(server), C(message) and C(status) (C(Success) when
      deployed), each null when the vault left it out. Entries that are not objects are left out, with a warning.
    - Empty in check mode. Also returned when the task fails because a server was not deployed to.
  returned: success
  type: list
  elements: dict
  sample:
    - server: localhost
      message: Certificate intranet.example.com (serial number 5a1c0ffee) deployed to localhost at port 8443
      status: Success
"""

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_deploy
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "common_name": {"type": "str", "required": True},
        "serial_number": {"type": "str"},
        "server": {"type": "str"},
    }


def main():
    VaultModule(argument_spec()).run(_certificate_deploy.converge)


if __name__ == "__main__":
    main()
