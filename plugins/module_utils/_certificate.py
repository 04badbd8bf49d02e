# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``vault_certificate``: a certificate created from the certificate input, added from a file, or deleted.

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
- The vault accepts several certificates of one common name, so two runs
  creating one at once would make two: the find and the create hold the
  certificate's lock (``_object_lock``, by lower-cased common name), so a
  parallel run on this host waits, then finds the one created. A file the
  vault refuses as one it holds ("already ...") that is listed by then was
  added by a parallel run: unchanged.
"""

from __future__ import annotations

import os
import re

from ._api import certificates as certificates_api
from ._certificate_input import certificate_input
from ._certificate_lookup import (
    certificate_label,
    certificates_named,
    hash_of,
    iso_date,
    key_algorithm,
    key_family,
    normalized_serial,
    select_certificate,
    selector,
    serial_of,
    with_dates,
)
from ._checks import clean_text
from ._converge import CreatedMeanwhile, VaultObject
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError

CERTFILE, KEYSTORE = "CERTFILE", "KEYSTORE"
FILE_TYPES = {"certificate": CERTFILE, "keystore": KEYSTORE}
_NAMED_SERIAL = re.compile(r"serial number ([0-9A-Fa-f:]+)")
_DUPLICATE = re.compile(r"already", re.IGNORECASE)
LOCKED_KIND = "certificate"
# The certificate input options the list does not show, so not compared with an existing certificate.
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
# ... and those it shows, compared.
_COMPARED = ("key_length", "signature_algorithm", "key_algorithm")
# The certificate input options a creation shows in the diff.
_SENT = _UNCOMPARED + _COMPARED


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
    the library is missing or cannot read it. The serial is lower-case hex without leading zeros.

    ``cryptography`` is imported here, when a file is given, not with the module: it would add about 30 ms to
    every task."""
    # pylint: disable=import-outside-toplevel
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives.serialization import pkcs12
        from cryptography.x509.oid import NameOID
    except ImportError:
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
    algorithm = key_algorithm(params.get("key_algorithm"))
    family = key_family(signature)
    if algorithm and family and algorithm != family:
        found["key_algorithm"] = (family, algorithm)
    return found


