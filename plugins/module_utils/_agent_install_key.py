# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The agent install key: a secret the vault hands to the installers of its agents.

``GetAgentInstallKey`` (``POST /generateInstallKey``, A 11300 / B 5300, no input) answers ``AgentInstallKey`` beside
``result``. The spec says nothing of a new key per call, and a vault keeps one install key for its agents (the
simulator makes it on first use, then returns it), so it is treated as a read. It is refused before anything is sent
when the configured edition and build lack it, in check mode too. No message holds the key.
"""

from __future__ import annotations

from ._errors import VaultResponseError

INSTALL_KEY = "generate_install_key"


def converge(task):
    """Entry point of ``vault_agent_install_key``: ``{"install_key"}``, the vault's agent install key. A read of the
    vault, so it records nothing; the module is no read-only one since its action plugin may write the key to
    ``dest`` on the controller."""
    client = task.client
    client.check_supported(INSTALL_KEY)
    response = client.call(INSTALL_KEY)
    key = response.get("AgentInstallKey")
    if not isinstance(key, str) or not key:
        raise VaultResponseError(
            "GetAgentInstallKey answered success without AgentInstallKey",
            operation=response.operation or "GetAgentInstallKey",
        )
    return {"install_key": key}
