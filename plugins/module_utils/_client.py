# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one HTTP client of the collection: a session with one vault, its calls, the retries, and the reading of
every answer.

It sends ``AUTHTOKEN`` (and ``orgName``) headers, encodes ``INPUT_DATA``,
refuses calls the configured edition/build lacks (``_gates``), retries what is safe to
retry, and turns every answer into a ``VaultResponse`` or a typed ``VaultError``.

The token and the request go to the configured https origin only: redirects
are never followed, nor is a redirect's body read. Every answer is untrusted:
any status, header or body gives a ``VaultResponse`` or a ``VaultError``, never
another exception; its body is read bounded by size and by time (``_receive``).

The options are checked by ``_settings``, the secrets kept out of messages by ``_redaction``, the writes noted by
``_write_log``, the library's errors put in words by ``_connection_errors``, and what is the same for every request
worked out once by ``_transport``.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from urllib.parse import quote

from ._answers import read_answer
from ._catalogue import PKI
from ._client_certificate import client_certificate
from ._connection_errors import certificate_refusal, not_sent, proxy_refusal, reason, tls_failure
from ._errors import (
    AUTHENTICATION,
    VaultAPIError,
    VaultConfigError,
    VaultConnectionError,
    VaultError,
    VaultInputError,
    VaultResponseError,
)
from ._gates import NOT_SERVED_STATUSES, catalogue_row, catalogued, check_gates, edition_hint
from ._plain import to_plain
from ._proxy import proxy_label, proxy_password
from ._receive import BodyCutOff, BodyLate, BodyTooLarge, drop, read_body
from ._redaction import scrub, secret_values, shown_location, write_names
from ._response import is_attachment, load_json_object, normalize, plain_headers
from ._settings import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    PKI_ROOT,
    REST_ROOT,
    base_url,
    checked_edition,
    org_header,
    timeout_seconds,
    tls_verify,
    token_header,
    whole_number,
)
from ._transport import SharedTLS, quiet_if, settle_environment, vault_proxy
from ._write_log import MAY_HAVE_BEEN_APPLIED, WriteLog

try:
    import requests

    from ._transport import SharedContextAdapter, UnredirectedSession
except ImportError:
    HAS_REQUESTS = False
else:
    HAS_REQUESTS = True


# The collection without its version: galaxy.yml alone holds that, and a module runs on hosts where galaxy.yml is
# not. Nor ansible-core's: the AWX credential plugin imports this client where ansible-core is not installed.
USER_AGENT = "credvault.vault"
RETRY_STATUSES = (429, 502, 503, 504)
BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0


class _Retry(Exception):
    """An attempt that may be repeated (after ``retry_after`` seconds when the vault says so);
    ``error(attempts)`` is what to raise when none is left."""

    def __init__(self, error_class, message, retry_after=None, **fields):
        super().__init__(message)
        self.error_class = error_class
        self.message = message
        self.retry_after = retry_after
        self.fields = fields

    def error(self, attempts):
        message = self.message if attempts == 1 else "%s (after %d attempts)" % (self.message, attempts)
        return self.error_class(message, **self.fields)


