# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The event source as ansible-rulebook runs it (``runpy.run_path``, ``await main(queue, args)``) with an asyncio
queue: events handed over in order, each noted in the cursor's journal, the cursor written after each poll, a vault that fails or refuses the token logged
and polled again with backoff, arguments resolved like the modules' options, and its DOCUMENTATION."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import runpy

import pytest
import requests
import yaml

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConnectionError, VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._settings import DEFAULT_RETRIES, DEFAULT_TIMEOUT
from ansible_collections.credvault.vault.plugins.plugin_utils import _event_source
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, FakeSession
from ansible_collections.credvault.vault.tests.unit.plugins.plugin_utils.audit_trail import Trail

COLLECTION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(_event_source.__file__))))
SOURCE = os.path.join(COLLECTION, "extensions", "eda", "plugins", "event_source", "vault_audit.py")
TOKEN = "TOKEN-SECRET-9f8e"
CONNECTION = {"url": "https://vault.example:7272", "auth_token": TOKEN}


@pytest.fixture
def plugin():
    return runpy.run_path(SOURCE)


REAL_SLEEP = asyncio.sleep


class Sleeps(list):
    """The delays the source slept; ``between_polls`` runs at each of its sleeps; after ``limit`` sleeps, the
    source sleeps until cancelled."""

    between_polls = None
    limit = 50


@pytest.fixture
def sleeps(monkeypatch):
    """The source's asyncio.sleep records its delay, runs ``between_polls`` and returns at once."""
    delays = Sleeps()

    async def sleep(delay, *args):
        delays.append(delay)
        if delays.between_polls:
            delays.between_polls()
        if len(delays) >= delays.limit:
            await asyncio.Event().wait()
        await REAL_SLEEP(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    return delays


@pytest.fixture
def trail(monkeypatch):
    """The vault the source polls."""
    vault = Trail()
    monkeypatch.setattr(_event_source, "client_from_options", lambda get: vault)
    return vault


def run_until(plugin, args, count, sleeps):
    """Run the source until ``count`` events are in its queue, or it slept ``sleeps.limit`` times (10 s at most);
    the events, in order."""

    async def scenario():
        queue = asyncio.Queue()
        task = asyncio.ensure_future(plugin["main"](queue, dict(CONNECTION, **args)))
        for _number in range(1000):
            await REAL_SLEEP(0.01)
            if queue.qsize() >= count or task.done() or len(sleeps) >= sleeps.limit:
                break
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return [queue.get_nowait() for _number in range(queue.qsize())]

    return asyncio.run(scenario())


def test_events_reach_the_queue_oldest_first_and_the_cursor_marks_them_given(plugin, trail, sleeps, tmp_path):
    cursor = str(tmp_path / "cursor")
    trail.add()
    pending = [["CHANGE PASSWORD", "web01"], ["CHANGE PASSWORD", "web02"]]

    def a_change():
        if pending:
            operation, resource = pending.pop(0)
            trail.add(operation=operation, resource=resource)

    sleeps.between_polls = a_change
    args = {"interval": 5, "cursor_file": cursor, "audit_types": ["resource"]}
    events = run_until(plugin, args, 2, sleeps)
    assert [event["vault_audit"]["resource"] for event in events] == ["web01", "web02"]
    assert set(sleeps) == {5}
    seen = json.loads(open(cursor, encoding="utf-8").read())["positions"]["resource"]["seen"]
    assert sorted(seen) == ["1", "2", "3"]
    trail.add(resource="web03")
    assert [e["vault_audit"]["resource"] for e in run_until(plugin, args, 1, sleeps)] == ["web03"]


def test_a_burst_is_handed_over_with_one_write_of_the_cursor_file_per_poll(
    plugin, trail, sleeps, tmp_path, monkeypatch
):
    cursor = str(tmp_path / "cursor")
    trail.add()
    burst = []
    sleeps.between_polls = lambda: burst or burst.extend(trail.add() for _number in range(200))
    writes = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda source, target: writes.append(target) or real_replace(source, target))
    events = run_until(plugin, {"cursor_file": cursor, "audit_types": ["resource"]}, 200, sleeps)
    assert [event["vault_audit"]["audit_id"] for event in events] == burst
    assert writes == [cursor] * len(sleeps)
    assert (
        sorted(json.loads(open(cursor, encoding="utf-8").read())["positions"]["resource"]["seen"], key=int)
        == ["1"] + burst
    )


