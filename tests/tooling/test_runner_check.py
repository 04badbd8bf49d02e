# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/utils/runner_check.py: the credential type's injectors applied as AWX applies them, and the search of a
private data directory (what is found where, the injected token file left out, JSON-escaped values found)."""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import sys

import pytest

UTILS = os.path.join(os.path.dirname(__file__), "..", "utils")


@pytest.fixture(scope="module")
def runner_check():
    spec = importlib.util.spec_from_file_location("runner_check", os.path.join(UTILS, "runner_check.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["runner_check"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def job(runner_check, tmp_path, monkeypatch):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    monkeypatch.setenv("CREDVAULT_URL", "https://vault.example:7272")
    monkeypatch.setenv("CREDVAULT_CA_PATH", str(ca))
    instance = runner_check.Job.__new__(runner_check.Job)
    instance.token = "TOKEN-of-the-job-1"
    return instance


def test_the_token_is_injected_as_a_file_only_its_path_in_the_environment(runner_check, job, tmp_path):
    (tmp_path / "env").mkdir()
    environment, token_file = job.injected(str(tmp_path), runner_check.TOKEN_IN_FILE)
    assert environment["CREDVAULT_AUTH_TOKEN_FILE"] == token_file
    assert "CREDVAULT_AUTH_TOKEN" not in environment
    assert open(token_file).read() == "TOKEN-of-the-job-1"
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert environment["CREDVAULT_URL"] == "https://vault.example:7272"
    assert open(environment["CREDVAULT_CA_PATH"]).read().startswith("-----BEGIN CERTIFICATE-----")
    # Inputs left empty: their variables are empty, which the collection reads as unset.
    assert environment["CREDVAULT_CLIENT_CERT"] == "" and environment["CREDVAULT_PROXY_URL"] == ""
    assert "TOKEN-of-the-job-1" not in json.dumps(environment)


def test_before_the_token_was_an_environment_variable(runner_check, job, tmp_path):
    (tmp_path / "env").mkdir()
    environment, token_file = job.injected(str(tmp_path), runner_check.TOKEN_IN_ENVIRONMENT)
    assert token_file is None
    assert environment["CREDVAULT_AUTH_TOKEN"] == "TOKEN-of-the-job-1"
    assert "CREDVAULT_AUTH_TOKEN_FILE" not in environment


def test_the_search_says_what_is_found_where(runner_check, tmp_path):
    files = {
        "artifacts/site/command": json.dumps({"env": {"CREDVAULT_AUTH_TOKEN": "TOK\\EN"}}),
        "artifacts/site/job_events/1-abc.json": "nothing here",
        "artifacts/site/fact_cache/node1": json.dumps({"ansible_env": {"X": "pass\nword"}}),
        "env/credential_auth_token": "TOK\\EN",
        "project/site.yml": "pass\nword",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    found = runner_check.search(
        str(tmp_path),
        {"auth_token": "TOK\\EN", "password": "pass\nword", "unused": "zzz"},
        excluded=[str(tmp_path / "env" / "credential_auth_token")],
    )
    assert found == {"command": {"auth_token"}, "fact cache": {"password"}, "other files": {"password"}}
