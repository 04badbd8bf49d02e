# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The rows of the audit trail, the agents and the service itself ("Audit, agents and the service": ``{rest_root}``,
and the agent install key under ``{pki_root}``), one function each. No message holds a key."""

from __future__ import annotations

from .._errors import VaultResponseError
from ._declare import UNSUPPORTED, declares


@declares("get_audit")
def get_audit(call, audit_type, start, limit, duration):
    """GET_AUDIT: one page of the trail, the ``VaultResponse`` (Details items: the audit records, newest first;
    ``total_rows``: its ``totalRows``). Query ``AUDITTYPE`` (``Resource`` or ``User``), ``STARTINDEX``, ``LIMIT``,
    ``DURATION`` (``TODAY``, ``YESTERDAY`` or ``LAST_7_DAYS``)."""
    return call(query={"AUDITTYPE": audit_type, "STARTINDEX": start, "LIMIT": limit, "DURATION": duration})


@declares("get_agent_key")
def get_agent_key(call, details=None) -> dict:
    """Fetch Agent Key (A 12230 / B 6000): Details ``agentKey`` (a non-empty string, else ``VaultResponseError``)
    and ``agentKeyEndTime``. No ``details`` fetches an available key; ``generateAgentKey`` (and ``validityPeriod``)
    generate one."""
    response = call(details=details)
    answer = response.details_dict()
    key = answer.get("agentKey")
    if not isinstance(key, str) or not key:
        raise VaultResponseError(
            "Fetch Agent Key answered success without an agent key", operation=response.operation or "Fetch Agent Key"
        )
    return answer


@declares("get_ha_status", unserved=UNSUPPORTED)
def get_ha_status(call) -> dict:
    """Get HA Status (A 12230 / B 6000): Details ``haStatus``, ``isPrimaryServer``, ``primaryServer``,
    ``primaryServerStatus``, ``secondaryServer``, ``secondaryServerStatus``; ``VaultUnsupportedError`` where the
    vault lacks the row."""
    return call().details_dict()


@declares("generate_install_key")
def generate_install_key(call) -> str:
    """GetAgentInstallKey (``/generateInstallKey``, A 11300 / B 5300, no input): ``AgentInstallKey``, answered
    beside ``result`` (not in Details); an answer without it (or not a non-empty string) is a
    ``VaultResponseError``."""
    response = call()
    key = response.get("AgentInstallKey")
    if not isinstance(key, str) or not key:
        raise VaultResponseError(
            "GetAgentInstallKey answered success without AgentInstallKey",
            operation=response.operation or "GetAgentInstallKey",
        )
    return key
