# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""SSL discovery (``{pki_root}``): the vault connects to a host, or to each address of an IPv4 range, and keeps
the certificates it finds.

What the API offers, and what that means here:

- ``sslCertSingleDiscovery`` takes HOST (a name or an address), PORT and
  TIMEOUT; ``sslCertRangeDiscovery`` StartIpAddress, EndIpAddress, PORT and
  TIMEOUT. Both answer ``details``: "host key mapped to [outcome, text] where
  outcome is SUCCESS or FAILURE". The body is not trusted: an item in any
  other shape is returned with ``outcome`` None and counts as a failure.
- "Discovery calls return per-host outcome FAILURE with a text (for example
  connection failed, or connection timed out, with no certificate found at
  the port)": the call itself succeeds when hosts fail.
- A certificate found is stored in the vault, so a run with any ``SUCCESS``
  reports a change. The answer does not say whether the vault already had
  the certificate, and check mode cannot know what a discovery would find: it
  sends nothing and reports a change.
- The unit of TIMEOUT is not shown; the samples (300 for one host, 3 for a
  range) read as seconds, and so does this module. The vault probes while the
  request waits, so the request waits at least TIMEOUT seconds per address
  (plus ``ANSWER_MARGIN``) for the answer, whatever the connection's timeout.
"""

from __future__ import annotations

import ipaddress

from ._api import certificates as certificates_api
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError
from ._task import FailedOutcome

SUCCESS, FAILURE = "SUCCESS", "FAILURE"
ANSWER_MARGIN = 30.0
# The most addresses one range discovery may probe: a /16. The spec sets no limit, but the vault probes every
# address while the request waits (up to TIMEOUT seconds each), so a /8 (16 million addresses) would hold the task
# for years; a larger network is discovered in several ranges.
MAX_RANGE_ADDRESSES = 65536
_TEXT_LIMIT = 500


def ipv4(value, option):
    """``value`` as an ``IPv4Address``; ``VaultInputError`` for anything else."""
    text = clean_text(value, option)
    try:
        return ipaddress.IPv4Address(text)
    except ValueError:
        pass
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        raise VaultInputError("%s %r is not an IPv4 address (such as 192.0.2.10)" % (option, value)) from None
    raise VaultInputError(
        "%s %r is an IPv6 address: a range is discovered between IPv4 addresses only (use host for one IPv6 "
        "address)" % (option, value)
    )


def request_of(params):
    """``(the gateway function, Details, addresses probed)`` for the module's ``params``; refused before any request
    when the vault would refuse them."""
    port, timeout = params.get("port"), params.get("discovery_timeout")
    if port is None or not 0 < port < 65536:
        raise VaultInputError("port must be a port number from 1 to 65535, not %s" % port)
    if timeout is None or timeout < 1:
        raise VaultInputError("discovery_timeout must be 1 second or more, not %s" % timeout)
    common = {"PORT": str(port), "TIMEOUT": str(timeout)}
    if params.get("host") is not None:
        host = clean_text(params["host"], "host")
        if any(char.isspace() for char in host):
            raise VaultInputError("host %r must not hold spaces" % host)
        return certificates_api.discover_ssl_single, dict({"HOST": host}, **common), 1
    if params.get("start_address") is None or params.get("end_address") is None:
        raise VaultInputError("give host, or start_address and end_address")
    start = ipv4(params["start_address"], "start_address")
    end = ipv4(params["end_address"], "end_address")
    if end < start:
        raise VaultInputError("end_address %s comes before start_address %s" % (end, start))
    addresses = int(end) - int(start) + 1
    if addresses > MAX_RANGE_ADDRESSES:
        raise VaultInputError(
            "the range %s - %s holds %d addresses; one discovery takes at most %d (a /16): split it into smaller "
            "ranges" % (start, end, addresses, MAX_RANGE_ADDRESSES)
        )
    details = dict({"StartIpAddress": str(start), "EndIpAddress": str(end)}, **common)
    return certificates_api.discover_ssl_range, details, addresses


def host_outcomes(details):
    """The ``hosts`` result of a discovery answer's ``details``: ``{host, outcome, text, success}`` per host, in
    address order (names after addresses). An item not shaped ``[outcome, text]`` gets outcome None."""
    if isinstance(details, list):  # a list of single-host mappings: taken too
        merged = {}
        for item in details:
            if isinstance(item, dict):
                merged.update(item)
        details = merged
    if not isinstance(details, dict):
        return []
    hosts = [_outcome(str(host), value) for host, value in details.items()]
    return sorted(hosts, key=_host_order)


def _outcome(host, value):
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
        outcome = value[0].strip().upper()
        text = value[1] if len(value) > 1 else ""
        if outcome in (SUCCESS, FAILURE):
            text = text if isinstance(text, str) else str(text)
            return {"host": host, "outcome": outcome, "text": text[:_TEXT_LIMIT], "success": outcome == SUCCESS}
    shown = repr(value)
    if len(shown) > 100:
        shown = shown[:100] + "..."
    return {
        "host": host,
        "outcome": None,
        "text": "the vault's answer for this host is not [outcome, text]: %s" % shown,
        "success": False,
    }


def _host_order(item):
    try:
        return (0, int(ipaddress.ip_address(item["host"])), "")
    except ValueError:
        return (1, 0, item["host"])


def failure_message(failed):
    """``msg`` of a task whose hosts failed: each host with its text."""
    return "SSL discovery found no certificate at %d host%s: %s" % (
        len(failed),
        "" if len(failed) == 1 else "s",
        "; ".join("%s: %s" % (item["host"], item["text"] or "no text") for item in failed),
    )


def converge(task):
    """Entry point of ``vault_ssl_discovery``: run the discovery ``task.desired`` describes; returns ``{"hosts"}``.
    In check mode nothing is sent: the task reports a change and warns. With ``fail_on_failure``, a host that failed
    fails the task (``FailedOutcome``), which still returns ``hosts``."""
    client, params, tracker = task.client, task.desired, task.tracker
    discover, details, addresses = request_of(params)
    if task.check_mode:
        tracker.record("discovery", "not run", "run", True)
        tracker.warn(
            "check mode sends no discovery, so it cannot tell whether certificates would be found (and stored): "
            "it reports a change"
        )
        return {"hosts": []}
    wait = max(client.timeout, float(params["discovery_timeout"]) * addresses + ANSWER_MARGIN)
    saved, client.timeout = client.timeout, wait
    try:
        answer = discover(client, details)
    finally:
        client.timeout = saved
    hosts = host_outcomes(answer.details)
    if not hosts:
        raise VaultAPIError(
            "%s: the vault answered success without any host in details" % answer.operation,
            operation=answer.operation,
            vault_message=answer.message,
        )
    found = [item["host"] for item in hosts if item["success"]]
    tracker.record("found_at", [], found, bool(found))
    failed = [item for item in hosts if not item["success"]]
    if failed and params.get("fail_on_failure"):
        raise FailedOutcome(failure_message(failed), {"hosts": hosts})
    return {"hosts": hosts}
