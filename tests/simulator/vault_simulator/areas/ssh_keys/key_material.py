"""SSH key pairs: generation, the files the vault hands out, fingerprints, imported files.

Key types and lengths are the spec's: "ssh-rsa (1024, 2048, 4096), ssh-dss
(1024), ed25519 (no separate length), ecdsa (256, 384, 521)". ``KeyType``
shows these names and ``KeyLength`` the bits (``256`` for ed25519).

Files:

* public key: the OpenSSH ``authorized_keys`` line ``<type> <base64> [comment]``;
* private key: RSA, DSA and ECDSA keys as traditional OpenSSL PEM (``BEGIN RSA
  PRIVATE KEY``, what ``ssh-keygen -m PEM`` writes), encrypted with the
  passphrase (AES-256-CBC) when there is one. An ed25519 key without passphrase
  is an OpenSSH private key (``BEGIN OPENSSH PRIVATE KEY``, with its comment);
  with a passphrase it is an encrypted PKCS#8 PEM, because encrypting the
  OpenSSH format needs bcrypt_pbkdf, which no dependency of the simulator
  provides (OpenSSH itself reads only the OpenSSH form of ed25519 keys).

``FingerPrint`` is the MD5 fingerprint of the public key blob in colon-separated
hex (``ssh-keygen -l -E md5`` without its ``MD5:`` prefix), the form Java SSH
libraries, and so vault user interfaces, show.

With ``--seed`` every key and every file byte is reproducible: RSA, ECDSA and
ed25519 keys come from ``core.seeded_keys``, DSA parameters from ``dsa_key`` here,
salts, IVs and check integers from ``ctx.rng``.
"""

import base64
import hashlib
import itertools
import math
import struct
import warnings
from contextlib import contextmanager

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519, rsa
from cryptography.utils import CryptographyDeprecationWarning

from vault_simulator.areas.ssh_keys.pem_encryption import pem, pkcs8_pem, traditional_pem
from vault_simulator.core.seeded_keys import ec_key, ed25519_key, is_probable_prime, rsa_key

RSA, DSA, ED25519, ECDSA = "ssh-rsa", "ssh-dss", "ed25519", "ecdsa"
KEY_LENGTHS = {RSA: (1024, 2048, 4096), DSA: (1024,), ED25519: (256,), ECDSA: (256, 384, 521)}
DSA_Q_BITS = 160
# The product of the odd primes below 2000: a candidate sharing no factor with it is worth a Miller-Rabin test.
_SIEVE = math.prod(n for n in range(3, 2000, 2) if all(n % d for d in range(3, math.isqrt(n) + 1, 2)))
_TRADITIONAL_LABELS = {RSA: "RSA PRIVATE KEY", DSA: "DSA PRIVATE KEY", ECDSA: "EC PRIVATE KEY"}
_OPENSSH_MAGIC = b"openssh-key-v1\0"
_OPENSSH_BLOCK = 8


class SSHKeyError(ValueError):
    """An SSH key that cannot be made or a private-key file that cannot be read; the message says why."""


def key_length(key_type, length):
    """The bits of a new ``key_type`` key from the input ``length`` (text, may be empty)."""
    if key_type not in KEY_LENGTHS:
        raise SSHKeyError(f"keyType {key_type} is not supported: use one of {', '.join(KEY_LENGTHS)}")
    allowed = KEY_LENGTHS[key_type]
    if key_type == ED25519 and length in ("", str(allowed[0])):
        return allowed[0]
    if length.isdigit() and int(length) in allowed:
        return int(length)
    if key_type == ED25519:
        raise SSHKeyError("An ed25519 key has no separate length: leave length empty")
    choices = ", ".join(str(bits) for bits in allowed)
    raise SSHKeyError(f"length {length or '(empty)'} is not supported for keyType {key_type}: use {choices}")


def generate_key(rng, key_type, bits, seeded):
    """A new private key; drawn from ``rng`` when ``seeded``."""
    if key_type == RSA:
        return rsa_key(rng, bits, seeded)
    if key_type == DSA:
        return dsa_key(rng, seeded)
    if key_type == ECDSA:
        return ec_key(rng, bits, seeded)
    return ed25519_key(rng, seeded)


