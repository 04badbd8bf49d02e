# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``vault_certificate_export``: a certificate file or key store as the vault hands it out, written on the controller.

"GET /getCertificate | common_name, serial_number; edition B also fileType (CER, CRT, DER, P7B, PKCS, JKS,
PEM, KEY) | certificate object | fileType: B 6200". Files holding the private key (KEY, PKCS, a key store)
are encrypted anew at each download; ``same_private_material`` compares what they hold, so an export is
idempotent by content for them too (not for JKS, which cannot be read here).
"""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._api import certificates as certificates_api
from ansible_collections.credvault.vault.plugins.module_utils._api._declare import require
from ansible_collections.credvault.vault.plugins.module_utils._certificate_lookup import (
    certificate_label,
    require_certificate,
    selector,
    with_dates,
)
from ansible_collections.credvault.vault.plugins.module_utils._checks import clean_text
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError, VaultResponseError
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import write_export

try:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    HAS_CRYPTOGRAPHY = True
except ImportError:
    HAS_CRYPTOGRAPHY = False

FORMATS = ("CER", "CRT", "DER", "P7B", "PKCS", "JKS", "PEM", "KEY")
PRIVATE_FORMATS = ("PKCS", "JKS", "KEY")


def holds_private_key(options):
    """True when the file ``options`` ask for holds the private key: a key store, or the formats KEY, PKCS, JKS."""
    what = options.get("what") or "certificate"
    return what == "keystore" or str(options.get("format") or "").upper() in PRIVATE_FORMATS


def requested_file_type(client, options):
    """The ``fileType`` of getCertificate the options ask for (None: the vault's default), refused before any
    request when the configured vault lacks it (B 6200) or the options do not go together."""
    what = options.get("what") or "certificate"
    file_format = options.get("format")
    if file_format is not None:
        file_format = str(file_format).upper()
        if what != "certificate":
            raise VaultInputError("format applies to what: certificate; a key store comes in its own StoreType")
        if file_format not in FORMATS:
            raise VaultInputError("format must be one of %s, not %s" % (", ".join(FORMATS), options.get("format")))
        require(client, certificates_api.get_certificate, details={"common_name": "", "fileType": file_format})
    return file_format


def fetch(client, options, current=None):
    """``(content, item, passphrase)``: the bytes of the certificate file or key store ``options`` name, the
    certificate's list item, and its private-key passphrase when ``return_passphrase`` (else None).

    ``current`` is what the destination holds now (None: nothing). A file holding the private key (``KEY``,
    ``PKCS``, a PKCS#12 key store) is encrypted anew at each download; when its bytes differ from ``current``
    but both hold the same key and certificates (opened with the passphrase, read for this), ``current`` is
    returned, so that an unchanged certificate leaves the file as it is."""
    file_type = requested_file_type(client, options)
    common_name = clean_text(options["common_name"], "common_name")
    item = require_certificate(client, common_name, options.get("serial_number"))
    selected = selector(item)
    if (options.get("what") or "certificate") == "certificate":
        content = certificates_api.get_certificate(client, file_type=file_type, **selected)
    else:
        content = certificates_api.get_certificate_keystore(client, **selected)
    content = content or b""
    if not content.strip():
        raise VaultResponseError("the vault returned an empty file for certificate %s" % certificate_label(item))
    passphrase = None
    private = holds_private_key(options)
    if options.get("return_passphrase") or (private and current is not None and current != content):
        passphrase = certificates_api.get_certificate_passphrase(client, **selected)
    if private and current is not None and current != content and same_private_material(current, content, passphrase):
        content = current
    return content, with_dates(item), passphrase if options.get("return_passphrase") else None


def current_content(dest):
    """The bytes of the file ``dest``, or None when there is none (or it cannot be read)."""
    try:
        with open(dest, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def converge(task):
    """Entry point of ``vault_certificate_export``: ``dest`` holds the certificate file or key store the options
    name (``write_export``); returns ``{dest, checksum, size, certificate}``, and ``passphrase`` when
    ``return_passphrase``."""
    desired = task.desired
    content, item, passphrase = fetch(task.client, desired, current_content(desired["dest"]))
    values = dict(write_export(task, content), certificate=item)
    if passphrase is not None:
        values["passphrase"] = passphrase
    return values


_JKS_MAGIC = b"\xfe\xed\xfe\xed"


def same_private_material(old, new, passphrase):
    """True when ``old`` and ``new`` - PEM private keys or PKCS#12 key stores, both opened with ``passphrase`` -
    hold the same private key and certificates; False when they differ or cannot be read here (JKS, no
    ``cryptography``, a wrong passphrase)."""
    if not HAS_CRYPTOGRAPHY or old.startswith(_JKS_MAGIC) or new.startswith(_JKS_MAGIC):
        return False
    password = passphrase.encode("utf-8") if passphrase else None
    try:
        return _private_material(old, password) == _private_material(new, password)
    except Exception:  # pylint: disable=broad-except
        return False


def _private_material(data, password):
    if b"-----BEGIN" in data:
        return (_key_der(serialization.load_pem_private_key(data, password)),)
    key, certificate, chain = pkcs12.load_key_and_certificates(data, password)
    return (
        _key_der(key) if key is not None else None,
        certificate.public_bytes(serialization.Encoding.DER) if certificate is not None else None,
        tuple(other.public_bytes(serialization.Encoding.DER) for other in chain),
    )


def _key_der(key):
    return key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
