# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_generated_password: terms and keywords."""

from __future__ import annotations

import pytest
from ansible.errors import AnsibleLookupError

CONNECTION = {"url": "https://vault.example:7272", "auth_token": "TOKEN-SECRET-79"}


@pytest.fixture
def lookup(lookup_plugin, vault):
    """``lookup(*terms, **kwargs)``: run() against a vault that generates ``new-<policy>``."""
    vault.answers.update(
        {
            "generate_password": lambda path, details, query: {"PASSWORD": "new-%s" % details["POLICY"]},
            "get_password_policies": {"POLICIES": [{"POLICYNAME": "Strong", "DEFAULTPOLICY": "true"}]},
        }
    )

    def run(*terms, **kwargs):
        return lookup_plugin("vault_generated_password").run(list(terms), variables={}, **dict(CONNECTION, **kwargs))

    return run


def failure(run, *terms, **kwargs):
    with pytest.raises(AnsibleLookupError) as caught:
        run(*terms, **kwargs)
    return str(caught.value)


def policies_sent(vault):
    return [details["POLICY"] for key, path, details, query in vault.calls if key == "generate_password"]


@pytest.mark.parametrize(
    "terms",
    [
        ("Low", "Medium", "Strong"),
        (["Low", "Medium"], "Strong"),
        (["Low", ["Medium", ("Strong",)]],),
    ],
)
def test_lists_of_policies_are_flattened(lookup, vault, terms):
    assert lookup(*terms) == ["new-Low", "new-Medium", "new-Strong"]
    assert policies_sent(vault) == ["Low", "Medium", "Strong"]


def test_a_list_in_the_template_arrives_flattened(template, lookup):
    result = template(
        "query('credvault.vault.vault_generated_password', policies, url=url, auth_token=token)",
        policies=["Low", "Strong"],
        url=CONNECTION["url"],
        token=CONNECTION["auth_token"],
    )
    assert result == ["new-Low", "new-Strong"]


@pytest.mark.parametrize("term, kind", [(12, "a number"), ({"POLICY": "Strong"}, "a mapping"), (None, "null")])
def test_a_policy_that_is_not_a_string_is_refused_before_anything_is_sent(lookup, vault, term, kind):
    message = failure(lookup, "Strong", [term])
    assert message == ("vault_generated_password: a term must be a string or a list of strings, not %s" % kind)
    assert vault.clients == []


@pytest.mark.parametrize("terms", [("",), (["Strong", " "],)])
def test_an_empty_policy_name_is_refused(lookup, vault, terms):
    assert failure(lookup, *terms) == "vault_generated_password: a policy name is empty"
    assert vault.clients == []


@pytest.mark.parametrize("terms", [("Strong",), (["Strong"],)])
def test_terms_and_the_policy_keyword_do_not_mix(lookup, terms):
    assert "give either policy names as terms or policy=, not both" in failure(lookup, *terms, policy="Medium")


@pytest.mark.parametrize("terms", [(), ([],)])
def test_no_policy_means_the_default_policy(lookup, vault, terms):
    assert lookup(*terms) == ["new-Strong"]
    assert [key for key, *dummy in vault.calls] == ["get_password_policies", "generate_password"]


def test_an_unknown_keyword_is_refused_with_the_valid_ones(lookup, vault):
    message = failure(lookup, "Strong", polcy="Medium")
    assert message.startswith(
        "vault_generated_password: unknown keyword polcy=; the keywords are auth_token, auth_token_file, build, "
        "ca_path, client_cert, client_key, edition, on_denied, on_missing, org_name, policy, proxy_url, retries, "
        "run_cache, timeout, url, validate_certs"
    )
    assert vault.clients == []


def test_the_generated_passwords_and_the_token_are_registered_as_secrets(lookup, registered):
    assert lookup("Low", "Strong") == ["new-Low", "new-Strong"]
    assert registered == [CONNECTION["auth_token"], "new-Low", "new-Strong"]
