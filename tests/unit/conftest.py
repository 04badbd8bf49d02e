# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.tests.unit.fakes import FakeSession


@pytest.fixture
def make_client():
    """A client whose HTTP answers are scripted; ``client.session.calls`` records the requests sent."""

    def factory(*answers, **options):
        settings = {"url": "https://vault.example:7272", "auth_token": "TOKEN-SECRET-1", "retries": 2}
        settings.update(options)
        sleeps = []
        client = VaultClient(sleep=sleeps.append, **settings)
        client.real_session = client.session
        client.session = FakeSession(answers)
        client.sleeps = sleeps
        return client

    return factory