def test_a_failing_vault_is_logged_and_polled_again_after_a_growing_backoff(plugin, trail, sleeps, caplog):
    trail.failures = [VaultConnectionError("GET_AUDIT: no answer from https://vault.example:7272")]

    def recover_after_four_failures():
        if len(sleeps) == 4:
            trail.failures = []
            trail.add()

    sleeps.between_polls = recover_after_four_failures
    with caplog.at_level(logging.WARNING, logger="credvault.vault.vault_audit"):
        events = run_until(plugin, {"interval": 10, "max_backoff": 35, "start_at": "last_7_days"}, 1, sleeps)
    assert len(events) == 1
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 4
    assert all("no answer from https://vault.example:7272; next try in" in error for error in errors)
    for delay, ceiling in zip(sleeps, [10, 20, 35, 35]):
        assert ceiling / 2 <= delay <= ceiling
    assert "read again after 4 failed polls" in caplog.text


def test_a_refused_token_is_a_clear_error_without_the_token(plugin, sleeps, caplog, monkeypatch):
    refusal = {"operation": {"name": "GET_AUDIT", "result": {"status": "Failed", "message": "Invalid API key"}}}
    make_client = _event_source.client_from_options

    def refusing_client(get):
        client = make_client(get)
        client.session = FakeSession([FakeResponse(401, refusal) for _number in range(20)])
        return client

    monkeypatch.setattr(_event_source, "client_from_options", refusing_client)
    with caplog.at_level(logging.ERROR, logger="credvault.vault.vault_audit"):
        sleeps.limit = 3
        run_until(plugin, {"interval": 1}, 1, sleeps)
    assert caplog.text.count("Invalid API key") == 3
    assert TOKEN not in caplog.text


def test_the_connection_comes_from_the_environment_like_the_modules(monkeypatch):
    monkeypatch.setenv("CREDVAULT_URL", "https://from-env.example")
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN", TOKEN)
    monkeypatch.setenv("CREDVAULT_TIMEOUT", " ")
    settings = _event_source.source_settings({"eda_feedback_queue": object()})
    assert settings["url"] == "https://from-env.example"
    assert settings["timeout"] == DEFAULT_TIMEOUT
    client = _event_source.audit_events(settings).client
    assert isinstance(client.session, requests.Session) and client.base_url == "https://from-env.example"


