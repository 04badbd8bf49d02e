# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Agent keys: secrets the vault hands to its agents (the install key: ``_agent_install_key``).

- ``Fetch Agent Key`` (``POST /agents/agentkey``, A 12230 / B 6000, lower-case
  ``details``): "With no input the agent-key call returns an available key;
  input is given only to generate a new one" - generateAgentKey ``true``, and
  validityPeriod (a number of hours) "makes the key reusable across
  installations for that time". Details agentKey, agentKeyEndTime
  (``DD/MM/YYYY HH:MM:SS``). Fetching reads (``changed`` false, sent in check
  mode too); generating writes (``changed`` true, nothing sent in check mode).

It is refused before anything is sent when the configured edition and build
lack it, in check mode too. No message holds a key.
"""

from __future__ import annotations

import datetime

from ._api import service as service_api
from ._api._declare import require
from ._errors import VaultInputError


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


def converge(task):
    """Entry point of ``vault_agent_key``: fetch an available agent key, or generate one (``generate``).

    Returns ``agent_key`` (the secret), ``agent_key_end_time`` as the vault gives it and ``expires_at`` (ISO 8601),
    and ``generated``. A generation is the task's change, with no diff (there is no key to compare it with, and
    none may show); in check mode it is not sent, and nothing holds a key then.
    """
    client, generate = task.client, bool(task.desired.get("generate"))
    details = agent_key_input(generate, task.desired.get("validity_hours"))
    require(client, service_api.get_agent_key, details=details)
    if generate:
        task.tracker.record_unseen("agent_key")
    if generate and task.check_mode:
        return {"generated": True}
    answer = service_api.get_agent_key(client, details)
    end_time = answer.get("agentKeyEndTime")
    return {
        "generated": generate,
        "agent_key": answer["agentKey"],
        "agent_key_end_time": end_time,
        "expires_at": iso_end_time(end_time),
    }
