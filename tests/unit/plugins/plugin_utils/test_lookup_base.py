# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The lookups' shared base: options from keywords, variables and environment, terms, keywords, warnings."""

from __future__ import annotations

import os

import pytest
from ansible.errors import AnsibleError, AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultConfigError

URL = "https://vault.example:7272"
TOKEN = "TOKEN-SECRET-77"
CONNECTION = {"url": URL, "auth_token": TOKEN}
IDS = {"RESOURCEID": "1", "ACCOUNTID": "2"}


@pytest.fixture
def lookup(lookup_plugin, vault):
    """``lookup(terms, variables, **kwargs)``: vault_password's run(), its vault answering one password."""
    vault.answers.update({"get_resource_account_ids": IDS, "get_password": {"PASSWORD": "pw"}})

    def run(terms=("web/root",), variables=None, **kwargs):
        return lookup_plugin("vault_password").run(list(terms), variables=variables or {}, **kwargs)

    return run


def failure(run, *args, **kwargs):
    with pytest.raises(AnsibleLookupError) as caught:
        run(*args, **kwargs)
    return str(caught.value)


# Options every lookup reads, and how they are missed.


@pytest.mark.parametrize(
    "given, missing",
    [
        ({"auth_token": TOKEN}, "url"),
        ({"url": URL}, "auth_token"),
    ],
)
def test_a_missing_required_option_names_every_way_to_set_it(lookup, vault, given, missing):
    message = failure(lookup, **given)
    assert message.startswith("vault_password: %s is not set (lookups do not read module_defaults); " % missing)
    assert "the %s= keyword, the credvault_%s variable" % (missing, missing) in message
    assert "the CREDVAULT_%s environment variable" % missing.upper() in message
    assert TOKEN not in message
    assert vault.clients == []


def test_both_missing_are_named_and_the_url_can_also_come_from_ansible_cfg(lookup):
    message = failure(lookup)
    assert "url and auth_token are not set" in message
    assert (
        "set url with the url= keyword, the credvault_url variable, the CREDVAULT_URL environment variable or "
        "url in section [credvault_vault] of ansible.cfg; set auth_token with the auth_token= keyword, "
        "the credvault_auth_token variable or the CREDVAULT_AUTH_TOKEN environment variable"
    ) in message


@pytest.mark.parametrize("source", ["keyword", "variable", "environment"])
def test_a_blank_url_or_token_is_not_set_in_any_source(lookup, vault, monkeypatch, source):
    kwargs, variables = {"auth_token": TOKEN}, {}
    if source == "keyword":
        kwargs["url"] = "  "
    elif source == "variable":
        variables["credvault_url"] = ""
    else:
        monkeypatch.setenv("CREDVAULT_URL", "")
    assert "url is not set" in failure(lookup, variables=variables, **kwargs)
    assert vault.clients == []


def test_a_blank_setting_falls_back_to_the_next_source(lookup, vault, monkeypatch):
    monkeypatch.setenv("CREDVAULT_URL", URL)
    assert lookup(variables={"credvault_url": "", "credvault_auth_token": TOKEN}, url="") == ["pw"]
    assert vault.clients[0].options["url"] == URL


def test_blank_environment_variables_are_unset_and_stay_in_the_environment(lookup, vault, monkeypatch):
    """An empty variable is not a conversion error, nor false (validate_certs), nor the working directory (ca_path)."""
    blank = (
        "CREDVAULT_BUILD",
        "CREDVAULT_EDITION",
        "CREDVAULT_VALIDATE_CERTS",
        "CREDVAULT_CA_PATH",
        "CREDVAULT_TIMEOUT",
        "CREDVAULT_RETRIES",
        "CREDVAULT_ORG_NAME",
        "CREDVAULT_AUTH_TOKEN_FILE",
        "CREDVAULT_CLIENT_CERT",
        "CREDVAULT_CLIENT_KEY",
        "CREDVAULT_PROXY_URL",
    )
    for name in blank:
        monkeypatch.setenv(name, "")
    assert lookup(**CONNECTION) == ["pw"]
    assert vault.clients[0].options == {
        "url": URL,
        "auth_token": TOKEN,
        "auth_token_file": None,
        "org_name": None,
        "edition": None,
        "build": None,
        "validate_certs": True,
        "ca_path": None,
        "client_cert": None,
        "client_key": None,
        "proxy_url": None,
        "timeout": 30,
        "retries": 3,
    }
    assert vault.warnings == []
    assert all(os.environ[name] == "" for name in blank)


