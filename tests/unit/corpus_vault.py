# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The corpus of answers recorded from real servers (``tests/real_answers/bodies``), and an HTTPS vault that answers
with them: each request is matched to its catalogue row by method and path, and answered with the body chosen for
that row (or one made in the spec's shape from it, for the rows a flow needs that no source recorded)."""

from __future__ import annotations

import json
import os
import re
from urllib.parse import parse_qs, urlsplit

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE, PKI

CORPUS = os.path.join(os.path.dirname(__file__), "..", "real_answers", "bodies")
_ROOTS = {PKI: "/api/pki/restapi"}
_REST_ROOT = "/restapi/json/v1"


def corpus(key=None):
    """The corpus files (file name, parsed file), sorted, of catalogue row ``key`` or of every row."""
    found = []
    for name in sorted(os.listdir(CORPUS)):
        with open(os.path.join(CORPUS, name), encoding="utf-8") as handle:
            entry = json.load(handle)
        if key is None or entry["catalogue_key"] == key:
            found.append((name, entry))
    return found


def is_refusal_body(entry):
    result = entry["body"].get("operation", entry["body"]).get("result", {})
    return result.get("status") == "Failed"


def successes(key):
    return [(name, entry) for name, entry in corpus(key) if not is_refusal_body(entry)]


def details(entry):
    """The recorded ``Details`` (the files are resource-style answers: ``{operation: {..., Details}}``)."""
    return entry["body"]["operation"].get("Details")


def _pattern(endpoint):
    root = _ROOTS.get(endpoint.root, _REST_ROOT)
    path = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(endpoint.path.split("?")[0]))
    return re.compile("^%s%s$" % (re.escape(root), path))


_PATTERNS = [(endpoint, _pattern(endpoint)) for endpoint in CATALOGUE.values()]


def row_of(method, path):
    """The catalogue key a request is sent for (the most specific path that matches)."""
    matches = [
        endpoint
        for endpoint, pattern in _PATTERNS
        if pattern.match(path) and method in (endpoint.method, endpoint.method_in_b)
    ]
    return max(matches, key=lambda endpoint: len(endpoint.path)).key if matches else None


def spec_answer(name, value):
    return {"operation": {"name": name, "result": {"status": "Success", "message": "made"}, "Details": value}}


class CorpusVault:
    """A ``local_servers.ScriptedVault`` answering each catalogue row from ``bodies`` ({key: body}); a row without
    a body is answered HTTP 404, as a vault answers what it does not serve, or with ``otherwise`` when given (a
    refusal answers every request alike). ``requests`` lists (key, query)."""

    def __init__(self, server, bodies, otherwise=None):
        self.server = server
        self.bodies = bodies
        self.otherwise = otherwise
        self.requests = []
        server.answer(self._answer)

    def _answer(self, handler):
        split = urlsplit(handler.path)
        key = row_of(handler.command, split.path)
        self.requests.append((key, parse_qs(split.query)))
        if key not in self.bodies and self.otherwise is not None:
            return 200, {"Content-Type": "application/json"}, json.dumps(self.otherwise).encode()
        if key not in self.bodies:
            return 404, {"Content-Type": "application/json"}, b'{"result": {"status": "Failed"}}'
        return 200, {"Content-Type": "application/json"}, json.dumps(self.bodies[key]).encode()

    @property
    def keys(self):
        return [key for key, dummy_query in self.requests]

    def connection(self):
        return {"url": self.server.url, "auth_token": "corpus-token", "ca_path": self.server.ca_path}
