"""Agent keys, the high-availability status and the agent install key.

Agents are installed on managed servers by administrators, so only an
Administrator or a Privileged Administrator may call these (the spec does not
say who may).
"""

from datetime import datetime, timedelta

from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.inputs import flag
from vault_simulator.core.records import AGENT_INSTALL_KEY, AGENT_KEY
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.styles import PKI, REST_OPERATION_NAME
from vault_simulator.core.timefmt import day_month_time

SERVER_BUILDS = {"A": 12230, "B": 6000}
INSTALL_KEY_BUILDS = {"A": 11300, "B": 5300}
# A key generated without validityPeriod (or on first use) is valid this long.
DEFAULT_VALIDITY_HOURS = 24
# The simulator is one vault server: high availability is never configured.
HA_NOT_CONFIGURED = "Not Configured"
SERVER_RUNNING = "Running"


@endpoint("POST", "/agents/agentkey", op="Fetch Agent Key", builds=SERVER_BUILDS, style=REST_OPERATION_NAME)
def fetch_agent_key(ctx):
    """Input ``details`` (lower case, optional): generateAgentKey ``true`` makes a new key,
    valid for validityPeriod hours (default 24) from now. Without input the newest key
    that has not expired is returned, and one is generated when there is none.
    Details: agentKey, agentKeyEndTime (``DD/MM/YYYY HH:MM:SS``)."""
    _require_administrator(ctx, "fetch the agent key")
    generate = flag(ctx.details, "generateAgentKey")
    if "validityPeriod" in ctx.details and not generate:
        raise Failure("validityPeriod is given only with generateAgentKey true")
    now = datetime.now()
    current = None if generate else _current_key(ctx.store, now)
    if current is None:
        current = _new_key(ctx, now, _validity_hours(ctx.details))
        message = "Agent key generated successfully"
    else:
        message = "Agent key fetched successfully"
    end_time = datetime.fromisoformat(current["end_time"])
    return success(message, {"agentKey": current["key"], "agentKeyEndTime": day_month_time(end_time)})


@endpoint("GET", "/server/getHighAvailabilityStatus", op="Get HA Status", builds=SERVER_BUILDS)
def high_availability_status(ctx):
    """The simulator is a single vault server, so the answer is a vault without high availability:
    haStatus ``Not Configured``, isPrimaryServer ``true``, primaryServer the host name the request
    was sent to (from the Host header), primaryServerStatus ``Running``, secondaryServer empty and
    secondaryServerStatus ``Not Configured``."""
    _require_administrator(ctx, "view the high availability status")
    return success(
        "High availability status fetched successfully",
        {
            "haStatus": HA_NOT_CONFIGURED,
            "isPrimaryServer": "true",
            "primaryServer": _host_name(ctx.headers.get("Host", "localhost")),
            "primaryServerStatus": SERVER_RUNNING,
            "secondaryServer": "",
            "secondaryServerStatus": HA_NOT_CONFIGURED,
        },
    )


@endpoint("POST", "/generateInstallKey", op="GetAgentInstallKey", builds=INSTALL_KEY_BUILDS, style=PKI)
def agent_install_key(ctx):
    """The vault's agent install key, beside ``result`` as AgentInstallKey, with totalRows 1. It is
    generated on first use and then stays the same: agents installed with it all trust this vault."""
    _require_administrator(ctx, "get the agent install key")
    stored = ctx.store.get(AGENT_INSTALL_KEY, "current")
    if stored is None:
        stored = {"key": ctx.rng.token_hex(24)}
        ctx.store.put(AGENT_INSTALL_KEY, "current", stored)
    return success("Agent install key fetched successfully", None, totalRows=1, AgentInstallKey=stored["key"])


def _require_administrator(ctx, action):
    if ctx.user["role"] not in FULL_REACH_ROLES:
        raise Failure(f"You are not authorized to {action}")


def _host_name(host):
    """The host of a Host header: ``vault.example:8443`` -> ``vault.example``, ``[::1]:8443`` -> ``[::1]``."""
    name, colon, port = host.rpartition(":")
    return name if colon and port.isdigit() else host


def _current_key(store, now):
    """The newest agent key that has not expired, or ``None``."""
    valid = [k for k in store.all(AGENT_KEY) if datetime.fromisoformat(k["end_time"]) > now]
    return valid[-1] if valid else None


def _new_key(ctx, now, hours):
    key_id = ctx.store.next_id(AGENT_KEY)
    key = {
        "id": key_id,
        "key": ctx.rng.token_hex(16),
        "created": now.isoformat(timespec="milliseconds"),
        "end_time": (now + timedelta(hours=hours)).isoformat(timespec="seconds"),
    }
    ctx.store.put(AGENT_KEY, key_id, key)
    return key


def _validity_hours(details):
    """validityPeriod: a whole number of hours, at least 1 (a number or digit string)."""
    value = details.get("validityPeriod")
    if value is None:
        return DEFAULT_VALIDITY_HOURS
    digits = str(value).strip()
    if isinstance(value, bool) or not (digits.isascii() and digits.isdigit()) or int(digits) < 1:
        raise Failure("validityPeriod must be a whole number of hours, at least 1")
    return int(digits)
