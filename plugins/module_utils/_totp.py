# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""RFC 6238 codes, so a module can tell whether the vault holds a given TOTP secret.

The vault never returns an account's ``TOTP_SECRET``, only the current code
(``FETCH_CURRENT_TOTP``). Comparing that code with the codes the desired secret
gives now and one period either side answers "same secret?" without reading it.
Written with the standard library so that modules need nothing beyond requests.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import time

ALGORITHMS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}


def decode_secret(secret):
    """The key bytes of a base32 secret (spaces and missing padding tolerated); ValueError when invalid."""
    text = secret.replace(" ", "").upper()
    text += "=" * (-len(text) % 8)
    try:
        return base64.b32decode(text)
    except (binascii.Error, ValueError):
        raise ValueError("totp_secret is not a base32 string") from None


def code_at(key, counter, algorithm, digits):
    mac = hmac.new(key, struct.pack(">Q", counter), ALGORITHMS[algorithm]).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def matches(code, secret, algorithm="SHA1", digits=6, period=30, now=None):
    """True when ``code`` is what ``secret`` gives now, or one period before or after."""
    key = decode_secret(secret)
    counter = int((time.time() if now is None else now) // period)
    return any(hmac.compare_digest(code_at(key, counter + step, algorithm, digits), str(code)) for step in (-1, 0, 1))
