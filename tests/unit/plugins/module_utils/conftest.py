# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Local servers for the client's HTTP tests (tests/unit/local_servers.py), one of each per test module; the domains'
object locks in a directory of each test."""

from __future__ import annotations

import tempfile

import pytest

from ansible_collections.credvault.vault.tests.unit.local_servers import Listener, ScriptedVault


@pytest.fixture(scope="module")
def vault(tmp_path_factory):
    """A scripted HTTPS vault on 127.0.0.1."""
    server = ScriptedVault(tmp_path_factory.mktemp("tls"))
    yield server
    server.close()


@pytest.fixture(scope="module")
def elsewhere():
    """Another origin, recording every connection made to it."""
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture(autouse=True)
def private_temporary_directory(tmp_path, monkeypatch):
    """The system temporary directory of the code under test (``tempfile.gettempdir()``): the test's own, so the
    object locks (``_object_lock``) of one test never meet another's."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
