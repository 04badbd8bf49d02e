# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Certificate signing requests (``{pki_root}``) for ``vault_csr``: create, list, sign (``_csr_info`` lists them).

What the API offers, and what that means here:

- ``createCSR`` takes the certificate input (``_certificate_input``) and
  answers "details list with CSR_ID"; edition B names the operation
  ``CreateCertificate`` (the catalogue knows).
- The CSR list (``GetCSRList``, optionally for one common name) reports
  ``CSR_ID, LOGIN_ID, KEY_STRENGTH, CREATED_BY, KEYALGORITHM, KEYSTORE_TYPE,
  CREATED_DATE, DOMAIN_NAME, VALIDITY, SIGNATURE_ALGORITHM, isPassword``.
  There is no call that edits or deletes a CSR. A task's CSR exists when a
  CSR for its common name lists the key algorithm, key length, signature
  algorithm, store type and validity the task gives, and a passphrase when
  the task gives one (the newest such CSR is taken). The other subject fields
  (ORG, ORGUNIT, LOCATION, STATE, COUNTRY, ALT_NAMES) and the passphrase itself
  are not listed, so they are not compared: the task warns when it gives them
  and an existing CSR is taken. A CSR that differs is not changed: a new one
  is created beside it.
- ``signCSR`` (serverName, caName, templateName, CSR_ID) answers only a
  message, and no read says which CSR was signed. What can be read is the
  certificate it produced: ``GetCertificateDetails`` shows each certificate's
  ``certificateTemplate``. A CSR created by an earlier run counts as signed
  when a certificate with its common name from the task's template exists;
  a CSR created by this run is always signed.