def test_settings_come_from_keywords_then_templated_variables_then_environment(lookup, vault, monkeypatch):
    monkeypatch.setenv("CREDVAULT_EDITION", "B")
    monkeypatch.setenv("CREDVAULT_BUILD", "6320")
    monkeypatch.setenv("CREDVAULT_RETRIES", "7")
    variables = {
        "credvault_url": URL,
        "credvault_auth_token": TOKEN,
        "credvault_build": "12450",
        "credvault_edition": "A",
        "unrelated": "x",
    }
    assert lookup(variables=variables, edition="A", timeout=5) == ["pw"]
    options = vault.clients[0].options
    assert (options["edition"], options["build"], options["timeout"], options["retries"]) == ("A", 12450, 5, 7)


@pytest.mark.parametrize("kwargs", [{"auth_token": [TOKEN]}, {"auth_token": {"token": TOKEN}}])
def test_an_unusable_option_value_fails_without_showing_it(lookup, vault, kwargs):
    message = failure(lookup, url=URL, **kwargs)
    assert message.startswith("vault_password: ") and "auth_token" in message
    assert TOKEN not in message
    assert vault.clients == []


def test_an_unusable_variable_fails_without_showing_it(lookup):
    message = failure(lookup, variables={"credvault_url": URL, "credvault_auth_token": [TOKEN]})
    assert "auth_token" in message and TOKEN not in message


def test_an_invalid_choice_names_the_option(lookup):
    message = failure(lookup, edition="C", **CONNECTION)
    assert message.startswith("vault_password: ") and "edition" in message


# Keywords.


@pytest.mark.parametrize(
    "unknown, named",
    [
        (
            {"reson": "Deploy"},
            "unknown keyword reson=; the keywords are account, auth_token, auth_token_file, build, ca_path, client_cert, "
            "client_key, concurrency, default, edition, field, id_cache, id_cache_path, id_cache_ttl, on_denied, "
            "on_missing, org_name, proxy_url, reason, resource, retries, run_cache, ticket_id, "
            "timeout, totp_min_validity, totp_period, url, "
            "validate_certs",
        ),
        ({"reson": "Deploy", "tiket": "CHG-1"}, "unknown keywords reson=, tiket=; the keywords are account, "),
        ({"_terms": ["web/root"]}, "unknown keyword _terms=;"),
    ],
)
def test_unknown_keywords_are_refused_before_anything_is_sent(lookup, vault, unknown, named):
    message = failure(lookup, **dict(CONNECTION, **unknown))
    assert message.startswith("vault_password: " + named)
    assert "Deploy" not in message and "CHG-1" not in message
    assert vault.clients == []


def test_unknown_keywords_are_refused_when_templated(template, vault):
    with pytest.raises(AnsibleError) as caught:
        template(
            "lookup('credvault.vault.vault_password', 'web/root', reson='Deploy', url=url, auth_token=token)",
            url=URL,
            token=TOKEN,
        )
    assert "vault_password: unknown keyword reson=; the keywords are " in str(caught.value)
    assert TOKEN not in str(caught.value)
    assert vault.clients == []


def test_a_missing_url_is_explained_when_templated(template, vault):
    with pytest.raises(AnsibleError) as caught:
        template("lookup('credvault.vault.vault_password', 'web/root')", credvault_auth_token=TOKEN)
    assert "url is not set (lookups do not read module_defaults)" in str(caught.value)
    assert TOKEN not in str(caught.value)


# validate_certs.


@pytest.mark.parametrize("setting", [{"validate_certs": False}, {"validate_certs": "no"}])
def test_validate_certs_off_warns_once_per_call(lookup, vault, setting):
    lookup(["web/root", "web/root"], **dict(CONNECTION, **setting))
    lookup(**dict(CONNECTION, **setting))
    assert (
        vault.warnings
        == [
            "vault_password: validate_certs is false, so the vault's TLS certificate is not "
            "verified; use ca_path to trust a private CA instead"
        ]
        * 2
    )
    assert vault.clients[0].options["validate_certs"] is False


