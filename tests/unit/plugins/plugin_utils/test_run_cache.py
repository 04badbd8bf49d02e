# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The run cache: its broker (in this process, and as the process a lookup starts) and its client."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid

import pytest

from ansible_collections.credvault.vault.plugins.plugin_utils import _run_cache, _run_cache_broker
from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache import RunCache, serve_cached

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the run cache is Linux only")

TOKEN = "tok-3c1e-secret"


def options(token=TOKEN, url="https://vault.example:8443"):
    return {"url": url, "org_name": None, "auth_token": token}.get


@pytest.fixture
def broker():
    """A broker served by a thread of this process, for this process (its own main process)."""
    started = []

    def start(main_pid=None, uid=None):
        server = _run_cache_broker.Broker("credvault-test/%s" % uuid.uuid4(), main_pid or os.getpid(), uid)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.shutdown()
        server.server_close()


def client(server):
    return RunCache(_run_cache._connect(server.server_address[1:].decode()))


def password_key(cache, item, reason="", token=TOKEN):
    return cache.key(_run_cache.PASSWORD, options(token), item[0], item[1], reason)


class Fetcher:
    """A fetch that records what it was asked for; ``fail`` items give an error instead of a value."""

    def __init__(self, fail=()):
        self.asked = []
        self.fail = set(fail)

    def __call__(self, items):
        self.asked.extend(items)
        return {item: ValueError("refused") if item in self.fail else "pw-%s-%s" % item for item in items}


def test_a_secret_is_fetched_once_and_then_served(broker):
    server = broker()
    fetch = Fetcher()
    items = [("web", "root"), ("db", "sa")]
    first = client(server).serve(items, password_key, fetch)
    second = client(server).serve(items + [("web", "app")], password_key, fetch)
    assert first == {("web", "root"): "pw-web-root", ("db", "sa"): "pw-db-sa"}
    assert second[("web", "root")] == "pw-web-root"
    assert fetch.asked == items + [("web", "app")]


def test_errors_are_not_cached(broker):
    server = broker()
    fetch = Fetcher(fail=[("web", "root")])
    client(server).serve([("web", "root")], password_key, fetch)
    client(server).serve([("web", "root")], password_key, fetch)
    assert fetch.asked == [("web", "root"), ("web", "root")]


def test_another_reason_or_token_is_another_retrieval(broker):
    server = broker()
    fetch = Fetcher()
    cache = client(server)
    cache.serve([("web", "root")], password_key, fetch)
    cache.serve([("web", "root")], lambda c, item: password_key(c, item, reason="Deploy 4.3"), fetch)
    cache.serve([("web", "root")], lambda c, item: password_key(c, item, token="another-token"), fetch)
    cache.serve([("web", "root")], lambda c, item: password_key(c, item, reason="Deploy 4.3"), fetch)
    assert fetch.asked == [("web", "root")] * 3


def test_the_key_holds_a_keyed_hash_of_the_token_never_the_token(broker):
    server = broker()
    key = password_key(client(server), ("web", "root"))
    assert TOKEN not in "".join(key)
    assert key[3] != password_key(client(broker()), ("web", "root"))[3]  # another run, another key
    assert key == password_key(client(server), ("web", "root"))


def test_a_drop_forgets_the_account_and_voids_fetches_under_way(broker):
    server = broker()
    fetch = Fetcher()
    cache = client(server)
    cache.serve([("web", "root"), ("web", "app"), ("db", "sa")], password_key, fetch)
    client(server).drop(_run_cache.PASSWORD, "web", "root")
    cache.serve([("web", "root"), ("web", "app")], password_key, fetch)
    assert fetch.asked[3:] == [("web", "root")]

    def rotated_meanwhile(items):
        client(server).drop(_run_cache.PASSWORD, "db", None)  # a module wrote while this fetch was under way
        return fetch(items)

    client(server).drop(_run_cache.PASSWORD, "db", None)
    cache.serve([("db", "sa")], password_key, rotated_meanwhile)
    cache.serve([("db", "sa")], password_key, fetch)
    assert fetch.asked[4:] == [("db", "sa"), ("db", "sa")]


def test_a_drop_of_a_resource_or_of_everything(broker):
    server = broker()
    fetch = Fetcher()
    cache = client(server)
    items = [("web", "root"), ("web", "app"), ("db", "sa")]
    cache.serve(items, password_key, fetch)
    cache.drop(_run_cache.PASSWORD, "web")
    cache.serve(items, password_key, fetch)
    cache.drop(_run_cache.SSH_KEY, None)  # another kind: nothing of the passwords
    cache.serve(items, password_key, fetch)
    cache.drop(_run_cache.PASSWORD, None)
    cache.serve(items, password_key, fetch)
    assert fetch.asked == items + [("web", "root"), ("web", "app")] + items


def test_a_process_fetching_makes_the_others_wait_for_its_value(broker):
    server = broker()
    leased = threading.Event()
    release = threading.Event()
    fetch = Fetcher()

    def slow(items):
        leased.set()
        release.wait(10)
        return fetch(items)

    results = {}
    first = threading.Thread(
        target=lambda: results.update(a=client(server).serve([("web", "root")], password_key, slow))
    )
    first.start()
    leased.wait(10)
    second = threading.Thread(
        target=lambda: results.update(b=client(server).serve([("web", "root")], password_key, fetch))
    )
    second.start()
    time.sleep(0.2)
    release.set()
    first.join(10)
    second.join(10)
    assert results["a"] == results["b"] == {("web", "root"): "pw-web-root"}
    assert fetch.asked == [("web", "root")]


