# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Reading an answer's body as it arrives, bounded by size and by time.

At most ``MAX_ANSWER_MIB`` (32 MiB) of body for a JSON answer, ``MAX_FILE_MIB`` (256 MiB) for a row that answers a
file, refused before reading when ``Content-Length`` says more; and only until the deadline (checked between reads,
each read itself bounded by the client's ``timeout``), so a body that never ends or drips byte by byte fails instead
of holding the task. The connection of an answer not read to its end is closed, never reused (``drop``). What went
wrong is raised as ``BodyTooLarge``, ``BodyCutOff`` or ``BodyLate``, for the client to word.
"""

from __future__ import annotations

import re
import time

try:
    from urllib3.exceptions import HTTPError, ReadTimeoutError
except ImportError:  # the client refuses to start without requests (HAS_REQUESTS)
    pass

MIB = 1024 * 1024
MAX_ANSWER_MIB = 32
MAX_FILE_MIB = 256
# One read of the body takes what the connection has, up to this much.
READ_SIZE = 64 * 1024


class BodyTooLarge(Exception):
    """The body is larger than ``limit_mib`` MiB: it was not read further."""

    def __init__(self, limit_mib):
        super().__init__(limit_mib)
        self.limit_mib = limit_mib


class BodyCutOff(Exception):
    """The body was cut off, or could not be decoded."""


class BodyLate(Exception):
    """The body did not arrive whole before the deadline."""


def read_body(response, headers, returns_file, deadline):
    """The body of ``response`` (whose ``headers`` are plain), read before ``deadline`` (``time.monotonic``), up to
    the cap of a row that answers a file (``returns_file``) or of a JSON answer. The connection of a body not read to
    its end is closed."""
    try:
        return _read(_piece_reader(response), headers, MAX_FILE_MIB if returns_file else MAX_ANSWER_MIB, deadline)
    except BaseException:
        drop(response)
        raise


def drop(response):
    """Close the connection of an answer not read to its end: it goes back to no pool half read."""
    if getattr(response, "raw", None) is not None:
        response.close()


def _read(read_piece, headers, limit_mib, deadline):
    if _declared_length(headers) > limit_mib * MIB:
        raise BodyTooLarge(limit_mib)
    body = bytearray()
    try:
        while time.monotonic() <= deadline:
            piece = read_piece()
            if not piece:
                return bytes(body)
            body += piece
            if len(body) > limit_mib * MIB:
                raise BodyTooLarge(limit_mib)
    except ReadTimeoutError:
        pass  # one read waited ``timeout`` seconds: the deadline has passed too
    except HTTPError:
        raise BodyCutOff() from None
    raise BodyLate()


def _piece_reader(response):
    """A function giving the body's next piece (``b""`` at its end). ``read1`` returns what one read of the
    connection brings, decoded, so a body dripping byte by byte cannot hold one read past the deadline (``read``
    would wait for all its bytes). An answer whose body is already in memory has no ``raw`` stream (as requests
    leaves a response made without a connection, and as the unit tests' scripted answers are): one piece. urllib3
    before 2.0 (the ``python3-requests`` of older distributions, on a managed node) has no ``read1``: its ``read``
    of ``READ_SIZE`` bytes waits for them all, so the deadline is checked less often there, and the body is read."""
    raw = getattr(response, "raw", None)
    if raw is None:
        pieces = [response.content or b""]
        return lambda: pieces.pop() if pieces else b""
    read = getattr(raw, "read1", None) or raw.read
    return lambda: read(READ_SIZE, decode_content=True) or b""


def _declared_length(headers):
    """The body's length in ``Content-Length``, or 0 when it is absent or not a plain number."""
    value = headers.get("content-length", "").strip()
    return int(value) if re.fullmatch(r"[0-9]{1,20}", value) else 0
