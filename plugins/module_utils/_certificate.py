# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""SSL certificates of the vault (``{pki_root}``): which certificate a task means, and their dates.

What the API offers, and what that means here:

- "In all inputs, serial_number is optional and selects among certificates
  with the same common_name." A task names a certificate by ``common_name``
  and, where several share it, ``serial_number``. Serial numbers are compared
  as hex digits whatever their case, colons or spaces, without leading zeros.
- The list (``GetAllSSLCertificates``) reports ``Common Name`` and
  ``serialNumber`` ("present on some items"). A listed certificate without
  one is looked up in ``GetCertificateDetails`` (``endpoint.serial``).
- Dates of the list read ``<Mon> <D>, <YYYY>``; those of the details
  ``YYYY-MM-DD HH:MM:SS.f``. ``iso_date`` turns either into ISO 8601;
  ``with_dates``/``detail_with_dates`` add ``from_date``, ``expiry_date`` and
  ``days_left`` to the items the modules return.
- addCertificate is "multipart: INPUT_DATA {fileType (CERTFILE or KEYSTORE),
  PASSWORD (omitted for CERTFILE)} and File". INPUT_DATA has the shape of
  every input (Common request rules 4 and 5), ``{"operation": {"Details":
  {...}}}``, sent by the client as a form field of the multipart body. A file
  is known to be in the vault when a listed certificate has its common name
  and serial number (read here with ``cryptography``); without that, the
  vault's refusal of a duplicate ("already ...") is taken as "unchanged".
- createCertificate answers with a message naming the serial number
  ("Certificate x (serial number abc) created"); when it does not, the
  created certificate is the one of that common name listed after and not
  before. The API cannot edit a certificate: an existing one is compared on
  what the list shows (KeyStrength, SignatureAlgorithm) and differences are
  warned about, never "fixed".
- Files holding the private key (KEY, PKCS, a key store) are encrypted anew at
  each download; ``same_private_material`` compares what they hold, so a
  fetch is idempotent by content for them too (not for JKS, which cannot be
  read here).
"""

from __future__ import annotations

import datetime
import os
import re

from ._certificate_input import certificate_input
from ._checks import clean_text
from ._diff import DifferenceTracker
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, VaultResponseError

try:
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509.oid import NameOID

    HAS_CRYPTOGRAPHY = True
except ImportError:
    HAS_CRYPTOGRAPHY = False

_HEX_SERIAL = re.compile(r"^[0-9a-f]+$")
_LIST_DATE = re.compile(r"^([A-Za-z]{3})[a-z]* +(\d{1,2}), +(\d{4})$")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def normalized_serial(value, what="serial_number"):
    """``value`` as lower-case hex without colons, spaces or leading zeros; ``VaultInputError`` when not hex."""
    if value is None:
        return None
    digits = "".join(str(value).split()).replace(":", "").lower()
    if not digits or not _HEX_SERIAL.match(digits):
        raise VaultInputError("%s %r is not a serial number: give hexadecimal digits (colons allowed)" % (what, value))
    return digits.lstrip("0") or "0"


def list_certificates(client, filters=None):
    """The ``GetAllSSLCertificates`` items; ``filters`` maps the spec's filter names to values."""
    details = {name: str(value) for name, value in (filters or {}).items() if value is not None}
    return client.call("get_all_ssl_certificates", details=details or None).details_list()


def certificates_named(client, common_name):
    """Every listed certificate whose ``Common Name`` is ``common_name`` (any case), each with its
    ``serialNumber`` (read from ``GetCertificateDetails`` where the list leaves it out)."""
    wanted = common_name.lower()
    items = [dict(item) for item in list_certificates(client) if str(item.get("Common Name", "")).lower() == wanted]
    if any(not item.get("serialNumber") for item in items):
        serials = detail_serials(client, common_name, len(items))
        for item, serial in zip([i for i in items if not i.get("serialNumber")], serials):
            item["serialNumber"] = serial
    return items


def detail_serials(client, common_name, count):
    """The serial numbers ``GetCertificateDetails`` shows for ``common_name`` (one per certificate)."""
    details = client.call("get_certificate_details", details={"common_name": common_name}).details_list()
    serials = []
    for item in details:
        endpoint = item.get("endpoint")
        serial = str(endpoint.get("serial") or "") if isinstance(endpoint, dict) else ""
        if serial and serial not in serials:
            serials.append(serial)
    return serials[:count]


