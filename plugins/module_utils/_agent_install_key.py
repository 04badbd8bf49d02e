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

from ._api import service as service_api
from ._api._declare import require


def converge(task):
    """Entry point of ``vault_agent_install_key``: ``{"install_key"}``, the vault's agent install key. A read of the
    vault, so it records nothing; the module is no read-only one since its action plugin may write the key to
    ``dest`` on the controller."""
    client = task.client
    require(client, service_api.generate_install_key)
    return {"install_key": service_api.generate_install_key(client)}