def test_the_token_can_come_from_a_private_file_read_once_at_start(monkeypatch, tmp_path):
    monkeypatch.delenv("CREDVAULT_AUTH_TOKEN", raising=False)
    path = tmp_path / "token"
    path.write_text(TOKEN + "\n")
    path.chmod(0o600)
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN_FILE", str(path))
    settings = _event_source.source_settings({"url": "https://vault.example"})
    path.unlink()
    assert settings["auth_token"] == TOKEN and settings["auth_token_file"] is None
    assert _event_source.audit_events(settings).client.session.headers["AUTHTOKEN"] == TOKEN


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"auth_token": None}, "auth_token or auth_token_file is required"),
        ({"auth_token_file": "/nonexistent/token"}, "auth_token and auth_token_file are both set as options"),
        ({"auth_token": None, "auth_token_file": "/nonexistent/token"}, "/nonexistent/token does not exist"),
        ({"url": None}, "url"),
        ({"start_at": "yesterday"}, "start_at"),
        ({"audit_types": ["resources"]}, "audit_types"),
        ({"audit_types": []}, "audit_types must name"),
        ({"interval": 0}, "interval must be above 0"),
        ({"page_size": 5000}, "page_size must be from 1 to 1000"),
        ({"operation": ["*"]}, "operation"),
        ({"retries": "many"}, "retries"),
    ],
)
def test_arguments_that_cannot_work_stop_the_source_with_a_clear_error(plugin, trail, args, message, monkeypatch):
    for name in ("URL", "AUTH_TOKEN", "AUTH_TOKEN_FILE"):
        monkeypatch.delenv("CREDVAULT_%s" % name, raising=False)
    with pytest.raises(VaultInputError, match=message) as raised:
        asyncio.run(asyncio.wait_for(plugin["main"](asyncio.Queue(), dict(CONNECTION, **args)), 5))
    assert str(raised.value).startswith("credvault.vault.vault_audit: ")
    assert TOKEN not in str(raised.value)
    assert trail.queries == []


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/cursor.json", "its directory {tmp}/missing does not exist"),
        ("", "cursor_file {tmp} is a directory"),
        ("locked/cursor.json", "its directory {tmp}/locked is not writable"),
    ],
    ids=["no directory", "a directory", "not writable"],
)
def test_a_cursor_file_that_cannot_be_written_stops_the_source_at_start_naming_it(
    plugin, trail, tmp_path, where, message, monkeypatch
):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    # As the directory's permissions would tell another user than root (for whom os.access allows everything).
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: real_access(p, mode) and p != str(locked))
    path = str(tmp_path / where) if where else str(tmp_path)
    with pytest.raises(VaultInputError) as raised:
        asyncio.run(asyncio.wait_for(plugin["main"](asyncio.Queue(), dict(CONNECTION, cursor_file=path)), 5))
    assert message.format(tmp=tmp_path) in str(raised.value)
    assert trail.queries == []


def test_backoff_doubles_from_the_interval_up_to_its_limit_with_jitter(plugin):
    for failures, ceiling in [(1, 10), (2, 20), (3, 40), (4, 60), (9, 60)]:
        delays = [plugin["backoff"](failures, 10, 60) for _number in range(50)]
        assert all(ceiling / 2 <= delay <= ceiling for delay in delays)
        assert len(set(delays)) > 1


def test_the_documentation_mirrors_the_argument_spec_and_the_example_is_the_tested_rulebook(plugin):
    documented = yaml.safe_load(plugin["DOCUMENTATION"])["options"]
    spec = _event_source.source_argument_spec()
    assert sorted(documented) == sorted(spec)
    defaults = {"timeout": DEFAULT_TIMEOUT, "retries": DEFAULT_RETRIES}
    for name, option in spec.items():
        shown = documented[name]
        assert shown["type"] == option["type"], name
        assert shown.get("default") == option.get("default", defaults.get(name)), name
        assert shown.get("choices") == option.get("choices"), name
        assert shown.get("required", False) == option.get("required", False), name
        assert shown.get("elements") == option.get("elements"), name
        fallback = option.get("fallback", (None, []))[1]
        assert [env["name"] for env in shown.get("env", [])] == fallback, name
    with open(os.path.join(COLLECTION, "docs", "examples", "eda", "rulebook.yml"), encoding="utf-8") as rulebook:
        assert plugin["EXAMPLES"].strip() == rulebook.read().strip()


def test_the_cursor_is_written_after_the_first_poll_of_an_empty_trail(plugin, trail, sleeps, tmp_path):
    cursor = tmp_path / "cursor"
    sleeps.limit = 1
    run_until(plugin, {"cursor_file": str(cursor)}, 1, sleeps)
    assert sorted(json.loads(cursor.read_text())["positions"]) == ["resource", "user"]
    trail.add()
    sleeps.clear()
    events = run_until(plugin, {"cursor_file": str(cursor)}, 1, sleeps)
    assert [event["vault_audit"]["audit_id"] for event in events] == ["1"]
