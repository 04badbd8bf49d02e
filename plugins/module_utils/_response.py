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
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

SUCCESS_CODES = (20000, 20001)
_MESSAGE_LIMIT = 500


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

    @property
    def ok(self):
        """``result.status`` decides whatever the HTTP status; ``statusCode`` when no status is given."""
        if self.status is not None:
            return self.status.lower() == "success"
        return self.status_code in SUCCESS_CODES

    @property
    def has_outcome(self):
        return self.status is not None or self.status_code is not None

    def get(self, key, default=None):
        """A key outside ``result``/``Details`` (``deployStatus``, ``AgentInstallKey``...), wrapped or top level."""
        wrapper = self.body.get("operation")
        if isinstance(wrapper, dict) and key in wrapper:
            return wrapper[key]
        return self.body.get(key, default)


def load_json_object(content):
    """The body as a dict, or None when it is empty, not JSON or not an object."""
    if not content:
        return None
    try:
        document = json.loads(content)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def normalize(document, http_status, content=None):
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
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text[:_MESSAGE_LIMIT]


def _integer(value):
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
