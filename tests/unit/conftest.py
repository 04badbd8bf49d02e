# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import multiprocessing.util

import pytest
from hypothesis import HealthCheck, settings

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.tests.unit.fakes import FakeSession

# The property tests (test_properties_*.py): bounded and reproducible, the same examples on every run and in CI,
# with no example database written into the tree. ``make_client`` is a function-scoped fixture used as a factory
# inside each example, which is what the health check warns about.
settings.register_profile(
    "credvault",
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
settings.load_profile("credvault")

# multiprocessing's own directory (the forkserver's socket) is made now, in the system's temporary directory: tests
# point tempfile at their own tmp_path (module_utils/conftest.py), under which, in a deep checkout, the socket's path
# would pass AF_UNIX's 108 characters.
multiprocessing.util.get_temp_dir()


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
