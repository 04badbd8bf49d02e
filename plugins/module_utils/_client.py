# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one HTTP client of the collection.

It sends ``AUTHTOKEN`` (and ``orgName``) headers, encodes ``INPUT_DATA``,
refuses calls the configured edition/build lacks, retries what is safe to
retry, and turns every answer into a ``VaultResponse`` or a typed ``VaultError``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Mapping
from urllib.parse import quote, urlsplit

from ._catalogue import CATALOGUE, EDITIONS, PKI
from ._errors import (
    VaultAPIError,
    VaultConfigError,
    VaultConnectionError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ._response import load_json_object, normalize

try:
    import requests
    from urllib3.exceptions import InsecureRequestWarning, NewConnectionError
    from urllib3 import disable_warnings
except ImportError:
    HAS_REQUESTS = False
else:
    HAS_REQUESTS = True

USER_AGENT = "credvault.vault/0.1.0"
REST_ROOT = "/restapi/json/v1"
PKI_ROOT = "/api/pki/restapi"
RETRY_STATUSES = (429, 502, 503, 504)
BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0
SECRET_KEYS = frozenset((
    "PASSWORD", "NEWPASSWORD", "TOTP_SECRET", "passPhrase", "passphrase", "password", "AUTHTOKEN",
))
_MASK = "********"
_URL_IN_ERROR = re.compile(r"url: \S+")


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
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, _MASK)
    return text


def describe_gates(gates):
    parts = ["edition %s from build %d" % (edition, build) for edition, build in sorted(gates.items())]
    return " or ".join(parts)


