# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one HTTP client of the collection.

It sends ``AUTHTOKEN`` (and ``orgName``) headers, encodes ``INPUT_DATA``,
refuses calls the configured edition/build lacks, retries what is safe to
retry, and turns every answer into a ``VaultResponse`` or a typed ``VaultError``.

The token and the request go to the configured https origin only: redirects
are never followed, nor is a redirect's body read. Every answer is untrusted:
any status, header or body gives a ``VaultResponse`` or a ``VaultError``, never
another exception.

Every answer is read as it arrives and bounded: at most ``MAX_ANSWER_MIB``
(32 MiB) of body for a JSON answer, ``MAX_FILE_MIB`` (256 MiB) for a row that
answers a file, refused before reading when ``Content-Length`` says more; and
the whole answer, headers and body, must arrive within ``timeout`` seconds of
sending (checked between reads, each read itself bounded by ``timeout``), so a
body that never ends or drips byte by byte fails instead of holding the task.
The connection of an answer not read to its end is closed, never reused.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import threading
import time
import unicodedata
import warnings
from collections.abc import Mapping
from urllib.parse import quote, quote_plus, urlsplit

from ._answers import read_answer
from ._catalogue import CATALOGUE, EDITIONS, PKI
from ._client_certificate import client_certificate
from ._errors import (
    AUTHENTICATION,
    VaultAPIError,
    VaultCallError,
    VaultConfigError,
    VaultConnectionError,
    VaultError,
    VaultInputError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ._proxy import proxy_label, proxy_password
from ._response import is_attachment, load_json_object, normalize, plain_headers
from ._transport import SharedTLS, settle_environment, vault_proxy

try:
    import requests
    from urllib3.exceptions import HTTPError, InsecureRequestWarning, NewConnectionError, ReadTimeoutError

    from ._transport import SharedContextAdapter, UnredirectedSession
except ImportError:
    HAS_REQUESTS = False
else:
    HAS_REQUESTS = True


# The collection without its version: galaxy.yml alone holds that, and a module runs on hosts where galaxy.yml is
# not. Nor ansible-core's: the AWX credential plugin imports this client where ansible-core is not installed.
USER_AGENT = "credvault.vault"
REST_ROOT = "/restapi/json/v1"
PKI_ROOT = "/api/pki/restapi"
DEFAULT_TIMEOUT = 30
# The HTTP status of a path the vault does not serve: how a vault without an endpoint answers.
UNSERVED = 404
# How a vault answers a call it does not serve as sent: no such path (404), or not with this method (405).
NOT_SERVED_STATUSES = (UNSERVED, 405)
# Keys of a write's input that name the object written, never a secret: they describe the writes of a failed task.
NAMING_KEYS = (
    "keyName",
    "key_name",
    "resourceName",
    "userName",
    "RESOURCENAME",
    "ACCOUNTNAME",
    "USERNAME",
    "USERGROUPNAME",
    "GROUPNAME",
    "RESOURCEGROUPNAME",
    "RESOURCEGROUPID",
    "common_name",
    "serial_number",
    "CNAME",
    "group_name",
    "certificate_group_name",
)
# How many names one write's description holds at most.
MAX_NAMES = 5
EDITION_HINT = (
    "the vault did not serve a call as it was sent, and edition is not set: if this vault is edition B or an "
    "older build, set edition and build, so that the collection sends the calls that vault has and refuses what it "
    "lacks before writing anything"
)
DEFAULT_RETRIES = 3
RETRY_STATUSES = (429, 502, 503, 504)
BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0
SECRET_KEYS = frozenset(
    (
        "PASSWORD",
        "NEWPASSWORD",
        "TOTP_SECRET",
        "passPhrase",
        "passphrase",
        "password",
        "AUTHTOKEN",
    )
)
INSECURE_WARNING = (
    "validate_certs is false: the vault's TLS certificate is not verified, so whoever sits on the network path "
    "can read the token and every secret; point ca_path at the vault's CA certificate instead"
)
MAY_HAVE_BEEN_APPLIED = "the write may have been applied: check the vault before running it again"
MIB = 1024 * 1024
MAX_ANSWER_MIB = 32
MAX_FILE_MIB = 256
# One read of the body takes what the connection has, up to this much.
READ_SIZE = 64 * 1024
_MASK = "********"
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
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]{0,15}$")
_HOST = re.compile(r"^[A-Za-z0-9._:-]{1,253}$")


