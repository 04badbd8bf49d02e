"""Handing out a stored certificate: its file, its keystore, its key's passphrase."""

import re

from vault_simulator.areas.certificates.java_keystore import jks_keystore
from vault_simulator.areas.certificates.material import (
    key_from_pem,
    key_to_der,
    key_to_pem,
    to_der,
    to_p7b,
    to_pem,
    to_pkcs12,
)
from vault_simulator.areas.certificates.records import chain_of, require_private_key, selected_certificate, x509_of
from vault_simulator.core.inputs import text
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, FileReply, Unsupported, success
from vault_simulator.core.styles import PKI

# "edition B also fileType (CER, CRT, DER, P7B, PKCS, JKS, PEM, KEY)"; Build "fileType: B 6200".
FILE_TYPE_BUILDS = {"B": 6200}
_PEM_TYPE = "application/x-pem-file"
_PKCS12_TYPE = "application/x-pkcs12"
# fileType: (file name extension, MIME type)
_FILE_TYPES = {
    "CER": ("cer", "application/pkix-cert"),
    "CRT": ("crt", "application/x-x509-ca-cert"),
    "DER": ("der", "application/pkix-cert"),
    "P7B": ("p7b", "application/x-pkcs7-certificates"),
    "PKCS": ("p12", _PKCS12_TYPE),
    "JKS": ("jks", "application/x-java-keystore"),
    "PEM": ("pem", _PEM_TYPE),
    "KEY": ("key", _PEM_TYPE),
}
_NEEDS_PRIVATE_KEY = ("PKCS", "JKS", "KEY")
# The file types without the private key: fileType -> f(certificate, rest of its chain) -> bytes.
_CERTIFICATE_ENCODERS = {
    "CER": lambda certificate, chain: to_pem(certificate),
    "CRT": lambda certificate, chain: to_pem(certificate),
    "DER": lambda certificate, chain: to_der(certificate),
    "PEM": lambda certificate, chain: b"".join(to_pem(c) for c in [certificate, *chain]),
    "P7B": lambda certificate, chain: to_p7b([certificate, *chain]),
}


@endpoint("GET", "/getCertificate", op="GetCertificate", builds=ANY_BUILD, style=PKI)
def get_certificate(ctx):
    """The certificate as a file. Without fileType (edition A always): the PEM certificate as
    ``<common name>.cer``. fileType (edition B from build 6200): CER and CRT the PEM certificate,
    PEM the PEM certificate followed by the rest of its chain, DER the binary certificate,
    P7B a PEM PKCS#7 bundle of the chain, PKCS a PKCS#12 keystore, JKS a real Java KeyStore
    (``keytool`` reads it), KEY the PKCS#8 PEM private key encrypted with the key's
    passphrase (getCertificatePassphrase). PKCS and JKS are protected by that passphrase;
    PKCS, JKS and KEY need the vault to hold the private key."""
    if "fileType" in ctx.details and not ctx.supports(FILE_TYPE_BUILDS):
        raise Unsupported("fileType")
    file_type = text(ctx.details, "fileType").strip().upper() or "CER"
    if file_type not in _FILE_TYPES:
        raise Failure(f"fileType must be one of {', '.join(_FILE_TYPES)}")
    record = selected_certificate(ctx)
    if file_type in _NEEDS_PRIVATE_KEY:
        require_private_key(record, f"fileType {file_type} needs it")
    extension, mimetype = _FILE_TYPES[file_type]
    return FileReply(f"{_file_stem(record)}.{extension}", _encoded(ctx, record, file_type), mimetype)


@endpoint("GET", "/getCertificateKeyStore", op="GetCertificateKeyStore", builds=ANY_BUILD, style=PKI)
def get_keystore(ctx):
    """The keystore of the certificate and its private key, of the certificate's StoreType
    (PKCS12: ``.p12``; JKS: ``.jks``), protected by the key's passphrase."""
    record = selected_certificate(ctx)
    require_private_key(record, "there is no keystore")
    if record["store_type"] == "JKS":
        return FileReply(f"{_file_stem(record)}.jks", _encoded(ctx, record, "JKS"), _FILE_TYPES["JKS"][1])
    return FileReply(f"{_file_stem(record)}.p12", _encoded(ctx, record, "PKCS"), _PKCS12_TYPE)


@endpoint("GET", "/getCertificatePassphrase", op="GetCertificatePassphrase", builds=ANY_BUILD, style=PKI)
def get_passphrase(ctx):
    """result.message is the private key's passphrase (and nothing else): a secret, never logged."""
    record = selected_certificate(ctx)
    require_private_key(record, "there is no passphrase")
    return success(record["passphrase"])


def _encoded(ctx, record, file_type):
    certificate, chain = x509_of(record), chain_of(record)
    if file_type in _CERTIFICATE_ENCODERS:
        return _CERTIFICATE_ENCODERS[file_type](certificate, chain)
    key = key_from_pem(record["key_pem"])
    if file_type == "KEY":
        return key_to_pem(key, record["passphrase"])
    if file_type == "JKS":
        return jks_keystore(
            ctx.rng,
            record["common_name"],
            key_to_der(key),
            [to_der(c) for c in [certificate, *chain]],
            record["passphrase"],
        )
    return to_pkcs12(record["common_name"], key, certificate, chain, record["passphrase"])


def _file_stem(record):
    """The common name, made safe as a file name (``*.example.com`` -> ``_.example.com``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", record["common_name"])
