# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The lookups' id cache: modes, refused files, no token, TTL, merging, a corrupt file."""

from __future__ import annotations

import json
import os
import stat

import pytest

from ansible_collections.credvault.vault.plugins.plugin_utils._id_cache import IdCache, identity

TOKEN = "TOKEN-SECRET-91"
KEY = identity("https://vault.example:7272", None, TOKEN)


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "cache" / "ids.json")


@pytest.fixture
def warnings():
    return []


@pytest.fixture
def open_cache(path, warnings):
    def make(key=KEY, ttl=60, clock=None):
        return IdCache(path, key, ttl, warnings.append, clock=clock or Clock())

    return make


def mode(name):
    return stat.S_IMODE(os.lstat(name).st_mode)


@pytest.fixture
def permissive_umask():
    previous = os.umask(0)
    yield
    os.umask(previous)


def test_ids_come_back_from_the_file(open_cache):
    cache = open_cache()
    cache.put("web", "root", "1", "11")
    cache.save()
    assert open_cache().get("web", "root") == ("1", "11")


def test_directory_0700_and_file_0600_whatever_the_umask(open_cache, path, permissive_umask):
    cache = open_cache()
    cache.put("web", "root", "1", "11")
    cache.save()
    assert mode(os.path.dirname(path)) == 0o700
    assert mode(path) == 0o600
    assert os.listdir(os.path.dirname(path)) == ["ids.json"]


def test_the_file_holds_ids_and_names_never_the_token(open_cache, path):
    cache = open_cache()
    cache.put("web", "root", "1", "11")
    cache.save()
    text = open(path, encoding="utf-8").read()
    assert TOKEN not in text
    assert json.loads(text)["identities"][KEY]["web"]["root"]["account_id"] == "11"


def test_identities_are_kept_apart(open_cache):
    cache = open_cache()
    cache.put("web", "root", "1", "11")
    cache.save()
    other = identity("https://vault.example:7272", None, "ANOTHER-TOKEN")
    assert other != KEY
    assert open_cache(key=other).get("web", "root") is None
    assert identity("https://vault.example:7272", "Org", TOKEN) != KEY


def test_an_entry_older_than_the_ttl_is_not_used_and_is_dropped(open_cache, path):
    clock = Clock()
    cache = open_cache(ttl=60, clock=clock)
    cache.put("web", "root", "1", "11")
    cache.save()
    clock.now += 59
    assert open_cache(ttl=60, clock=clock).get("web", "root") == ("1", "11")
    clock.now += 1
    later = open_cache(ttl=60, clock=clock)
    assert later.get("web", "root") is None
    later.put("db", "root", "2", "21")
    later.save()
    assert "web" not in json.load(open(path, encoding="utf-8"))["identities"][KEY]


def test_forget_removes_the_entry(open_cache):
    cache = open_cache()
    cache.put("web", "root", "1", "11")
    cache.save()
    cache = open_cache()
    cache.forget("web", "root")
    assert cache.get("web", "root") is None
    cache.save()
    assert open_cache().get("web", "root") is None


def test_saving_merges_what_another_process_wrote_meanwhile(open_cache):
    first, second = open_cache(), open_cache()
    first.put("web", "root", "1", "11")
    second.put("db", "root", "2", "21")
    first.save()
    second.save()
    merged = open_cache()
    assert (merged.get("web", "root"), merged.get("db", "root")) == (("1", "11"), ("2", "21"))


@pytest.mark.parametrize("content", [b"{not json", b"[]", b'{"format": 99, "identities": {}}', b"\xff\xfe"])
def test_a_corrupt_file_is_ignored_with_a_warning_and_rewritten(open_cache, path, warnings, content):
    os.makedirs(os.path.dirname(path))
    with open(path, "wb") as handle:
        handle.write(content)
    os.chmod(path, 0o600)
    cache = open_cache()
    assert cache.get("web", "root") is None
    assert warnings == ["id cache %s is not a cache file of this collection; it is ignored and rewritten" % path]
    cache.put("web", "root", "1", "11")
    cache.save()
    assert open_cache().get("web", "root") == ("1", "11")


def stored(open_cache, path):
    cache = open_cache()
    cache.put("web", "root", "1", "11")
    cache.save()
    with open(path, "rb") as handle:
        return handle.read()


@pytest.mark.parametrize("insecure_mode", [0o620, 0o602, 0o666])
def test_a_file_others_may_write_is_refused_and_left_alone(open_cache, path, warnings, insecure_mode):
    before = stored(open_cache, path)
    os.chmod(path, insecure_mode)
    cache = open_cache()
    assert cache.get("web", "root") is None
    assert len(warnings) == 1 and warnings[0].startswith("id cache %s is not used: group or others may write" % path)
    cache.put("db", "root", "2", "21")
    cache.save()
    assert open(path, "rb").read() == before and mode(path) == insecure_mode


def test_a_file_of_another_user_is_refused(open_cache, path, warnings, monkeypatch):
    stored(open_cache, path)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
    assert open_cache().get("web", "root") is None
    assert warnings[0].startswith("id cache %s is not used: it belongs to another user" % path)


def test_a_symbolic_link_is_not_followed(open_cache, path, warnings, tmp_path):
    target = tmp_path / "elsewhere.json"
    stored(open_cache, path)
    os.replace(path, target)
    os.symlink(target, path)
    cache = open_cache()
    assert cache.get("web", "root") is None
    assert warnings == ["id cache %s is not used: it is a symbolic link" % path]
    cache.put("db", "root", "2", "21")
    cache.save()
    assert os.path.islink(path)
