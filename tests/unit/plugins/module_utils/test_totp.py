# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""RFC 6238 codes and base32 secrets."""

from __future__ import annotations

import base64

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._totp import code_at, decode_secret, matches

# RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to the key length.
SEEDS = {
    "SHA1": b"12345678901234567890",
    "SHA256": b"12345678901234567890123456789012",
    "SHA512": b"1234567890123456789012345678901234567890123456789012345678901234",
}


@pytest.mark.parametrize(
    "algorithm, time, code",
    [
        ("SHA1", 59, "94287082"),
        ("SHA256", 59, "46119246"),
        ("SHA512", 59, "90693936"),
        ("SHA1", 1111111109, "07081804"),
        ("SHA256", 1234567890, "91819424"),
        ("SHA512", 20000000000, "47863826"),
    ],
)
def test_rfc6238_vectors(algorithm, time, code):
    assert code_at(SEEDS[algorithm], time // 30, algorithm, 8) == code
    secret = base64.b32encode(SEEDS[algorithm]).decode()
    assert matches(code, secret, algorithm, 8, 30, now=time)
    assert matches(code, secret, algorithm, 8, 30, now=time + 30)  # one period of clock skew
    assert not matches(code, secret, algorithm, 8, 30, now=time + 90)


def test_secret_decoding_tolerates_spacing_and_padding_and_rejects_garbage():
    assert decode_secret("gezd gnbv") == base64.b32decode("GEZDGNBV")
    assert decode_secret("GEZDGNB") == base64.b32decode("GEZDGNB=")
    with pytest.raises(ValueError, match="base32"):
        decode_secret("not base32!")