class VaultClient:
    """A session with one vault. ``requests_sent`` counts the HTTP requests actually sent."""

    def __init__(self, url, auth_token, org_name=None, edition=None, build=None, validate_certs=True,
                 ca_path=None, timeout=30, retries=3, sleep=time.sleep):
        if not HAS_REQUESTS:
            raise VaultConfigError("the Python library 'requests' is required")
        self.base_url = self._base_url(url)
        if not auth_token:
            raise VaultConfigError("auth_token is required (or set CREDVAULT_AUTH_TOKEN)")
        if edition is not None and edition not in EDITIONS:
            raise VaultConfigError("edition must be A or B, not %r" % edition)
        self.edition = edition
        self.build = None if build is None else int(build)
        self.timeout = timeout
        self.retries = max(0, int(retries))
        self.requests_sent = 0
        self._token = to_plain(auth_token)
        self._sleep = sleep
        self.session = requests.Session()
        self.session.headers.update({"AUTHTOKEN": self._token, "User-Agent": USER_AGENT, "Accept": "application/json"})
        if org_name:
            self.session.headers["orgName"] = to_plain(org_name)
        # Passed with every request: requests lets REQUESTS_CA_BUNDLE/CURL_CA_BUNDLE override Session.verify.
        self.verify = True
        if not validate_certs:
            disable_warnings(InsecureRequestWarning)
            self.verify = False
        elif ca_path:
            self.verify = to_plain(ca_path)

    @staticmethod
    def _base_url(url):
        if not url:
            raise VaultConfigError("url is required (or set CREDVAULT_URL)")
        parts = urlsplit(to_plain(url))
        if parts.scheme != "https" or not parts.hostname:
            raise VaultConfigError("url must be https://<host>[:<port>], got %r" % to_plain(url))
        return "https://%s" % parts.netloc

    def close(self):
        self.session.close()

    def call(self, key, path=None, details=None, query=None, files=None):
        """Send the catalogue row ``key`` and return its ``VaultResponse``; raise ``VaultError`` otherwise.

        ``path`` fills the row's ``{placeholders}``, ``details`` becomes ``INPUT_DATA``,
        ``query`` the row's query parameters, ``files`` ``{name: bytes}`` an upload.
        """
        endpoint = CATALOGUE[key]
        details = to_plain(details) if details is not None else None
        self._check_gates(endpoint, details)
        method = endpoint.method_for(self.edition)
        secrets = [self._token] + secret_values(details)
        params = {name: to_plain(value) for name, value in (query or {}).items()}
        form = None
        if details is not None:
            input_data = json.dumps({"operation": {endpoint.details_key: details}})
            if method in ("GET", "DELETE") and not files:
                params["INPUT_DATA"] = input_data
            else:
                form = {"INPUT_DATA": input_data}
        upload = None
        if files:
            upload = {endpoint.file_part: (name, content) for name, content in files.items()}
        response = self._send(endpoint, method, self._url(endpoint, path), params, form, upload, secrets)
        return self._interpret(endpoint, response, secrets)

    def _check_gates(self, endpoint, details):
        """Refuse before sending what the configured vault lacks; without edition and build, refuse nothing."""
        if self.edition is None or self.build is None:
            return
        here = "the vault is edition %s build %d" % (self.edition, self.build)
        if not self._open(endpoint.gates):
            call = "%s (%s %s)" % (endpoint.operation, endpoint.method_for(self.edition), endpoint.path)
            raise VaultUnsupportedError("%s needs %s; %s" % (call, describe_gates(endpoint.gates), here),
                                        operation=endpoint.operation)
        sent = _keys(details)
        for name, gates in sorted(endpoint.field_gates().items()):
            if name in sent and not self._open(gates):
                raise VaultUnsupportedError(
                    "%s: field %s needs %s; %s" % (endpoint.operation, name, describe_gates(gates), here),
                    operation=endpoint.operation)

    def _open(self, gates):
        return self.edition in gates and self.build >= gates[self.edition]

    def _url(self, endpoint, path):
        values = {name: quote(str(to_plain(value)), safe="") for name, value in (path or {}).items()}
        root = PKI_ROOT if endpoint.root == PKI else REST_ROOT
        return self.base_url + root + endpoint.path.format(**values)

    def _send(self, endpoint, method, url, params, form, upload, secrets):
        attempts = 1 + self.retries
        for attempt in range(attempts):
            last = attempt + 1 == attempts
            try:
                self.requests_sent += 1
                response = self.session.request(method, url, params=params, data=form, files=upload,
                                                timeout=self.timeout, verify=self.verify)
            except requests.exceptions.SSLError:
                raise VaultConnectionError(
                    "%s: TLS verification of %s failed (point ca_path at the vault's CA certificate)"
                    % (endpoint.operation, self.base_url), operation=endpoint.operation) from None
            except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
                if not last and (endpoint.is_read or _not_sent(exc)):
                    self._backoff(attempt)
                    continue
                reason = scrub(_URL_IN_ERROR.sub("url: <hidden>", str(exc)), secrets)
                raise VaultConnectionError(
                    "%s: no answer from %s after %d attempt(s): %s"
                    % (endpoint.operation, self.base_url, attempt + 1, reason),
                    operation=endpoint.operation) from None
            if not last and response.status_code in RETRY_STATUSES and (
                    endpoint.is_read or response.status_code == 429):
                self._backoff(attempt, response.headers.get("Retry-After"))
                continue
            return response

    def _backoff(self, attempt, retry_after=None):
        """Capped exponential backoff with full jitter; a numeric Retry-After is honoured up to the cap."""
        try:
            delay = min(BACKOFF_CAP, max(0.0, float(retry_after)))
        except (TypeError, ValueError):
            delay = random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** attempt))
        self._sleep(delay)

    def _interpret(self, endpoint, response, secrets):
        status = response.status_code
        content = response.content
        document = load_json_object(content)
        if document is None or (endpoint.returns_file and "result" not in document
                                and "operation" not in document):
            if endpoint.returns_file and 200 <= status < 300 and content:
                return normalize({}, status, content)
            raise VaultResponseError(
                "%s: the vault answered HTTP %d with %s" % (
                    endpoint.operation, status, "an empty body" if not content else "a body that is not a JSON object"),
                operation=endpoint.operation, http_status=status)
        result = normalize(document, status, content)
        if not result.has_outcome:
            raise VaultResponseError(
                "%s: the vault answered HTTP %d without a result status" % (endpoint.operation, status),
                operation=endpoint.operation, http_status=status)
        if not result.ok:
            message = scrub(result.message or "no message given", secrets)
            where = "" if status == 200 else " (HTTP %d)" % status
            raise VaultAPIError(
                "%s failed%s: %s" % (result.operation or endpoint.operation, where, message),
                operation=result.operation or endpoint.operation, http_status=status, vault_message=message)
        return result


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


def _not_sent(exc):
    """True when the request never left: the connection itself failed, so even a write may be retried."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)
