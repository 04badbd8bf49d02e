"""Java KeyStore (JKS) files, written byte for byte as Sun's ``JavaKeyStore`` does.

``cryptography`` has no JKS support, so the format is written here: magic
``FEEDFEED``, version 2, one private-key entry (alias, time, the key
protected by Sun's ``KeyProtector``, the certificate chain), and a SHA-1
over the password, the words "Mighty Aphrodite" and everything before it.
``keytool -list -keystore <file>`` reads it. The 20-byte key salt comes from
the simulator's random source.
"""

import hashlib
import struct
import time

_MAGIC, _VERSION, _PRIVATE_KEY_ENTRY = 0xFEEDFEED, 2, 1
_WHITENER = b"Mighty Aphrodite"
# 1.3.6.1.4.1.42.2.17.1.1: Sun's KeyProtector, as an AlgorithmIdentifier with NULL parameters.
_KEY_PROTECTOR = bytes.fromhex("300e060a2b060104012a021101010500")
_SALT_LENGTH = 20


def jks_keystore(rng, alias, private_key_der, chain_der, password):
    """A JKS file with one private-key entry ``alias`` (PKCS#8 ``private_key_der``, certificates
    ``chain_der`` leaf first), the key and the store both protected by ``password``."""
    body = struct.pack(">III", _MAGIC, _VERSION, 1)
    body += struct.pack(">I", _PRIVATE_KEY_ENTRY) + _utf(alias.lower()) + struct.pack(">q", int(time.time() * 1000))
    protected = _protect(rng, private_key_der, password)
    body += struct.pack(">I", len(protected)) + protected + struct.pack(">I", len(chain_der))
    for certificate in chain_der:
        body += _utf("X.509") + struct.pack(">I", len(certificate)) + certificate
    return body + hashlib.sha1(_password_bytes(password) + _WHITENER + body).digest()


def _protect(rng, plain, password):
    """Sun's KeyProtector: salt, the key XORed with a SHA-1 stream, a SHA-1 check; as EncryptedPrivateKeyInfo."""
    secret = _password_bytes(password)
    salt = rng.token_bytes(_SALT_LENGTH)
    stream, digest = b"", salt
    while len(stream) < len(plain):
        digest = hashlib.sha1(secret + digest).digest()
        stream += digest
    encrypted = bytes(a ^ b for a, b in zip(plain, stream))
    check = hashlib.sha1(secret + plain).digest()
    return _der(0x30, _KEY_PROTECTOR + _der(0x04, salt + encrypted + check))


def _password_bytes(password):
    """Java's password bytes: each char as two big-endian bytes."""
    return password.encode("utf-16-be")


def _utf(text):
    encoded = text.encode("utf-8")
    return struct.pack(">H", len(encoded)) + encoded


def _der(tag, content):
    length = len(content)
    if length < 0x80:
        return bytes([tag, length]) + content
    size = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + content
