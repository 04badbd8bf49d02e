# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What of a call may be shown: every secret sent is masked wherever a message could quote it (``scrub``), a write
is described by the names of what it concerned and never by a secret (``write_names``), and a redirect's target by
its scheme and host only (``shown_location``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from urllib.parse import quote, quote_plus, urlsplit

from ._plain import to_plain

SECRET_KEYS = frozenset(
    (
        "PASSWORD",
        "NEWPASSWORD",
        "TOTP_SECRET",
        "passPhrase",
        "passphrase",
        "password",
        "AUTHTOKEN",
    )
)
# Keys of a write's input that name the object written, never a secret: they describe the writes of a failed task.
NAMING_KEYS = (
    "keyName",
    "key_name",
    "resourceName",
    "userName",
    "RESOURCENAME",
    "ACCOUNTNAME",
    "USERNAME",
    "USERGROUPNAME",
    "GROUPNAME",
    "RESOURCEGROUPNAME",
    "RESOURCEGROUPID",
    "common_name",
    "serial_number",
    "CNAME",
    "group_name",
    "certificate_group_name",
)
# How many names one write's description holds at most.
MAX_NAMES = 5
_MASK = "********"
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]{0,15}$")
_HOST = re.compile(r"^[A-Za-z0-9._:-]{1,253}$")


def secret_values(details):
    """Every value sent under a secret key, at any depth, so it can be scrubbed from messages."""
    found = []
    if isinstance(details, Mapping):
        for key, value in details.items():
            if key in SECRET_KEYS and isinstance(value, str) and value:
                found.append(value)
            else:
                found.extend(secret_values(value))
    elif isinstance(details, (list, tuple)):
        for item in details:
            found.extend(secret_values(item))
    return found


def scrub(text, secrets):
    """``text`` with every secret masked, as written and as it appears inside JSON or a URL."""
    forms = set()
    for secret in secrets:
        if secret:
            forms.update((secret, json.dumps(secret)[1:-1], quote(secret, safe=""), quote_plus(secret)))
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, _MASK)
    return text


def write_names(path, details, query, secrets):
    """What a write concerned, as ``key value`` texts: the path's ids, and the values of ``NAMING_KEYS`` in the query
    and (at any depth) the input, at most ``MAX_NAMES`` of them; never a secret key's value, and scrubbed of the
    secrets sent."""
    found = ["%s %s" % (name, to_plain(value)) for name, value in sorted((path or {}).items())]
    found.extend(_named_values(query))
    found.extend(_named_values(details))
    unique = list(dict.fromkeys(scrub(text, secrets) for text in found))
    return unique[:MAX_NAMES] + (["..."] if len(unique) > MAX_NAMES else [])


def _named_values(value):
    """``key value`` for every key of ``NAMING_KEYS`` holding a text or number inside ``value``, at any depth."""
    found = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in NAMING_KEYS and isinstance(item, (str, int)) and not isinstance(item, bool):
                found.append("%s %s" % (key, item))
            else:
                found.extend(_named_values(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_named_values(item))
    return found


def shown_location(location):
    """The scheme and host of a redirect's ``Location``, never its user info, path or query."""
    if not location:
        return "no location (the answer has no Location header)"
    try:
        parts = urlsplit(str(location).strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return "an unreadable location"
    if not host:
        return "another path of the same host" if not parts.scheme else "an unreadable location"
    scheme = (parts.scheme or "https").lower()
    if not _SCHEME.match(scheme) or not _HOST.match(host):
        return "an unreadable location"
    if ":" in host:
        host = "[%s]" % host
    return "%s://%s%s" % (scheme, host, "" if port is None else ":%d" % port)
