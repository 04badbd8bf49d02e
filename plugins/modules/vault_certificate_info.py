#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_certificate_info
short_description: Read the SSL certificates of the credential vault, their expiry dates and details
version_added: 0.4.0
description:
  - Without O(common_name) or O(expiry), lists the certificates the token can see (C(GetAllSSLCertificates)),
    narrowed by the vault with any of the filters O(expiring_within_days), O(key_length) and
    O(signature_algorithm), in one request.
  - With O(expiry=true), lists the common name and expiry date of every certificate
    (C(GetAllSSLCertificatesExpiryDate)); edition A also gives each one's C(serialNumber), edition B does not.
  - With O(common_name) (and O(serial_number)), returns the certificates listed under that name and their details
    (C(GetCertificateDetails) - where they are installed, issuer, subject, key and signature, SANs, fingerprint).
    The filters also apply. A listed certificate without C(serialNumber) gets it from its details.
  - Every certificate and detail item is returned with the vault's own keys, plus C(from_date) and C(expiry_date) in
    ISO 8601 (V(null) when the vault's date cannot be read) and C(days_left), the whole days until the expiry date
    (UTC; negative once expired), for C(when) conditions and reports.
  - Never changes anything, and never returns a private key or passphrase (see M(credvault.vault.vault_certificate_export)).
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description:
      - Common name of the certificates to read, compared without regard to case. A name the vault does not know is
        not an error; RV(exists) is then V(false).
      - A certificate the list does not show this token is looked up once more (C(GetCertificateDetails)); when the
        vault answers that this token may not access it, the task fails with the vault's words instead.
    type: str
  serial_number:
    description:
      - With O(common_name), only the certificate with this serial number (hexadecimal, any case, colons allowed).
    type: str
  expiring_within_days:
    description:
      - Only certificates expiring in fewer than this many days (C(withExpiryDaysLessThan)); expired ones included.
    type: int
  key_length:
    description: Only certificates whose key has this many bits (C(withKeyLength)).
    type: int
  signature_algorithm:
    description:
      - Only certificates signed with this algorithm (C(withSignatureAlgorithm)), as the vault names it, for example
        V(SHA256withRSA).
    type: str
  expiry:
    description:
      - Return the vault's expiry date list in RV(expiry_dates) instead. Takes no filter and no O(common_name).
    type: bool
    default: false
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.read_only
  - credvault.vault.attributes.info_module
seealso:
  - module: credvault.vault.vault_certificate
  - module: credvault.vault.vault_certificate_export
"""

EXAMPLES = r"""
- name: Read SSL certificates
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Certificates expiring within 30 days
      credvault.vault.vault_certificate_info:
        expiring_within_days: 30
      register: expiring

    - name: Weak certificates - 1024-bit keys
      credvault.vault.vault_certificate_info:
        key_length: 1024
      register: weak

    - name: The expiry date of every certificate
      credvault.vault.vault_certificate_info:
        expiry: true
      register: expiry

    - name: One certificate and where it is installed
      credvault.vault.vault_certificate_info:
        common_name: www.example.com
      register: www

    - name: Show them
      ansible.builtin.debug:
        msg:
          expiring: "{{ expiring.certificates | map(attribute='Common Name') | list }}"
          weak: "{{ weak.certificates | map(attribute='Common Name') | list }}"
          next_to_expire: "{{ expiry.expiry_dates | sort(attribute='days_left') | map(attribute='Common Name') | first | default('none') }}"
          www_expires: "{{ www.certificates[0].expiry_date if www.exists else 'missing' }}"
          www_hosts: "{{ www.details | map(attribute='endpoint.hostName') | list }}"
"""

RETURN = r"""
certificates:
  description:
    - The certificates listed (C(GetAllSSLCertificates) items), narrowed by the filters and O(common_name), each with
      C(from_date), C(expiry_date) (ISO 8601) and C(days_left).
  returned: unless O(expiry=true)
  type: list
  elements: dict
  sample:
    - CertID: 7
      "DNS Name/FQDN": www.example.com
      Port: 443
      "Common Name": www.example.com
      Issuer: Example CA
      FromDate: "May 2, 2026"
      ExpiryDate: "May 2, 2027"
      KeyStrength: "2048"
      SignatureAlgorithm: SHA256withRSA
      serialNumber: "8f2b9c0d1e2f3a4b"
      from_date: "2026-05-02"
      expiry_date: "2027-05-02"
      days_left: 160
expiry_dates:
  description:
    - The expiry date list (C(GetAllSSLCertificatesExpiryDate) items - C(Common Name), C(ExpiryDate), and in edition A
      C(serialNumber)), each with C(expiry_date) (ISO 8601) and C(days_left).
  returned: when O(expiry=true)
  type: list
  elements: dict
  sample:
    - "Common Name": www.example.com
      ExpiryDate: "May 2, 2027"
      serialNumber: "8f2b9c0d1e2f3a4b"
      expiry_date: "2027-05-02"
      days_left: 160
exists:
  description: Whether a certificate with O(common_name) (and O(serial_number)) is listed.
  returned: when O(common_name) is given
  type: bool
details:
  description:
    - The C(GetCertificateDetails) items of the certificates in RV(certificates) (one per server a certificate is
      installed at), each with C(from_date) and C(expiry_date) (ISO 8601, from C(endpoint.from_date) and
      C(endpoint.expiry_date)) and C(days_left). Empty when none exists.
  returned: when O(common_name) is given
  type: list
  elements: dict
  sample:
    - certtype: CA-Signed
      certificateTemplate: WebServer
      ipaddress: 192.0.2.10
      CertificateId: "7"
      isCertInstalledMulipleServers: false
      endpoint:
        hostName: www.example.com
        port: "443"
        from_date: "2026-05-02 09:00:00.0"
        expiry_date: "2027-05-02 09:00:00.0"
        certSignAlg: SHA256withRSA
        Sans: "www.example.com,example.com"
        serial: "8f2b9c0d1e2f3a4b"
        fingerPrint: "5E:2B:..."
        keyalg: RSA
        PublicKeyLength: 2048
        PrivateKey: true
        isAWS: false
      issuer: {cname: Example CA, org: Example Ltd, orgunit: ""}
      issuedto: {cname: www.example.com, org: Example Ltd, orgunit: ""}
      intermediate: {}
      from_date: "2026-05-02T09:00:00"
      expiry_date: "2027-05-02T09:00:00"
      days_left: 160
"""

from ansible_collections.credvault.vault.plugins.module_utils import _certificate_info
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "common_name": {"type": "str"},
        "serial_number": {"type": "str"},
        "expiring_within_days": {"type": "int"},
        "key_length": {"type": "int", "no_log": False},
        "signature_algorithm": {"type": "str"},
        "expiry": {"type": "bool", "default": False},
    }


def main():
    VaultModule(argument_spec(), required_by={"serial_number": "common_name"}).run(_certificate_info.describe)


if __name__ == "__main__":
    main()
