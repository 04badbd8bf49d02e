# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The certificate input of createCSR / createCertificate: option -> Details key, and the checks before sending."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._certificate_input import (
    OPTIONS,
    certificate_input,
    certificate_input_argument_spec,
)
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError


def test_every_option_maps_to_its_key():
    details = certificate_input(
        {
            "common_name": "www.example.com",
            "subject_alt_name": ["www.example.com", "192.0.2.1"],
            "organizational_unit_name": "Web",
            "organization_name": "Example Ltd",
            "locality_name": "London",
            "state_or_province_name": "England",
            "country_name": "gb",
            "privatekey_passphrase": "Pp-1",
            "validity": 30,
            "validity_type": "days",
            "key_algorithm": "RSA",
            "key_length": 2048,
            "signature_algorithm": "SHA256",
            "store_type": "PKCS12",
        }
    )
    assert details == {
        "CNAME": "www.example.com",
        "ALT_NAMES": "www.example.com,192.0.2.1",
        "ORGUNIT": "Web",
        "ORG": "Example Ltd",
        "LOCATION": "London",
        "STATE": "England",
        "COUNTRY": "GB",
        "PASSWORD": "Pp-1",
        "VALIDITY": "30",
        "VALIDITY_TYPE": "days",
        "ALG": "RSA",
        "LEN": "2048",
        "SIGALG": "SHA256",
        "StoreType": "PKCS12",
    }


def test_left_out_options_are_not_sent():
    assert certificate_input({"common_name": "a", "subject_alt_name": [], "privatekey_passphrase": ""}) == {
        "CNAME": "a"
    }


def test_argument_spec_covers_every_option_but_common_name():
    spec = certificate_input_argument_spec()
    assert set(spec) == set(OPTIONS) - {"common_name"}
    assert spec["privatekey_passphrase"]["no_log"] is True
    assert spec["subject_alt_name"] == {"type": "list", "elements": "str"}


@pytest.mark.parametrize("country", ["GBR", "G", "1A", "G B", ""])
def test_country_must_be_two_letters(country):
    with pytest.raises(VaultInputError, match="two-letter country code"):
        certificate_input({"country_name": country})


def test_comma_in_an_alternative_name_is_refused():
    with pytest.raises(VaultInputError, match="must not contain a comma"):
        certificate_input({"subject_alt_name": ["a.example.com,b.example.com"]})


def test_validity_type_needs_validity():
    with pytest.raises(VaultInputError, match="validity_type needs validity: give the number of hours"):
        certificate_input({"validity_type": "hours"})


@pytest.mark.parametrize("option", ["validity", "key_length"])
def test_numbers_must_be_positive(option):
    with pytest.raises(VaultInputError, match="%s must be a positive whole number" % option):
        certificate_input({option: 0})


def test_padded_text_is_refused():
    with pytest.raises(VaultInputError):
        certificate_input({"organization_name": " Example "})
