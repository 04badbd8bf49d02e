# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_password with id_cache: a warm term costs one request; stale ids are resolved again."""

from __future__ import annotations

import os
import stat

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.tests.unit.plugins.lookup import scripted_vault
from ansible_collections.credvault.vault.tests.unit.plugins.lookup.scripted_vault import ANSWERS, CONNECTION

TERMS = ("web/root", "web/app", "db/root")
PASSWORDS = ["Pw-Web-Root-1!", "Pw-Web-App-2!", "Pw-Db-Root-3!"]


@pytest.fixture
def cache_path(tmp_path):
    return str(tmp_path / "cache" / "ids.json")


@pytest.fixture
def lookup(lookup_plugin, vault, cache_path):
    vault.answers.update(ANSWERS)

    def run(*terms, **kwargs):
        options = dict(CONNECTION, id_cache=True, id_cache_path=cache_path, **kwargs)
        return lookup_plugin("vault_password").run(list(terms), variables={}, **options)

    return run


def sent(vault, client=-1):
    return sorted(key for key, *dummy in vault.clients[client].calls)


def test_a_warm_call_sends_one_request_per_term(lookup, vault):
    assert lookup(*TERMS) == PASSWORDS
    assert len(vault.clients[0].calls) == 6
    assert lookup(*TERMS) == PASSWORDS
    assert sent(vault) == ["get_password"] * 3


def test_the_cache_is_off_by_default(lookup_plugin, vault, cache_path):
    vault.answers.update(ANSWERS)
    for dummy in range(2):
        lookup_plugin("vault_password").run(list(TERMS), variables={}, **CONNECTION)
    assert len(vault.clients[1].calls) == 6 and not os.path.exists(cache_path)


def test_the_cache_file_is_private_and_holds_no_secret(lookup, cache_path):
    lookup(*TERMS)
    assert stat.S_IMODE(os.stat(cache_path).st_mode) == 0o600
    text = open(cache_path, encoding="utf-8").read()
    assert not any(secret in text for secret in PASSWORDS + [CONNECTION["auth_token"]])


def test_another_token_does_not_use_the_ids(lookup, vault):
    lookup(*TERMS)
    lookup(*TERMS, auth_token="ANOTHER-TOKEN")
    assert len(vault.clients[1].calls) == 6


def test_a_recreated_account_is_fetched_with_its_new_id(lookup, vault, monkeypatch):
    lookup(*TERMS)
    accounts = {"web": {"root": ("13", "Pw-Web-Root-New!"), "app": ("12", "Pw-Web-App-2!")}}
    monkeypatch.setitem(scripted_vault.ACCOUNTS, "web", accounts["web"])
    monkeypatch.setitem(scripted_vault.PASSWORDS, "13", "Pw-Web-Root-New!")
    monkeypatch.delitem(scripted_vault.PASSWORDS, "11")
    assert lookup(*TERMS) == ["Pw-Web-Root-New!"] + PASSWORDS[1:]
    assert sent(vault) == ["get_password"] * 4 + ["get_resource_account_ids"]
    assert lookup(*TERMS)[0] == "Pw-Web-Root-New!"
    assert sent(vault) == ["get_password"] * 3


def test_an_account_gone_gives_the_default_and_leaves_the_cache(lookup, vault, monkeypatch):
    lookup("db/root")
    monkeypatch.delitem(scripted_vault.ACCOUNTS, "db")
    monkeypatch.delitem(scripted_vault.PASSWORDS, "21")
    assert lookup("db/root", default="-") == ["-"]
    assert lookup("db/root", default="-") == ["-"]
    assert "get_password" not in sent(vault)


def test_an_insecure_cache_file_is_refused_with_a_warning(lookup, vault, cache_path):
    lookup(*TERMS)
    os.chmod(cache_path, 0o666)
    assert lookup(*TERMS) == PASSWORDS
    assert len(vault.clients[1].calls) == 6
    assert vault.warnings == [
        "vault_password: id cache %s is not used: group or others may write it (mode 0666); make it 0600" % cache_path
    ]


def test_the_cache_can_be_turned_on_from_the_environment(lookup_plugin, vault, cache_path, monkeypatch):
    vault.answers.update(ANSWERS)
    monkeypatch.setenv("CREDVAULT_ID_CACHE", "true")
    monkeypatch.setenv("CREDVAULT_ID_CACHE_PATH", cache_path)
    lookup_plugin("vault_password").run(list(TERMS), variables={}, **CONNECTION)
    assert os.path.exists(cache_path)


@pytest.mark.parametrize("ttl", [0, -5])
def test_a_ttl_below_one_second_is_refused(lookup, vault, ttl):
    with pytest.raises(AnsibleLookupError, match="id_cache_ttl must be 1 or more seconds, not %d" % ttl):
        lookup(*TERMS, id_cache_ttl=ttl)
    assert vault.clients == []
