# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scripted HTTP answers for client tests."""

from __future__ import annotations

import json


class FakeResponse:
    def __init__(self, status=200, body=None, content=None, headers=None):
        self.status_code = status
        if content is None:
            content = b"" if body is None else json.dumps(body).encode()
        self.content = content
        self.headers = headers or {}


class FakeSession:
    """Stands in for requests.Session: answers in order, records every request."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.calls = []

    def request(self, method, url, **kwargs):
        self.calls.append({"method": method, "url": url, **kwargs})
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def close(self):
        pass


def ok(details=None, name="OP", **extra):
    operation = {"name": name, "result": {"status": "Success", "message": "done"}}
    if details is not None:
        operation["Details"] = details
    operation.update(extra)
    return FakeResponse(body={"operation": operation})
