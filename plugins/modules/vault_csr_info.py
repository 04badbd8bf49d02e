#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_csr_info
short_description: List the certificate signing requests of the credential vault
version_added: 0.4.0
description:
  - Lists the certificate signing requests (CSRs) the token can see (C(GetCSRList)), all of them or those of one
    common name, in one request.
  - Values come back under the vault's own keys (for example C(CSR_ID), C(DOMAIN_NAME)), with C(created_date) in
    ISO 8601 beside C(CREATED_DATE).
  - The list does not say whether a CSR was signed, and holds neither the CSR itself nor its private key.
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description:
      - Only the CSRs of this common name (compared without case). A name without CSRs gives an empty list.
    type: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_csr
"""

EXAMPLES = r"""
- name: Read CSRs
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Every CSR
      credvault.vault.vault_csr_info:
      register: all_csrs

    - name: The CSRs of www.example.com
      credvault.vault.vault_csr_info:
        common_name: www.example.com
      register: www_csrs

    - name: Show them
      ansible.builtin.debug:
        msg:
          common_names: "{{ all_csrs.csrs | map(attribute='DOMAIN_NAME') | unique | list }}"
          www_ids: "{{ www_csrs.csrs | map(attribute='CSR_ID') | list }}"
"""

RETURN = r"""
csrs:
  description:
    - The CSRs (C(GetCSRList) items), each with C(created_date), its C(CREATED_DATE) in ISO 8601 (V(null) when the
      vault's date cannot be read).
  returned: always
  type: list
  elements: dict
  sample:
    - CSR_ID: 12
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
"""

from ansible_collections.credvault.vault.plugins.module_utils import _csr_info
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {"common_name": {"type": "str"}}


def main():
    VaultModule(argument_spec()).run(_csr_info.describe)


if __name__ == "__main__":
    main()
