"""What a handler gives back: a Reply, or a raised Failure."""
from typing import Any, NamedTuple, Optional

SUCCESS = "Success"
FAILED = "Failed"


class Reply(NamedTuple):
    """The outcome of an operation, before it is put in the spec's response shape.

    ``details`` of ``None`` leaves the Details key out. ``extra`` holds further
    keys: ``statusCode`` goes into ``result``, anything else (``totalRows``)
    beside it.
    """

    status: str
    message: str
    details: Optional[Any] = None
    extra: dict = {}


def success(message, details=None, **extra):
    """A successful Reply."""
    return Reply(SUCCESS, message, details, extra)


class Failure(Exception):
    """A business failure: answered with HTTP 200 and ``result.status`` Failed."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message
