"""The response shapes of the spec ("Common request rules" 6 and 7).

A style belongs to an endpoint's registration: it fixes the path root and
how name, result, Details and extra keys are laid out.
"""

from dataclasses import dataclass
from typing import Callable

REST_ROOT = "/restapi/json/v1"
PKI_ROOT = "/api/pki/restapi"


def _result(status, message, extra):
    result = {"status": status, "message": message}
    if "statusCode" in extra:
        result["statusCode"] = extra["statusCode"]
    return result


def _outside_result(extra):
    return {key: value for key, value in extra.items() if key != "statusCode"}


def _wrapped(name_key):
    def shape(op, reply):
        body = {name_key: op, "result": _result(reply.status, reply.message, reply.extra)}
        if reply.details is not None:
            body["Details"] = reply.details
        body.update(_outside_result(reply.extra))
        return {"operation": body}

    return shape


def _top_level(details_key):
    def shape(op, reply):
        body = {"name": op, "result": _result(reply.status, reply.message, reply.extra)}
        body.update(_outside_result(reply.extra))
        if reply.details is not None:
            body[details_key] = reply.details
        return body

    return shape


@dataclass(frozen=True)
class Style:
    """A path root plus a function ``(op, reply) -> JSON body``."""

    root: str
    shape: Callable


# {operation: {name, result: {status, message[, statusCode]}, Details[, totalRows]}}
REST = Style(REST_ROOT, _wrapped("name"))
# Same, with "operationName" instead of "name" (some newer operations).
REST_OPERATION_NAME = Style(REST_ROOT, _wrapped("operationName"))
# "name" and "result" at the top level, no operation wrapper (e.g. VALIDATE_PASSWORD).
REST_TOP_LEVEL = Style(REST_ROOT, _top_level("Details"))
# {name, result: {status, message}, totalRows?, details?} under the PKI root. A handler
# answering "SUCCESS" (SSH import, associate, dissociate) returns Reply("SUCCESS", ...).
PKI = Style(PKI_ROOT, _top_level("details"))


def _capitalized_result(op, reply):
    body = _top_level("details")(op, reply)
    body["result"] = {"Status": reply.status, "Message": reply.message}
    return body


# "The AddCertificate result uses capitalized keys Status and Message."
PKI_CAPITALIZED_RESULT = Style(PKI_ROOT, _capitalized_result)