- The vault accepts several CSRs of one common name, and signs each: the
  find, the create and the signing hold the CSR's lock (``_object_lock``, by
  lower-cased common name), so a parallel run on this host waits, then finds
  the CSR and its certificate. A signing refused as done already ("already
  ...") while a certificate from the template is listed by then was done by a
  parallel run: no change.
"""

from __future__ import annotations

import re

from ._api import certificates as certificates_api
from ._certificate_input import certificate_input
from ._certificate_lookup import hash_of, iso_date, key_algorithm, list_certificates, normalized_serial
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError, VaultNotFoundError, VaultResponseError, is_refusal
from ._object_lock import object_lock

PRESENT, SIGNED = "present", "signed"
# The options compared with the CSR list: (option, list key).
COMPARED = (
    ("key_algorithm", "KEYALGORITHM"),
    ("key_length", "KEY_STRENGTH"),
    ("signature_algorithm", "SIGNATURE_ALGORITHM"),
    ("store_type", "KEYSTORE_TYPE"),
    ("validity", "VALIDITY"),
)
# Options the CSR list does not report.
NOT_LISTED = (
    "organization_name",
    "organizational_unit_name",
    "locality_name",
    "state_or_province_name",
    "country_name",
    "subject_alt_name",
)
SIGNING_OPTIONS = ("ca_server", "ca_name", "template")
_VALIDITY = re.compile(r"^\s*(\d+)\s*([A-Za-z]*)\s*$")
_ALREADY = re.compile(r"already", re.IGNORECASE)
LOCKED_KIND = "CSR"


def list_csrs(client, common_name=None):
    """The CSR list items (``GetCSRList``), for ``common_name`` only when it is given (compared without case),
    each with ``created_date`` in ISO 8601 beside the vault's ``CREATED_DATE``."""
    items = certificates_api.get_csr_list(client, common_name)
    if common_name:
        wanted = common_name.lower()
        items = [item for item in items if str(item.get("DOMAIN_NAME", "")).lower() == wanted]
    return [with_date(item) for item in items]


def with_date(item):
    dated = dict(item)
    dated["created_date"] = iso_date(item.get("CREATED_DATE"))
    return dated


def csr_id_of(item):
    """The ``CSR_ID`` of a list item as a number, or None when it is not one."""
    value = item.get("CSR_ID")
    if isinstance(value, bool):
        return None
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _validity(value):
    """``(number, unit)`` of a listed VALIDITY (``365 days``, ``365``); unit '' when absent; None if unreadable."""
    match = _VALIDITY.match(str(value if value is not None else ""))
    if not match:
        return None
    unit = match.group(2).lower()
    return int(match.group(1)), unit if not unit or unit.endswith("s") else unit + "s"


def mismatches(item, desired):
    """``{option: (listed, wanted)}`` for every compared option the list item differs in; options left out of
    the task are not compared. A VALIDITY that cannot be read counts as different."""
    found = {}
    for option, key in COMPARED:
        wanted = desired.get(option)
        if wanted is None:
            continue
        listed = item.get(key)
        if option == "key_algorithm":
            same = key_algorithm(listed) == key_algorithm(wanted)
        elif option == "key_length":
            same = str(listed).strip() == str(wanted)
        elif option == "signature_algorithm":
            same = hash_of(listed) == hash_of(wanted)
        elif option == "store_type":
            same = str(listed or "").strip().upper() == wanted.upper()
        else:
            read = _validity(listed)
            unit = desired.get("validity_type")
            same = read is not None and read[0] == wanted and (not unit or not read[1] or read[1] == unit)
            wanted = "%s %s" % (wanted, unit) if unit else wanted
        if not same:
            found[option] = (listed, wanted)
    if desired.get("privatekey_passphrase") and item.get("isPassword") not in (True, "true", "TRUE", "True"):
        found["privatekey_passphrase"] = ("not set", "set")
    return found


def matching_csr(items, desired):
    """The newest (highest ``CSR_ID``) list item without mismatches, or None."""
    matches = [item for item in items if not mismatches(item, desired)]
    return max(matches, key=lambda item: csr_id_of(item) or 0) if matches else None


def signed_certificates(client, common_name, template):
    """``[{common_name, serial_number}]`` of the certificates named ``common_name`` whose details show the
    template ``template``: what signing a CSR for that name with that template produced."""
    wanted = common_name.lower()
    if not any(str(item.get("Common Name", "")).lower() == wanted for item in list_certificates(client)):
        return []
    found = []
    for item in certificates_api.get_certificate_details(client, common_name):
        endpoint = item.get("endpoint") if isinstance(item.get("endpoint"), dict) else {}
        issued_to = item.get("issuedto") if isinstance(item.get("issuedto"), dict) else {}
        serial = endpoint.get("serial")
        name = issued_to.get("cname") or common_name
        if str(item.get("certificateTemplate") or "") != template or not serial:
            continue
        if not any(_same_serial(serial, known["serial_number"]) for known in found):
            found.append({"common_name": name, "serial_number": str(serial)})
    return found


def _same_serial(first, second):
    try:
        return normalized_serial(first) == normalized_serial(second)
    except VaultInputError:
        return first == second


def check_input(params):
    """The Details of createCSR for ``params``, refused before any request when the vault would refuse them."""
    clean_text(params.get("common_name"), "common_name")
    details = certificate_input(params)
    details["CNAME"] = params["common_name"]
    state = params.get("state") or PRESENT
    for option in SIGNING_OPTIONS:
        clean_text(params.get(option), option)
        if state == SIGNED and params.get(option) is None:
            raise VaultInputError("state signed needs ca_server, ca_name and template: %s is missing" % option)
    return details


def converge(task):
    """Entry point of ``vault_csr``: the CSR of ``task.desired``; ``present`` creates it unless a matching one exists,
    ``signed`` also signs it unless it was signed before. Records in ``task.tracker``; returns ``csr_id``, ``csr``
    and ``certificate``."""
    params = task.desired
    details = check_input(params)
    with object_lock(task.client, LOCKED_KIND, (params["common_name"].lower(),), task.check_mode):
        return _converge(task.client, params, details, task.check_mode, task.tracker)


def _converge(client, params, details, check_mode, tracker):
    state = params.get("state") or PRESENT
    common_name = params["common_name"]
    listed = list_csrs(client, common_name)
    existing = matching_csr(listed, params)
    if existing is None and listed:
        tracker.warn(
            "%s has CSR%s %s, none with the task's settings (%s); the API cannot change a CSR, so a new one is "
            "created beside %s"
            % (
                common_name,
                "" if len(listed) == 1 else "s",
                ", ".join(str(csr_id_of(item)) for item in listed),
                _first_difference(listed[-1], params),
                "it" if len(listed) == 1 else "them",
            )
        )
    if existing is not None:
        _warn_uncompared(tracker, params, existing)
        tracker.record("state", PRESENT, PRESENT, False)
        csr = existing
    else:
        tracker.record("state", "absent", PRESENT, True)
        for option, _key in COMPARED:
            tracker.compare(option, None, params.get(option))
        tracker.record("privatekey_passphrase", None, "", bool(params.get("privatekey_passphrase")), True)
        csr = {} if check_mode else _create(client, details, common_name)
    result = {"csr_id": csr_id_of(csr) if csr else None, "csr": csr, "certificate": {}}
    if state == SIGNED:
        result["certificate"] = _ensure_signed(client, params, tracker, csr, existing is None, check_mode)
    return result


def _create(client, details, common_name):
    answer = certificates_api.create_csr(client, details)
    ids = [csr_id_of(item) for item in answer if csr_id_of(item) is not None]
    listed = list_csrs(client, common_name)
    if ids:
        found = next((item for item in listed if csr_id_of(item) == ids[0]), None)
        if found is None:
            raise VaultNotFoundError(
                "the vault reported CSR %s for %s created, but it is not in the CSR list" % (ids[0], common_name)
            )
        return found
    raise VaultResponseError(
        "the vault reported a CSR for %s created without its CSR_ID: check the CSR list before running the task "
        "again, which would create another one" % common_name,
        operation="CreateCSR",
    )


def _ensure_signed(client, params, tracker, csr, created, check_mode):
    """Sign ``csr`` unless a certificate for its common name from the task's template shows it was signed."""
    common_name, template = params["common_name"], params["template"]
    before = signed_certificates(client, common_name, template)
    if before and not created:
        tracker.record("signed", True, True, False)
        if len(before) > 1 or csr_id_of(csr) is None:
            tracker.warn(
                "CSR %s of %s: certificates %s from template %s exist; the vault does not say which CSR each "
                "came from, so the CSR is taken as signed and is not signed again"
                % (csr_id_of(csr), common_name, ", ".join(item["serial_number"] for item in before), template)
            )
        return before[-1]
    if check_mode:
        tracker.record("signed", False, True, True)
        return {}
    try:
        certificates_api.sign_csr(client, params["ca_server"], params["ca_name"], template, csr_id_of(csr))
    except VaultAPIError as exc:
        signed = [] if is_refusal(exc) else signed_certificates(client, common_name, template)
        if not _ALREADY.search(exc.vault_message or "") or not signed:
            raise
        tracker.record("signed", True, True, False)  # by a parallel run, since this one read the certificates
        return signed[-1]
    tracker.record("signed", False, True, True)
    known = [item["serial_number"] for item in before]
    new = [
        item
        for item in signed_certificates(client, common_name, template)
        if not any(_same_serial(item["serial_number"], serial) for serial in known)
    ]
    return new[-1] if new else {}


def _first_difference(item, desired):
    option, (listed, wanted) = sorted(mismatches(item, desired).items())[0]
    return "CSR %s: %s is %s, the task asks %s" % (csr_id_of(item), option, listed, wanted)


def _warn_uncompared(tracker, params, existing):
    given = [option for option in NOT_LISTED if params.get(option)]
    if given:
        tracker.warn(
            "CSR %s of %s: the CSR list does not report %s, so %s not compared with the existing CSR"
            % (
                csr_id_of(existing),
                params["common_name"],
                ", ".join(given),
                "it was" if len(given) == 1 else "they were",
            )
        )
    if params.get("privatekey_passphrase"):
        tracker.warn(
            "CSR %s of %s: the CSR list says only whether a passphrase is set, so privatekey_passphrase was not "
            "compared with the existing CSR's" % (csr_id_of(existing), params["common_name"])
        )
