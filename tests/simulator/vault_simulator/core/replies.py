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


class FileReply(NamedTuple):
    """A successful download: the raw file as the body, not JSON
    ("download file", "export SSH key", "get certificate": "the file")."""

    filename: str
    content: bytes
    mimetype: str = "application/octet-stream"


class Unsupported(Exception):
    """Raised by a handler for input this edition or build does not have (for
    example sharing with USERGROUPID before A 11200 / B 5100): answered exactly
    like a path the vault does not serve (HTTP 404, operation UNSUPPORTED)."""
