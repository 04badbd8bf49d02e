# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Looking up the SSL certificates of the vault (``{pki_root}``): which certificate a task means, and their dates.

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
"""

from __future__ import annotations

import datetime
import re

from ._api import certificates as certificates_api
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, not_found

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
    return certificates_api.get_all_ssl_certificates(client, details)


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
    details = certificates_api.get_certificate_details(client, common_name)
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
        matches = [item for item in matches if serial_of(item) == wanted]
    if len(matches) > 1:
        raise VaultInputError(
            "common_name %s names %d certificates (serial numbers %s): give serial_number to select one"
            % (common_name, len(matches), ", ".join(str(item.get("serialNumber")) for item in matches))
        )
    return matches[0] if matches else None


def selector(item):
    """The spec's selector of a listed certificate: ``common_name`` and ``serial_number`` (the gateway functions'
    parameters: ``certificates_api.delete_certificate(client, **selector(item))``)."""
    return {"common_name": item.get("Common Name"), "serial_number": item.get("serialNumber")}


def certificate_label(item):
    """``<common name> (serial number <serial>)``: a listed certificate as messages name it."""
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


def serial_of(item):
    """The normalized serial number of a list item, or None when it has none or an unreadable one."""
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


def require_certificate(client, common_name, serial_number=None):
    """The list item of the one certificate named (``missing_certificate``'s error when there is none)."""
    item = select_certificate(client, common_name, serial_number)
    if item is None:
        raise missing_certificate(client, common_name, serial_number)
    return item


def missing_certificate(client, common_name, serial_number=None, consequence=""):
    """The error for a certificate ``GetAllSSLCertificates`` does not show this token: the vault's refusal when
    ``GetCertificateDetails`` says this token may not access it ("You are not authorized to access certificate
    ..."), else ``VaultNotFoundError``. ``consequence`` ("; nothing was shared") ends either message."""
    wanted = common_name + (" with serial number %s" % serial_number if serial_number else "")
    try:
        certificates_api.get_certificate_details(client, common_name, serial_number)
    except VaultNotFoundError:
        pass
    except VaultAPIError as exc:  # the only VaultAPIError it raises: a refusal of this token
        return VaultAPIError(
            "the vault refused certificate %s to this token: %s%s" % (wanted, exc.vault_message, consequence),
            operation=exc.operation,
            http_status=exc.http_status,
            vault_message=exc.vault_message,
        )
    return not_found("certificate", wanted, consequence)


def hash_of(signature_algorithm):
    """``SHA256`` of ``SHA256withRSA``, ``sha-256``, ``SHA_256``, ``SHA256``."""
    return re.sub(r"[\s_-]", "", str(signature_algorithm or "")).upper().split("WITH", maxsplit=1)[0]


def key_algorithm(value):
    """A key algorithm as the certificate input names it: ``RSA``, or ``EC`` for ``EC``/``ECDSA`` (any case)."""
    text = str(value or "").strip().upper()
    return "EC" if text == "ECDSA" else text


def key_family(signature_algorithm):
    """``RSA`` or ``EC`` from a Java signature algorithm name (``SHA256withECDSA`` -> ``EC``); None otherwise."""
    name = str(signature_algorithm or "").upper()
    if "WITHRSA" in name:
        return "RSA"
    if "WITHECDSA" in name:
        return "EC"
    return None
