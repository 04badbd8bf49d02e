# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The spec's "Certificate input for createCSR and createCertificate", as module options.

The options carry the names ``community.crypto.openssl_csr`` gives the same
subject fields, so that a task reads the same in both collections:

======================== ============== =====================================
option                   Details key    notes
======================== ============== =====================================
common_name              CNAME
subject_alt_name         ALT_NAMES      a list here, "comma-separated" there
organizational_unit_name ORGUNIT
organization_name        ORG
locality_name            LOCATION
state_or_province_name   STATE
country_name             COUNTRY        "two-letter code", checked here
privatekey_passphrase    PASSWORD       a secret (``no_log``)
validity                 VALIDITY       "number as string"
validity_type            VALIDITY_TYPE  ``days``, ``hours`` or ``minutes``
key_algorithm            ALG            passed as given: the spec shows RSA
key_length               LEN
signature_algorithm      SIGALG         passed as given: the spec shows SHA256
store_type               StoreType      passed as given: the spec shows PKCS12
======================== ============== =====================================

An option left out is not sent, so the vault's own default applies.
"""

from __future__ import annotations

import re

from ._checks import clean_text
from ._errors import VaultInputError

VALIDITY_TYPES = ("days", "hours", "minutes")
_COUNTRY = re.compile(r"[A-Za-z]{2}")
_TEXT_FIELDS = (
    ("common_name", "CNAME"),
    ("organizational_unit_name", "ORGUNIT"),
    ("organization_name", "ORG"),
    ("locality_name", "LOCATION"),
    ("state_or_province_name", "STATE"),
    ("key_algorithm", "ALG"),
    ("signature_algorithm", "SIGALG"),
    ("store_type", "StoreType"),
)
OPTIONS = tuple(option for option, _key in _TEXT_FIELDS) + (
    "subject_alt_name",
    "country_name",
    "privatekey_passphrase",
    "validity",
    "validity_type",
    "key_length",
)


def certificate_input_argument_spec():
    """The options of the certificate input (``common_name`` is added by each module, as it needs it)."""
    spec = {option: {"type": "str"} for option, _key in _TEXT_FIELDS if option != "common_name"}
    spec.update(
        {
            "subject_alt_name": {"type": "list", "elements": "str"},
            "country_name": {"type": "str"},
            "privatekey_passphrase": {"type": "str", "no_log": True},
            "validity": {"type": "int"},
            "validity_type": {"type": "str", "choices": list(VALIDITY_TYPES)},
            # A key's length in bits is no secret (validate-modules takes "key" for one).
            "key_length": {"type": "int", "no_log": False},
        }
    )
    return spec


def certificate_input(params):
    """The Details of createCSR / createCertificate for the module's ``params``; ``VaultInputError``
    (before any request) for an empty or space-padded value, a country that is not two letters, a
    validity or key length that is not positive, or a validity type without a validity."""
    details = {}
    for option, key in _TEXT_FIELDS:
        value = clean_text(params.get(option), option)
        if value is not None:
            details[key] = value
    names = [clean_text(name, "subject_alt_name item") for name in params.get("subject_alt_name") or []]
    if any("," in name for name in names):
        raise VaultInputError("subject_alt_name items must not contain a comma: the vault reads them comma-separated")
    if names:
        details["ALT_NAMES"] = ",".join(names)
    country = params.get("country_name")
    if country is not None:
        if not _COUNTRY.fullmatch(country):
            raise VaultInputError("country_name %r is not a two-letter country code (such as DE or US)" % country)
        details["COUNTRY"] = country.upper()
    if params.get("privatekey_passphrase"):
        details["PASSWORD"] = params["privatekey_passphrase"]
    for option, key in (("validity", "VALIDITY"), ("key_length", "LEN")):
        value = params.get(option)
        if value is not None:
            if value < 1:
                raise VaultInputError("%s must be a positive whole number, not %s" % (option, value))
            details[key] = str(value)
    if params.get("validity_type") is not None:
        if params.get("validity") is None:
            raise VaultInputError("validity_type needs validity: give the number of %s" % params["validity_type"])
        details["VALIDITY_TYPE"] = params["validity_type"]
    return details
