# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""How the client's session reaches the vault: what is the same for every request of a client is worked out once.

A ``requests.Session`` that trusts the environment reads it again for each request: it walks the environment for
proxy variables (``HTTPS_PROXY``, ``ALL_PROXY``, ``NO_PROXY``...), looks for ``REQUESTS_CA_BUNDLE`` and
``CURL_CA_BUNDLE``, and reads ``~/.netrc``; its adapter checks the CA file on disk; and urllib3 makes a new
``SSLContext`` for each connection and loads the CA file into it (tens of milliseconds of CPU for a system bundle).
A client sends every request to one origin, so ``settle_environment`` takes what requests would take from the
environment for that origin once, when the client is made (a change of the environment afterwards is not seen by
that client), and ``SharedTLS`` makes one context, with the CA and the client certificate, at the client's first
request, for every connection of the client.

Where one context cannot stand for what urllib3 would do per connection, the client keeps requests' own way, file
checks and errors alike: when the context cannot be made (a CA file that is missing or no PEM, a certificate file
gone since the client was made), and when the vault is reached through a proxy other than an ``http://`` one (urllib3
checks an HTTPS proxy's own certificate with the CA files of each connection).

A client that does not verify the vault's certificate silences urllib3's warning about it while its requests are in
flight (``quiet_if``): its caller warns once instead.
"""

from __future__ import annotations

import contextlib
import os
import ssl
import threading
import warnings

try:
    import requests
    from requests.adapters import HTTPAdapter
    from requests.utils import DEFAULT_CA_BUNDLE_PATH, extract_zipped_paths, get_netrc_auth, select_proxy
    from urllib3.exceptions import InsecureRequestWarning
    from urllib3.util.ssl_ import create_urllib3_context
except ImportError:  # the client refuses to start without requests (HAS_REQUESTS)
    pass
else:

    class UnredirectedSession(requests.Session):
        """A session that sees no redirect target in any answer. With ``allow_redirects=False`` requests
        still prepares the next request of a redirect (``Response.next``), reading the redirect's whole body
        first, however long or endless it is; without a target it reads nothing and prepares nothing."""

        def get_redirect_target(self, resp):
            return None

    class SharedContextAdapter(HTTPAdapter):
        """An adapter whose connections all use the context of ``tls`` (a ``SharedTLS``), asked for at its first
        request; when ``tls`` has none, the adapter is requests' own. Pool options are ``HTTPAdapter``'s."""

        def __init__(self, tls, **pool):
            self._tls = tls
            self._context = None
            self._ready = False
            self._lock = threading.Lock()
            super().__init__(**pool)

        def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
            if not self._ready:
                self._take_context()
            return super().send(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)

        def _take_context(self):
            """Once, before the first connection: the pools made from now on use the shared context."""
            with self._lock:
                if self._ready:
                    return
                self._context = self._tls.context()
                if self._context is not None:
                    self.init_poolmanager(
                        self._pool_connections, self._pool_maxsize, block=self._pool_block, ssl_context=self._context
                    )
                self._ready = True

        def proxy_manager_for(self, proxy, **proxy_kwargs):
            if self._context is not None:
                proxy_kwargs["ssl_context"] = self._context
            return super().proxy_manager_for(proxy, **proxy_kwargs)

        def build_connection_pool_key_attributes(self, request, verify, cert=None):
            """(requests 2.32.2 and later.) With the shared context, a pool is chosen by the vault's scheme, host
            and port alone: the context carries the CA and the certificate, so no file is looked at per request."""
            if self._context is None:
                return super().build_connection_pool_key_attributes(request, verify, cert)
            host_params, dummy = super().build_connection_pool_key_attributes(request, True, None)
            return host_params, {}

        def cert_verify(self, conn, url, verify, cert):
            """With the shared context, the pool is left nothing of its own to verify with or to show (requests
            before 2.32.2 would set the CA file and the certificate files here, after checking them on disk): its
            connections take the verification mode, the CA and the certificate from the context."""
            if self._context is None:
                super().cert_verify(conn, url, verify, cert)
                return
            conn.cert_reqs = conn.ca_certs = conn.ca_cert_dir = conn.cert_file = conn.key_file = None


def settle_environment(session, url, verify):
    """What requests takes from the environment for each request of ``session`` to ``url``'s origin, taken now: the
    proxies (none when ``NO_PROXY`` names the host), the CA bundle of ``REQUESTS_CA_BUNDLE`` or ``CURL_CA_BUNDLE``
    instead of ``verify=True``, and the ``~/.netrc`` login for the host. The session then trusts the environment no
    more and holds them itself. Returns the ``verify`` to send with each request (requests lets the environment
    override a session's ``verify``, not a request's). A session that does not trust the environment (``proxy_url``
    set) is left as it is."""
    if not session.trust_env:
        return verify
    login = get_netrc_auth(url)
    settings = session.merge_environment_settings(url, {}, None, verify, None)
    session.trust_env = False
    session.proxies = settings["proxies"]
    if login:
        session.auth = login
    return settings["verify"]


class SharedTLS:
    """The TLS context of one client, made at most once, when its first connection needs it: the server's
    certificate checked as requests would check it with ``verify`` (False, True for requests' own CA bundle, or a
    CA file or directory), and the client certificate ``cert`` (None, a file, or (file, key file)) shown.

    ``context()`` is None, and the client keeps requests' own way, when the vault is reached through a ``proxy`` other
    than an ``http://`` one, or when the files cannot make a context (requests then fails the request as it does
    without one)."""

    def __init__(self, verify, cert, proxy):
        self._verify = verify
        self._cert = cert
        self._direct = not proxy or proxy.lower().startswith("http://")
        self._lock = threading.Lock()
        self._made = False
        self._context = None

    def context(self):
        with self._lock:
            if not self._made:
                self._made = True
                self._context = self._make() if self._direct else None
            return self._context

    def _make(self):
        context = create_urllib3_context(cert_reqs=ssl.CERT_REQUIRED if self._verify else ssl.CERT_NONE)
        try:
            if self._verify:
                location = extract_zipped_paths(DEFAULT_CA_BUNDLE_PATH) if self._verify is True else self._verify
                if os.path.isdir(location):
                    context.load_verify_locations(capath=location)
                else:
                    context.load_verify_locations(cafile=location)
            if self._cert:
                cert, key = (self._cert, None) if isinstance(self._cert, str) else self._cert
                context.load_cert_chain(cert, key, password=_no_passphrase)
        except (OSError, ValueError):  # ssl.SSLError is an OSError
            return None
        return context


def vault_proxy(session, url):
    """The proxy ``session`` sends requests to ``url`` through (its ``proxies``, settled), or None."""
    return select_proxy(url, session.proxies)


class InsecureWarningSilencer:
    """Silences urllib3's InsecureRequestWarning while requests of an insecure client are in flight, and only
    then: the caller warns once instead, and the rest of the process keeps the warning.

    ``warnings.catch_warnings`` swaps the process-wide filter list, so threads that each entered and left their
    own would restore each other's lists out of order. Here the first request in flight enters one, the last one
    out leaves it, under a lock.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._in_flight = 0
        self._catcher = None

    @contextlib.contextmanager
    def around(self, insecure):
        if not insecure:
            yield
            return
        with self._lock:
            if self._in_flight == 0:
                self._catcher = warnings.catch_warnings()
                self._catcher.__enter__()  # pylint: disable=unnecessary-dunder-call  # left by the last one out
                warnings.simplefilter("ignore", InsecureRequestWarning)
            self._in_flight += 1
        try:
            yield
        finally:
            with self._lock:
                self._in_flight -= 1
                if self._in_flight == 0:
                    self._catcher.__exit__(None, None, None)
                    self._catcher = None


quiet_if = InsecureWarningSilencer().around


def _no_passphrase():
    """OpenSSL asks for the key's passphrase: no terminal is there to give one (the client refused such a key when
    it was made; the file changed since)."""
    raise ssl.SSLError("the client key asks for a passphrase")
