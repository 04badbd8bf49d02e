# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Connection options: one argspec, the doc fragment mirroring it, blank values unset for every getter."""

from __future__ import annotations

import ast
import os

import pytest
import yaml
from ansible.module_utils.basic import AnsibleFallbackNotFound

from ansible_collections.credvault.vault.plugins.module_utils._options import (
    CONNECTION_OPTIONS,
    client_from_options,
    connection_argument_spec,
    non_blank_env_fallback,
)
from ansible_collections.credvault.vault.plugins.module_utils._settings import is_blank

FRAGMENT = os.path.join(os.path.dirname(__file__), *[".."] * 4, "plugins", "doc_fragments", "connection.py")


def fragment_documentation():
    """The fragment's DOCUMENTATION, read without importing it (the lookup tests' plugin loader does that)."""
    with open(FRAGMENT, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    fragment = next(node for node in tree.body if isinstance(node, ast.ClassDef))
    for node in fragment.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "DOCUMENTATION":
            return yaml.safe_load(node.value.value)
    raise AssertionError("no DOCUMENTATION in %s" % FRAGMENT)


def test_the_doc_fragment_mirrors_the_argspec():
    documented = fragment_documentation()["options"]
    spec = connection_argument_spec()
    assert set(documented) == set(spec) == set(CONNECTION_OPTIONS)
    for name, option in spec.items():
        assert documented[name]["type"] == option["type"], name
        assert documented[name].get("default") == option.get("default"), name
        assert documented[name].get("choices") == option.get("choices"), name
    assert spec["timeout"]["type"] == "float"


@pytest.mark.parametrize("value", ["", " ", " \t\r\n", "\u00a0"])
def test_blank_is_a_text_of_whitespace_only(value):
    assert is_blank(value)


@pytest.mark.parametrize("value", [None, 0, False, [], "x", " token "])
def test_anything_else_is_not_blank(value):
    """None and the falsy non-texts are not blank: None is unset already, the others are values to check."""
    assert not is_blank(value)


def test_the_fallback_skips_blank_variables(monkeypatch):
    monkeypatch.setenv("CREDVAULT_A", "")
    monkeypatch.setenv("CREDVAULT_B", " \t")
    monkeypatch.setenv("CREDVAULT_C", "value")
    assert non_blank_env_fallback("CREDVAULT_A", "CREDVAULT_B", "CREDVAULT_C") == "value"
    with pytest.raises(AnsibleFallbackNotFound):
        non_blank_env_fallback("CREDVAULT_A", "CREDVAULT_B")
    monkeypatch.delenv("CREDVAULT_NONE", raising=False)
    with pytest.raises(AnsibleFallbackNotFound):
        non_blank_env_fallback("CREDVAULT_NONE")
    assert os.environ["CREDVAULT_A"] == ""


def test_client_from_options_reads_blank_strings_as_unset():
    """What a plugin's get_option returns for a blank string option: the client's defaults apply."""
    given = {
        "url": "https://vault.example",
        "auth_token": "t",
        "org_name": "",
        "edition": "",
        "build": "",
        "validate_certs": "",
        "ca_path": " ",
        "timeout": "",
        "retries": "",
    }
    client = client_from_options(given.get)
    assert (client.edition, client.build, client.verify, client.timeout, client.retries) == (None, None, True, 30.0, 3)
    assert "orgName" not in client.session.headers


def test_client_from_options_keeps_false_and_zero():
    given = {"url": "https://vault.example", "auth_token": "t", "validate_certs": False, "retries": 0}
    client = client_from_options(given.get)
    assert client.verify is False and client.insecure and client.retries == 0