def select_certificate(client, common_name, serial_number=None):
    """The list item of the one certificate ``common_name`` and ``serial_number`` name, or None.

    Without ``serial_number``, a common name shared by several certificates is refused
    (``VaultInputError`` naming their serial numbers), as the vault itself refuses it."""
    common_name = clean_text(common_name, "common_name")
    wanted = normalized_serial(serial_number)
    matches = certificates_named(client, common_name)
    if wanted is not None:
        matches = [item for item in matches if _serial_of(item) == wanted]
    if len(matches) > 1:
        raise VaultInputError(
            "common_name %s names %d certificates (serial numbers %s): give serial_number to select one"
            % (common_name, len(matches), ", ".join(str(item.get("serialNumber")) for item in matches))
        )
    return matches[0] if matches else None


def selector(item):
    """The spec's selector of a listed certificate: ``common_name`` and ``serial_number``."""
    return {"common_name": item.get("Common Name"), "serial_number": item.get("serialNumber")}


def describe(item):
    """``<common name> (serial number <serial>)`` for messages."""
    return "%s (serial number %s)" % (item.get("Common Name"), item.get("serialNumber"))


def iso_date(text):
    """A vault date as ISO 8601: ``Jan 5, 2027`` -> ``2027-01-05``; ``2027-01-05 10:11:12.0`` ->
    ``2027-01-05T10:11:12``; anything else -> None (the answer is not trusted)."""
    value = str(text or "").strip()
    match = _LIST_DATE.match(value)
    if match:
        month = match.group(1).lower()
        if month not in _MONTHS:
            return None
        try:
            return datetime.date(int(match.group(3)), _MONTHS.index(month) + 1, int(match.group(2))).isoformat()
        except ValueError:
            return None
    try:
        return datetime.datetime.strptime(value.split(".", maxsplit=1)[0], "%Y-%m-%d %H:%M:%S").isoformat()
    except ValueError:
        return None


def _serial_of(item):
    try:
        return normalized_serial(item.get("serialNumber"))
    except VaultInputError:
        return None


# ---------------------------------------------------------------------------------------------------------------
# Dates for `when:` conditions and reports
# ---------------------------------------------------------------------------------------------------------------


def days_left(iso, today=None):
    """Whole days from ``today`` (UTC) to the ISO date (or date and time) ``iso``; None when there is none.
    Negative for an expired certificate."""
    if not iso:
        return None
    try:
        day = datetime.date.fromisoformat(str(iso)[:10])
    except ValueError:
        return None
    return (day - (today or datetime.datetime.now(datetime.timezone.utc).date())).days


def with_dates(item, today=None):
    """A copy of a list (or expiry list) item with ``from_date`` and ``expiry_date`` in ISO 8601 (None when
    the vault's ``FromDate``/``ExpiryDate`` is missing or unreadable) and ``days_left``."""
    dated = dict(item)
    if "FromDate" in item:
        dated["from_date"] = iso_date(item.get("FromDate"))
    dated["expiry_date"] = iso_date(item.get("ExpiryDate"))
    dated["days_left"] = days_left(dated["expiry_date"], today)
    return dated


def detail_with_dates(item, today=None):
    """A copy of a ``GetCertificateDetails`` item with ``from_date``, ``expiry_date`` (ISO 8601, from
    ``endpoint.from_date``/``endpoint.expiry_date``) and ``days_left`` at its top level."""
    dated = dict(item)
    endpoint = item.get("endpoint") if isinstance(item.get("endpoint"), dict) else {}
    dated["from_date"] = iso_date(endpoint.get("from_date"))
    dated["expiry_date"] = iso_date(endpoint.get("expiry_date"))
    dated["days_left"] = days_left(dated["expiry_date"], today)
    return dated


# ---------------------------------------------------------------------------------------------------------------
# vault_certificate_info
# ---------------------------------------------------------------------------------------------------------------

FILTERS = (
    ("expiring_within_days", "withExpiryDaysLessThan"),
    ("key_length", "withKeyLength"),
    ("signature_algorithm", "withSignatureAlgorithm"),
)


def list_filters(options):
    """The spec's list filters the ``options`` give (``VaultInputError`` for a number below 1 or an empty name)."""
    filters = {}
    for option, key in FILTERS:
        value = options.get(option)
        if value is None:
            continue
        if option == "signature_algorithm":
            value = clean_text(value, option)
        elif value < 1:
            raise VaultInputError("%s must be a positive whole number, not %s" % (option, value))
        filters[key] = value
    return filters


