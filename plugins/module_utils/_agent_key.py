# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Agent keys and the agent install key: secrets the vault hands to its agents.

- ``Fetch Agent Key`` (``POST /agents/agentkey``, A 12230 / B 6000, lower-case
  ``details``): "With no input the agent-key call returns an available key;
  input is given only to generate a new one" - generateAgentKey ``true``, and
  validityPeriod (a number of hours) "makes the key reusable across
  installations for that time". Details agentKey, agentKeyEndTime
  (``DD/MM/YYYY HH:MM:SS``). Fetching reads (``changed`` false, sent in check
  mode too); generating writes (``changed`` true, nothing sent in check mode).
- ``GetAgentInstallKey`` (``POST /generateInstallKey``, A 11300 / B 5300, no
  input) answers ``AgentInstallKey`` beside ``result``. The spec says nothing of
  a new key per call, and a vault keeps one install key for its agents (the
  simulator makes it on first use, then returns it), so it is treated as a read.

Both are refused before anything is sent when the configured edition and build
lack them, in check mode too. No message holds a key.
"""

from __future__ import annotations

import datetime

from ._errors import VaultInputError, VaultResponseError

AGENT_KEY = "get_agent_key"
INSTALL_KEY = "generate_install_key"


def iso_end_time(text):
    """agentKeyEndTime ``DD/MM/YYYY HH:MM:SS`` as ISO 8601 ``YYYY-MM-DDTHH:MM:SS``; anything else -> None."""
    try:
        return datetime.datetime.strptime(str(text or "").strip(), "%d/%m/%Y %H:%M:%S").isoformat()
    except ValueError:
        return None


def agent_key_input(generate, validity_hours):
    """The ``details`` of the call, or None to fetch (no input); refuses what the vault would."""
    if validity_hours is not None and not generate:
        raise VaultInputError(
            "validity_hours is given only with generate: true - it is the validity of a newly generated key"
        )
    if not generate:
        return None
    details = {"generateAgentKey": "true"}
    if validity_hours is not None:
        if validity_hours < 1:
            raise VaultInputError("validity_hours must be a whole number of hours, 1 or more, not %d" % validity_hours)
        details["validityPeriod"] = validity_hours
    return details


def agent_key(client, generate=False, validity_hours=None, check_mode=False):
    """Fetch an available agent key, or generate one; the result of ``vault_agent_key``.

    ``agent_key`` (the secret), ``agent_key_end_time`` as the vault gives it and ``expires_at`` (ISO 8601), and
    ``generated``. In check mode a generation is reported (``changed``) and not sent; nothing holds a key then.
    """
    details = agent_key_input(generate, validity_hours)
    client.check_supported(AGENT_KEY, details)
    if generate and check_mode:
        return {"changed": True, "generated": True}
    response = client.call(AGENT_KEY, details=details)
    answer = response.details_dict()
    key = answer.get("agentKey")
    if not isinstance(key, str) or not key:
        raise VaultResponseError(
            "Fetch Agent Key answered success without an agent key", operation=response.operation or "Fetch Agent Key"
        )
    end_time = answer.get("agentKeyEndTime")
    return {
        "changed": bool(generate),
        "generated": bool(generate),
        "agent_key": key,
        "agent_key_end_time": end_time,
        "expires_at": iso_end_time(end_time),
    }


def install_key(client):
    """The vault's agent install key; the result of ``vault_agent_install_key`` (a read: ``changed`` false)."""
    client.check_supported(INSTALL_KEY)
    response = client.call(INSTALL_KEY)
    key = response.get("AgentInstallKey")
    if not isinstance(key, str) or not key:
        raise VaultResponseError(
            "GetAgentInstallKey answered success without AgentInstallKey",
            operation=response.operation or "GetAgentInstallKey",
        )
    return {"changed": False, "install_key": key}
