#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_csr
short_description: Create certificate signing requests in the credential vault and have a CA sign them
version_added: 0.4.0
description:
  - Creates a certificate signing request (CSR) in the vault (C(CreateCSR); edition B names the operation
    C(CreateCertificate)). The vault makes the key pair and keeps the private key.
  - With O(state=signed) it also sends the CSR to a certificate authority (C(SignCSR)) - O(ca_server), O(ca_name)
    and O(template) - and the vault stores the certificate it gets back.
  - "An existing CSR is found in the CSR list (C(GetCSRList)) by O(common_name). It counts as the task's CSR when
    the list shows the O(key_algorithm), O(key_length), O(signature_algorithm) (compared by its hash, so V(SHA256)
    matches C(SHA256withRSA)), O(store_type) and O(validity) (with O(validity_type) when given) the task gives,
    and a passphrase when O(privatekey_passphrase) is given. Options left out are not compared. When several
    CSRs match, the newest is taken."
  - The CSR list does not report O(organization_name), O(organizational_unit_name), O(locality_name),
    O(state_or_province_name), O(country_name) or O(subject_alt_name), nor the passphrase itself, so they are
    not compared. When an existing CSR is taken, the task warns that those it gives were not compared.
  - The API cannot change or delete a CSR. When the CSRs of O(common_name) all differ from the task, a new CSR is
    created beside them and the task warns.
  - Whether a CSR was signed is not in the CSR list, and no read says which CSR a certificate came from. With
    O(state=signed), a CSR the task creates is always signed. A CSR created earlier counts as signed when the vault
    holds a certificate named O(common_name) whose details (C(GetCertificateDetails)) show O(template) as its
    C(certificateTemplate); otherwise it is signed. So a CSR created with O(state=present) while an older
    certificate of that name and template exists is taken as signed; sign it in the run that creates it. A CSR
    whose certificate was deleted since may be refused by the vault when it is signed again; the task then fails
    with the vault's message.
  - Input the vault would refuse (a country that is not two letters, a validity or key length below 1, empty or
    space-padded text) is refused before any request, in check mode too.
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description:
      - Common name (C(CNAME)) of the certificate requested; the CSR list shows it as C(DOMAIN_NAME).
    type: str
    required: true
  state:
    description:
      - V(present) creates the CSR unless a matching one exists.
      - V(signed) does the same, then has it signed unless it was signed before (see above).
    type: str
    choices: [present, signed]
    default: present
  subject_alt_name:
    description:
      - Subject alternative names (C(ALT_NAMES)), DNS names or IP addresses; no item may hold a comma.
      - Not reported by the CSR list, so not compared.
    type: list
    elements: str
  organization_name:
    description: Organization (C(ORG)). Not reported by the CSR list, so not compared.
    type: str
  organizational_unit_name:
    description: Organizational unit (C(ORGUNIT)). Not reported by the CSR list, so not compared.
    type: str
  locality_name:
    description: Locality (C(LOCATION)). Not reported by the CSR list, so not compared.
    type: str
  state_or_province_name:
    description: State or province (C(STATE)). Not reported by the CSR list, so not compared.
    type: str
  country_name:
    description:
      - Two-letter country code (C(COUNTRY)), for example V(DE); anything else is refused before any request.
      - Not reported by the CSR list, so not compared.
    type: str
  privatekey_passphrase:
    description:
      - Passphrase of the private key the vault makes (C(PASSWORD)). Without it the vault chooses one.
      - Never shown. Only whether a CSR has one (C(isPassword)) can be compared.
    type: str
  validity:
    description: Validity of the certificate requested (C(VALIDITY)), in O(validity_type) units; 1 or more.
    type: int
  validity_type:
    description: Unit of O(validity) (C(VALIDITY_TYPE)); needs O(validity). Left out, the vault's default applies.
    type: str
    choices: [days, hours, minutes]
  key_algorithm:
    description: Key algorithm (C(ALG)), passed as given; the spec shows V(RSA).
    type: str
  key_length:
    description: Key length in bits (C(LEN)); 1 or more.
    type: int
  signature_algorithm:
    description: Signature algorithm (C(SIGALG)), passed as given; the spec shows V(SHA256).
    type: str
  store_type:
    description: Key store type (C(StoreType)), passed as given; the spec shows V(PKCS12) and V(JKS).
    type: str
  ca_server:
    description: Server of the certificate authority that signs the CSR (C(serverName)). Required with O(state=signed).
    type: str
  ca_name:
    description: Name of the certificate authority on O(ca_server) (C(caName)). Required with O(state=signed).
    type: str
  template:
    description: Certificate template the CA issues from (C(templateName)). Required with O(state=signed).
    type: str