def describe_info(client, options):
    """What ``vault_certificate_info`` returns for its ``options``."""
    today = datetime.datetime.now(datetime.timezone.utc).date()
    filters = list_filters(options)
    if options.get("expiry"):
        if filters or options.get("common_name") is not None:
            raise VaultInputError("expiry lists every certificate: it takes no filter and no common_name")
        items = client.call("get_all_ssl_certificates_expiry").details_list()
        return {"expiry_dates": [with_dates(item, today) for item in items]}
    if options.get("common_name") is None:
        if options.get("serial_number") is not None:
            raise VaultInputError("serial_number selects among the certificates of a common_name: give common_name")
        return {"certificates": [with_dates(item, today) for item in list_certificates(client, filters)]}
    common_name = clean_text(options["common_name"], "common_name")
    wanted = normalized_serial(options.get("serial_number"))
    items = certificates_named(client, common_name)
    if wanted is not None:
        items = [item for item in items if _serial_of(item) == wanted]
    if filters and items:
        kept = {_serial_of(item) for item in list_certificates(client, filters)}
        items = [item for item in items if _serial_of(item) in kept]
    details = []
    if items:
        query = {"common_name": common_name}
        if wanted is not None:
            query["serial_number"] = items[0].get("serialNumber")
        serials = {_serial_of(item) for item in items}
        for detail in client.call("get_certificate_details", details=query).details_list():
            endpoint = detail.get("endpoint") if isinstance(detail.get("endpoint"), dict) else {}
            if _detail_serial(endpoint) in serials:
                details.append(detail_with_dates(detail, today))
    return {
        "exists": bool(items),
        "certificates": [with_dates(item, today) for item in items],
        "details": details,
    }


def _detail_serial(endpoint):
    try:
        return normalized_serial(endpoint.get("serial"))
    except VaultInputError:
        return None


# ---------------------------------------------------------------------------------------------------------------
# vault_certificate
# ---------------------------------------------------------------------------------------------------------------

CERTFILE, KEYSTORE = "CERTFILE", "KEYSTORE"
FILE_TYPES = {"certificate": CERTFILE, "keystore": KEYSTORE}
_NAMED_SERIAL = re.compile(r"serial number ([0-9A-Fa-f:]+)")
_DUPLICATE = re.compile(r"already", re.IGNORECASE)


