# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``backend(**kwargs)`` over the answers recorded from real servers (``tests/real_answers``), served over HTTPS as a
vault serves them: each recorded password is what AWX gets, each recorded refusal of a token names the token."""

from __future__ import annotations

from pathlib import Path

import credvault_awx
import pytest

from ansible_collections.credvault.vault.tests.unit.corpus_vault import (
    CorpusVault,
    corpus,
    details,
    is_refusal_body,
    spec_answer,
    successes,
)
from ansible_collections.credvault.vault.tests.unit.local_servers import ScriptedVault

IDS = spec_answer("GET_RESOURCEACCOUNTID", {"RESOURCEID": "1", "ACCOUNTID": "1"})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    vault = ScriptedVault(tmp_path_factory.mktemp("tls"))
    yield vault
    vault.close()


def inputs(vault):
    connection = vault.connection()
    return {
        "url": connection["url"],
        "auth_token": connection["auth_token"],
        "ca_cert": Path(connection["ca_path"]).read_text(),
        "validate_certs": True,
    }


@pytest.mark.parametrize("entry", [pytest.param(entry, id=name) for name, entry in successes("get_password")])
def test_each_recorded_password_is_what_awx_gets(server, entry):
    vault = CorpusVault(server, {"get_password": entry["body"], "get_resource_account_ids": IDS})
    assert credvault_awx.backend(resource="res1", account="admin", **inputs(vault)) == details(entry)["PASSWORD"]
    assert vault.keys == ["get_resource_account_ids", "get_password"]


@pytest.mark.parametrize("entry", [pytest.param(entry, id=name) for name, entry in corpus() if is_refusal_body(entry)])
def test_each_recorded_refusal_says_the_vault_refused_the_token(server, entry):
    vault = CorpusVault(server, {}, otherwise=entry["body"])
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(resource="res1", account="admin", **inputs(vault))
    assert "refused the token" in str(caught.value) and "corpus-token" not in str(caught.value)
