# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Documentation that several modules repeat and that a doc fragment cannot hold stays written once in effect.

ansible-core reads doc fragments for RETURN only from 2.20 (``add_fragments(..., section='RETURN')``), and this
collection supports 2.16; a fragment adds top-level options only, not sub-options. So the return values of the
modules that write a file, and the account options that vault_accounts and vault_resource repeat as sub-options,
are written in each module, and these tests hold the copies to one text.
"""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import ACCOUNT_BOOLEANS
from ansible_collections.credvault.vault.tests.unit.doc_sources import module_doc

# Modules whose return values describe one file they write, and those values. A ``sample`` is each module's own;
# ``returned`` may differ too (vault_agent_key writes nothing for a generation in check mode).
FILE_RETURNS = {
    "the exported file of the controller": (
        ("vault_certificate_export", "vault_pgp_key_export", "vault_ssh_key_export"),
        ("dest", "checksum", "size"),
    ),
    "the key file of the controller": (("vault_agent_install_key", "vault_agent_key"), ("dest", "checksum", "size")),
}
# vault_account's options that the items of vault_accounts' O(accounts) take, the same.
ACCOUNTS_ITEM_OPTIONS = (
    "name",
    "password",
    "notes",
    "custom_fields",
    "password_policy",
    "totp_algorithm",
    "totp_digits",
    "totp_validity",
)
# vault_account's options that vault_resource's O(first_account) takes with the same text (its name takes no alias).
FIRST_ACCOUNT_OPTIONS = ("name", "notes")


def without(entry, *keys):
    return {key: value for key, value in entry.items() if key not in keys}


@pytest.mark.parametrize("group", sorted(FILE_RETURNS))
def test_the_file_writing_modules_describe_their_file_alike(group):
    modules, keys = FILE_RETURNS[group]
    returns = {module: module_doc(module, "RETURN") for module in modules}
    for key in keys:
        texts = {module: without(returns[module][key], "sample", "returned") for module in modules}
        first = texts[modules[0]]
        assert all(text == first for text in texts.values()), (key, texts)


def test_the_items_of_vault_accounts_take_vault_accounts_options_as_documented_there():
    account = module_doc("vault_account")["options"]
    items = module_doc("vault_accounts")["options"]["accounts"]["suboptions"]
    for name in ACCOUNTS_ITEM_OPTIONS:
        assert items[name] == account[name], name


def test_first_account_of_vault_resource_takes_vault_accounts_options_as_documented_there():
    account = module_doc("vault_account")["options"]
    first = module_doc("vault_resource")["options"]["first_account"]["suboptions"]
    for name in FIRST_ACCOUNT_OPTIONS:
        assert without(first[name], "required", "aliases") == without(account[name], "required", "aliases"), name


@pytest.mark.parametrize(
    "module, path",
    [("vault_account", ()), ("vault_resource", ("first_account", "suboptions"))],
)
def test_every_account_boolean_of_the_catalogue_is_documented_as_a_bool(module, path):
    options = module_doc(module)["options"]
    for key in path:
        options = options[key]
    booleans = {name.lower() for name in ACCOUNT_BOOLEANS}
    assert booleans <= set(options)
    assert all(options[name]["type"] == "bool" for name in booleans)
