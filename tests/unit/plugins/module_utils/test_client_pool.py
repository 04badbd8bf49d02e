# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VaultClient shared by threads: a sized, blocking connection pool and counters kept under a lock."""

from __future__ import annotations

import threading
import warnings

import pytest
from urllib3.exceptions import InsecureRequestWarning

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConfigError
from ansible_collections.credvault.vault.plugins.module_utils._transport import InsecureWarningSilencer
from ansible_collections.credvault.vault.tests.unit.fakes import ok

URL = "https://vault.example:7272"


def https_adapter(client):
    return client.session.get_adapter(URL + "/restapi/json/v1/resources")


@pytest.mark.parametrize("size", [1, 8, 64])
def test_the_pool_keeps_as_many_connections_as_asked_and_makes_threads_wait_for_one(size):
    adapter = https_adapter(VaultClient(URL, "TOKEN-SECRET-1", pool_size=size))
    assert adapter._pool_maxsize == size and adapter._pool_block is True
    assert adapter.poolmanager.connection_pool_kw["maxsize"] == size


def test_without_a_size_the_pool_is_requests_default():
    adapter = https_adapter(VaultClient(URL, "TOKEN-SECRET-1"))
    assert adapter._pool_block is False


@pytest.mark.parametrize("size", [0, -1, "many", True])
def test_a_pool_size_that_is_not_a_positive_whole_number_is_refused(size):
    with pytest.raises(VaultConfigError, match="pool_size must be"):
        VaultClient(URL, "TOKEN-SECRET-1", pool_size=size)


class CountingSession:
    """Answers every request at once; many threads may call it."""

    def request(self, method, url, **kwargs):
        return ok({"RESOURCEID": "1"})

    def close(self):
        pass


def test_requests_sent_and_wrote_are_counted_exactly_from_many_threads():
    client = VaultClient(URL, "TOKEN-SECRET-1", pool_size=8)
    client.session = CountingSession()
    per_thread = 200

    def send():
        for dummy in range(per_thread):
            client.call("get_resource_id", path={"resource_name": "web"})

    threads = [threading.Thread(target=send) for dummy in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert client.requests_sent == 8 * per_thread and client.wrote is False


def test_threads_of_an_insecure_client_silence_the_warning_together_and_restore_the_filters_once():
    silencer = InsecureWarningSilencer()
    before = list(warnings.filters)
    inside = threading.Barrier(6)
    leave_in_turn = [threading.Event() for dummy in range(6)]
    seen = []

    def request(index):
        with silencer.around(True):
            inside.wait(timeout=10)
            seen.append(warnings.filters[0][:3:2])  # (action, category) of the first filter
            leave_in_turn[index].wait(timeout=10)

    threads = [threading.Thread(target=request, args=(index,)) for index in range(6)]
    for thread in threads:
        thread.start()
    for event in reversed(leave_in_turn):  # leave in another order than they came
        event.set()
    for thread in threads:
        thread.join(timeout=10)

    assert seen == [("ignore", InsecureRequestWarning)] * 6
    assert warnings.filters == before


def test_a_verified_client_leaves_the_warning_filters_alone():
    before = list(warnings.filters)
    with InsecureWarningSilencer().around(False):
        assert warnings.filters == before
