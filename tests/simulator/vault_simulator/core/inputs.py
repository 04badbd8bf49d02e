"""Reading INPUT_DATA and the values inside it.

INPUT_DATA is ``{"operation": {"Details": {...}}}`` (a few operations use
``details`` in lower case), sent as a form field (urlencoded or multipart)
or as a query parameter (spec, "Common request rules" 3 to 5).

The spec defines the encoding, not the Content-Type header, and clients
written against the real vault label a urlencoded body in many ways
(``text/json``, ``text/plain``, ``application/json``, none at all, upper
case, a charset parameter). So a body that is not multipart is read as
urlencoded whatever its label says (UTF-8, ``+`` for a space, the first
INPUT_DATA when it is repeated); a multipart body is read as multipart.
When both the body and the query string carry INPUT_DATA, the body's is
used and the query's ignored (the spec does not say; a form field has always
taken precedence here).
"""

import json
from urllib.parse import parse_qs

from vault_simulator.core.replies import Failure

NOT_JSON = "Invalid INPUT_DATA: not a JSON document"
BAD_SHAPE = 'Invalid INPUT_DATA: expected {"operation": {"Details": {...}}}'


def read_input_data(request):
    """The Details object of the request; empty when INPUT_DATA is absent.

    Read it before anything else reads the body: werkzeug parses a body that is
    labelled as a form only once, and keeps the raw bytes only when they were read first.
    """
    raw = _body_input_data(request)
    if raw is None:
        raw = request.args.get("INPUT_DATA")
    if raw is None:
        return {}
    try:
        document = json.loads(raw)
    except ValueError:
        raise Failure(NOT_JSON) from None
    operation = document.get("operation") if isinstance(document, dict) else None
    if not isinstance(operation, dict):
        raise Failure(BAD_SHAPE)
    details = operation.get("Details", operation.get("details", {}))
    if not isinstance(details, dict):
        raise Failure(BAD_SHAPE)
    return details


def _body_input_data(request):
    """INPUT_DATA of a multipart body, or of a body read as urlencoded whatever its Content-Type."""
    if request.mimetype == "multipart/form-data":
        return request.form.get("INPUT_DATA")
    body = request.get_data(cache=True).decode("utf-8", "replace")
    values = parse_qs(body, keep_blank_values=True).get("INPUT_DATA")
    return values[0] if values else None


def text(details, key, default=""):
    """A field as a string (the spec sends strings; numbers are tolerated)."""
    value = details.get(key)
    return default if value is None else str(value)


def required_text(details, key):
    value = text(details, key).strip()
    if not value:
        raise Failure(f"{key} is required")
    return value


def flag(details, key, default=False):
    """A ``true``/``false`` field, given as a JSON boolean or as a string."""
    value = details.get(key, default)
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "false"):
        return str(value).lower() == "true"
    raise Failure(f"{key} must be true or false")


def string_list(details, key):
    """A field that must be a list (of strings, numbers tolerated); absent is empty."""
    value = details.get(key, [])
    if not isinstance(value, list):
        raise Failure(f"{key} must be a list")
    return [str(item) for item in value]
