# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The connection options of a client, checked before any request: each function gives the value the client uses,
or raises ``VaultConfigError`` with a message that never holds the value (it may be a secret).

None for an option means its default. A blank value (``is_blank``: empty, or only whitespace) counts as not set
wherever options are gathered (modules, plugins, the AWX credential plugin): that rule is decided here only.
"""

from __future__ import annotations

import math
import os
import unicodedata
from urllib.parse import urlsplit

from ._catalogue import EDITIONS
from ._errors import VaultConfigError
from ._plain import to_plain

DEFAULT_TIMEOUT = 30
DEFAULT_RETRIES = 3
# Where the vault's two APIs live below ``url``.
REST_ROOT = "/restapi/json/v1"
PKI_ROOT = "/api/pki/restapi"
INSECURE_WARNING = (
    "validate_certs is false: the vault's TLS certificate is not verified, so whoever sits on the network path "
    "can read the token and every secret; point ca_path at the vault's CA certificate instead"
)


def is_blank(value):
    """True for a text that is empty or only whitespace: such an option value counts as not set."""
    return isinstance(value, str) and not value.strip()


def base_url(url):
    """``https://host[:port]`` from ``url``; anything else is refused without echoing the URL,
    which may hold user information or other secrets."""
    if not url:
        raise VaultConfigError("url is required (or set CREDVAULT_URL)")
    if not isinstance(url, str):
        raise VaultConfigError("url must be a string")
    text = to_plain(url).strip()
    if any(char.isspace() or unicodedata.category(char) == "Cc" for char in text):
        raise VaultConfigError("url holds a space or a control character")
    if "@" in text:
        raise VaultConfigError("url must not hold user information (user:password@); the token goes in auth_token")
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # pylint: disable=pointless-statement  # raises ValueError for a bad port
    except ValueError:
        raise VaultConfigError("url is not a valid URL: it must be https://<host>[:<port>]") from None
    if parts.scheme != "https" or not host:
        raise VaultConfigError("url must be https://<host>[:<port>]")
    if parts.path not in ("", "/"):
        raise VaultConfigError(
            "url must not have a path: give https://<host>[:<port>], the client adds %s and %s" % (REST_ROOT, PKI_ROOT)
        )
    if "?" in text or "#" in text:
        raise VaultConfigError("url must not have a query (?...) or a fragment (#...): give https://<host>[:<port>]")
    return "https://%s" % parts.netloc


def token_header(auth_token):
    """The ``AUTHTOKEN`` header's value: ``auth_token``, which is required, as ``header_value`` checks it."""
    if not auth_token:
        raise VaultConfigError("auth_token is required (or set CREDVAULT_AUTH_TOKEN)")
    return header_value(auth_token, "auth_token", 0x7F)


def org_header(org_name):
    """The ``orgName`` header's value, as ``header_value`` checks it; None when ``org_name`` is not set."""
    return header_value(org_name, "org_name", 0xFF) if org_name else None


def header_value(value, option, highest):
    """``value`` without surrounding whitespace (a trailing newline from a file is common), checked before any
    request: no control character and nothing above code point ``highest``. Messages never hold the value."""
    if not isinstance(value, str):
        raise VaultConfigError("%s must be a string" % option)
    text = to_plain(value).strip()
    if not text:
        raise VaultConfigError("%s is empty once surrounding whitespace is removed" % option)
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise VaultConfigError(
            "%s holds a control character (a line break, tab or NUL) inside it; it cannot be "
            "sent in an HTTP header" % option
        )
    if any(ord(char) > highest for char in text):
        charset = "ASCII" if highest < 0x80 else "Latin-1"
        raise VaultConfigError(
            "%s holds a character outside %s; it cannot be sent in an HTTP header" % (option, charset)
        )
    return text


def checked_edition(edition):
    """``edition``: A, B, or None when it is not configured."""
    if edition is not None and edition not in EDITIONS:
        raise VaultConfigError("edition must be A or B, not %r" % edition)
    return edition


def whole_number(value, option, lowest, default):
    """``value`` as an int of at least ``lowest``; ``default`` when it is None."""
    if value is None:
        return default
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise VaultConfigError("%s must be a whole number" % option)
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise VaultConfigError("%s must be a whole number" % option) from None
    if number < lowest:
        raise VaultConfigError("%s must be %d or more, not %d" % (option, lowest, number))
    return number


def timeout_seconds(timeout):
    """``timeout`` as a finite number of seconds above 0; ``DEFAULT_TIMEOUT`` when it is None."""
    if timeout is None:
        return float(DEFAULT_TIMEOUT)
    if isinstance(timeout, bool):
        raise VaultConfigError("timeout must be a number of seconds")
    try:
        seconds = float(timeout)
    except (TypeError, ValueError):
        raise VaultConfigError("timeout must be a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise VaultConfigError("timeout must be more than 0 seconds")
    return seconds


def tls_verify(validate_certs, ca_path):
    """``verify`` for requests: False, True, or the CA file ``ca_path`` (which must exist and be readable)."""
    if validate_certs is None:
        validate_certs = True
    if not isinstance(validate_certs, bool):
        raise VaultConfigError("validate_certs must be true or false")
    if not validate_certs:
        return False
    if not ca_path:
        return True
    path = to_plain(ca_path)
    if not os.path.exists(path):
        raise VaultConfigError("ca_path %s does not exist" % path)
    if not os.access(path, os.R_OK):
        raise VaultConfigError("ca_path %s cannot be read" % path)
    return path
