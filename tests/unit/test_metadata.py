# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's version and changelog fragments agree with its plugins."""

from __future__ import annotations

import glob
import os
import re

import yaml

from ansible_collections.credvault.vault.plugins.module_utils._client import USER_AGENT

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def galaxy_version():
    with open(os.path.join(ROOT, "galaxy.yml")) as handle:
        return yaml.safe_load(handle)["version"]


def version_tuple(text):
    return tuple(int(part) for part in str(text).split("."))


def versions_added():
    found = {}
    for path in glob.glob(os.path.join(ROOT, "plugins", "*", "*.py")):
        with open(path) as handle:
            match = re.search(r"^version_added: *[\"']?([0-9.]+)", handle.read(), re.M)
        if match:
            found[os.path.relpath(path, ROOT)] = match.group(1)
    return found


def test_no_plugin_is_newer_than_the_collection_and_the_newest_is_this_version():
    added = versions_added()
    assert added, "no plugin declares version_added"
    newer = {
        path: version for path, version in added.items() if version_tuple(version) > version_tuple(galaxy_version())
    }
    assert newer == {}
    assert max(added.values(), key=version_tuple) == galaxy_version()


def test_the_client_does_not_repeat_the_collection_version():
    """galaxy.yml alone holds the version: the User-Agent names the collection only (_client.py says why)."""
    assert USER_AGENT == "credvault.vault"


def changelog_entries():
    """Every entry of the unreleased fragments and of the releases recorded in changelogs/changelog.yaml."""
    for path in sorted(glob.glob(os.path.join(ROOT, "changelogs", "fragments", "*.yml"))):
        with open(path) as handle:
            for section, entries in yaml.safe_load(handle).items():
                for entry in [entries] if isinstance(entries, str) else entries:
                    yield os.path.basename(path), section, entry
    with open(os.path.join(ROOT, "changelogs", "changelog.yaml")) as handle:
        releases = yaml.safe_load(handle).get("releases") or {}
    for version, release in releases.items():
        for section, entries in (release.get("changes") or {}).items():
            for entry in [entries] if isinstance(entries, str) else entries:
                yield version, section, entry


def test_changelog_holds_only_user_visible_changes():
    """New plugins are listed by antsibull-changelog from ``version_added``; the simulator is not shipped."""
    entries = list(changelog_entries())
    assert entries
    for name, section, entry in entries:
        assert section != "trivial", name
        assert not re.match(r"^\S+ - new (module|lookup plugin)\b", entry), (name, entry)
        assert "simulator" not in entry.lower(), (name, entry)
