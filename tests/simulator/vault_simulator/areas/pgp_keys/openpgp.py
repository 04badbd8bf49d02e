"""OpenPGP transferable keys (RFC 4880), ASCII-armored, for an RSA key from ``cryptography``.

No OpenPGP library is a dependency, so the packets are written here:

* public key: a v4 Public-Key packet (tag 6, algorithm 1 RSA: MPIs n, e), a
  User ID packet (tag 13) and a positive certification (tag 2, type 0x13,
  SHA-256, PKCS#1 v1.5) with the hashed subpackets signature creation time,
  key flags (certify, sign, encrypt) and issuer fingerprint, and the unhashed
  issuer key id;
* private key: the same with a Secret-Key packet (tag 5) instead of the public
  one; its secret MPIs d, p, q, u (p < q, u = p^-1 mod q) are not protected by
  a passphrase (string-to-key usage 0) and end with their two-octet checksum.

The armor is "-----BEGIN PGP PUBLIC KEY BLOCK-----" (or PRIVATE), base64 in
lines of 64 characters and the CRC-24 checksum line. The key is the primary
key only, without subkeys.
"""

import base64
import hashlib
import struct
import textwrap

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

_VERSION = 4
_RSA = 1
_SHA256 = 8
_POSITIVE_CERTIFICATION = 0x13
_TAG_SIGNATURE, _TAG_SECRET_KEY, _TAG_PUBLIC_KEY, _TAG_USER_ID = 2, 5, 6, 13
_SUBPACKET_CREATION_TIME, _SUBPACKET_ISSUER, _SUBPACKET_KEY_FLAGS, _SUBPACKET_ISSUER_FINGERPRINT = 2, 16, 27, 33
_KEY_FLAGS = 0x01 | 0x02 | 0x04 | 0x08  # certify, sign, encrypt communications, encrypt storage
_CRC24_INIT, _CRC24_POLY = 0xB704CE, 0x1864CFB


def armored_public_key(private_key, user_id, created):
    """The public key of RSA ``private_key`` with ``user_id``, created at Unix time ``created``."""
    public_body = _public_key_body(private_key, created)
    certification = _user_id_and_certification(private_key, public_body, user_id, created)
    packets = _packet(_TAG_PUBLIC_KEY, public_body) + certification
    return _armor("PUBLIC", packets)


def armored_private_key(private_key, user_id, created):
    """The secret key (unprotected) of RSA ``private_key`` with ``user_id``."""
    public_body = _public_key_body(private_key, created)
    packets = _packet(_TAG_SECRET_KEY, _secret_key_body(private_key, public_body)) + _user_id_and_certification(
        private_key, public_body, user_id, created
    )
    return _armor("PRIVATE", packets)


def v4_fingerprint(public_body):
    """SHA-1 over 0x99, the two-octet length and the public key packet body (RFC 4880 12.2)."""
    return hashlib.sha1(b"\x99" + struct.pack(">H", len(public_body)) + public_body).digest()


def _public_key_body(private_key, created):
    numbers = private_key.public_key().public_numbers()
    return bytes([_VERSION]) + struct.pack(">I", created) + bytes([_RSA]) + _mpi(numbers.n) + _mpi(numbers.e)


def _secret_key_body(private_key, public_body):
    numbers = private_key.private_numbers()
    p, q = sorted((numbers.p, numbers.q))
    secret = _mpi(numbers.d) + _mpi(p) + _mpi(q) + _mpi(pow(p, -1, q))
    return public_body + b"\x00" + secret + struct.pack(">H", sum(secret) % 65536)


def _user_id_and_certification(private_key, public_body, user_id, created):
    uid = user_id.encode("utf-8")
    fingerprint = v4_fingerprint(public_body)
    hashed_subpackets = (
        _subpacket(_SUBPACKET_CREATION_TIME, struct.pack(">I", created))
        + _subpacket(_SUBPACKET_KEY_FLAGS, bytes([_KEY_FLAGS]))
        + _subpacket(_SUBPACKET_ISSUER_FINGERPRINT, bytes([_VERSION]) + fingerprint)
    )
    hashed = (
        bytes([_VERSION, _POSITIVE_CERTIFICATION, _RSA, _SHA256])
        + struct.pack(">H", len(hashed_subpackets))
        + hashed_subpackets
    )
    signed = (
        b"\x99"
        + struct.pack(">H", len(public_body))
        + public_body
        + b"\xb4"
        + struct.pack(">I", len(uid))
        + uid
        + hashed
        + b"\x04\xff"
        + struct.pack(">I", len(hashed))
    )
    signature = private_key.sign(signed, padding.PKCS1v15(), hashes.SHA256())
    unhashed = _subpacket(_SUBPACKET_ISSUER, fingerprint[-8:])
    body = (
        hashed
        + struct.pack(">H", len(unhashed))
        + unhashed
        + hashlib.sha256(signed).digest()[:2]
        + _mpi(int.from_bytes(signature, "big"))
    )
    return _packet(_TAG_USER_ID, uid) + _packet(_TAG_SIGNATURE, body)


def _mpi(value):
    bits = value.bit_length()
    return struct.pack(">H", bits) + value.to_bytes((bits + 7) // 8, "big")


def _length(size):
    """A new-format body length (also the subpacket length encoding)."""
    if size < 192:
        return bytes([size])
    if size < 8384:
        size -= 192
        return bytes([(size >> 8) + 192, size & 0xFF])
    return b"\xff" + struct.pack(">I", size)


def _packet(tag, body):
    return bytes([0xC0 | tag]) + _length(len(body)) + body


def _subpacket(kind, data):
    return _length(len(data) + 1) + bytes([kind]) + data


def _armor(kind, data):
    crc = _crc24(data).to_bytes(3, "big")
    lines = [
        f"-----BEGIN PGP {kind} KEY BLOCK-----",
        "",
        *textwrap.wrap(base64.b64encode(data).decode("ascii"), 64),
        "=" + base64.b64encode(crc).decode("ascii"),
        f"-----END PGP {kind} KEY BLOCK-----",
    ]
    return "\n".join(lines) + "\n"


def _crc24(data):
    crc = _CRC24_INIT
    for byte in data:
        crc ^= byte << 16
        for _bit in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= _CRC24_POLY
    return crc & 0xFFFFFF
