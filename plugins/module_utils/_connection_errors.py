# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What went wrong on the way to the vault, read from the errors of requests and urllib3 in words safe to show.

Never the library's own text, which quotes the request URL (its query may hold INPUT_DATA), object reprs and
exception class names: only what is known to be harmless is taken from it (the operating system's words for a
failed connection, OpenSSL's verification message and TLS alert, a proxy's answer to CONNECT), scrubbed where it
could hold a secret.
"""

from __future__ import annotations

import re

from ._redaction import scrub

try:
    import requests
    from urllib3.exceptions import NewConnectionError
except ImportError:  # the client refuses to start without requests (HAS_REQUESTS)
    pass

# The operating system's words in a library's text: "[Errno 111] Connection refused".
_OS_WORDS = re.compile(r"\[Errno -?\d+\] ([A-Za-z][A-Za-z ,'-]{0,80})")
# OpenSSL's alerts by which a server refuses the client's certificate, or says it wants one ("tlsv13 alert
# certificate required", "sslv3 alert bad certificate", "tlsv1 alert unknown ca"; TLS 1.2 servers answer a missing
# certificate with "sslv3 alert handshake failure").
_CERTIFICATE_ALERT = re.compile(
    r"alert (certificate required|bad certificate|unknown ca|certificate unknown|certificate expired"
    r"|certificate revoked|unsupported certificate|access denied|handshake failure)",
    re.IGNORECASE,
)
# How requests reports a proxy's answer to CONNECT: "Tunnel connection failed: 407 Proxy Authentication Required".
_PROXY_ANSWER = re.compile(r"Tunnel connection failed: (\d{3}[ A-Za-z-]{0,60})")


def reason(exc, secrets, timeout):
    """What went wrong with the connection, in plain words. Only the operating system's own words for a failed
    connection ("Connection refused") are kept, scrubbed of ``secrets``."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return "connecting took longer than the timeout of %g s" % timeout
    if isinstance(exc, requests.exceptions.ReadTimeout):
        return "no answer within the timeout of %g s" % timeout
    causes = list(_causes(exc))
    if any(isinstance(cause, NewConnectionError) for cause in causes):
        words = [cause.strerror for cause in causes if isinstance(cause, OSError) and cause.strerror]
        found = _OS_WORDS.search(str(causes[-1])) if not words else None
        why = words[0] if words else (found.group(1) if found else "")
        return scrub("could not connect" + (": %s" % why if why else ""), secrets)
    if any(isinstance(cause, ConnectionResetError) for cause in causes):
        return "the connection was reset before the answer arrived"
    return "the connection was closed before the answer arrived"


def not_sent(exc):
    """True when the request never left: the connection itself failed, so even a write may be retried."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    cause = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(cause, NewConnectionError)


def tls_failure(operation, base_url, cert, exc):
    """The message of a failed TLS handshake with ``base_url``: the vault refused the client's certificate ``cert``
    (``certificate_refusal``), or its own certificate was not verified."""
    return certificate_refusal(operation, base_url, cert, exc) or (
        "%s: TLS verification of %s failed (%spoint ca_path at the vault's CA certificate)"
        % (operation, base_url, _tls_verify_reason(exc))
    )


def certificate_refusal(operation, base_url, cert, exc):
    """The message of a TLS alert in ``exc`` by which ``base_url`` refuses the client's certificate ``cert`` (None, a
    file, or (file, key file)) or asks for one; None when ``exc`` holds no such alert."""
    alert = _certificate_alert(exc)
    if alert is None:
        return None
    if cert:
        shown = cert if isinstance(cert, str) else cert[0]
        return "%s: %s refused the TLS client certificate client_cert %s (TLS alert: %s)" % (
            operation,
            base_url,
            shown,
            alert,
        )
    return "%s: %s demands a TLS client certificate (TLS alert: %s): set client_cert and client_key" % (
        operation,
        base_url,
        alert,
    )


def proxy_refusal(operation, proxy, base_url, exc):
    """The message of the ``proxy`` that answered the request to connect to ``base_url`` with a refusal (HTTP 407
    without the right credentials, 403), found in ``exc`` or what it wraps; None when it did not answer so."""
    answered = _PROXY_ANSWER.search(" ".join(str(cause) for cause in _causes(exc)))
    if not answered:
        return None
    return "%s: the proxy %s refused to connect to %s: it answered %s%s" % (
        operation,
        proxy,
        base_url,
        answered.group(1),
        " (its user and password in proxy_url)" if answered.group(1).startswith("407") else "",
    )


def _certificate_alert(exc):
    """The words of a TLS alert by which the server refuses the client's certificate, or its absence ("certificate
    required", "bad certificate", "unknown ca", ...), found in ``exc`` or what it wraps; None when there is none."""
    for cause in _causes(exc):
        found = _CERTIFICATE_ALERT.search(str(cause))
        if found:
            return found.group(1).lower()
    return None


def _tls_verify_reason(exc):
    """OpenSSL's ``verify_message`` of the failed check ("Hostname mismatch, certificate is not valid for
    '10.0.0.5'.", "unable to get local issuer certificate") and "; ", or "" when there is none: only that text
    is taken, as the library's own message quotes the request URL."""
    pending, seen = [exc], set()
    while pending and len(seen) < 8:
        error = pending.pop(0)
        if id(error) in seen:
            continue
        seen.add(id(error))
        message = getattr(error, "verify_message", None)
        if isinstance(message, str) and message:
            return "%s; " % message.rstrip(".")
        linked = [getattr(error, "reason", None), error.__cause__, error.__context__, *getattr(error, "args", ())]
        pending.extend(link for link in linked if isinstance(link, BaseException))
    return ""


def _causes(exc):
    """``exc`` and what it wraps: requests and urllib3 keep the cause in ``args``, ``reason`` or the chain."""
    seen, pending = set(), [exc]
    while pending:
        current = pending.pop(0)
        if current is None or id(current) in seen or not isinstance(current, BaseException):
            continue
        seen.add(id(current))
        yield current
        pending.extend(arg for arg in current.args if isinstance(arg, BaseException))
        pending.extend([getattr(current, "reason", None), current.__cause__, current.__context__])
