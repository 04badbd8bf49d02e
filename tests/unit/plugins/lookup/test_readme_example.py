# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The README's first example and its check task are what the integration target lookup_connection runs."""

from __future__ import annotations

import os
import re

import yaml

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")
TARGET = os.path.join(ROOT, "tests", "integration", "targets", "lookup_connection")


def readme_examples():
    """The YAML blocks of the section "Using it", parsed."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        section = handle.read().split("\n## Using it\n", 1)[1].split("\n## ", 1)[0]
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]


def load(*path):
    with open(os.path.join(TARGET, *path), encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def test_the_first_example_is_the_playbook_the_target_runs():
    assert readme_examples()[0] == load("playbooks", "readme_example.yml")


def test_the_check_task_is_the_one_the_target_runs():
    assert readme_examples()[1] == load("tasks", "readme_check.yml")


def test_the_first_example_gives_the_lookup_the_settings_module_defaults_give_the_modules():
    play = readme_examples()[0][0]
    defaults = play["module_defaults"]["group/credvault.vault.vault"]
    assert {option: play["vars"]["credvault_%s" % option] for option in defaults} == {
        "url": "https://vault.example.com:7272",
        "auth_token": "{{ vault_api_token }}",
        "ca_path": "/etc/pki/vault-ca.pem",
        "edition": "A",
        "build": 12450,
    }
    assert defaults == {option: "{{ credvault_%s }}" % option for option in defaults}
