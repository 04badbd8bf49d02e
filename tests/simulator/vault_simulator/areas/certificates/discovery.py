"""SSL discovery: connect to a host, or to every address of a range, and keep the certificates found.

TIMEOUT is in seconds (the spec's samples: 300 for one host, 3 for a range;
the unit is not shown); it may have decimals and defaults to 10. details maps
each host (the HOST as given, or each address of the range) to
``["SUCCESS", text]`` or ``["FAILURE", text]``; totalRows counts the hosts.
The call succeeds even when no host had a certificate: the failures are per
host. A certificate found is stored (owned by the caller) with the host and
port where it was found, or, when the vault already has it, gains that place;
the host becomes a server deployCertificate can deploy to. The probes run
inside the request, so the vault answers nothing else until they end.
"""

import ipaddress

from vault_simulator.areas.certificates.material import load_certificates
from vault_simulator.areas.certificates.records import (
    add_installation,
    certificate_with_identity,
    describe,
    new_certificate,
    remember_server,
)
from vault_simulator.areas.certificates.ssl_probe import probe, probe_all
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.records import CERTIFICATE
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.styles import PKI

SUCCESS, FAILURE = "SUCCESS", "FAILURE"
DEFAULT_TIMEOUT = 10
MAX_RANGE_ADDRESSES = 256


@endpoint("POST", "/sslCertSingleDiscovery", op="Get SSL Discovery", builds=ANY_BUILD, style=PKI)
def discover_host(ctx):
    """HOST (a name or an address), PORT, TIMEOUT."""
    host = required_text(ctx.details, "HOST")
    port, timeout = _port(ctx), _timeout(ctx)
    return _kept(ctx, {host: probe(host, port, timeout)}, port)


@endpoint("POST", "/sslCertRangeDiscovery", op="Get SSL Discovery", builds=ANY_BUILD, style=PKI)
def discover_range(ctx):
    """StartIpAddress to EndIpAddress (both included, IPv4 or IPv6, at most 256 addresses), PORT,
    TIMEOUT. The spec names the answer only as "same shape" as single discovery: the
    operation name is the same, ``Get SSL Discovery``."""
    start, end = _address(ctx, "StartIpAddress"), _address(ctx, "EndIpAddress")
    if start.version != end.version:
        raise Failure("StartIpAddress and EndIpAddress must both be IPv4 or both IPv6 addresses")
    if end < start:
        raise Failure(f"EndIpAddress {end} comes before StartIpAddress {start}")
    count = int(end) - int(start) + 1
    if count > MAX_RANGE_ADDRESSES:
        raise Failure(
            f"The range {start} - {end} holds {count} addresses: "
            f"at most {MAX_RANGE_ADDRESSES} can be discovered in one call"
        )
    port, timeout = _port(ctx), _timeout(ctx)
    return _kept(ctx, probe_all([str(start + offset) for offset in range(count)], port, timeout), port)


def _kept(ctx, probes, port):
    """Store what the probes found; the reply with one [outcome, text] per host."""
    details = {}
    for host, found in probes.items():
        details[host] = [FAILURE, found.failure] if found.der is None else _keep(ctx, host, port, found)
    found_at = sum(1 for outcome, _text in details.values() if outcome == SUCCESS)
    return success(
        f"SSL discovery finished: certificates found at {found_at} of {len(details)} hosts",
        details,
        totalRows=len(details),
    )


def _keep(ctx, host, port, found):
    try:
        (certificate,) = load_certificates(found.der)
    except ValueError:
        return [FAILURE, f"The certificate at port {port} could not be read"]
    installation = {"host": host, "port": port, "ip": found.ip}
    record = certificate_with_identity(ctx.store, certificate)
    if record is None:
        record = new_certificate(ctx, certificate, installation=installation)
        outcome = f"Certificate {describe(record)} found at port {port} and added to the vault"
    else:
        add_installation(record, installation)
        ctx.store.put(CERTIFICATE, record["id"], record)
        outcome = f"Certificate {describe(record)} found at port {port}; the vault already has it"
    remember_server(ctx.store, host, port, found.ip)
    return [SUCCESS, outcome]


def _port(ctx):
    port = required_text(ctx.details, "PORT")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise Failure("PORT must be a port number from 1 to 65535")
    return int(port)


def _timeout(ctx):
    given = text(ctx.details, "TIMEOUT").strip()
    if not given:
        return DEFAULT_TIMEOUT
    try:
        timeout = float(given)
    except ValueError:
        timeout = 0
    if not 0 < timeout < float("inf"):
        raise Failure("TIMEOUT must be a positive number of seconds")
    return timeout


def _address(ctx, key):
    given = required_text(ctx.details, key)
    try:
        return ipaddress.ip_address(given)
    except ValueError:
        raise Failure(f"{key} must be an IP address, not {given}") from None
