# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Unusual names as resource and account names, moved here from the integration target unusual_names (issue 36):
for each of eight names (spaces, "/", quotes, backslashes, "%", "#", "?", "&", "+", non-ASCII letters, emoji and
255 characters), the resource (its first account named like it) and a second account are created once and not
changed on rerun, read back as given by vault_account_info and vault_resource_info (one and all), their passwords
answered by the lookup (keywords resource= and account=, and the term RESOURCE/ACCOUNT for a name without "/"),
then deleted once and gone. The integration target keeps two of the names (backslashes, emoji) end to end:
Ansible's own handling of such strings as module arguments, results and lookup terms in a template.
"""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_lookup
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run

FIRST_PASSWORD = "Un-R00t-pw-4471!"
LONG = "it-unusual-long-" + "n" * 239

# The integration target's names; each test prefixes one with its ``unique`` (the long one is cut back to 255).
NAMES = {
    "spaces": "it unusual with  two spaces",
    "slash": "it-unusual/slash/in/name",
    "quotes": "it-unusual \"double\" and 'single' quotes",
    "backslash": "it-unusual\\back\\slash\\",
    "url_characters": "it-unusual 100% #hash ?q=1&x=2 +plus",
    "non_ascii": "it-unusual-Größe-Ærø-Ωμέγα-Привет-日本",
    "emoji": "it-unusual-emoji-🔑🚀",
    "long": LONG,
}


def test_the_long_name_has_255_characters():
    assert len(LONG) == 255


def ok(result):
    assert not result.get("failed"), result
    return result


@pytest.mark.parametrize("kind", list(NAMES))
def test_an_unusual_name_is_created_read_back_and_deleted(vaults, unique, kind):
    vault = vaults["default"]
    name = (unique + " " + NAMES[kind])[:255]
    second_name = ("2nd " + name)[:255]
    second_password = "Un-2nd-pw-%s-Zz9!" % kind
    resource = dict(name=name, type="Linux", owner="admin", first_account={"name": name, "password": FIRST_PASSWORD})
    account = dict(resource=name, name=second_name, password=second_password, notes="notes of " + name)

    # Created once, not changed on rerun: the resource, then a second account.
    assert ok(run(vault, "vault_resource", **resource))["changed"]
    assert not ok(run(vault, "vault_resource", **resource))["changed"]
    assert ok(run(vault, "vault_account", **account))["changed"]
    assert not ok(run(vault, "vault_account", **account))["changed"]

    # Read back as given.
    found = ok(run(vault, "vault_account_info", resource=name, name=second_name))
    assert found["exists"]
    assert found["account"]["ACCOUNT NAME"] == second_name
    assert found["account"]["DESCRIPTION"] == "notes of " + name
    found = ok(run(vault, "vault_resource_info", name=name))
    assert found["exists"]
    assert found["resource"]["RESOURCE NAME"] == name
    assert sorted(item["ACCOUNT NAME"] for item in found["resource"]["ACCOUNT LIST"]) == sorted([name, second_name])
    every = ok(run(vault, "vault_resource_info"))
    assert name in [item["RESOURCE NAME"] for item in every["resources"]]

    # The passwords by the lookup's keywords, and by the term RESOURCE/ACCOUNT for a name without "/".
    options = dict(vault.connection, resource=name)
    assert run_lookup("vault_password", [], dict(options, account=name)) == {"value": [FIRST_PASSWORD]}
    assert run_lookup("vault_password", [], dict(options, account=second_name)) == {"value": [second_password]}
    if "/" not in name:
        found = run_lookup("vault_password", ["%s/%s" % (name, name)], vault.connection)
        assert found == {"value": [FIRST_PASSWORD]}

    # Deleted once, then nothing is left to delete, and it is gone.
    assert ok(run(vault, "vault_resource", name=name, state="absent"))["changed"]
    assert not ok(run(vault, "vault_resource", name=name, state="absent"))["changed"]
    assert not ok(run(vault, "vault_resource_info", name=name))["exists"]
