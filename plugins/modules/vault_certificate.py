#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_certificate
short_description: Create, import and delete SSL certificates in the credential vault
version_added: 0.4.0
description:
  - Creates a certificate and its key pair in the vault from the certificate input (C(createCertificate)), imports a
    certificate file or a PKCS#12 key store (C(addCertificate), a C(multipart/form-data) upload with the file in the
    part C(File) and C(INPUT_DATA) holding C(fileType) and, for a key store, C(PASSWORD)), and deletes certificates
    (C(deleteCertificate)).
  - A certificate is named by O(common_name) and, where several certificates share it, O(serial_number) (the spec's
    selector). Certificates are found in C(GetAllSSLCertificates); a listed certificate without C(serialNumber) is
    looked up in C(GetCertificateDetails).
  - B(From a file) (O(src)) the task is unchanged when the vault lists a certificate with the common name and serial
    number of the file. Both are read from the file with the Python C(cryptography) library where the module runs
    (PEM or DER; PKCS#12 opened with O(keystore_password)); a file for another common name (or O(serial_number)) is
    refused before any request. Without the library, or when it cannot read the file, the task warns and sends the
    file; the vault refuses a certificate it already holds, which the task then reports unchanged, with a warning.
  - B(From fields) the task is unchanged when a certificate with O(common_name) (and O(serial_number), when given)
    exists - the vault chooses the serial number of a certificate it creates, so O(serial_number) can only select an
    existing one. The API cannot edit a certificate, and its list shows only the key length (C(KeyStrength)) and the
    signature algorithm (C(SignatureAlgorithm), whose name also tells the key algorithm); those are compared with
    O(key_length), O(signature_algorithm) (its hash) and O(key_algorithm), and a difference is B(warned about, not
    changed). The subject fields, alternative names, validity, store type and passphrase are not listed, so they are
    not compared (the task warns when they are given for an existing certificate). To replace a certificate, delete
    it with O(state=absent) and create it again. When several certificates share O(common_name) (a renewal imported
    beside it, say) and no O(serial_number) is given, the one expiring last is compared and returned, with a warning.
  - O(state=absent) deletes the certificate named by O(common_name) and O(serial_number) (O(src) and the certificate
    input options are not used); a common name shared by several certificates without O(serial_number) is refused,
    naming their serial numbers. A certificate that does not exist is not an error.
  - Check mode sends no write. Diff mode shows the state, the common name, the serial number and the options sent;
    passwords and passphrases only as hidden.
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description:
      - Common name of the certificate (C(CNAME) when the vault creates it). Compared without regard to case.
    type: str
    required: true
  serial_number:
    description:
      - Serial number selecting among certificates with the same O(common_name), in hexadecimal (any case, colons
        allowed, leading zeros ignored).
    type: str
  state:
    description:
      - V(present) creates or imports the certificate when it does not exist; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  src:
    description:
      - Path of a certificate file (PEM or DER) or PKCS#12 key store to import, on the host the module runs on. To
        import a file of the controller, run the task with C(delegate_to) set to V(localhost).
      - Without it, O(state=present) makes the vault create the certificate from the certificate input options.
    type: path
  file_type:
    description:
      - What O(src) is - V(certificate) (C(CERTFILE)) or V(keystore) (C(KEYSTORE), PKCS#12 with O(keystore_password);
        the vault keeps its private key).
    type: str
    choices: [certificate, keystore]
    default: certificate
  keystore_password:
    description:
      - Password of the PKCS#12 key store O(src) (C(PASSWORD)); the vault keeps it as the private key's passphrase.
        Never shown.
    type: str
  subject_alt_name:
    description:
      - Subject alternative names (C(ALT_NAMES), sent comma-separated); an address becomes an IP name, anything
        else a DNS name. No item may contain a comma.
    type: list
    elements: str
  organizational_unit_name:
    description: Organizational unit of the subject (C(ORGUNIT)).
    type: str
  organization_name:
    description: Organization of the subject (C(ORG)).
    type: str
  locality_name:
    description: Locality of the subject (C(LOCATION)).
    type: str
  state_or_province_name:
    description: State or province of the subject (C(STATE)).
    type: str
  country_name:
    description: Two-letter country code of the subject (C(COUNTRY)), checked before any request.
    type: str
  privatekey_passphrase:
    description:
      - Passphrase of the created private key (C(PASSWORD)); without it the vault makes one up. Never shown.
    type: str
  validity:
    description: How long the created certificate is valid (C(VALIDITY)), in O(validity_type) units.
    type: int
  validity_type:
    description: The unit of O(validity) (C(VALIDITY_TYPE)); needs O(validity).
    type: str
    choices: [days, hours, minutes]
  key_algorithm:
    description: Key algorithm (C(ALG)), passed as given - the spec shows V(RSA).
    type: str
  key_length:
    description: Key length in bits (C(LEN)).
    type: int
  signature_algorithm:
    description: Signature algorithm (C(SIGALG)), passed as given - the spec shows V(SHA256).
    type: str
  store_type:
    description: Key store type (C(StoreType)), passed as given - the spec shows V(PKCS12) (and V(JKS)).
    type: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - The options of the certificate input carry the names C(community.crypto.openssl_csr) gives the same fields.
    An option left out is not sent, so the vault's default applies.
seealso:
  - module: credvault.vault.vault_certificate_info
  - module: credvault.vault.vault_certificate_export
"""

EXAMPLES = r"""
- name: SSL certificates of the vault
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: A certificate the vault creates, valid for a year
      credvault.vault.vault_certificate:
        common_name: www.example.com
        subject_alt_name: [www.example.com, example.com]
        organization_name: Example Ltd
        country_name: GB
        key_algorithm: RSA
        key_length: 2048
        signature_algorithm: SHA256
        validity: 365
        validity_type: days
        privatekey_passphrase: "{{ www_key_passphrase }}"
      register: www

    - name: Import a certificate file of the controller
      credvault.vault.vault_certificate:
        common_name: partner.example.net
        src: "{{ partner_certificate_path }}"
      delegate_to: localhost

    - name: Import a PKCS#12 key store with its private key
      credvault.vault.vault_certificate:
        common_name: api.example.com
        src: "{{ api_keystore_path }}"
        file_type: keystore
        keystore_password: "{{ api_keystore_password }}"
      delegate_to: localhost

    - name: Delete the imported certificate, by common name and serial number
      credvault.vault.vault_certificate:
        common_name: partner.example.net
        serial_number: "{{ partner_serial_number }}"
        state: absent
"""

RETURN = r"""
certificate:
  description:
    - The certificate as the vault lists it (C(GetAllSSLCertificates) item) after the run, with C(serialNumber) and
      three keys of the module's own - C(from_date) and C(expiry_date), the vault's C(FromDate) and C(ExpiryDate) in
      ISO 8601 (V(null) when unreadable), and C(days_left), whole days until it expires (negative once expired).
    - Empty after deletion, and in check mode when the certificate would be created or imported.
  returned: always
  type: dict
  sample:
    CertID: 7
    "DNS Name/FQDN": www.example.com
    Port: 0
    "Common Name": www.example.com
    Issuer: www.example.com
    FromDate: "May 2, 2026"
    ExpiryDate: "May 2, 2027"
    KeyStrength: "2048"
    SignatureAlgorithm: SHA256withRSA
    serialNumber: "8f2b9c0d1e2f3a4b"
    from_date: "2026-05-02"
    expiry_date: "2027-05-02"
    days_left: 365
"""

from ansible_collections.credvault.vault.plugins.module_utils import _certificate
from ansible_collections.credvault.vault.plugins.module_utils._certificate_input import (
    certificate_input_argument_spec,
)
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    spec = {
        "common_name": {"type": "str", "required": True},
        "serial_number": {"type": "str"},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "src": {"type": "path"},
        "file_type": {"type": "str", "choices": list(_certificate.FILE_TYPES), "default": "certificate"},
        "keystore_password": {"type": "str", "no_log": True},
    }
    spec.update(certificate_input_argument_spec())
    return spec


FIELD_OPTIONS = tuple(sorted(option for option in certificate_input_argument_spec()))


def main():
    VaultModule(
        argument_spec(),
        mutually_exclusive=[("src", option) for option in FIELD_OPTIONS],
        required_by={"keystore_password": "src"},
    ).run(_certificate.converge)


if __name__ == "__main__":
    main()
