"""Private-key files in PEM, encrypted with a passphrase from the simulator's randomness.

``cryptography`` draws the salt and IV of an encrypted PEM itself, so with
``--seed`` its files would differ from run to run; these writers take them
from ``ctx.rng`` instead, and produce the same bytes ``cryptography`` and
OpenSSL read back:

* the traditional OpenSSL form (``Proc-Type: 4,ENCRYPTED`` and
  ``DEK-Info: AES-256-CBC,<IV>``, key from ``EVP_BytesToKey`` with MD5) that
  ``ssh-keygen -m PEM`` writes for RSA, DSA and ECDSA keys;
* PKCS#8 ``ENCRYPTED PRIVATE KEY`` with PBES2 (PBKDF2-HMAC-SHA256 and
  AES-256-CBC), the PEM form of Ed25519 keys.
"""

import base64
import hashlib
import struct
import textwrap

from cryptography.hazmat.primitives import hashes, padding, serialization
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

AES_BLOCK = 16
AES_256_KEY = 32
PBKDF2_ITERATIONS = 2048  # OpenSSL's default for PKCS#8
# DER of the object identifiers PBES2 names.
_OID_PBES2 = bytes.fromhex("06092a864886f70d01050d")
_OID_PBKDF2 = bytes.fromhex("06092a864886f70d01050c")
_OID_HMAC_SHA256 = bytes.fromhex("06082a864886f70d0209")
_OID_AES_256_CBC = bytes.fromhex("060960864801650304012a")
_DER_NULL = bytes.fromhex("0500")
_SEQUENCE, _INTEGER, _OCTET_STRING = 0x30, 0x02, 0x04


def pem(label, der, headers=(), width=64):
    """``-----BEGIN <label>-----``, optional header lines, base64 in lines of ``width`` characters."""
    lines = [f"-----BEGIN {label}-----", *headers]
    if headers:
        lines.append("")
    lines += textwrap.wrap(base64.b64encode(der).decode("ascii"), width)
    lines.append(f"-----END {label}-----")
    return "\n".join(lines) + "\n"


def traditional_pem(rng, label, der, passphrase):
    """``der`` (a traditional OpenSSL private key) as PEM ``label``, encrypted when ``passphrase``."""
    if not passphrase:
        return pem(label, der)
    iv = rng.token_bytes(AES_BLOCK)
    key = _bytes_to_key(passphrase.encode("utf-8"), iv[:8])
    headers = ("Proc-Type: 4,ENCRYPTED", f"DEK-Info: AES-256-CBC,{iv.hex().upper()}")
    return pem(label, _aes_cbc(key, iv, der), headers)


def pkcs8_pem(rng, private_key, passphrase):
    """``private_key`` as PKCS#8 PEM, encrypted with PBES2 when ``passphrase``."""
    der = private_key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    if not passphrase:
        return pem("PRIVATE KEY", der)
    salt, iv = rng.token_bytes(16), rng.token_bytes(AES_BLOCK)
    key = PBKDF2HMAC(hashes.SHA256(), AES_256_KEY, salt, PBKDF2_ITERATIONS).derive(passphrase.encode("utf-8"))
    prf = _der(_SEQUENCE, _OID_HMAC_SHA256 + _DER_NULL)
    kdf = _der(
        _SEQUENCE,
        _OID_PBKDF2
        + _der(_SEQUENCE, _der(_OCTET_STRING, salt) + _der(_INTEGER, struct.pack(">H", PBKDF2_ITERATIONS)) + prf),
    )
    cipher = _der(_SEQUENCE, _OID_AES_256_CBC + _der(_OCTET_STRING, iv))
    algorithm = _der(_SEQUENCE, _OID_PBES2 + _der(_SEQUENCE, kdf + cipher))
    encrypted = _der(_SEQUENCE, algorithm + _der(_OCTET_STRING, _aes_cbc(key, iv, der)))
    return pem("ENCRYPTED PRIVATE KEY", encrypted)


def _bytes_to_key(passphrase, salt):
    """OpenSSL's ``EVP_BytesToKey`` with MD5 and one iteration, for a 32-byte key."""
    derived, block = b"", b""
    while len(derived) < AES_256_KEY:
        block = hashlib.md5(block + passphrase + salt).digest()
        derived += block
    return derived[:AES_256_KEY]


def _aes_cbc(key, iv, plain):
    padder = padding.PKCS7(AES_BLOCK * 8).padder()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(padder.update(plain) + padder.finalize()) + encryptor.finalize()


def _der(tag, content):
    """One DER element (definite length)."""
    if len(content) < 0x80:
        return bytes([tag, len(content)]) + content
    size = len(content).to_bytes((len(content).bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + content
