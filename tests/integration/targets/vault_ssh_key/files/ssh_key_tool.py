#!/usr/bin/env python
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Private SSH key files for the tests, with the cryptography library; the passphrase is read from stdin.

generate PATH TYPE BITS  writes a new encrypted (PEM) private key file, prints {type, bits, fingerprint}
inspect PATH             reads a PEM or OpenSSH private key file, prints {type, bits, fingerprint}

fingerprint is the MD5 of the public key blob in colon-separated hex, as the vault lists it.
"""

import base64
import hashlib
import json
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519, rsa

CURVES = {256: ec.SECP256R1, 384: ec.SECP384R1, 521: ec.SECP521R1}


def generate(key_type, bits):
    if key_type == "ssh-rsa":
        return rsa.generate_private_key(public_exponent=65537, key_size=bits)
    if key_type == "ecdsa":
        return ec.generate_private_key(CURVES[bits]())
    if key_type == "ed25519":
        return ed25519.Ed25519PrivateKey.generate()
    raise SystemExit("unknown type %s" % key_type)


def describe(key):
    if isinstance(key, rsa.RSAPrivateKey):
        key_type, bits = "ssh-rsa", key.key_size
    elif isinstance(key, dsa.DSAPrivateKey):
        key_type, bits = "ssh-dss", key.key_size
    elif isinstance(key, ec.EllipticCurvePrivateKey):
        key_type, bits = "ecdsa", key.key_size
    else:
        key_type, bits = "ed25519", 256
    line = key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    digest = hashlib.md5(base64.b64decode(line.split(b" ")[1])).digest()
    return {"type": key_type, "bits": bits, "fingerprint": ":".join("%02x" % byte for byte in digest)}


def main():
    command, path = sys.argv[1], sys.argv[2]
    passphrase = sys.stdin.read().strip().encode() or None
    if command == "generate":
        key = generate(sys.argv[3], int(sys.argv[4]))
        pkcs8 = sys.argv[3] == "ed25519"
        encryption = serialization.BestAvailableEncryption(passphrase) if passphrase else serialization.NoEncryption()
        data = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8 if pkcs8 else serialization.PrivateFormat.TraditionalOpenSSL,
            encryption,
        )
        with open(path, "wb") as handle:
            handle.write(data)
    else:
        with open(path, "rb") as handle:
            data = handle.read()
        if b"OPENSSH PRIVATE KEY" in data:
            key = serialization.load_ssh_private_key(data, passphrase)
        else:
            key = serialization.load_pem_private_key(data, passphrase)
    print(json.dumps(describe(key)))


if __name__ == "__main__":
    main()
