#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_certificate_export
short_description: Write an SSL certificate or its key store from the credential vault to a file of the controller
version_added: 0.4.0
description:
  - Writes the certificate file (C(GET /getCertificate)) or the key store (C(GET /getCertificateKeyStore)) of a
    certificate of the vault to O(dest) on the Ansible B(controller), and optionally returns the passphrase of its
    private key (C(GET /getCertificatePassphrase)).
  - The task runs on the controller, through its action plugin, whatever the host; the controller reaches the vault,
    O(ca_path) is a path of the controller and the file is written there. Nothing runs on the managed host.
  - The certificate is named by O(common_name) and, where several share it, O(serial_number); it must be listed by
    C(GetAllSSLCertificates), else the task fails saying that it does not exist. A common name shared by several
    certificates without O(serial_number) is refused, naming their serial numbers.
  - The file is written atomically with its mode from the start (a temporary file of mode O(mode) in the same
    directory, synced, then renamed over O(dest)), so no reader sees a partial file or one readable by others.
  - Idempotent by content - every run downloads the file and compares its SHA-256 digest with O(dest); a file that
    already holds those bytes is not rewritten (only its mode is corrected). Check mode downloads to compare but
    writes nothing.
  - A file holding the private key (O(what=keystore), O(format=KEY) or O(format=PKCS)) is encrypted anew by the
    vault at each download, so its bytes differ each time. When they differ from O(dest), both are opened with the
    private key's passphrase (read from the vault for that, and returned only with O(return_passphrase=true)) using
    the Python C(cryptography) library on the controller; a file holding the same key and certificates is left as
    it is. A JKS file (O(format=JKS), or the key store of a JKS certificate) cannot be opened that way, and is
    rewritten - and reported changed - at each run.
  - The file is never returned, logged or shown in a diff; the diff shows the file's state, checksum and mode.
author:
  - Credvault Maintainers (@credvault)
options:
  common_name:
    description: Common name of the certificate, compared without regard to case.
    type: str
    required: true
  serial_number:
    description:
      - Serial number selecting among certificates with the same O(common_name), in hexadecimal (any case, colons
        allowed).
    type: str
  what:
    description:
      - V(certificate) writes the certificate file; V(keystore) the key store of the certificate and its private key,
        of the certificate's store type (PKCS#12 or JKS), protected by the private key's passphrase.
      - A key store holds the private key, as do the formats V(KEY), V(PKCS) and V(JKS); such a file is for its
        owner alone, and a O(mode) that grants the group or others any access is refused before anything is sent.
    type: str
    choices: [certificate, keystore]
    default: certificate
  format:
    description:
      - The certificate's file type (C(fileType)), for O(what=certificate) - V(CER), V(CRT), V(DER), V(P7B) (the
        chain), V(PEM), or the private key formats V(PKCS) (PKCS#12), V(JKS) and V(KEY) (the private key itself,
        encrypted with its passphrase).
      - C(fileType) exists from edition B build 6200; elsewhere leave it out (the vault's default file, a PEM
        certificate). It is refused before any request when O(edition) and O(build) say the vault lacks it, and
        otherwise fails when the vault refuses the field.
    type: str
    choices: [CER, CRT, DER, P7B, PKCS, JKS, PEM, KEY]
  return_passphrase:
    description:
      - Also return the passphrase of the certificate's private key in RV(passphrase) (the message of
        C(GetCertificatePassphrase)); without it the passphrase is never fetched.
      - The result is then flagged C(_ansible_no_log), so Ansible censors it in its output at any verbosity, as for
        a task with C(no_log=true); the registered variable holds it. Set C(no_log=true) on the task too, and never
        print the variable.
    type: bool
    default: false
  mode:
    description:
      - The octal permissions of O(dest), such as V('0600') or V('0644'), quoted in YAML (symbolic modes are not
        accepted). An existing O(dest) gets this mode too. The default keeps the file to its owner, as anything
        holding a private key must stay; a certificate alone may be V('0644').
      - A file holding a private key (a key store, the formats V(KEY), V(PKCS), V(JKS), or any file the vault returns
        with private key armor) with a mode that grants the group or others any access (V('0640'), V('0644')) is
        refused - before anything is sent when the options ask for one; V('0600') or V('0400').
    type: raw
    default: "0600"
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.controller_file
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
notes:
  - Named C(vault_certificate_fetch) before 0.5.0; that name still runs this module, with a deprecation warning,
    until 1.0.0.
seealso:
  - module: credvault.vault.vault_certificate
  - module: credvault.vault.vault_certificate_info
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The certificate in the vault's default format, readable by everyone
      credvault.vault.vault_certificate_export:
        common_name: www.example.com
        dest: "{{ cert_dir }}/www.example.com.cer"
        mode: "0644"

    - name: Its key store and the passphrase that opens it
      credvault.vault.vault_certificate_export:
        common_name: www.example.com
        what: keystore
        dest: "{{ cert_dir }}/www.example.com.p12"
        return_passphrase: true
      register: www_keystore
      no_log: true

    - name: Its private key alone (edition B from build 6200)
      credvault.vault.vault_certificate_export:
        common_name: www.example.com
        format: KEY
        dest: "{{ cert_dir }}/www.example.com.key"
      when: vault_edition == 'B'
"""

RETURN = r"""
dest:
  description: Absolute path of the file on the controller.
  returned: success
  type: str
  sample: /etc/ssl/vault/www.example.com.cer
checksum:
  description: SHA-256 hex digest of the file.
  returned: success
  type: str
  sample: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
size:
  description: Size of the file in bytes.
  returned: success
  type: int
  sample: 1302
certificate:
  description:
    - The certificate as the vault lists it (C(GetAllSSLCertificates) item), with C(from_date), C(expiry_date)
      (ISO 8601) and C(days_left).
  returned: success
  type: dict
  sample:
    "Common Name": www.example.com
    ExpiryDate: "May 2, 2027"
    serialNumber: "8f2b9c0d1e2f3a4b"
    expiry_date: "2027-05-02"
    days_left: 160
passphrase:
  description:
    - The passphrase of the certificate's private key, which opens its key store and its V(KEY), V(PKCS) and V(JKS)
      files. A secret - the result that holds it is censored in the output at any verbosity, whatever the task
      says; the registered variable keeps it.
  returned: when O(return_passphrase=true)
  type: str
  sample: "<the passphrase>"
"""