def test_a_waiting_process_fetches_itself_when_the_fetching_one_fails_or_goes(broker):
    server = broker()
    holder = client(server)
    assert holder._ask({"op": "acquire", "keys": [password_key(holder, ("web", "root"))]})["results"] == [
        {"lease": True}
    ]
    fetch = Fetcher()
    threading.Timer(0.3, holder.close).start()  # the fetching process dies: its lease ends with its connection
    assert client(server).serve([("web", "root")], password_key, fetch) == {("web", "root"): "pw-web-root"}
    assert fetch.asked == [("web", "root")]


def test_another_user_is_not_served(broker):
    server = broker(uid=os.getuid() + 1)
    with pytest.raises(OSError):  # closed unanswered
        client(server)


def test_a_process_outside_the_run_is_not_served(broker):
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        server = broker(main_pid=other.pid)
        with pytest.raises(OSError):  # closed unanswered
            client(server)
    finally:
        other.kill()
        other.wait()


def test_descent_is_read_up_the_parents():
    parents = {30: 20, 20: 10, 10: 1}.get
    assert _run_cache_broker.descends_from(30, 10, parents)
    assert _run_cache_broker.descends_from(10, 10, parents)
    assert not _run_cache_broker.descends_from(20, 30, parents)
    assert not _run_cache_broker.descends_from(40, 10, parents)


def test_a_broken_broker_falls_back_to_fetching_with_one_warning(monkeypatch):
    fetch, warnings = Fetcher(), []

    def broken():
        raise _run_cache.RunCacheUnavailable("it needs Linux")

    monkeypatch.setattr(RunCache, "open", staticmethod(broken))
    assert serve_cached(warnings.append, [("web", "root")], password_key, fetch) == {("web", "root"): "pw-web-root"}
    assert warnings == ["run_cache: not used, fetching from the vault: it needs Linux"]


def test_a_broker_that_answers_garbage_falls_back_once(broker, monkeypatch):
    server = broker()
    fetch, warnings = Fetcher(), []
    monkeypatch.setattr(RunCache, "open", staticmethod(lambda: client(server)))
    monkeypatch.setattr(_run_cache_broker.Entries, "acquire", lambda *args: {"results": "nonsense"})
    items = [("web", "root"), ("db", "sa")]
    assert serve_cached(warnings.append, items, password_key, fetch) == {item: "pw-%s-%s" % item for item in items}
    assert len(warnings) == 1 and warnings[0].startswith("run_cache: the broker failed, fetching from the vault")


# The broker as a process: started by the first process of a run, found by the others, gone with the run.

RUN = """
import multiprocessing, os, sys, time
from ansible_collections.credvault.vault.plugins.plugin_utils import _run_cache

def worker():
    cache = _run_cache.RunCache.open()
    key = lambda cache, item: cache.key("password", {"url": "https://v", "auth_token": "t"}.get, *item)
    print(cache.serve([("web", "root")], key, lambda items: {items[0]: "pw-from-%d" % os.getpid()}), flush=True)
    cache.close()

if __name__ == "__main__":
    print(_run_cache.run_identity()[0], flush=True)
    for _ in range(3):  # one worker after another, as the tasks of a run
        process = multiprocessing.get_context("fork").Process(target=worker)
        process.start()
        process.join()
    time.sleep(60)
"""


def _broker_running(name):
    with open("/proc/net/unix", encoding="ascii") as table:
        return "@" + name in table.read()


def test_the_workers_of_a_run_share_one_broker_which_ends_with_the_run():
    main = subprocess.Popen([sys.executable, "-c", RUN], stdout=subprocess.PIPE, text=True)
    try:
        name = main.stdout.readline().strip()
        values = [main.stdout.readline().strip() for dummy in range(3)]
        assert len(set(values)) == 1 and "pw-from-" in values[0]  # the first worker's value, served to the others
        assert _broker_running(name)
        with pytest.raises(OSError):
            RunCache(_run_cache._connect(name))  # this process is not of that run
    finally:
        main.kill()  # as kill -9: nothing of the run gets to clean up
        main.wait()
    deadline = time.monotonic() + 10
    while _broker_running(name) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _broker_running(name)


def test_without_a_broker_a_write_costs_nothing():
    assert _run_cache.drop_written([(_run_cache.PASSWORD, "web", "root")]) is None
    name = _run_cache.run_identity()[0]
    assert not _broker_running(name)
    with pytest.raises(OSError):
        socket.socket(socket.AF_UNIX).connect("\0" + name)


def test_off_linux_the_cache_is_not_used(monkeypatch):
    monkeypatch.setattr(_run_cache.sys, "platform", "darwin")
    with pytest.raises(_run_cache.RunCacheUnavailable, match="it needs Linux"):
        RunCache.open()


def test_a_broker_that_does_not_start_in_time_is_given_up(monkeypatch, tmp_path):
    silent = tmp_path / "silent_broker.py"
    silent.write_text("import time\ntime.sleep(30)\n")
    monkeypatch.setattr(_run_cache, "BROKER", str(silent))
    monkeypatch.setattr(_run_cache, "START_TIMEOUT", 0.5)
    monkeypatch.setattr(_run_cache, "run_identity", lambda: ("credvault-test/%s" % uuid.uuid4(), os.getpid(), "0"))
    with pytest.raises(_run_cache.RunCacheUnavailable, match="did not start within"):
        RunCache.open()