def dsa_key(rng, seeded):
    """A 1024-bit DSA key (160-bit q). With a seed: q prime, p = k*q + 1 prime, g = h^((p-1)/q) mod p."""
    if not seeded:
        return dsa.generate_private_key(1024)
    q = _odd_prime(rng, DSA_Q_BITS)
    while True:
        candidate = rng.getrandbits(1024) | (1 << 1023)
        p = candidate - candidate % (2 * q) + 1
        if p.bit_length() == 1024 and math.gcd(p, _SIEVE) == 1 and is_probable_prime(rng, p):
            break
    g = next(g for g in (pow(h, (p - 1) // q, p) for h in itertools.count(2)) if g > 1)
    x = rng.randrange(1, q)
    public = dsa.DSAPublicNumbers(pow(g, x, p), dsa.DSAParameterNumbers(p, q, g))
    return dsa.DSAPrivateNumbers(x, public).private_key()


def describe(private_key):
    """``(KeyType, bits)`` of a private key; ``SSHKeyError`` for one SSH cannot use."""
    if isinstance(private_key, rsa.RSAPrivateKey):
        return RSA, private_key.key_size
    if isinstance(private_key, dsa.DSAPrivateKey):
        return DSA, private_key.key_size
    if isinstance(private_key, ed25519.Ed25519PrivateKey):
        return ED25519, 256
    if isinstance(private_key, ec.EllipticCurvePrivateKey) and private_key.key_size in KEY_LENGTHS[ECDSA]:
        return ECDSA, private_key.key_size
    raise SSHKeyError("the key type is not one SSH uses (ssh-rsa, ssh-dss, ed25519, ecdsa)")


def public_key_line(private_key, comment=""):
    """The OpenSSH public key line ``<type> <base64> [comment]``."""
    with _dsa_is_not_news():
        line = (
            private_key.public_key()
            .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
            .decode("ascii")
        )
    return f"{line} {comment}" if comment else line


def fingerprint(private_key):
    """MD5 of the public key blob as colon-separated lower-case hex."""
    blob = base64.b64decode(public_key_line(private_key).split(" ")[1])
    return ":".join(f"{byte:02x}" for byte in hashlib.md5(blob).digest())


def private_key_file(rng, private_key, passphrase="", comment=""):
    """The private key file the vault stores and exports (see the module docstring)."""
    key_type, _bits = describe(private_key)
    if key_type == ED25519:
        return pkcs8_pem(rng, private_key, passphrase) if passphrase else _openssh_ed25519(rng, private_key, comment)
    der = private_key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
    )
    return traditional_pem(rng, _TRADITIONAL_LABELS[key_type], der, passphrase)


def load_private_key_file(content, passphrase):
    """``(private_key, encrypted)`` from an imported OpenSSH or PEM private-key file.

    A passphrase given for a file that is not encrypted is ignored (the file
    needs none). An encrypted OpenSSH-format file cannot be read: that needs
    bcrypt_pbkdf, which no dependency of the simulator provides.
    """
    try:
        text = content.decode("ascii")
    except UnicodeDecodeError:
        raise SSHKeyError("the file is not an OpenSSH or PEM private key") from None
    if "-----BEGIN OPENSSH PRIVATE KEY-----" in text:
        return _load_openssh(content), False
    if "-----BEGIN" not in text or "PRIVATE KEY-----" not in text:
        raise SSHKeyError("the file is not an OpenSSH or PEM private key")
    encrypted = any("ENCRYPTED" in line for line in text.splitlines() if line.startswith(("-----BEGIN", "Proc-Type:")))
    if encrypted and not passphrase:
        raise SSHKeyError("the private key is encrypted: passphrase is required")
    try:
        with _dsa_is_not_news():
            key = serialization.load_pem_private_key(content, passphrase.encode("utf-8") if encrypted else None)
    except ValueError:
        raise SSHKeyError(
            "the passphrase is incorrect" if encrypted else "the file is not a valid PEM private key"
        ) from None
    except UnsupportedAlgorithm:
        raise SSHKeyError("the key type is not one SSH uses (ssh-rsa, ssh-dss, ed25519, ecdsa)") from None
    describe(key)
    return key, encrypted


def _load_openssh(content):
    try:
        with _dsa_is_not_news():
            key = serialization.load_ssh_private_key(content, None)
    except TypeError:
        raise SSHKeyError(
            "encrypted OpenSSH-format private keys cannot be imported: "
            "convert the key to PEM first (ssh-keygen -p -m PEM)"
        ) from None
    except (ValueError, UnsupportedAlgorithm):
        raise SSHKeyError("the file is not a valid OpenSSH private key") from None
    describe(key)
    return key


def _openssh_ed25519(rng, private_key, comment):
    """An unencrypted OpenSSH private key file (PROTOCOL.key), check integer from ``rng``."""
    public = private_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    seed = private_key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    public_blob = _string(b"ssh-ed25519") + _string(public)
    check = rng.token_bytes(4)
    section = check + check + public_blob + _string(seed + public) + _string(comment.encode("utf-8"))
    section += bytes(range(1, 1 + (-len(section)) % _OPENSSH_BLOCK))
    blob = (
        _OPENSSH_MAGIC
        + _string(b"none")
        + _string(b"none")
        + _string(b"")
        + struct.pack(">I", 1)
        + _string(public_blob)
        + _string(section)
    )
    return pem("OPENSSH PRIVATE KEY", blob, width=70)  # OpenSSH wraps its base64 at 70 characters


def _string(data):
    return struct.pack(">I", len(data)) + data


def _odd_prime(rng, bits):
    while True:
        candidate = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if is_probable_prime(rng, candidate):
            return candidate


@contextmanager
def _dsa_is_not_news():
    """``cryptography`` warns on every SSH DSA use; the spec offers ssh-dss, so the warning is noise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CryptographyDeprecationWarning)
        yield