attributes:
  idempotent:
    support: partial
    details:
      - Subject fields other than the common name, and the passphrase, are not compared (see above).
      - Signing is read back only through the certificate it produced (see above).
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - In check mode nothing is created or signed; the task reports what would be, and RV(csr_id) is V(null) for a CSR
    that would be created.
  - The diff shows the passphrase as V(<hidden>).
seealso:
  - module: credvault.vault.vault_csr_info
  - module: community.crypto.openssl_csr
"""

EXAMPLES = r"""
- name: Certificate signing requests
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: A CSR for www.example.com with a 3072-bit RSA key, valid one year
      credvault.vault.vault_csr:
        common_name: www.example.com
        subject_alt_name: [www.example.com, example.com]
        organization_name: Example Ltd
        country_name: DE
        key_algorithm: RSA
        key_length: 3072
        signature_algorithm: SHA256
        validity: 365
        validity_type: days
        privatekey_passphrase: "{{ www_key_passphrase }}"
      register: www_csr

    - name: Have the issuing CA sign it from its web server template
      credvault.vault.vault_csr:
        common_name: www.example.com
        key_algorithm: RSA
        key_length: 3072
        signature_algorithm: SHA256
        validity: 365
        validity_type: days
        state: signed
        ca_server: ca01.example.com
        ca_name: Example Issuing CA
        template: WebServer
      register: www_signed

    - name: Show the CSR and the certificate
      ansible.builtin.debug:
        msg: "CSR {{ www_csr.csr_id }} became certificate {{ www_signed.certificate.serial_number | default('?') }}"
"""

RETURN = r"""
csr_id:
  description: C(CSR_ID) of the task's CSR; V(null) in check mode when it would be created.
  returned: always
  type: int
  sample: 12
csr:
  description:
    - The task's CSR as the CSR list shows it (C(GetCSRList) item), with C(created_date), its C(CREATED_DATE) in
      ISO 8601 (V(null) when the vault's date cannot be read).
    - Empty in check mode when it would be created.
  returned: always
  type: dict
  sample:
    CSR_ID: 12
    LOGIN_ID: 1
    KEY_STRENGTH: 3072
    CREATED_BY: admin
    KEYALGORITHM: RSA
    KEYSTORE_TYPE: PKCS12
    CREATED_DATE: "2026-11-23 08:10:11.123"
    created_date: "2026-11-23T08:10:11"
    DOMAIN_NAME: www.example.com
    VALIDITY: 365 days
    SIGNATURE_ALGORITHM: SHA256withRSA
    isPassword: true
certificate:
  description:
    - With O(state=signed), the certificate the signing produced, named as the certificate modules name one -
      C(common_name) and C(serial_number). When the CSR was signed before, the certificate taken as its proof.
    - Empty without O(state=signed), in check mode when the CSR would be signed, and when the vault does not show
      the new certificate's template.
  returned: always
  type: dict
  sample:
    common_name: www.example.com
    serial_number: 5a1f0c3e9b2d4e77
"""

from ansible_collections.credvault.vault.plugins.module_utils import _csr
from ansible_collections.credvault.vault.plugins.module_utils._certificate_input import (
    certificate_input_argument_spec,
)
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    spec = certificate_input_argument_spec()
    spec.update(
        {
            "common_name": {"type": "str", "required": True},
            "state": {"type": "str", "choices": [_csr.PRESENT, _csr.SIGNED], "default": _csr.PRESENT},
            "ca_server": {"type": "str"},
            "ca_name": {"type": "str"},
            "template": {"type": "str"},
        }
    )
    return spec


def main():
    VaultModule(argument_spec(), required_if=[("state", _csr.SIGNED, _csr.SIGNING_OPTIONS)]).run(_csr.converge)


if __name__ == "__main__":
    main()