class VaultClient(WriteLog):
    """A session with one vault. ``requests_sent`` counts the HTTP requests actually sent.

    As a ``WriteLog``, ``wrote`` and ``written`` say what it wrote, for the message of a task that fails after
    writing (``failure_message``).
    ``insecure`` is True when the certificate is not verified: the caller warns with ``_settings.INSECURE_WARNING``.
    None for an option means its default.

    Without a configured edition, a read whose method differs by edition (``GetSSHKey``: GET in A, POST in B) is
    sent with edition A's method and, when the vault does not serve it (HTTP 404 or 405), with edition B's; the
    edition that answered is kept in ``learned_edition`` for the client's later calls (methods and operation names).

    One client may be shared by threads: the counters are updated under a lock, and ``pool_size`` (or
    ``size_pool``) keeps up to that many connections to the vault open for reuse, a thread waiting for a free
    one rather than opening more (requests' default is 10 kept, any number opened).
    """

    def __init__(
        self,
        url,
        auth_token,
        org_name=None,
        edition=None,
        build=None,
        validate_certs=True,
        ca_path=None,
        timeout=DEFAULT_TIMEOUT,
        retries=DEFAULT_RETRIES,
        sleep=time.sleep,
        pool_size=None,
        proxy_url=None,
        client_cert=None,
        client_key=None,
    ):
        if not HAS_REQUESTS:
            raise VaultConfigError("the Python library 'requests' is required")
        super().__init__()
        self.base_url = base_url(url)
        self._token = token_header(auth_token)
        org = org_header(org_name)
        self.edition = checked_edition(edition)
        self.build = whole_number(build, "build", 1, None)
        self.timeout = timeout_seconds(timeout)
        self.retries = whole_number(retries, "retries", 0, DEFAULT_RETRIES)
        self.verify = tls_verify(validate_certs, ca_path)
        self.insecure = self.verify is False
        self.cert = client_certificate(to_plain(client_cert), to_plain(client_key))
        # Scrubbed from messages like the token: the library's words about a proxy may quote its URL.
        self._proxy_password = proxy_password(proxy_url)
        self.requests_sent = 0
        self.learned_edition = None
        self._counters = threading.Lock()
        self._sleep = sleep
        self.session = UnredirectedSession()
        self.session.headers.update({"AUTHTOKEN": self._token, "User-Agent": USER_AGENT, "Accept": "application/json"})
        if org:
            self.session.headers["orgName"] = org
        self.session.cert = self.cert
        if proxy_url:
            # proxy_url wins over the environment: requests would let HTTPS_PROXY override the session's proxies.
            self.session.trust_env = False
            self.session.proxies = {"http": proxy_url, "https": proxy_url}
        # Passed with every request, as the environment gave it (REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE) when the client
        # was made: requests lets the environment override Session.verify, not a request's.
        self._verify_sent = settle_environment(self.session, self.base_url, self.verify)
        if self.verify is True and isinstance(self._verify_sent, str) and not os.path.exists(self._verify_sent):
            # requests would raise a bare OSError at each request
            raise VaultInputError(
                "the CA bundle the environment names (REQUESTS_CA_BUNDLE or CURL_CA_BUNDLE) does not exist: %s; "
                "point it at a CA file, unset it, or set ca_path" % self._verify_sent
            )
        used_proxy = vault_proxy(self.session, self.base_url)
        self.proxy = proxy_label(proxy_url, used_proxy)
        self._tls = SharedTLS(self._verify_sent, self.cert, used_proxy)
        self.session.mount("https://", SharedContextAdapter(self._tls))
        if pool_size is not None:
            self.size_pool(pool_size)

    def size_pool(self, pool_size):
        """Keep up to ``pool_size`` connections to the vault for reuse; beyond that, requests wait for one."""
        size = whole_number(pool_size, "pool_size", 1, None)
        self.session.mount(
            "https://", SharedContextAdapter(self._tls, pool_connections=1, pool_maxsize=size, pool_block=True)
        )

    def close(self):
        self.session.close()

    @property
    def known_edition(self):
        """The configured edition, else the one the vault's answers showed (``learned_edition``), else None."""
        return self.edition or self.learned_edition

    def failure_message(self, error):
        """The message of a task that failed with ``error``: its text, the hint to set ``edition`` when the vault
        did not serve a call of an unconfigured client, and the writes this client had made (never a secret)."""
        return str(error) + edition_hint(self.edition, error) + self.writes_note(error)

    def call(self, key, path=None, details=None, query=None, files=None):
        """Send the catalogue row ``key`` and return its ``VaultResponse``; raise ``VaultError`` otherwise.

        ``path`` fills the row's ``{placeholders}``, ``details`` becomes ``INPUT_DATA``,
        ``query`` the row's query parameters, ``files`` ``{name: bytes}`` an upload.
        """
        row = catalogued(key, path, query)
        details = to_plain(details) if details is not None else None
        endpoint = row.for_input(details)
        check_gates(endpoint, details, self.edition, self.build)
        secrets = [self._token] + secret_values(details)
        query = {name: to_plain(value) for name, value in (query or {}).items()}
        for name, value in query.items():
            self._check_encodable(endpoint, "query parameter %s" % name, value)
        url = self._url(endpoint, path)

        def send(method):
            return self._exchange(endpoint, self._request(endpoint, method, url, details, query, files), secrets)

        if endpoint.is_read:
            if self.known_edition is None and endpoint.method_in_b:
                return self._try_each_edition(endpoint, send)
            return send(endpoint.method_for(self.known_edition))
        names = write_names(path, details, query, secrets)
        try:
            result = send(endpoint.method_for(self.known_edition))
        except VaultError as exc:
            if exc.may_have_been_applied:
                self.note_write(self._operation(endpoint), names, "its answer was lost: it may have been applied")
            raise
        self.note_write(self._operation(endpoint), names)
        return result

    def _request(self, endpoint, method, url, details, query, files):
        """The keyword arguments of ``Session.request``: INPUT_DATA in the query of a GET or DELETE without an
        upload, else in the form."""
        params, form, upload = dict(query), None, None
        if details is not None:
            input_data = json.dumps({"operation": {endpoint.details_key: details}})
            if method in ("GET", "DELETE") and not files:
                params["INPUT_DATA"] = input_data
            else:
                form = {"INPUT_DATA": input_data}
        if files:
            upload = {endpoint.file_part: (name, content) for name, content in files.items()}
        return {"method": method, "url": url, "params": params, "data": form, "files": upload}

    def _try_each_edition(self, endpoint, send):
        """A read whose method differs by edition, for a vault of unknown edition: edition A's method, then, when
        the vault does not serve it (HTTP 404 or 405), edition B's. A vault serving B's method is learned to be
        edition B (A's is the default already); a vault serving neither raises the first answer's error, and
        nothing is learned. Only reads come here: a write is never
        sent twice (a 404 or 405 does not prove that nothing was applied), so a write row with an edition-specific
        method is sent once, with the known edition's method (A's when none is known), and its failure says to set
        ``edition``."""
        try:
            return send(endpoint.method)
        except (VaultAPIError, VaultResponseError) as exc:
            if exc.http_status not in NOT_SERVED_STATUSES:
                raise
            first = exc
        try:
            result = send(endpoint.method_in_b)
        except (VaultAPIError, VaultResponseError) as exc:
            if exc.http_status in NOT_SERVED_STATUSES:
                first.args = (
                    "%s (%s %s was not served either)" % (first, endpoint.method_in_b, endpoint.path),
                ) + first.args[1:]
                raise first from None
            self.learned_edition = "B"
            raise
        self.learned_edition = "B"
        return result

    def check_supported(self, key, details=None):
        """Refuse, before anything is sent, the catalogue row ``key`` or any gated field of ``details`` that the
        configured edition and build lack (``VaultUnsupportedError``); without edition and build, refuse nothing.

        Domain code calls it to refuse a task before its first write when a later call would be refused."""
        check_gates(catalogue_row(key), to_plain(details) if details is not None else None, self.edition, self.build)

    def _operation(self, endpoint):
        return endpoint.operation_for(self.known_edition)

    def _url(self, endpoint, path):
        values = {}
        for name, value in (path or {}).items():
            text = str(to_plain(value))
            self._check_encodable(endpoint, name, text)
            values[name] = quote(text, safe="")
        root = PKI_ROOT if endpoint.root == PKI else REST_ROOT
        return self.base_url + root + endpoint.path.format(**values)

    def _check_encodable(self, endpoint, what, value):
        """Refuse before sending a text URLs cannot carry: one holding a lone surrogate has no UTF-8 form."""
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise VaultInputError(
                    "%s: the %s is not valid Unicode text (it holds a lone surrogate), so it cannot be sent"
                    % (self._operation(endpoint), what),
                    operation=self._operation(endpoint),
                ) from None

    def _exchange(self, endpoint, request, secrets):
        """Send and interpret, retrying what is safe: a read on a connection error, a retryable status or an
        unreadable 2xx answer; any request never sent or answered 429. Capped, jittered backoff in between."""
        for attempt in range(self.retries):
            try:
                return self._attempt(endpoint, request, secrets, last=False)
            except _Retry as retry:
                self._backoff(attempt, retry.retry_after)
        try:
            return self._attempt(endpoint, request, secrets, last=True)
        except _Retry as retry:
            raise retry.error(1 + self.retries) from None
        except (VaultConnectionError, VaultResponseError, VaultAPIError) as exc:
            if self.retries:
                exc.args = ("%s (after %d attempts)" % (exc, 1 + self.retries),) + exc.args[1:]
            raise

    def _attempt(self, endpoint, request, secrets, last):
        deadline = time.monotonic() + self.timeout
        response = self._send(endpoint, request, secrets)
        status = response.status_code
        if not last and status in RETRY_STATUSES and (endpoint.is_read or status == 429):
            drop(response)
            raise _Retry(
                VaultResponseError,
                "%s: the vault answered HTTP %d" % (self._operation(endpoint), status),
                retry_after=response.headers.get("Retry-After"),
            )
        return self._interpret(endpoint, response, secrets, deadline)

    def _send(self, endpoint, request, secrets):
        """One request, redirects not followed, up to the answer's headers (``stream=True``: the body is left
        to ``_receive``); every library error becomes a ``VaultError`` or a ``_Retry``."""
        operation = self._operation(endpoint)
        with self._counters:
            self.requests_sent += 1
        try:
            with quiet_if(self.insecure):
                return self.session.request(
                    allow_redirects=False, stream=True, timeout=self.timeout, verify=self._verify_sent, **request
                )
        except requests.exceptions.ProxyError as exc:
            raise self._proxy_failure(operation, exc, secrets) from None
        except requests.exceptions.SSLError as exc:
            raise VaultConnectionError(
                tls_failure(operation, self.base_url, self.cert, exc), operation=operation
            ) from None
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
            refused = certificate_refusal(operation, self.base_url, self.cert, exc)  # TLS 1.3: after the request
            if refused:
                raise VaultConnectionError(refused, operation=operation) from None
            message = "%s: no answer from %s: %s" % (operation, self.base_url, reason(exc, secrets, self.timeout))
            if not_sent(exc):
                raise _Retry(VaultConnectionError, message, operation=operation) from None
            raise self._outcome_unknown(endpoint, VaultConnectionError, message) from None
        except (requests.exceptions.RequestException, ValueError) as exc:
            # Raised before anything is sent (a URL or header value the libraries refuse); their text may
            # quote the value, so only the kind of error is named.
            raise VaultConnectionError(
                "%s: the request could not be sent (%s)" % (operation, type(exc).__name__), operation=operation
            ) from None

    def _proxy_failure(self, operation, exc, secrets):
        """The error of a proxy that did not open a connection to the vault: nothing reached the vault, so a
        proxy that could not be reached is tried again; one that answered with a refusal (HTTP 407 without the
        right credentials, 403) fails at once."""
        proxy = self.proxy or "of the environment"
        refused = proxy_refusal(operation, proxy, self.base_url, exc)
        if refused:
            return VaultConnectionError(refused, operation=operation)
        why = reason(exc, list(secrets) + [self._proxy_password], self.timeout)
        return _Retry(
            VaultConnectionError,
            "%s: the proxy %s did not connect to %s: %s" % (operation, proxy, self.base_url, why),
            operation=operation,
        )

    def _outcome_unknown(self, endpoint, error_class, message, http_status=None):
        """A read to try again, or the error of a write that may have been applied (``wrote`` becomes True)."""
        if endpoint.is_read:
            return _Retry(error_class, message, operation=self._operation(endpoint), http_status=http_status)
        self.note_write()
        error = error_class(
            "%s; %s" % (message, MAY_HAVE_BEEN_APPLIED), operation=self._operation(endpoint), http_status=http_status
        )
        error.may_have_been_applied = True
        return error

    def _backoff(self, attempt, retry_after=None):
        """Capped exponential backoff with full jitter; a numeric Retry-After is honoured up to the cap."""
        try:
            delay = min(BACKOFF_CAP, max(0.0, float(retry_after)))
        except (TypeError, ValueError):
            delay = random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt))
        self._sleep(delay)

    def _interpret(self, endpoint, response, secrets, deadline):
        """The answer as a ``VaultResponse``. The spec names no content type for JSON answers, so a JSON object
        is taken by its content whatever ``Content-Type`` says; a file row's answer is the file when it says it
        is an attachment or is not a vault answer - but a body declared JSON that does not parse is an answer cut
        off, never the file."""
        status = response.status_code
        operation = self._operation(endpoint)
        headers = plain_headers(response.headers)
        if 300 <= status < 400:
            drop(response)
            raise self._redirect_error(endpoint, status, headers.get("location"), secrets)
        content = self._receive(endpoint, response, status, headers, deadline)
        document = load_json_object(content)
        if (
            endpoint.returns_file
            and 200 <= status < 300
            and (
                is_attachment(headers)
                or (content and not _is_vault_answer(document) and not _cut_off(document, headers))
            )
        ):
            return normalize({}, status, content, headers)
        if document is None:
            what = "an empty body" if not content else "a body that is not a JSON object"
            raise self._unreadable(endpoint, status, what)
        result = normalize(document, status, content, headers)
        if not result.has_outcome:
            raise self._unreadable(endpoint, status, "a JSON object without a result status")
        if not result.ok:
            message = scrub(result.message or "no message given", secrets)
            # The vault's operation name is its words too: a vault echoing what it was sent is scrubbed alike.
            name = scrub(result.operation or operation, secrets)
            where = "" if status == 200 else " (HTTP %d)" % status
            text = "%s failed%s: %s" % (name, where, message)
            if name == AUTHENTICATION:
                # Real servers answer a refused token under this name, whatever was called.
                text = "%s failed%s: the vault refused the token (%s: %s)" % (operation, where, name, message)
            raise VaultAPIError(
                text,
                operation=name,
                http_status=status,
                vault_message=message,
                details=result.details,
            )
        return read_answer(endpoint.key, result)

    def _receive(self, endpoint, response, status, headers, deadline):
        """The body, read as it arrives (``_receive.read_body``); what went wrong becomes a ``VaultError`` or a
        ``_Retry``."""
        try:
            return read_body(response, headers, endpoint.returns_file, deadline)
        except BodyTooLarge as exc:
            raise self._too_large(endpoint, status, exc.limit_mib) from None
        except BodyCutOff:
            message = "%s: the vault's answer was cut off or could not be decoded" % self._operation(endpoint)
            raise self._outcome_unknown(endpoint, VaultResponseError, message) from None
        except BodyLate:
            raise self._late(endpoint) from None

    def _late(self, endpoint):
        """The whole answer did not arrive within ``timeout``: a read to try again, or a write that may have
        been applied."""
        message = "%s: no complete answer within %g s" % (self._operation(endpoint), self.timeout)
        return self._outcome_unknown(endpoint, VaultConnectionError, message)

    def _too_large(self, endpoint, status, limit_mib):
        """An answer over the cap, not read further: not retried (it would be as large again); a write may have
        been applied, unless it was answered 429 (not served)."""
        message = "%s: the vault's answer is larger than %d MiB (HTTP %d); it was not read further" % (
            self._operation(endpoint),
            limit_mib,
            status,
        )
        if endpoint.is_read or status == 429:
            return VaultResponseError(message, operation=self._operation(endpoint), http_status=status)
        return self._outcome_unknown(endpoint, VaultResponseError, message, http_status=status)

    def _unreadable(self, endpoint, status, what):
        """An answer in no shape the spec describes: a read answered 2xx is retried like a 503; a write may
        have been applied, unless it was answered 429 (not served)."""
        message = "%s: the vault answered HTTP %d with %s" % (self._operation(endpoint), status, what)
        if status == 429 or (endpoint.is_read and not 200 <= status < 300):
            return VaultResponseError(message, operation=self._operation(endpoint), http_status=status)
        return self._outcome_unknown(endpoint, VaultResponseError, message, http_status=status)

    def _redirect_error(self, endpoint, status, location, secrets):
        """A 3xx is never followed: the token (and a write's body) would go wherever it points. A read is not
        retried; a write may have been applied (a 303 commonly answers a POST that was)."""
        message = (
            "%s: the vault answered HTTP %d, a redirect to %s; redirects are not followed, so that the "
            "token goes nowhere else: set url to the address the vault answers on"
            % (self._operation(endpoint), status, scrub(shown_location(location), secrets))
        )
        if endpoint.is_read:
            return VaultResponseError(message, operation=self._operation(endpoint), http_status=status)
        return self._outcome_unknown(endpoint, VaultResponseError, message, http_status=status)


def _is_vault_answer(document):
    return document is not None and ("result" in document or "operation" in document)


def _cut_off(document, headers):
    """A body its ``Content-Type`` declares JSON that is no JSON object: a vault answer cut off."""
    media_type = headers.get("content-type", "").split(";")[0].strip().lower()
    return document is None and (media_type == "application/json" or media_type.endswith("+json"))