def to_plain(value):
    """Plain Python types for JSON: ansible-core 2.19 hands plugins tagged ``str``/``dict`` subclasses."""
    if isinstance(value, Mapping):
        return {to_plain(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_plain(item) for item in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")
    if value is None:
        return None
    raise TypeError("a %s cannot be sent to the vault" % type(value).__name__)


def secret_values(details):
    """Every value sent under a secret key, at any depth, so it can be scrubbed from messages."""
    found = []
    if isinstance(details, Mapping):
        for key, value in details.items():
            if key in SECRET_KEYS and isinstance(value, str) and value:
                found.append(value)
            else:
                found.extend(secret_values(value))
    elif isinstance(details, (list, tuple)):
        for item in details:
            found.extend(secret_values(item))
    return found


def scrub(text, secrets):
    """``text`` with every secret masked, as written and as it appears inside JSON or a URL."""
    forms = set()
    for secret in secrets:
        if secret:
            forms.update((secret, json.dumps(secret)[1:-1], quote(secret, safe=""), quote_plus(secret)))
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, _MASK)
    return text


def catalogue_row(key):
    """The catalogue row ``key``; ``VaultCallError`` (never a bare ``KeyError``) when there is none."""
    row = CATALOGUE.get(key) if isinstance(key, str) else None
    if row is None:
        raise VaultCallError("no endpoint %r in the catalogue" % (key,))
    return row


def catalogued(key, path, query):
    """The catalogue row ``key`` for a call filling the placeholders ``path`` and sending the query parameters
    ``query``; ``VaultCallError`` when the call does not fit the row: a defect of the caller, refused before anything
    is sent."""
    row = catalogue_row(key)
    problem = row.call_problem(path, query)
    if problem:
        raise VaultCallError("%s: %s" % (row.operation, problem), operation=row.operation)
    return row


def gates_text(gates):
    parts = ["edition %s from build %d" % (edition, build) for edition, build in sorted(gates.items())]
    return " or ".join(parts)


def check_gates(endpoint, details, edition, build):
    """Refuse (``VaultUnsupportedError``), before anything is sent, the catalogue row ``endpoint`` or a gated field of
    ``details`` that ``edition`` at ``build`` lacks; without edition and build, refuse nothing."""
    if edition is None or build is None:
        return
    operation = endpoint.operation_for(edition)
    here = "the vault is edition %s build %d" % (edition, build)
    if not _open(endpoint.gates, edition, build):
        call = "%s (%s %s)" % (operation, endpoint.method_for(edition), endpoint.path)
        raise VaultUnsupportedError("%s needs %s; %s" % (call, gates_text(endpoint.gates), here), operation=operation)
    sent = _keys(details)
    for name, gates in sorted(endpoint.field_gates().items()):
        if name in sent and not _open(gates, edition, build):
            raise VaultUnsupportedError(
                "%s: field %s needs %s; %s" % (operation, name, gates_text(gates), here), operation=operation
            )


def _open(gates, edition, build):
    return edition in gates and build >= gates[edition]


def header_value(value, option, highest):
    """``value`` without surrounding whitespace (a trailing newline from a file is common), checked before any
    request: no control character and nothing above code point ``highest``. Messages never hold the value."""
    if not isinstance(value, str):
        raise VaultConfigError("%s must be a string" % option)
    text = to_plain(value).strip()
    if not text:
        raise VaultConfigError("%s is empty once surrounding whitespace is removed" % option)
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise VaultConfigError(
            "%s holds a control character (a line break, tab or NUL) inside it; it cannot be "
            "sent in an HTTP header" % option
        )
    if any(ord(char) > highest for char in text):
        charset = "ASCII" if highest < 0x80 else "Latin-1"
        raise VaultConfigError(
            "%s holds a character outside %s; it cannot be sent in an HTTP header" % (option, charset)
        )
    return text


def base_url(url):
    """``https://host[:port]`` from ``url``; anything else is refused without echoing the URL,
    which may hold user information or other secrets."""
    if not url:
        raise VaultConfigError("url is required (or set CREDVAULT_URL)")
    if not isinstance(url, str):
        raise VaultConfigError("url must be a string")
    text = to_plain(url).strip()
    if any(char.isspace() or unicodedata.category(char) == "Cc" for char in text):
        raise VaultConfigError("url holds a space or a control character")
    if "@" in text:
        raise VaultConfigError("url must not hold user information (user:password@); the token goes in auth_token")
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # pylint: disable=pointless-statement  # raises ValueError for a bad port
    except ValueError:
        raise VaultConfigError("url is not a valid URL: it must be https://<host>[:<port>]") from None
    if parts.scheme != "https" or not host:
        raise VaultConfigError("url must be https://<host>[:<port>]")
    if parts.path not in ("", "/"):
        raise VaultConfigError(
            "url must not have a path: give https://<host>[:<port>], the client adds %s and %s" % (REST_ROOT, PKI_ROOT)
        )
    if "?" in text or "#" in text:
        raise VaultConfigError("url must not have a query (?...) or a fragment (#...): give https://<host>[:<port>]")
    return "https://%s" % parts.netloc


def _whole_number(value, option, lowest, default):
    if value is None:
        return default
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise VaultConfigError("%s must be a whole number" % option)
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise VaultConfigError("%s must be a whole number" % option) from None
    if number < lowest:
        raise VaultConfigError("%s must be %d or more, not %d" % (option, lowest, number))
    return number


def _seconds(value):
    if value is None:
        return float(DEFAULT_TIMEOUT)
    if isinstance(value, bool):
        raise VaultConfigError("timeout must be a number of seconds")
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise VaultConfigError("timeout must be a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise VaultConfigError("timeout must be more than 0 seconds")
    return seconds


def _verify(validate_certs, ca_path):
    """``verify`` for requests: False, True, or the CA file ``ca_path`` (which must exist and be readable)."""
    if validate_certs is None:
        validate_certs = True
    if not isinstance(validate_certs, bool):
        raise VaultConfigError("validate_certs must be true or false")
    if not validate_certs:
        return False
    if not ca_path:
        return True
    path = to_plain(ca_path)
    if not os.path.exists(path):
        raise VaultConfigError("ca_path %s does not exist" % path)
    if not os.access(path, os.R_OK):
        raise VaultConfigError("ca_path %s cannot be read" % path)
    return path


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


class VaultClient:
    """A session with one vault. ``requests_sent`` counts the HTTP requests actually sent.

    ``wrote`` becomes True once a request that is not a read was answered success, or may have been
    applied (it timed out or its connection dropped after sending, or its answer could not be read).
    ``written`` describes each of those writes (``CreateSSHKey (keyName web-deploy)``: the operation and the names
    of what it concerned, never a secret), for the message of a task that fails after writing (``failure_message``).
    ``insecure`` is True when the certificate is not verified: the caller warns with ``INSECURE_WARNING``.
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
        self.base_url = base_url(url)
        if not auth_token:
            raise VaultConfigError("auth_token is required (or set CREDVAULT_AUTH_TOKEN)")
        self._token = header_value(auth_token, "auth_token", 0x7F)
        org = header_value(org_name, "org_name", 0xFF) if org_name else None
        if edition is not None and edition not in EDITIONS:
            raise VaultConfigError("edition must be A or B, not %r" % edition)
        self.edition = edition
        self.build = _whole_number(build, "build", 1, None)
        self.timeout = _seconds(timeout)
        self.retries = _whole_number(retries, "retries", 0, DEFAULT_RETRIES)
        self.verify = _verify(validate_certs, ca_path)
        self.insecure = self.verify is False
        self.cert = client_certificate(to_plain(client_cert), to_plain(client_key))
        # Scrubbed from messages like the token: the library's words about a proxy may quote its URL.
        self._proxy_password = proxy_password(proxy_url)
        self.requests_sent = 0
        self.wrote = False
        self.written = []
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
        size = _whole_number(pool_size, "pool_size", 1, None)
        self.session.mount(
            "https://", SharedContextAdapter(self._tls, pool_connections=1, pool_maxsize=size, pool_block=True)
        )

    def close(self):
        self.session.close()

    def _mark_written(self, endpoint=None, names=(), outcome=None):
        """Note a write (``endpoint``, the names it concerned, and ``outcome`` when it is not known to be done)."""
        with self._counters:
            self.wrote = True
            if endpoint is not None:
                notes = list(names) + ([outcome] if outcome else [])
                what = " (%s)" % "; ".join(notes) if notes else ""
                self.written.append(self._operation(endpoint) + what)

    @property
    def known_edition(self):
        """The configured edition, else the one the vault's answers showed (``learned_edition``), else None."""
        return self.edition or self.learned_edition

    def failure_message(self, error):
        """The message of a task that failed with ``error``: its text, the hint to set ``edition`` when the vault
        did not serve a call of an unconfigured client, and the writes this client had made (never a secret)."""
        message = str(error)
        if self.edition is None and error.http_status in NOT_SERVED_STATUSES:
            message += ". Hint: %s" % EDITION_HINT
        if self.written and not error.names_its_writes:
            message += ". This task had already written to the vault: %s" % ", ".join(self.written)
        return message

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
        names = _names(path, details, query, secrets)
        try:
            result = send(endpoint.method_for(self.known_edition))
        except VaultError as exc:
            if exc.may_have_been_applied:
                self._mark_written(endpoint, names, "its answer was lost: it may have been applied")
            raise
        self._mark_written(endpoint, names)
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

    def read_optional(self, key, **kwargs):
        """``(response, None)`` for a read the vault may lack, or ``(None, why)`` when it lacks it.

        The configured edition and build refuse it before anything is sent; an
        unconfigured vault without the endpoint answers HTTP 404 (the spec shows
        no other sign of it). Every other failure is raised.
        """
        try:
            return self.call(key, **kwargs), None
        except VaultUnsupportedError as exc:
            return None, str(exc)
        except (VaultAPIError, VaultResponseError) as exc:
            if exc.http_status != UNSERVED:
                raise
            return None, "the vault does not serve it: %s" % exc

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
            _drop(response)
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
            with _quiet_if(self.insecure):
                return self.session.request(
                    allow_redirects=False, stream=True, timeout=self.timeout, verify=self._verify_sent, **request
                )
        except requests.exceptions.ProxyError as exc:
            raise self._proxy_failure(operation, exc, secrets) from None
        except requests.exceptions.SSLError as exc:
            alert = _certificate_alert(exc)
            raise VaultConnectionError(
                self._certificate_refused(operation, alert)
                if alert
                else "%s: TLS verification of %s failed (%spoint ca_path at the vault's CA certificate)"
                % (operation, self.base_url, _tls_verify_reason(exc)),
                operation=operation,
            ) from None
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
            alert = _certificate_alert(exc)  # TLS 1.3: the vault's refusal of the certificate comes after the request
            if alert:
                raise VaultConnectionError(self._certificate_refused(operation, alert), operation=operation) from None
            message = "%s: no answer from %s: %s" % (operation, self.base_url, _reason(exc, secrets, self.timeout))
            if _not_sent(exc):
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
        answered = _PROXY_ANSWER.search(" ".join(str(cause) for cause in _causes(exc)))
        if answered:
            return VaultConnectionError(
                "%s: the proxy %s refused to connect to %s: it answered %s%s"
                % (
                    operation,
                    proxy,
                    self.base_url,
                    answered.group(1),
                    " (its user and password in proxy_url)" if answered.group(1).startswith("407") else "",
                ),
                operation=operation,
            )
        why = _reason(exc, list(secrets) + [self._proxy_password], self.timeout)
        return _Retry(
            VaultConnectionError,
            "%s: the proxy %s did not connect to %s: %s" % (operation, proxy, self.base_url, why),
            operation=operation,
        )

    def _certificate_refused(self, operation, alert):
        """The message of a TLS alert about the client's certificate (``_certificate_alert``)."""
        if self.cert:
            shown = self.cert if isinstance(self.cert, str) else self.cert[0]
            return "%s: %s refused the TLS client certificate client_cert %s (TLS alert: %s)" % (
                operation,
                self.base_url,
                shown,
                alert,
            )
        return "%s: %s demands a TLS client certificate (TLS alert: %s): set client_cert and client_key" % (
            operation,
            self.base_url,
            alert,
        )

    def _outcome_unknown(self, endpoint, error_class, message, http_status=None):
        """A read to try again, or the error of a write that may have been applied (``wrote`` becomes True)."""
        if endpoint.is_read:
            return _Retry(error_class, message, operation=self._operation(endpoint), http_status=http_status)
        self._mark_written()
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
            _drop(response)
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
        """The body, read as it arrives: no more than the row's cap (refused at once when ``Content-Length``
        says more) and only until ``deadline``. The connection of a body not read to its end is closed."""
        try:
            return self._read_body(endpoint, _piece_reader(response), status, headers, deadline)
        except BaseException:
            _drop(response)
            raise

    def _read_body(self, endpoint, read_piece, status, headers, deadline):
        limit_mib = MAX_FILE_MIB if endpoint.returns_file else MAX_ANSWER_MIB
        if _declared_length(headers) > limit_mib * MIB:
            raise self._too_large(endpoint, status, limit_mib)
        body = bytearray()
        try:
            while time.monotonic() <= deadline:
                piece = read_piece()
                if not piece:
                    return bytes(body)
                body += piece
                if len(body) > limit_mib * MIB:
                    raise self._too_large(endpoint, status, limit_mib)
        except ReadTimeoutError:
            pass  # one read waited ``timeout`` seconds: the deadline has passed too
        except HTTPError:
            message = "%s: the vault's answer was cut off or could not be decoded" % self._operation(endpoint)
            raise self._outcome_unknown(endpoint, VaultResponseError, message) from None
        raise self._late(endpoint)

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
            % (self._operation(endpoint), status, scrub(_describe_location(location), secrets))
        )
        if endpoint.is_read:
            return VaultResponseError(message, operation=self._operation(endpoint), http_status=status)
        return self._outcome_unknown(endpoint, VaultResponseError, message, http_status=status)


class _InsecureWarningSilencer:
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


_quiet_if = _InsecureWarningSilencer().around


def _piece_reader(response):
    """A function giving the body's next piece (``b""`` at its end). ``read1`` returns what one read of the
    connection brings, decoded, so a body dripping byte by byte cannot hold one read past the deadline (``read``
    would wait for all its bytes). An answer whose body is already in memory has no ``raw`` stream (as requests
    leaves a response made without a connection, and as the unit tests' scripted answers are): one piece. urllib3
    before 2.0 (the ``python3-requests`` of older distributions, on a managed node) has no ``read1``: its ``read``
    of ``READ_SIZE`` bytes waits for them all, so the deadline is checked less often there, and the body is read."""
    raw = getattr(response, "raw", None)
    if raw is None:
        pieces = [response.content or b""]
        return lambda: pieces.pop() if pieces else b""
    read = getattr(raw, "read1", None) or raw.read
    return lambda: read(READ_SIZE, decode_content=True) or b""


def _drop(response):
    """Close the connection of an answer not read to its end: it goes back to no pool half read."""
    if getattr(response, "raw", None) is not None:
        response.close()


def _declared_length(headers):
    """The body's length in ``Content-Length``, or 0 when it is absent or not a plain number."""
    value = headers.get("content-length", "").strip()
    return int(value) if re.fullmatch(r"[0-9]{1,20}", value) else 0


def _describe_location(location):
    """The scheme and host of a redirect's ``Location``, never its user info, path or query."""
    if not location:
        return "no location (the answer has no Location header)"
    try:
        parts = urlsplit(str(location).strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return "an unreadable location"
    if not host:
        return "another path of the same host" if not parts.scheme else "an unreadable location"
    scheme = (parts.scheme or "https").lower()
    if not _SCHEME.match(scheme) or not _HOST.match(host):
        return "an unreadable location"
    if ":" in host:
        host = "[%s]" % host
    return "%s://%s%s" % (scheme, host, "" if port is None else ":%d" % port)


def _is_vault_answer(document):
    return document is not None and ("result" in document or "operation" in document)


def _cut_off(document, headers):
    """A body its ``Content-Type`` declares JSON that is no JSON object: a vault answer cut off."""
    media_type = headers.get("content-type", "").split(";")[0].strip().lower()
    return document is None and (media_type == "application/json" or media_type.endswith("+json"))


def _reason(exc, secrets, timeout):
    """What went wrong with the connection, in plain words: never the library's text, which quotes the request
    URL (its query may hold INPUT_DATA), object reprs and exception class names. Only the operating system's
    own words for a failed connection ("Connection refused") are kept, scrubbed."""
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


def _certificate_alert(exc):
    """The words of a TLS alert by which the server refuses the client's certificate, or its absence ("certificate
    required", "bad certificate", "unknown ca", ...), found in ``exc`` or what it wraps; None when there is none."""
    for cause in _causes(exc):
        found = _CERTIFICATE_ALERT.search(str(cause))
        if found:
            return found.group(1).lower()
    return None


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


def _names(path, details, query, secrets):
    """What a write concerned, as ``key value`` texts: the path's ids, and the values of ``NAMING_KEYS`` in the query
    and (at any depth) the input, at most ``MAX_NAMES`` of them; never a secret key's value, and scrubbed of the
    secrets sent."""
    found = ["%s %s" % (name, to_plain(value)) for name, value in sorted((path or {}).items())]
    found.extend(_named_values(query))
    found.extend(_named_values(details))
    unique = list(dict.fromkeys(scrub(text, secrets) for text in found))
    return unique[:MAX_NAMES] + (["..."] if len(unique) > MAX_NAMES else [])


def _named_values(value):
    """``key value`` for every key of ``NAMING_KEYS`` holding a text or number inside ``value``, at any depth."""
    found = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in NAMING_KEYS and isinstance(item, (str, int)) and not isinstance(item, bool):
                found.append("%s %s" % (key, item))
            else:
                found.extend(_named_values(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_named_values(item))
    return found


def _keys(value):
    """Every key of every mapping inside ``value``."""
    keys = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            keys.add(key)
            keys |= _keys(item)
    elif isinstance(value, list):
        for item in value:
            keys |= _keys(item)
    return keys


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


def _not_sent(exc):
    """True when the request never left: the connection itself failed, so even a write may be retried."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)