def read_source(path):
    """The bytes of ``src`` on the host the module runs on (``VaultInputError`` when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            content = handle.read()
    except (IOError, OSError) as exc:
        raise VaultInputError("src %s cannot be read: %s" % (path, exc.strerror or exc)) from None
    if not content.strip():
        raise VaultInputError("src %s is empty" % path)
    return content


def file_identity(content, file_type, password=None):
    """``{"common_name", "serial_number"}`` of the (first) certificate in ``content`` - PEM or DER for
    ``certificate``, PKCS#12 opened with ``password`` for ``keystore`` - read with ``cryptography``; None when
    the library is missing or cannot read it. The serial is lower-case hex without leading zeros."""
    if not HAS_CRYPTOGRAPHY:
        return None
    certificate = None
    try:
        if file_type == "keystore":
            certificate = pkcs12.load_key_and_certificates(content, password.encode("utf-8") if password else None)[1]
        elif b"-----BEGIN" in content:
            certificate = x509.load_pem_x509_certificate(content)
        else:
            certificate = x509.load_der_x509_certificate(content)
    except Exception:  # pylint: disable=broad-except
        return None  # a wrong password or a file the vault may still read: it decides
    if certificate is None:
        return None
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    serial = format(certificate.serial_number, "x")
    return {"common_name": str(names[0].value) if names else serial, "serial_number": serial}


def hash_of(signature_algorithm):
    """``SHA256`` of ``SHA256withRSA``, ``sha-256``, ``SHA256``."""
    return str(signature_algorithm or "").upper().replace("-", "").split("WITH", maxsplit=1)[0]


def key_family(signature_algorithm):
    """``RSA`` or ``EC`` from a Java signature algorithm name (``SHA256withECDSA`` -> ``EC``); None otherwise."""
    name = str(signature_algorithm or "").upper()
    if "WITHRSA" in name:
        return "RSA"
    if "WITHECDSA" in name:
        return "EC"
    return None


def field_differences(item, params):
    """``{option: (in the vault, in the task)}`` for what the list item shows of a created certificate: key length
    (``KeyStrength``), key algorithm and hash of the signature (``SignatureAlgorithm``)."""
    found = {}
    length = params.get("key_length")
    if length is not None and str(item.get("KeyStrength")) != str(length):
        found["key_length"] = (item.get("KeyStrength"), length)
    signature = item.get("SignatureAlgorithm")
    wanted = params.get("signature_algorithm")
    if wanted and hash_of(wanted) != hash_of(signature):
        found["signature_algorithm"] = (signature, wanted)
    algorithm = str(params.get("key_algorithm") or "").upper()
    algorithm = "EC" if algorithm == "ECDSA" else algorithm
    family = key_family(signature)
    if algorithm and family and algorithm != family:
        found["key_algorithm"] = (family, algorithm)
    return found


class Certificate:
    """One run of ``vault_certificate``: ``params`` are the module's options."""

    def __init__(self, client, params, check_mode):
        self.client = client
        self.params = params
        self.check_mode = check_mode
        self.tracker = DifferenceTracker()

    def ensure(self):
        params = self.params
        self.common_name = clean_text(params["common_name"], "common_name")
        self.serial = normalized_serial(params.get("serial_number"))
        if params.get("state") == "absent":
            return self._absent()
        if params.get("src"):
            return self._from_file()
        return self._from_fields()

    # state: absent ------------------------------------------------------------------------------------------

    def _absent(self):
        item = select_certificate(self.client, self.common_name, self.params.get("serial_number"))
        if item is None:
            self.tracker.compare("state", "absent", None)
            return {}
        self.tracker.record("state", "present", "absent", True)
        self.tracker.compare("common_name", item.get("Common Name"), None)
        self.tracker.compare("serial_number", item.get("serialNumber"), None)
        if not self.check_mode:
            try:
                self.client.call("delete_certificate", details=selector(item))
            except VaultAPIError:
                if select_certificate(self.client, self.common_name, item.get("serialNumber")) is not None:
                    raise
        return {}

    # state: present, from a file ----------------------------------------------------------------------------

    def _from_file(self):
        params = self.params
        file_type = params.get("file_type") or "certificate"
        if file_type == "keystore" and not params.get("keystore_password"):
            raise VaultInputError("file_type keystore needs keystore_password, the password of the PKCS#12 file")
        if file_type == "certificate" and params.get("keystore_password"):
            raise VaultInputError("keystore_password only applies to file_type keystore")
        content = read_source(params["src"])
        identity = file_identity(content, file_type, params.get("keystore_password"))
        if identity is not None:
            self._check_identity(identity)
            self.serial = normalized_serial(identity["serial_number"])
        else:
            self.tracker.warn(
                "certificate %s: the common name and serial number of src could not be read here (that needs the "
                "Python cryptography library, and for a keystore its keystore_password), so whether the vault "
                "already holds it is left to the vault, which refuses a certificate it already has" % self.common_name
            )
        existing = self._existing(self.serial) if self.serial is not None else None
        if existing is not None:
            self._track_unchanged(existing)
            return with_dates(existing)
        self.tracker.record("state", "absent", "present", True)
        self.tracker.record("src", None, params["src"], True)
        self.tracker.record("file_type", None, file_type, True)
        if identity is not None:
            self.tracker.record("serial_number", None, identity["serial_number"], True)
        if params.get("keystore_password"):
            self.tracker.record("keystore_password", None, "", True, secret=True)
        if self.check_mode:
            return {}
        before = self._serials()
        details = {"fileType": FILE_TYPES[file_type]}
        if file_type == "keystore":
            details["PASSWORD"] = params["keystore_password"]
        files = {os.path.basename(params["src"]): content}
        try:
            response = self.client.call("add_certificate", details=details, files=files)
        except VaultAPIError as exc:
            if identity is None and _DUPLICATE.search(exc.vault_message or ""):
                return self._duplicate(exc)
            raise
        return with_dates(self._created(response, before))

    def _check_identity(self, identity):
        if identity["common_name"].lower() != self.common_name.lower():
            raise VaultInputError(
                "src holds a certificate for common name %s, not %s: correct common_name or src"
                % (identity["common_name"], self.common_name)
            )
        if self.serial is not None and normalized_serial(identity["serial_number"]) != self.serial:
            raise VaultInputError(
                "src holds the certificate with serial number %s, not %s: correct serial_number or leave it out"
                % (identity["serial_number"], self.params.get("serial_number"))
            )

    def _duplicate(self, exc):
        """The vault refused the file as a certificate it already holds: unchanged (without cryptography)."""
        self.tracker = DifferenceTracker()
        self.tracker.warn(
            "certificate %s: the vault already holds the certificate of src (it answered: %s); nothing changed"
            % (self.common_name, exc.vault_message)
        )
        serial = _NAMED_SERIAL.search(exc.vault_message or "")
        item = self._existing(normalized_serial(serial.group(1))) if serial else None
        return with_dates(item) if item else {}

    # state: present, from fields ----------------------------------------------------------------------------

    def _from_fields(self):
        params = self.params
        details = certificate_input(dict(params, common_name=self.common_name))
        matches = certificates_named(self.client, self.common_name)
        if self.serial is not None:
            matches = [item for item in matches if _serial_of(item) == self.serial]
            if not matches:
                raise VaultInputError(
                    "certificate %s with serial number %s does not exist, and the vault chooses the serial number "
                    "of a certificate it creates: leave serial_number out to create one"
                    % (self.common_name, params["serial_number"])
                )
        if matches:
            item = max(matches, key=lambda match: iso_date(match.get("ExpiryDate")) or "")
            if len(matches) > 1:
                self.tracker.warn(
                    "certificate %s: %d certificates have this common name (serial numbers %s); the one expiring "
                    "last is returned and compared"
                    % (self.common_name, len(matches), ", ".join(str(m.get("serialNumber")) for m in matches))
                )
            self._compare_fields(item)
            self._track_unchanged(item)
            return with_dates(item)
        self.tracker.record("state", "absent", "present", True)
        for option in (
            "subject_alt_name",
            "organization_name",
            "organizational_unit_name",
            "locality_name",
            "state_or_province_name",
            "country_name",
            "validity",
            "validity_type",
            "key_algorithm",
            "key_length",
            "signature_algorithm",
            "store_type",
        ):
            if params.get(option) is not None:
                self.tracker.record(option, None, params[option], True)
        if params.get("privatekey_passphrase"):
            self.tracker.record("privatekey_passphrase", None, "", True, secret=True)
        if self.check_mode:
            return {}
        before = self._serials()
        response = self.client.call("create_certificate", details=details)
        return with_dates(self._created(response, before))

    def _compare_fields(self, item):
        found = field_differences(item, self.params)
        if found:
            self.tracker.warn(
                "certificate %s differs from the task: %s. The API cannot edit a certificate, so it is left as it "
                "is; to replace it, delete it (state: absent) and run the task again"
                % (
                    describe(item),
                    "; ".join(
                        "%s is %s in the vault, %s in the task" % (option, current, wanted)
                        for option, (current, wanted) in sorted(found.items())
                    ),
                )
            )
        compared = ("key_length", "signature_algorithm", "key_algorithm")
        others = [option for option in _UNCOMPARED if self.params.get(option) is not None]
        if others:
            self.tracker.warn(
                "certificate %s exists; the vault does not list its %s, so they were not compared (only %s are)"
                % (self.common_name, ", ".join(others), ", ".join(compared))
            )

    # shared --------------------------------------------------------------------------------------------------

    def _existing(self, serial):
        return next(
            (item for item in certificates_named(self.client, self.common_name) if _serial_of(item) == serial), None
        )

    def _serials(self):
        return {_serial_of(item) for item in certificates_named(self.client, self.common_name)}

    def _track_unchanged(self, item):
        self.tracker.compare("state", "present", None)
        self.tracker.compare("common_name", item.get("Common Name"), None)
        self.tracker.compare("serial_number", item.get("serialNumber"), None)

    def _created(self, response, before):
        """The list item of the certificate just created or added: the one the answer's message names (``...
        (serial number <hex>) ...``), else the one of this common name that was not there before."""
        named = _NAMED_SERIAL.search(response.message or "")
        items = certificates_named(self.client, self.common_name)
        if named:
            serial = normalized_serial(named.group(1))
            found = next((item for item in items if _serial_of(item) == serial), None)
            if found is not None:
                return found
        new = [item for item in items if _serial_of(item) not in before]
        if len(new) == 1:
            return new[0]
        raise VaultNotFoundError(
            "the vault reported certificate %s created, but it cannot be told among those listed" % self.common_name
        )


