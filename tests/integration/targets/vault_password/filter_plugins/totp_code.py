# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: ``secret | totp_code(moment, period)``, the RFC 6238 code of the base32 ``secret`` at Unix time
``moment`` (SHA1, 6 digits, windows of ``period`` seconds from the epoch), computed here and not by the vault, to
check the codes the lookup returns. Not part of the collection."""

import base64
import hashlib
import hmac
import struct


def totp_code(secret, moment, period=30):
    key = base64.b32decode(secret + "=" * (-len(secret) % 8), casefold=True)
    counter = struct.pack(">Q", int(float(moment) // period))
    digest = hmac.new(key, counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return "%06d" % (number % 1000000)


class FilterModule:
    def filters(self):
        return {"totp_code": totp_code}