class Certificate(VaultObject):
    """The certificate of a ``vault_certificate`` task, named by ``common_name`` (and ``serial_number``); its handle
    is its list item. The API cannot edit a certificate: an existing one is compared, and what differs warned about.

    The absent find records the common name and serial number of the certificate found (what the delete concerns);
    ``converge`` records those of the existing one (the one compared and returned)."""

    KIND = LOCKED_KIND

    def __init__(self, task):
        super().__init__(task)
        self.common_name = self.serial = None  # set by check_names
        self.details = None  # from fields: the certificate input
        self.content = self.identity = self.unread_warning = None  # from a file: its bytes, and what was read of it

    @property
    def label(self):
        return "certificate %s" % self.common_name

    @property
    def lock_identity(self):
        return (self.common_name.lower(),)

    def check_names(self):
        self.common_name = clean_text(self.desired["common_name"], "common_name")
        self.serial = normalized_serial(self.desired.get("serial_number"))

    def check_input(self):
        """From a file: its type, its content and, where ``cryptography`` reads it, its identity; from fields: the
        certificate input. Either is refused before any request when the vault would refuse it."""
        if self.desired.get("src"):
            self._check_file()
        else:
            self.details = certificate_input(dict(self.desired, common_name=self.common_name))

    def find(self):
        if self.task.state == "absent":
            item = select_certificate(self.client, self.common_name, self.desired.get("serial_number"))
            if item is not None:
                self._show(self.tracker, item)
            return item
        if self.desired.get("src"):
            return self._existing(self.serial) if self.serial is not None else None
        return self._matching_fields()

    def read(self, handle):
        return with_dates(handle)

    def plan(self, handle, current):
        """Nothing to send: the API cannot edit a certificate. From fields, what differs is warned about."""
        if not self.desired.get("src"):
            self._compare_fields(handle)
        self._show(self.tracker, handle)
        return None

    def create(self, handle, tracker):
        if self.desired.get("src"):
            return self._add_file(tracker)
        return self._create_from_fields(tracker)

    def delete(self, handle):
        try:
            certificates_api.delete_certificate(self.client, **selector(handle))
        except VaultAPIError:
            if select_certificate(self.client, self.common_name, handle.get("serialNumber")) is not None:
                raise
        return True

    # from a file ---------------------------------------------------------------------------------------------

    def _check_file(self):
        desired = self.desired
        file_type = desired.get("file_type") or "certificate"
        if file_type == "keystore" and not desired.get("keystore_password"):
            raise VaultInputError("file_type keystore needs keystore_password, the password of the PKCS#12 file")
        if file_type == "certificate" and desired.get("keystore_password"):
            raise VaultInputError("keystore_password only applies to file_type keystore")
        self.content = read_source(desired["src"])
        self.identity = file_identity(self.content, file_type, desired.get("keystore_password"))
        if self.identity is not None:
            self._check_identity(self.identity)
            self.serial = normalized_serial(self.identity["serial_number"])
        else:
            self.unread_warning = (
                "certificate %s: the common name and serial number of src could not be read here (that needs the "
                "Python cryptography library, and for a keystore its keystore_password), so whether the vault "
                "already holds it is left to the vault, which refuses a certificate it already has" % self.common_name
            )
            self.tracker.warn(self.unread_warning)

    def _check_identity(self, identity):
        if identity["common_name"].lower() != self.common_name.lower():
            raise VaultInputError(
                "src holds a certificate for common name %s, not %s: correct common_name or src"
                % (identity["common_name"], self.common_name)
            )
        if self.serial is not None and normalized_serial(identity["serial_number"]) != self.serial:
            raise VaultInputError(
                "src holds the certificate with serial number %s, not %s: correct serial_number or leave it out"
                % (identity["serial_number"], self.desired.get("serial_number"))
            )

    def _add_file(self, tracker):
        desired = self.desired
        file_type = desired.get("file_type") or "certificate"
        tracker.record("src", None, desired["src"], True)
        tracker.record("file_type", None, file_type, True)
        if self.identity is not None:
            tracker.record("serial_number", None, self.identity["serial_number"], True)
        if desired.get("keystore_password"):
            tracker.record("keystore_password", None, "", True, secret=True)
        if self.check_mode:
            return None
        before = self._serials()
        password = desired["keystore_password"] if file_type == "keystore" else None
        files = {os.path.basename(desired["src"]): self.content}
        try:
            message = certificates_api.add_certificate(self.client, FILE_TYPES[file_type], files, password)
        except VaultAPIError as exc:
            if not _DUPLICATE.search(exc.vault_message or ""):
                raise
            if self.identity is None:
                return self._duplicate(tracker, exc)
            existing = self._existing(self.serial)
            if existing is None:
                raise
            raise CreatedMeanwhile(existing) from None  # a parallel run added it first: unchanged
        return with_dates(self._created(message, before))

    def _duplicate(self, tracker, exc):
        """The vault refused the file as a certificate it already holds: unchanged (without cryptography). Its
        answer settles what the warning about the unread file left to it, so that warning goes."""
        tracker.clear()
        tracker.warnings.remove(self.unread_warning)
        tracker.warn(
            "certificate %s: the vault already holds the certificate of src (it answered: %s); nothing changed"
            % (self.common_name, exc.vault_message)
        )
        serial = _NAMED_SERIAL.search(exc.vault_message or "")
        item = self._existing(normalized_serial(serial.group(1))) if serial else None
        return with_dates(item) if item else {}

    # from fields ---------------------------------------------------------------------------------------------

    def _matching_fields(self):
        """The certificate of the common name (and serial number) to compare: the one expiring last, with a
        warning, when several match; None when none does (refused when a serial number was asked for)."""
        matches = certificates_named(self.client, self.common_name)
        if self.serial is not None:
            matches = [item for item in matches if serial_of(item) == self.serial]
            if not matches:
                raise VaultInputError(
                    "certificate %s with serial number %s does not exist, and the vault chooses the serial number "
                    "of a certificate it creates: leave serial_number out to create one"
                    % (self.common_name, self.desired["serial_number"])
                )
        if not matches:
            return None
        if len(matches) > 1:
            self.tracker.warn(
                "certificate %s: %d certificates have this common name (serial numbers %s); the one expiring "
                "last is returned and compared"
                % (self.common_name, len(matches), ", ".join(str(m.get("serialNumber")) for m in matches))
            )
        return max(matches, key=lambda match: iso_date(match.get("ExpiryDate")) or "")

    def _create_from_fields(self, tracker):
        for option in _SENT:
            if self.desired.get(option) is not None:
                tracker.record(option, None, self.desired[option], True)
        if self.desired.get("privatekey_passphrase"):
            tracker.record("privatekey_passphrase", None, "", True, secret=True)
        if self.check_mode:
            return None
        before = self._serials()
        message = certificates_api.create_certificate(self.client, self.details)
        return with_dates(self._created(message, before))

    def _compare_fields(self, item):
        found = field_differences(item, self.desired)
        if found:
            self.tracker.warn(
                "certificate %s differs from the task: %s. The API cannot edit a certificate, so it is left as it "
                "is; to replace it, delete it (state: absent) and run the task again"
                % (
                    certificate_label(item),
                    "; ".join(
                        "%s is %s in the vault, %s in the task" % (option, current, wanted)
                        for option, (current, wanted) in sorted(found.items())
                    ),
                )
            )
        others = [option for option in _UNCOMPARED if self.desired.get(option) is not None]
        if others:
            self.tracker.warn(
                "certificate %s exists; the vault does not list its %s, so they were not compared (only %s are)"
                % (self.common_name, ", ".join(others), ", ".join(_COMPARED))
            )

    # shared --------------------------------------------------------------------------------------------------

    def _existing(self, serial):
        return next(
            (item for item in certificates_named(self.client, self.common_name) if serial_of(item) == serial), None
        )

    def _serials(self):
        return {serial_of(item) for item in certificates_named(self.client, self.common_name)}

    @staticmethod
    def _show(tracker, item):
        """Show the listed certificate ``item`` in the diff by its common name and serial number (no change)."""
        tracker.compare("common_name", item.get("Common Name"), None)
        tracker.compare("serial_number", item.get("serialNumber"), None)

    def _created(self, message, before):
        """The list item of the certificate just created or added: the one the answer's ``message`` names (``...
        (serial number <hex>) ...``), else the one of this common name that was not there before."""
        named = _NAMED_SERIAL.search(message or "")
        items = certificates_named(self.client, self.common_name)
        if named:
            serial = normalized_serial(named.group(1))
            found = next((item for item in items if serial_of(item) == serial), None)
            if found is not None:
                return found
        new = [item for item in items if serial_of(item) not in before]
        if len(new) == 1:
            return new[0]
        raise VaultNotFoundError(
            "the vault reported certificate %s created, but it cannot be told among those listed" % self.common_name
        )


def converge(task):
    """Entry point of ``vault_certificate``: the certificate ``task.desired`` names, created, added from ``src`` or
    deleted; returns ``{"certificate"}``, its list item with dates after the run ({} when there is none)."""
    return {"certificate": Certificate(task).ensure() or {}}
