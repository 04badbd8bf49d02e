# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""signed_matches.py CERTIFICATE KEYSTORE: read the signed certificate (PEM or DER) and the PKCS#12 key store the
vault keeps with it (its passphrase read from stdin) with cryptography, and print as JSON what they say:
the certificate's subject common name, issuer common name, key algorithm and size, signature hash, serial number
(lower-case hex), lifetime in days, SANs, and ``key_matches``: whether the certificate's public key is the public
half of the private key the vault made with the CSR. Prints no key material."""

from __future__ import annotations

import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

PUBLIC = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def load_certificate(data):
    if b"-----BEGIN" in data:
        return x509.load_pem_x509_certificate(data)
    return x509.load_der_x509_certificate(data)


def common_name(name):
    values = name.get_attributes_for_oid(NameOID.COMMON_NAME)
    return values[0].value if values else None


def alt_names(certificate):
    try:
        extension = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return []
    return [str(value) for value in extension.value.get_values_for_type(x509.DNSName)]


def main(certificate_path, keystore_path):
    with open(certificate_path, "rb") as handle:
        certificate = load_certificate(handle.read())
    with open(keystore_path, "rb") as handle:
        key, stored, _chain = pkcs12.load_key_and_certificates(handle.read(), sys.stdin.read().strip().encode())
    public_key = certificate.public_key()
    algorithm = (
        "RSA"
        if isinstance(public_key, rsa.RSAPublicKey)
        else "EC"
        if isinstance(public_key, ec.EllipticCurvePublicKey)
        else "other"
    )
    lifetime = certificate.not_valid_after_utc - certificate.not_valid_before_utc
    print(
        json.dumps(
            {
                "subject": common_name(certificate.subject),
                "issuer": common_name(certificate.issuer),
                "key_algorithm": algorithm,
                "key_size": public_key.key_size,
                "signature_hash": certificate.signature_hash_algorithm.name,
                "serial": "%x" % certificate.serial_number,
                "lifetime_days": round(lifetime.total_seconds() / 86400),
                "alt_names": alt_names(certificate),
                "key_matches": key.public_key().public_bytes(*PUBLIC) == public_key.public_bytes(*PUBLIC),
                "keystore_has_certificate": stored is not None and stored.serial_number == certificate.serial_number,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
