"""Fault injection for reliability tests.

A fault rule applies to vault requests whose path matches ``path`` (a
regular expression searched in the request path; empty matches every path)
and whose method is ``method`` (empty: any method),
with probability ``rate``, at most ``count`` times (``None``: no limit).
Kinds:

- ``latency``: wait ``seconds`` before answering (the request is then served).
- ``status``: answer HTTP ``status`` (502 or 503) without serving the request.
- ``drop``: close the connection without any answer (before the request is served).
- ``drop_after``: serve the request (its changes are committed), then close the
  connection without sending the answer: a write the client cannot know was applied.
- ``malformed``: answer HTTP 200 with a truncated JSON body.
- ``empty``: answer HTTP 200 with an empty body.
- ``html``: answer an HTML error page (``text/html``) with HTTP ``status`` (500, 502
  or 503; 500 when not given), as a proxy or an application server in front would.
- ``failed``: answer HTTP 200 with ``result.status`` Failed.
- ``redirect``: answer HTTP ``status`` (301, 302, 303, 307 or 308; 302 when not
  given) with ``Location: location`` (any text, even empty: no Location header),
  as a hostile or misconfigured front end would.

Faults other than ``latency`` and ``drop_after`` answer before the handler runs,
so a faulted request changes no state. Rules come from ``--fault`` flags or from the
admin endpoint ``/__simulator/faults``. Draws use their own random source
(seeded from ``--seed``) so that faults do not change generated values.
"""

import re
import threading
from dataclasses import asdict, dataclass
from typing import Optional

from vault_simulator.core.randomness import Randomness

KINDS = ("latency", "status", "drop", "drop_after", "malformed", "empty", "html", "failed", "redirect")
FAULT_STATUSES = {"status": (502, 503), "html": (500, 502, 503), "redirect": (301, 302, 303, 307, 308)}
DEFAULT_STATUSES = {"status": 503, "html": 500, "redirect": 302}
# Kinds that let the request be served: the others answer instead of the handler.
SERVED_KINDS = ("latency", "drop_after")
FAILED_MESSAGE = "Simulated failure (fault injection)"
MALFORMED_BODY = '{"operation": {"name": "'
HTML_PAGE = (
    "<!DOCTYPE html>\n<html><head><title>{status} {reason}</title></head>\n"
    "<body><h1>{status} {reason}</h1><p>The server could not complete your request.</p></body></html>\n"
)
HTML_REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
# The WSGI environ key of the server's means to drop a request's connection: a callable.
DROP_CONNECTION = "vault_simulator.drop_connection"


@dataclass(frozen=True)
class FaultRule:
    kind: str
    path: str = ""
    method: str = ""
    rate: float = 1.0
    status: Optional[int] = None
    seconds: float = 0.0
    count: Optional[int] = None
    location: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"fault kind must be one of {', '.join(KINDS)}")
        if not 0.0 <= float(self.rate) <= 1.0:
            raise ValueError("fault rate must be between 0 and 1")
        if self.status is None:
            object.__setattr__(self, "status", DEFAULT_STATUSES.get(self.kind, 503))
        allowed = FAULT_STATUSES.get(self.kind)
        if allowed and int(self.status) not in allowed:
            raise ValueError(f"fault status of {self.kind} must be {' or '.join(map(str, allowed))}")
        if self.method not in ("", "GET", "POST", "PUT", "DELETE"):
            raise ValueError("fault method must be GET, POST, PUT or DELETE")
        if float(self.seconds) < 0 or (self.count is not None and int(self.count) < 0):
            raise ValueError("fault seconds and count must not be negative")
        re.compile(self.path)

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict):
            raise ValueError("a fault rule is a JSON object")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown fault rule keys: {', '.join(sorted(unknown))}")
        try:
            return cls(**{key: _convert(key, value) for key, value in data.items()})
        except TypeError as error:
            raise ValueError(str(error)) from None

    @classmethod
    def parse(cls, text):
        """``KIND[:key=value,...]``, e.g. ``status:status=502,rate=0.5,path=^/restapi``."""
        kind, _sep, rest = text.partition(":")
        data = {"kind": kind}
        for pair in filter(None, rest.split(",")):
            key, sep, value = pair.partition("=")
            if not sep:
                raise ValueError(f"fault option {pair!r} is not key=value")
            data[key.strip()] = value.strip()
        return cls.from_dict(data)


def _convert(key, value):
    converters = {
        "rate": float,
        "seconds": float,
        "status": int,
        "count": lambda v: None if v in (None, "") else int(v),
    }
    return converters.get(key, str)(value)


class Faults:
    """The active rules and their remaining counts (thread-safe)."""

    def __init__(self, rules=(), seed=None):
        self._lock = threading.Lock()
        self._rng = Randomness(None if seed is None else f"faults:{seed}")
        self._rules = []
        self.replace(rules)

    def replace(self, rules):
        with self._lock:
            self._rules = [[rule, rule.count] for rule in rules]

    def rules(self):
        with self._lock:
            return [dict(asdict(rule), remaining=remaining) for rule, remaining in self._rules]

    def draw(self, method, path):
        """The rules that fire for a ``method`` request to ``path``, latency first."""
        fired = []
        with self._lock:
            for entry in self._rules:
                rule, remaining = entry
                if remaining == 0 or rule.method not in ("", method) or not re.search(rule.path, path):
                    continue
                if self._rng.random() >= rule.rate:
                    continue
                if remaining is not None:
                    entry[1] = remaining - 1
                fired.append(rule)
        return sorted(fired, key=lambda rule: rule.kind != "latency")
