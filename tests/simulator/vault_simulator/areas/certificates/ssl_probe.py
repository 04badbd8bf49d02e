"""Fetching the certificate a TLS server presents, as SSL discovery does.

The probe connects without verifying anything (discovery wants whatever
certificate is there, self-signed or expired), accepts old protocol versions,
and gives up when ``timeout`` seconds have passed since it started
connecting. A range is probed in parallel, one thread per address, so the
whole range also takes at most about ``timeout`` seconds. Probes touch only
the network, never the store.
"""

import socket
import ssl
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Optional


@dataclass(frozen=True)
class Probe:
    """The DER certificate found and the address connected to; or ``failure``, the reason for none."""

    der: Optional[bytes] = None
    ip: str = ""
    failure: str = ""


def probe(host, port, timeout):
    """Connect to ``host``:``port`` and take the certificate of its TLS handshake."""
    deadline = time.monotonic() + timeout
    none_found = f"no certificate found at port {port}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            ip = connection.getpeername()[0]
            connection.settimeout(max(deadline - time.monotonic(), 0.001))
            with _client_context().wrap_socket(connection, server_hostname=host) as tls:
                der = tls.getpeercert(binary_form=True)
    except OSError as error:
        return Probe(failure=f"{_reason(error, host, timeout)}, {none_found}")
    if not der:
        return Probe(failure=f"The server presented no certificate, {none_found}")
    return Probe(der=der, ip=ip)


def _reason(error, host, timeout):
    """Why a connection gave no certificate, in words."""
    if isinstance(error, socket.gaierror):
        return f"Connection failed: host {host} could not be resolved"
    if isinstance(error, TimeoutError):
        return f"Connection timed out after {timeout:g} seconds"
    if isinstance(error, ConnectionRefusedError):
        return "Connection failed: connection refused"
    if isinstance(error, ssl.SSLError):
        return f"TLS handshake failed ({error.reason or error})"
    return f"Connection failed: {error.strerror or error}"


def probe_all(hosts, port, timeout):
    """``{host: Probe}`` for every host, probed in parallel."""
    with ThreadPoolExecutor(max_workers=max(len(hosts), 1)) as pool:
        return dict(zip(hosts, pool.map(partial(probe, port=port, timeout=timeout), hosts)))


def _client_context():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
    return context
