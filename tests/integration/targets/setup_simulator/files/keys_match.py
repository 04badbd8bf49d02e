# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""keys_match.py PRIVATE_FILE PUBLIC_FILE: exit 0 and print "match" when the OpenSSH public key in PUBLIC_FILE is
the public half of the (unencrypted) private key in PRIVATE_FILE, both loaded with cryptography; exit 1 otherwise.
Prints no key material."""

from __future__ import annotations

import sys

from cryptography.hazmat.primitives import serialization


def load_private(data):
    try:
        return serialization.load_ssh_private_key(data, None)
    except ValueError:
        return serialization.load_pem_private_key(data, None)


def main(private_path, public_path):
    with open(private_path, "rb") as handle:
        private_key = load_private(handle.read())
    with open(public_path, "rb") as handle:
        public_key = serialization.load_ssh_public_key(handle.read().strip())
    fmt = (serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    if private_key.public_key().public_bytes(*fmt) != public_key.public_bytes(*fmt):
        print("mismatch")
        return 1
    print("match")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
