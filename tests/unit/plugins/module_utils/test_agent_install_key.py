# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The agent install key: a read, gated by edition and build before any request; an answer without it fails."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _agent_install_key
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultResponseError, VaultUnsupportedError
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

INSTALL = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"


def install_key_client(body, **kwargs):
    """Answers generateInstallKey with ``AgentInstallKey`` beside result, as the PKI answer does."""
    answer = VaultResponse("GetAgentInstallKey", "Success", "", None, None, 1, 200, body)
    return ScriptedClient({"generate_install_key": answer}, **kwargs)


def install_key(client):
    """The values of ``vault_agent_install_key``, run as the module runs it."""
    return run_entry(_agent_install_key.converge, client, {"dest": None})[1]


def test_the_install_key_is_read_beside_result():
    client = install_key_client({"name": "GetAgentInstallKey", "totalRows": 1, "AgentInstallKey": INSTALL})
    tracker, values = run_entry(_agent_install_key.converge, client, {"dest": None})
    assert values == {"install_key": INSTALL} and not tracker.changed and not tracker.recorded
    assert client.calls == [("generate_install_key", None, None, None)]


def test_the_install_key_is_gated_from_a_11300_and_b_5300():
    for edition, build in (("A", 11299), ("B", 5299)):
        client = install_key_client({"AgentInstallKey": INSTALL}, edition=edition, build=build)
        with pytest.raises(
            VaultUnsupportedError, match="needs edition A from build 11300 or edition B from build 5300"
        ):
            install_key(client)
        assert client.calls == []
    assert install_key(install_key_client({"AgentInstallKey": INSTALL}, edition="A", build=12000))


@pytest.mark.parametrize("body", [{}, {"AgentInstallKey": ""}, {"AgentInstallKey": ["x"]}])
def test_an_install_key_answer_without_the_key_fails(body):
    with pytest.raises(VaultResponseError, match="without AgentInstallKey"):
        install_key(install_key_client(body))
