# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import multiprocessing.util
import os

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
# The inner loop (make check: ``--hypothesis-profile credvault-check``) draws a tenth as many examples; make units (and
# so make test) draws them all.
settings.register_profile("credvault-check", parent=settings.get_profile("credvault"), max_examples=20)

# What the inner loop (make check) leaves to make units and make test: the tests that wait on real time, processes or
# simulators, marked ``slow``, each with what it waits on. Paths are relative to this folder; a folder's entry marks
# every test under it. make check UNIT_TESTS=<path> runs the tests it names, marked or not.
SLOW_TESTS = {
    "plugins/faults/": "every fault kind against every plugin, each cell against a simulator in this process",
    "plugins/scenarios/": "modules against simulators of every profile in this process, and racing processes",
    "plugins/module_utils/test_object_lock.py": "processes holding the lock, and the bounded waits for it",
    "plugins/module_utils/test_client_hostile.py": "real HTTPS servers that stall, drip or never end, and timeouts",
    "plugins/plugin_utils/test_run_cache.py": "the broker as a process of its own, and its time limits",
}
HERE = os.path.dirname(os.path.abspath(__file__))

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


def pytest_configure(config):
    """The ``slow`` marker; an entry of SLOW_TESTS that names nothing (a test moved or renamed) stops the run."""
    config.addinivalue_line(
        "markers", "slow: waits on real time, processes or simulators (SLOW_TESTS of tests/unit/conftest.py)"
    )
    missing = [path for path in SLOW_TESTS if not os.path.exists(os.path.join(HERE, path))]
    if missing:
        raise pytest.UsageError("SLOW_TESTS of %s names what does not exist: %s" % (__file__, ", ".join(missing)))


def pytest_collection_modifyitems(items):
    for item in items:
        if os.path.relpath(str(item.path), HERE).startswith(tuple(SLOW_TESTS)):
            item.add_marker(pytest.mark.slow)