_UNCOMPARED = (
    "subject_alt_name",
    "organization_name",
    "organizational_unit_name",
    "locality_name",
    "state_or_province_name",
    "country_name",
    "validity",
    "validity_type",
    "store_type",
)


def ensure(client, params, check_mode):
    """Converge ``vault_certificate``; returns the tracker and the certificate's list item with dates ({} if none)."""
    run = Certificate(client, params, check_mode)
    item = run.ensure()
    return run.tracker, item or {}


# ---------------------------------------------------------------------------------------------------------------
# vault_certificate_fetch
# ---------------------------------------------------------------------------------------------------------------

FORMATS = ("CER", "CRT", "DER", "P7B", "PKCS", "JKS", "PEM", "KEY")
PRIVATE_FORMATS = ("PKCS", "JKS", "KEY")


def require_certificate(client, common_name, serial_number=None):
    """The list item of the one certificate named (``VaultNotFoundError`` when there is none)."""
    item = select_certificate(client, common_name, serial_number)
    if item is None:
        raise VaultNotFoundError(
            "certificate %s%s does not exist (or is not visible to this token)"
            % (common_name, " with serial number %s" % serial_number if serial_number else "")
        )
    return item


def fetch_input(client, options):
    """The Details of getCertificate / getCertificateKeyStore without the selector, refused before any request
    when the configured vault lacks ``fileType`` (B 6200) or the options do not go together."""
    what = options.get("what") or "certificate"
    file_format = options.get("format")
    if file_format is not None:
        file_format = str(file_format).upper()
        if what != "certificate":
            raise VaultInputError("format applies to what: certificate; a key store comes in its own StoreType")
        if file_format not in FORMATS:
            raise VaultInputError("format must be one of %s, not %s" % (", ".join(FORMATS), options.get("format")))
        details = {"common_name": "", "fileType": file_format}
        client.check_supported("get_certificate", details)
        return {"fileType": file_format}
    return {}


