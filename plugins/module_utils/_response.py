# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One result object for every response shape the spec describes.

Resource-style answers wrap everything in ``operation``: ``{operation: {name,
result: {status, message[, statusCode]}, Details[, totalRows]}}``; newer ones
say ``operationName`` instead of ``name`` or put ``name`` and ``result`` at the
top level; PKI answers are top level with ``details``; AddCertificate says
``Status``/``Message``; SSH import/associate/dissociate say ``SUCCESS``;
``statusCode`` 20000 is success and 20001 "a bulk share action was triggered".
The body comes from the network and is not trusted: any of it may be missing.

Rows whose output is "the file" answer the file itself; its name comes from
``Content-Disposition`` (RFC 6266), reduced to a bare file name.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

SUCCESS_CODES = (20000, 20001)
_MESSAGE_LIMIT = 500
_NAME_LIMIT = 255
# One ``; name=value`` parameter of a header: a token, or a quoted string with backslash escapes.
_PARAMETER = re.compile(r';\s*([!#$%&\'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_EXT_VALUE = re.compile(r"^([A-Za-z0-9!#$%&+^_`{}~-]+)'[^']*'(.*)$")
_EXT_CHARSETS = ("utf-8", "iso-8859-1")
# Control, formatting (bidirectional overrides), surrogate and line/paragraph separator characters.
_UNSAFE_CATEGORIES = ("Cc", "Cf", "Cs", "Zl", "Zp")


@dataclass
class VaultResponse:
    operation: str | None
    status: str | None
    message: str | None
    status_code: int | None
    details: Any
    total_rows: int | None
    http_status: int
    body: dict
    content: bytes | None = None
    headers: dict = field(default_factory=dict)

    @property
    def ok(self):
        """``result.status`` decides whatever the HTTP status; ``statusCode`` when no status is given."""
        if self.status is not None:
            return self.status.lower() == "success"
        return self.status_code in SUCCESS_CODES

    @property
    def has_outcome(self):
        return self.status is not None or self.status_code is not None

    def details_dict(self, key=None):
        """``Details`` (or its ``key``) when it is an object, else ``{}``: the body is not trusted."""
        details = self.details if key is None else self.details_dict().get(key)
        return details if isinstance(details, dict) else {}

    def details_list(self, key=None):
        """The object items of ``Details`` (or of its ``key``) when it is a list, else ``[]``."""
        items = self.details if key is None else self.details_dict().get(key)
        return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []

    def get(self, key, default=None):
        """A key outside ``result``/``Details`` (``deployStatus``, ``AgentInstallKey``...), wrapped or top level."""
        wrapper = self.body.get("operation")
        if isinstance(wrapper, dict) and key in wrapper:
            return wrapper[key]
        return self.body.get(key, default)

    @property
    def file_name(self):
        """The file name the vault gives a file answer (``Content-Disposition``), or None."""
        return attachment_name(self.headers.get("content-disposition"))


def plain_headers(headers):
    """The response headers as a dict with lower-case names (for look-ups without case)."""
    return {str(name).lower(): str(value) for name, value in (headers or {}).items()}


def is_attachment(headers):
    """True when the answer says it is a file: ``Content-Disposition: attachment`` or an octet-stream type."""
    disposition = headers.get("content-disposition", "").split(";")[0].strip().lower()
    media_type = headers.get("content-type", "").split(";")[0].strip().lower()
    return disposition == "attachment" or media_type == "application/octet-stream"


def attachment_name(disposition):
    """The ``filename*`` (RFC 8187, UTF-8 or ISO-8859-1) or else ``filename`` of a ``Content-Disposition``
    value, reduced to its last path component; None when absent or unsafe to use as a file name."""
    if not disposition:
        return None
    parameters = {}
    for name, value in _PARAMETER.findall(disposition):
        parameters.setdefault(name.lower(), value.strip())
    extended = _extended_value(parameters.get("filename*"))
    name = extended if extended is not None else _raw_utf8(_quoted_value(parameters.get("filename")))
    return _safe_file_name(name)


def _extended_value(value):
    match = _EXT_VALUE.match(value or "")
    if not match or match.group(1).lower() not in _EXT_CHARSETS:
        return None
    try:
        return unquote(match.group(2), encoding=match.group(1).lower(), errors="strict")
    except UnicodeDecodeError:
        return None


def _quoted_value(value):
    if value and len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def _raw_utf8(value):
    """Header text arrives decoded as ISO-8859-1; many servers send a plain ``filename`` in raw UTF-8."""
    if not value:
        return value
    try:
        return value.encode("iso-8859-1").decode("utf-8")
    except UnicodeError:
        return value


def _safe_file_name(name):
    """The last component of ``name`` (``/`` or ``\\`` separated), or None when it is empty, ``.``, ``..``,
    holds a control or formatting character (bidirectional overrides...) or is too long for a file name."""
    if not name:
        return None
    base = re.split(r"[/\\]", name)[-1]
    if base in ("", ".", "..") or any(unicodedata.category(char) in _UNSAFE_CATEGORIES for char in base):
        return None
    if len(base.encode("utf-8")) > _NAME_LIMIT:
        return None
    return base


def load_json_object(content):
    """The body as a dict, or None when it is empty, not JSON (invalid UTF-8 included), nested deeper than
    the decoder recurses, or not an object. The spec gives JSON answers no content type, so none is required."""
    if not content:
        return None
    try:
        document = json.loads(content)
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def normalize(document, http_status, content=None, headers=None):
    wrapper = document.get("operation")
    if not isinstance(wrapper, dict):
        wrapper = document
    result = _first_dict(wrapper.get("result"), document.get("result"))
    return VaultResponse(
        operation=_text(_first(wrapper, document, ("name", "operationName"))),
        status=_text(_first(result, {}, ("status", "Status"))),
        message=_text(_first(result, {}, ("message", "Message"))),
        status_code=_integer(result.get("statusCode")),
        details=_first(wrapper, document, ("Details", "details")),
        total_rows=_integer(_first(wrapper, document, ("totalRows",))),
        http_status=http_status,
        body=document,
        content=content,
        headers=headers or {},
    )


def _first(primary, secondary, keys):
    for source in (primary, secondary):
        for key in keys:
            if key in source and source[key] is not None:
                return source[key]
    return None


def _first_dict(*candidates):
    for candidate in candidates:
        if isinstance(candidate, dict):
            return candidate
    return {}


def _text(value):
    if value is None:
        return None
    if isinstance(value, str):
        return value[:_MESSAGE_LIMIT]
    try:
        return json.dumps(value, default=str)[:_MESSAGE_LIMIT]
    except (ValueError, RecursionError):
        return "(an unreadable value)"


def _integer(value):
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None
