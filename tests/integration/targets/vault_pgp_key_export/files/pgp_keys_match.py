# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""pgp_keys_match.py PRIVATE_ASC PUBLIC_ASC: exit 0 and print the User ID when the armored OpenPGP secret key in
PRIVATE_ASC is a valid RSA key (checked by cryptography) whose public half is the key of PUBLIC_ASC. Prints no key
material. Reads the primary key packet (RFC 4880 5.5.2, 5.5.3) and the User ID packet; an unprotected secret key."""

from __future__ import annotations

import base64
import struct
import sys

from cryptography.hazmat.primitives.asymmetric import rsa


def packets(path):
    """(tag, body) of each new-format packet of the armored file."""
    with open(path, encoding="ascii") as handle:
        lines = handle.read().strip().splitlines()
    body = "".join(line for line in lines[2:-1] if not line.startswith("="))
    data, found = base64.b64decode(body), []
    while data:
        tag, first = data[0] & 0x3F, data[1]
        if first < 192:
            size, start = first, 2
        elif first < 255:
            size, start = ((first - 192) << 8) + data[2] + 192, 3
        else:
            size, start = struct.unpack(">I", data[2:6])[0], 6
        found.append((tag, data[start : start + size]))
        data = data[start + size :]
    return found


def mpis(data, count):
    values = []
    for _index in range(count):
        bits = struct.unpack(">H", data[:2])[0]
        size = (bits + 7) // 8
        values.append(int.from_bytes(data[2 : 2 + size], "big"))
        data = data[2 + size :]
    return values, data


def main(private_path, public_path):
    secret = dict(packets(private_path))
    public = dict(packets(public_path))
    n, e = mpis(public[6][6:], 2)[0]
    (sn, se), rest = mpis(secret[5][6:], 2)
    assert rest[0] == 0, "the secret key is protected"
    d, p, q, u = mpis(rest[1:], 4)[0]
    public_numbers = rsa.RSAPublicNumbers(e, n)
    private = rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), rsa.rsa_crt_iqmp(p, q), public_numbers)
    key = private.private_key()
    if (sn, se) != (n, e) or key.public_key().public_numbers() != public_numbers or u != pow(p, -1, q):
        print("mismatch")
        return 1
    print(public[13].decode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
