# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""auth_token_file: the token read from a file only its owner can read, one of auth_token and auth_token_file, the
one set as an option winning over the environment; no message shows the token."""

from __future__ import annotations

import os

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConfigError
from ansible_collections.credvault.vault.plugins.module_utils._options import (
    auth_token_from_options,
    client_from_options,
    with_auth_token,
)
from ansible_collections.credvault.vault.plugins.module_utils._token_file import read_token_file

TOKEN = "4B1D6C7E-0F2A-4F7B-9C11-Token-File-7731"
OTHER = "9E2F1A3B-1111-4A2B-8C33-Option-Token-42"


@pytest.fixture(autouse=True)
def no_credvault_environment(monkeypatch):
    for name in ("CREDVAULT_AUTH_TOKEN", "CREDVAULT_AUTH_TOKEN_FILE"):
        monkeypatch.delenv(name, raising=False)


def token_file(tmp_path, content=TOKEN + "\n", mode=0o600, name="token"):
    path = tmp_path / name
    path.write_text(content)
    path.chmod(mode)
    return str(path)


def refusal(callable_, *args):
    with pytest.raises(VaultConfigError) as raised:
        callable_(*args)
    assert TOKEN not in str(raised.value)
    return str(raised.value)


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o700])
def test_a_file_only_its_owner_can_read_gives_its_token_without_surrounding_whitespace(tmp_path, mode):
    assert read_token_file(token_file(tmp_path, "  %s \r\n" % TOKEN, mode)) == TOKEN


def test_a_symbolic_link_to_a_private_file_is_followed(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(token_file(tmp_path))
    assert read_token_file(str(link)) == TOKEN


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o644, 0o660, 0o620, 0o602, 0o610])
def test_a_file_others_can_read_or_write_is_refused_saying_how_to_fix_it(tmp_path, mode):
    path = token_file(tmp_path, mode=mode)
    message = refusal(read_token_file, path)
    assert path in message and "%04o" % mode in message and "chmod 600" in message


@pytest.mark.parametrize(
    "make, words",
    [
        (str, "is not a regular file"),
        (lambda tmp_path: str(tmp_path / "missing"), "does not exist"),
        (lambda tmp_path: token_file(tmp_path, " \n"), "is empty"),
        (lambda tmp_path: token_file(tmp_path, "x" * (64 * 1024 + 1)), "larger than a token file"),
    ],
)
def test_what_is_no_token_file_is_refused_naming_the_path(tmp_path, make, words):
    path = make(tmp_path)
    message = refusal(read_token_file, path)
    assert path in message and words in message


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo, 0o600)
    assert "is not a regular file" in refusal(read_token_file, fifo)


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "binary"
    path.write_bytes(b"\xff\xfe" + TOKEN.encode())
    path.chmod(0o600)
    assert "is not text" in refusal(read_token_file, str(path))


def options(**values):
    return values.get


def test_the_token_comes_from_auth_token_or_from_the_file(tmp_path):
    assert auth_token_from_options(options(auth_token=OTHER)) == OTHER
    assert auth_token_from_options(options(auth_token_file=token_file(tmp_path))) == TOKEN
    assert auth_token_from_options(options(auth_token="  ", auth_token_file=token_file(tmp_path))) == TOKEN


def test_neither_set_names_both_options_and_both_variables():
    message = refusal(auth_token_from_options, options(auth_token=" ", auth_token_file=""))
    for name in ("auth_token", "auth_token_file", "CREDVAULT_AUTH_TOKEN", "CREDVAULT_AUTH_TOKEN_FILE"):
        assert name in message


def test_both_set_as_options_is_an_error(tmp_path):
    message = refusal(auth_token_from_options, options(auth_token=OTHER, auth_token_file=token_file(tmp_path)))
    assert "both set as options" in message and OTHER not in message


def test_both_from_the_environment_is_an_error(tmp_path, monkeypatch):
    path = token_file(tmp_path)
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN", OTHER)
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN_FILE", path)
    message = refusal(auth_token_from_options, options(auth_token=OTHER, auth_token_file=path))
    assert "CREDVAULT_AUTH_TOKEN and CREDVAULT_AUTH_TOKEN_FILE" in message and OTHER not in message


def test_an_option_wins_over_the_other_from_the_environment(tmp_path, monkeypatch):
    """A credential injects CREDVAULT_AUTH_TOKEN_FILE; the play's module_defaults give auth_token (and the reverse);
    a path option is compared as the module expands it (``~``)."""
    path = token_file(tmp_path)
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN_FILE", path)
    assert auth_token_from_options(options(auth_token=OTHER, auth_token_file=path)) == OTHER

    monkeypatch.delenv("CREDVAULT_AUTH_TOKEN_FILE")
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN", OTHER)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert auth_token_from_options(options(auth_token=OTHER, auth_token_file=path)) == TOKEN

    monkeypatch.delenv("CREDVAULT_AUTH_TOKEN")
    monkeypatch.setenv("CREDVAULT_AUTH_TOKEN_FILE", "~/token")
    assert auth_token_from_options(options(auth_token=OTHER, auth_token_file=path)) == OTHER


def test_the_file_is_read_each_time_a_client_is_made(tmp_path):
    path = token_file(tmp_path)
    first = client_from_options(options(url="https://vault.example.com", auth_token_file=path))
    token_file(tmp_path, OTHER)
    second = client_from_options(options(url="https://vault.example.com", auth_token_file=path))
    try:
        assert first.session.headers["AUTHTOKEN"] == TOKEN
        assert second.session.headers["AUTHTOKEN"] == OTHER
    finally:
        first.close()
        second.close()


def test_the_resolved_getter_reads_the_file_once_and_can_be_passed_on(tmp_path):
    path = token_file(tmp_path)
    resolved = with_auth_token(options(url="https://vault.example.com", auth_token_file=path))
    os.remove(path)
    assert resolved("auth_token") == TOKEN and resolved("auth_token_file") is None
    assert with_auth_token(resolved)("auth_token") == TOKEN
    assert resolved("url") == "https://vault.example.com"
