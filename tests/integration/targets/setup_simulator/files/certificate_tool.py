# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Certificates for the tests, with the cryptography library. A password, where one is used, is read from stdin.
Prints JSON and never key material.

make PATH COMMON_NAME SERIAL_HEX DAYS FORMAT  writes a new self-signed certificate (RSA 2048, SHA256) valid for DAYS
                                              days: FORMAT pem or der (the certificate) or p12 (a PKCS#12 key store
                                              with its key, encrypted with the password)
inspect PATH FORMAT                           reads a file of FORMAT: pem (first certificate), der, p7b (PEM PKCS#7),
                                              p12 (opened with the password), key (PKCS#8 PEM private key, decrypted
                                              with the password), jks (checks the Java KeyStore magic only) and
                                              prints what it holds: {common_name, serial, not_before, not_after,
                                              validity_seconds, key_algorithm, key_size, signature_hash, subject,
                                              sans, has_private_key, key_matches}
"""

from __future__ import annotations

import datetime
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs7, pkcs12
from cryptography.x509.oid import NameOID

SUBJECT = {
    "CN": NameOID.COMMON_NAME,
    "O": NameOID.ORGANIZATION_NAME,
    "OU": NameOID.ORGANIZATIONAL_UNIT_NAME,
    "L": NameOID.LOCALITY_NAME,
    "ST": NameOID.STATE_OR_PROVINCE_NAME,
    "C": NameOID.COUNTRY_NAME,
}
PUBLIC = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def password():
    return sys.stdin.read().strip().encode() or None


def make(path, common_name, serial, days, fmt):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(int(serial, 16))
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=int(days)))
        .sign(key, hashes.SHA256())
    )
    if fmt == "p12":
        data = pkcs12.serialize_key_and_certificates(
            common_name.encode(), key, certificate, None, serialization.BestAvailableEncryption(password())
        )
    else:
        data = certificate.public_bytes(serialization.Encoding.PEM if fmt == "pem" else serialization.Encoding.DER)
    with open(path, "wb") as handle:
        handle.write(data)
    return {"common_name": common_name, "serial": format(certificate.serial_number, "x")}


def describe(certificate, key=None):
    public_key = certificate.public_key()
    if isinstance(public_key, rsa.RSAPublicKey):
        algorithm = "RSA"
    elif isinstance(public_key, ec.EllipticCurvePublicKey):
        algorithm = "EC"
    else:
        algorithm = type(public_key).__name__
    try:
        sans = [str(n.value) for n in certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value]
    except x509.ExtensionNotFound:
        sans = []
    subject = {}
    for short, oid in SUBJECT.items():
        values = certificate.subject.get_attributes_for_oid(oid)
        if values:
            subject[short] = str(values[0].value)
    not_before, not_after = certificate.not_valid_before_utc, certificate.not_valid_after_utc
    return {
        "common_name": subject.get("CN"),
        "serial": format(certificate.serial_number, "x"),
        "not_before": not_before.isoformat(),
        "not_after": not_after.isoformat(),
        "expiry_day": not_after.date().isoformat(),
        "validity_seconds": int((not_after - not_before).total_seconds()),
        "key_algorithm": algorithm,
        "key_size": public_key.key_size,
        "signature_hash": certificate.signature_hash_algorithm.name.upper(),
        "subject": subject,
        "sans": sans,
        "has_private_key": key is not None,
        "key_matches": key is not None and key.public_key().public_bytes(*PUBLIC) == public_key.public_bytes(*PUBLIC),
    }


def inspect(path, fmt):
    with open(path, "rb") as handle:
        data = handle.read()
    if fmt == "jks":
        return {"jks": data[:4] == b"\xfe\xed\xfe\xed", "size": len(data)}
    if fmt == "key":
        key = serialization.load_pem_private_key(data, password())
        return {
            "key_algorithm": "RSA" if isinstance(key, rsa.RSAPrivateKey) else "EC",
            "key_size": key.key_size,
            "public_key": key.public_key().public_bytes(*PUBLIC).hex(),
        }
    if fmt == "p12":
        key, certificate, chain = pkcs12.load_key_and_certificates(data, password())
        return dict(describe(certificate, key), chain=len(chain))
    if fmt == "p7b":
        certificates = pkcs7.load_pem_pkcs7_certificates(data)
        return dict(describe(certificates[0]), chain=len(certificates) - 1)
    if fmt == "der":
        certificate = x509.load_der_x509_certificate(data)
    else:
        certificate = x509.load_pem_x509_certificate(data)
    return dict(describe(certificate), public_key=certificate.public_key().public_bytes(*PUBLIC).hex())


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    print(json.dumps(make(*arguments) if command == "make" else inspect(*arguments)))