def fetch(client, options, current=None):
    """``(content, item, passphrase)``: the bytes of the certificate file or key store ``options`` name, the
    certificate's list item, and its private-key passphrase when ``return_passphrase`` (else None).

    ``current`` is what the destination holds now (None: nothing). A file holding the private key (``KEY``,
    ``PKCS``, a PKCS#12 key store) is encrypted anew at each download; when its bytes differ from ``current``
    but both hold the same key and certificates (opened with the passphrase, read for this), ``current`` is
    returned, so that an unchanged certificate leaves the file as it is."""
    extra = fetch_input(client, options)
    common_name = clean_text(options["common_name"], "common_name")
    item = require_certificate(client, common_name, options.get("serial_number"))
    query = {key: value for key, value in selector(item).items() if value}
    what = options.get("what") or "certificate"
    key = "get_certificate" if what == "certificate" else "get_certificate_keystore"
    response = client.call(key, details=dict(query, **extra))
    content = response.content or b""
    if not content.strip():
        raise VaultResponseError("the vault returned an empty file for certificate %s" % describe(item))
    passphrase = None
    private = what == "keystore" or extra.get("fileType") in PRIVATE_FORMATS
    if options.get("return_passphrase") or (private and current is not None and current != content):
        passphrase = client.call("get_certificate_passphrase", details=query).message
    if private and current is not None and current != content and same_private_material(current, content, passphrase):
        content = current
    return content, with_dates(item), passphrase if options.get("return_passphrase") else None


_JKS_MAGIC = b"\xfe\xed\xfe\xed"


def same_private_material(old, new, passphrase):
    """True when ``old`` and ``new`` - PEM private keys or PKCS#12 key stores, both opened with ``passphrase`` -
    hold the same private key and certificates; False when they differ or cannot be read here (JKS, no
    ``cryptography``, a wrong passphrase)."""
    if not HAS_CRYPTOGRAPHY or old.startswith(_JKS_MAGIC) or new.startswith(_JKS_MAGIC):
        return False
    password = passphrase.encode("utf-8") if passphrase else None
    try:
        return _private_material(old, password) == _private_material(new, password)
    except Exception:  # pylint: disable=broad-except
        return False


def _private_material(data, password):
    if b"-----BEGIN" in data:
        return (_key_der(serialization.load_pem_private_key(data, password)),)
    key, certificate, chain = pkcs12.load_key_and_certificates(data, password)
    return (
        _key_der(key) if key is not None else None,
        certificate.public_bytes(serialization.Encoding.DER) if certificate is not None else None,
        tuple(other.public_bytes(serialization.Encoding.DER) for other in chain),
    )


def _key_der(key):
    return key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
