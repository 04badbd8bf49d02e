# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""extensions/aap/credential_type.yml injects exactly the environment variables the plugins read.

The names come from the ``env:`` entries of the connection doc fragment (``PLUGINS``, what the lookups read), the
modules' argument spec fallbacks and the lookups' own DOCUMENTATION, so the credential type cannot drift from them.
"""

from __future__ import annotations

import ast
import os

import pytest
import yaml
from jinja2 import Environment, meta

from ansible_collections.credvault.vault.plugins.doc_fragments.connection import ModuleDocFragment
from ansible_collections.credvault.vault.plugins.doc_fragments.run_cache import ModuleDocFragment as RunCacheFragment
from ansible_collections.credvault.vault.plugins.module_utils._options import connection_argument_spec

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CREDENTIAL_TYPE = os.path.join(ROOT, "extensions", "aap", "credential_type.yml")
LOOKUPS = os.path.join(ROOT, "plugins", "lookup")
# The name AWX gives its own variables in injector templates (tower.filename.<file label>).
AWX_NAMESPACE = "tower"


@pytest.fixture(scope="module")
def credential_type():
    with open(CREDENTIAL_TYPE, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def documented_env_names():
    """Option name -> the environment variables the connection fragment's ``env:`` entries give it."""
    options = yaml.safe_load(ModuleDocFragment.PLUGINS)["options"]
    return {name: [entry["name"] for entry in option.get("env", [])] for name, option in options.items()}


def module_env_names():
    """Option name -> the environment variables the modules' argument spec falls back to."""
    return {name: list(spec["fallback"][1]) for name, spec in connection_argument_spec().items()}


def lookup_documentation(path):
    """The DOCUMENTATION of a lookup, read without importing it."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DOCUMENTATION" for t in node.targets):
            return yaml.safe_load(node.value.value)
    raise AssertionError(f"{path} has no DOCUMENTATION")


def template_variables(template):
    return meta.find_undeclared_variables(Environment().parse(template))


def test_every_connection_option_is_injected_under_its_documented_name(credential_type):
    documented = {env for names in documented_env_names().values() for env in names}

    # The token itself is no variable: it goes into a file, CREDVAULT_AUTH_TOKEN_FILE names it. The lookups' run cache
    # is the one setting besides the connection's.
    assert set(credential_type["injectors"]["env"]) == documented - {"CREDVAULT_AUTH_TOKEN"} | {"CREDVAULT_RUN_CACHE"}


@pytest.mark.parametrize("chosen, injected", [(True, "true"), (False, "")])
def test_the_run_cache_is_injected_only_when_chosen(credential_type, chosen, injected):
    template = credential_type["injectors"]["env"]["CREDVAULT_RUN_CACHE"]

    assert Environment().from_string(template).render(run_cache=chosen) == injected
    fragment = yaml.safe_load(RunCacheFragment.DOCUMENTATION)
    assert fragment["options"]["run_cache"]["env"] == [{"name": "CREDVAULT_RUN_CACHE"}]


def test_the_token_is_injected_as_a_file_and_only_its_path_is_in_the_environment(credential_type):
    injectors = credential_type["injectors"]
    awx = {"filename": {"auth_token": "/runner/env/tmpabc"}}

    assert template_variables(injectors["file"]["template.auth_token"]) == {"auth_token"}
    assert Environment().from_string(injectors["env"]["CREDVAULT_AUTH_TOKEN_FILE"]).render(tower=awx) == (
        "/runner/env/tmpabc"
    )
    assert all("auth_token" not in template_variables(template) for template in injectors["env"].values())


def test_modules_fall_back_to_the_same_names_the_fragment_documents():
    assert module_env_names() == documented_env_names()


@pytest.mark.parametrize("lookup", sorted(name for name in os.listdir(LOOKUPS) if name.startswith("vault_")))
def test_lookups_take_the_connection_options_from_the_fragment(lookup):
    documentation = lookup_documentation(os.path.join(LOOKUPS, lookup))
    fragments = documentation.get("extends_documentation_fragment", [])
    overridden = set(documentation.get("options", {})) & set(documented_env_names())
    assert "credvault.vault.connection.plugins" in fragments
    assert overridden == set(), "a lookup redefines a connection option; check its env names"


def test_every_injector_refers_to_a_defined_input(credential_type):
    inputs = {field["id"] for field in credential_type["inputs"]["fields"]}
    injectors = credential_type["injectors"]
    templates = list(injectors["env"].values()) + list(injectors["file"].values())

    used = set().union(*(template_variables(template) for template in templates))

    assert used - {AWX_NAMESPACE} <= inputs
    assert inputs <= used, "an input that no injector uses"
    assert set(credential_type["inputs"]["required"]) <= inputs


@pytest.mark.parametrize(
    "variable, file_label, field",
    [
        ("CREDVAULT_CA_PATH", "ca_bundle", "ca_certificate"),
        ("CREDVAULT_CLIENT_CERT", "client_certificate", "client_certificate"),
        ("CREDVAULT_CLIENT_KEY", "client_key", "client_key"),
    ],
)
def test_pem_inputs_are_files_whose_paths_are_injected_only_when_given(credential_type, variable, file_label, field):
    injectors = credential_type["injectors"]
    render = Environment().from_string(injectors["env"][variable]).render
    awx = {"filename": {file_label: "/runner/env/%s" % file_label}}

    assert template_variables(injectors["file"]["template.%s" % file_label]) == {field}
    assert render(tower=awx, **{field: "-----BEGIN PEM-----"}) == "/runner/env/%s" % file_label
    assert render(tower=awx, **{field: ""}) == ""
    assert all(
        field not in template_variables(template) or "tower" in template for template in injectors["env"].values()
    )


@pytest.mark.parametrize("skip, injected", [(True, "false"), (False, "")])
def test_certificates_are_verified_unless_skipping_is_chosen(credential_type, skip, injected):
    template = credential_type["injectors"]["env"]["CREDVAULT_VALIDATE_CERTS"]

    assert Environment().from_string(template).render(skip_certificate_verification=skip) == injected


def test_the_token_the_key_and_the_proxy_are_secret_inputs(credential_type):
    fields = {field["id"]: field for field in credential_type["inputs"]["fields"]}

    assert fields["auth_token"].get("secret") is True
    assert fields["ca_certificate"].get("multiline") is True
    # The key and a proxy URL that may hold a password are secret inputs: AWX encrypts them and hides them.
    assert fields["client_key"].get("secret") is True and fields["client_key"].get("multiline") is True
    assert fields["proxy_url"].get("secret") is True


def test_the_host_credentials_role_accepts_every_connection_option():
    """The role refuses a key of host_credentials_vault_connection that is no connection option: its list is the
    argument spec's, auth_token_file included."""
    with open(os.path.join(ROOT, "roles", "host_credentials", "vars", "main.yml"), encoding="utf-8") as handle:
        role_vars = yaml.safe_load(handle)
    assert role_vars["_host_credentials_connection_options"] == list(connection_argument_spec())
