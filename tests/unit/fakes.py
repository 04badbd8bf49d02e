# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scripted HTTP answers for client tests, a scripted client for domain tests, and action plugins whose module run
is scripted."""

from __future__ import annotations

import fcntl
import json
import os
from unittest import mock

from ansible_collections.credvault.vault.plugins.module_utils import _object_lock
from ansible_collections.credvault.vault.plugins.module_utils._answers import read_answer
from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.module_utils._gates import catalogued
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.plugins.module_utils._task import Task


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


class ScriptedClient:
    """Answers catalogue keys from a table; records (key, path, details, query). An answer is the Details of a
    success, a whole ``VaultResponse`` (a message, a file, ``totalRows``), an exception to raise, or a function of
    ``(path, details, query)`` giving one of those. Subclasses call ``call`` of this class: its checks are the
    point of it.

    Like a ``VaultClient`` it may claim an ``edition`` and ``build``, and it has the
    client's own ``check_supported``.
    """

    check_supported = VaultClient.check_supported
    known_edition = VaultClient.known_edition
    learned_edition = None

    # The vault's base URL, as a client's: the domains' locks (``_object_lock``) are keyed by it.
    base_url = "https://vault.example:7272"

    def __init__(self, answers, edition=None, build=None):
        self.answers = answers
        self.calls = []
        self.edition = edition
        self.build = build

    def call(self, key, path=None, details=None, query=None, files=None):
        """As strict as ``VaultClient.call`` before it sends: an unknown row, placeholders other than the path's, a
        query parameter the row lacks (``VaultCallError``), a row or field the claimed edition and build lack
        (``VaultUnsupportedError``) fail the test that makes the call."""
        catalogued(key, path, query)
        self.check_supported(key, details)
        self.calls.append((key, path, details, query))
        answer = self.answers[key]
        if callable(answer):
            answer = answer(path, details, query)
        if isinstance(answer, Exception):
            raise answer
        if not isinstance(answer, VaultResponse):
            answer = VaultResponse("OP", "Success", "", None, answer, None, 200, {})
        # Read as the client reads every answer (``_answers``): real servers' spellings and placeholders.
        return read_answer(key, answer)

    def size_pool(self, size):
        """Records the connection pool asked for in ``pool_size`` (as ``VaultClient.size_pool`` sizes it)."""
        self.pool_size = size

    def writes(self):
        return [
            key for key, dummy_path, details, dummy_query in self.calls if not CATALOGUE[key].for_input(details).is_read
        ]


def lock_held(client, kind, identity):
    """True while some run holds the object lock of ``kind`` ``identity`` (``_object_lock``): a lock of another open
    file of it is refused, in this process too."""
    path = os.path.join(_object_lock.lock_directory(), _object_lock.lock_name(client.base_url, kind, identity))
    if not os.path.exists(path):
        return False
    with open(path, "rb") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


def certificate_refusal(message):
    """A failed ``GetCertificateDetails`` as the vault answers it (HTTP 200, ``result.status`` Failed)."""
    return VaultAPIError(
        "GetCertificateDetails failed: " + message,
        operation="GetCertificateDetails",
        http_status=200,
        vault_message=message,
    )


# What ``GetCertificateDetails`` answers for a certificate that does not exist.
NO_SUCH_CERTIFICATE = certificate_refusal("Certificate does not exist")
# What it answers for one this token may not access.
NOT_YOURS = certificate_refusal("You are not authorized to access certificate intranet.example.com")


def scripted_action(plugin, args, module_result, check_mode=False, diff=False):
    """An ActionModule of ``plugin`` whose module run is scripted to answer ``module_result``;
    ``action.module_calls`` records the module runs (name and arguments)."""
    task = mock.MagicMock()
    task.args = args
    task.async_val = 0
    task.check_mode = check_mode
    task.diff = diff
    task.no_log = False
    connection = mock.MagicMock()
    connection._shell.tmpdir = None
    instance = plugin.ActionModule(task, connection, mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), None)
    instance.module_calls = []

    def execute_module(module_name=None, module_args=None, task_vars=None, **kwargs):
        instance.module_calls.append((module_name, module_args))
        return dict(module_result)

    instance._execute_module = execute_module
    instance._remove_tmp_path = lambda path: None
    return instance


class FakeClock:
    """Time that passes only when the code under test sleeps: ``time()`` (or calling it) reads it, ``sleep()`` moves
    it on and is recorded in ``sleeps``."""

    def __init__(self, now=1000.0):
        self.now = now
        self.sleeps = []

    def time(self):
        return self.now

    __call__ = time

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def run_entry(entry, client, desired, check_mode=False, **services):
    """Run the domain entry point ``entry`` (``converge`` or ``describe``) as the module base runs it: returns the
    task's tracker and the values it returned."""
    task = Task(client, desired, check_mode, **services)
    return task.tracker, entry(task)
