# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The ``ca_cert`` field, checked before any connection: PEM certificates only, never a private key.

Without this check, text that is not a certificate reached OpenSSL as the CA file and the request failed as a TLS
verification failure, which sent the user looking at the vault instead of at the field.
"""

from __future__ import annotations

import re
import ssl

NOT_PEM = "ca_cert is not a PEM certificate"
_PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")


class CaCertError(ValueError):
    """``ca_cert`` holds no usable PEM certificate; the message never quotes it."""


def check_ca_cert(text):
    """``text`` when it holds one or more PEM certificates (``-----BEGIN CERTIFICATE-----``, as OpenSSL reads a
    CA file) and no private key; ``CaCertError`` otherwise: DER bytes, garbage, a key, an empty block."""
    if not isinstance(text, str):
        raise CaCertError(
            "%s: give the PEM text (-----BEGIN CERTIFICATE-----), not %s" % (NOT_PEM, type(text).__name__)
        )
    if _PRIVATE_KEY.search(text):
        raise CaCertError("%s: it holds a private key, which does not belong in a CA bundle; remove it" % NOT_PEM)
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError, TypeError):
        raise CaCertError(
            "%s: it must hold the vault's CA certificate as PEM text (-----BEGIN CERTIFICATE----- ...)" % NOT_PEM
        ) from None
    return text