def test_validate_certs_off_from_the_environment_warns(lookup, vault, monkeypatch):
    monkeypatch.setenv("CREDVAULT_VALIDATE_CERTS", "false")
    lookup(**CONNECTION)
    assert len(vault.warnings) == 1


def test_validate_certs_on_does_not_warn(lookup, vault):
    lookup(**CONNECTION)
    assert vault.warnings == []


# Terms.


@pytest.mark.parametrize(
    "terms, flat",
    [
        ([], []),
        (["a", "b"], ["a", "b"]),
        ([["a", "b"], "c"], ["a", "b", "c"]),
        ([["a", ["b", ("c",)]], [], "d"], ["a", "b", "c", "d"]),
    ],
)
def test_lists_of_terms_are_flattened_at_any_depth(lookup_plugin, terms, flat):
    assert lookup_plugin("vault_password").flatten_terms(terms) == flat


@pytest.mark.parametrize(
    "term, kind",
    [
        ({"resource": TOKEN}, "a mapping"),
        (42, "a number"),
        (True, "a boolean"),
        (None, "null"),
        (b"x", "a value of type bytes"),
    ],
)
def test_a_term_that_is_not_a_string_is_refused_without_showing_it(lookup_plugin, term, kind):
    with pytest.raises(AnsibleLookupError) as caught:
        lookup_plugin("vault_password").flatten_terms(["web/root", [term]])
    assert str(caught.value) == "vault_password: a term must be a string or a list of strings, not %s" % kind


# The client.


def test_a_client_that_cannot_be_opened_fails_with_the_plugin_name(lookup_plugin, vault, monkeypatch):
    from ansible_collections.credvault.vault.plugins.plugin_utils import _lookup

    def refuse(get_option):
        raise VaultConfigError("url must be https://<host>[:<port>]")

    monkeypatch.setattr(_lookup, "client_from_options", refuse)
    with pytest.raises(AnsibleLookupError, match=r"^vault_password: url must be https://<host>\[:<port>\]$"):
        lookup_plugin("vault_password").run(["web/root"], variables={}, **CONNECTION)


def test_the_client_is_closed_after_a_failure(lookup, vault):
    vault.answers["get_password"] = {}
    failure(lookup, **CONNECTION)
    assert vault.clients[0].closed


# The token from a file (auth_token_file).


def private_file(tmp_path, content=TOKEN, mode=0o600):
    path = tmp_path / "vault.token"
    path.write_text(content + "\n")
    path.chmod(mode)
    return str(path)


@pytest.mark.parametrize("source", ["keyword", "variable", "environment"])
def test_the_token_can_come_from_a_file_named_in_any_source(lookup, vault, monkeypatch, tmp_path, source):
    path = private_file(tmp_path)
    kwargs, variables = {"url": URL}, {}
    if source == "keyword":
        kwargs["auth_token_file"] = path
    elif source == "variable":
        variables["credvault_auth_token_file"] = path
    else:
        monkeypatch.setenv("CREDVAULT_AUTH_TOKEN_FILE", path)
    assert lookup(variables=variables, **kwargs) == ["pw"]
    assert vault.clients[0].options["auth_token"] == TOKEN


def test_a_token_file_others_can_read_fails_the_lookup_naming_it_before_any_request(lookup, vault, tmp_path):
    path = private_file(tmp_path, mode=0o644)
    message = failure(lookup, url=URL, auth_token_file=path)
    assert message.startswith("vault_password: auth_token_file %s can be read or written by others" % path)
    assert TOKEN not in message
    assert vault.clients == []


def test_without_token_nor_file_the_message_names_every_way_to_set_either(lookup):
    message = failure(lookup, url=URL)
    assert "auth_token is not set" in message
    assert "set auth_token with the auth_token= keyword" in message
    assert (
        "or auth_token_file with the auth_token_file= keyword, the credvault_auth_token_file variable, the "
        "CREDVAULT_AUTH_TOKEN_FILE environment variable or auth_token_file in section [credvault_vault] of "
        "ansible.cfg"
    ) in message
