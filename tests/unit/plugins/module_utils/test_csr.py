# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""CSRs against a scripted client: what is compared, created and signed, and only that."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _csr, _csr_info
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError, VaultResponseError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

SIGNING = {"ca_server": "ca01", "ca_name": "Issuing CA", "template": "WebServer"}


def listed(csr_id, common_name="www.example.com", **fields):
    item = {
        "CSR_ID": csr_id,
        "LOGIN_ID": 1,
        "KEY_STRENGTH": 2048,
        "CREATED_BY": "admin",
        "KEYALGORITHM": "RSA",
        "KEYSTORE_TYPE": "PKCS12",
        "CREATED_DATE": "2026-11-23 08:10:11.123",
        "DOMAIN_NAME": common_name,
        "VALIDITY": "365 days",
        "SIGNATURE_ALGORITHM": "SHA256withRSA",
        "isPassword": False,
    }
    item.update(fields)
    return item


def params(**options):
    settings = {"common_name": "www.example.com", "state": "present"}
    settings.update(options)
    return settings


class Vault:
    """CSRs and certificates as the vault keeps them; signing a CSR adds a certificate from its template."""

    def __init__(self, csrs=(), certificates=()):
        self.csrs = [dict(item) for item in csrs]
        self.certificates = [dict(item) for item in certificates]

    def answers(self):
        return {
            "get_csr_list": self.csr_list,
            "create_csr": self.create,
            "sign_csr": self.sign,
            "get_all_ssl_certificates": lambda path, details, query: [
                {"Common Name": c["cn"], "serialNumber": c["serial"]} for c in self.certificates
            ],
            "get_certificate_details": self.details,
        }

    def csr_list(self, path, details, query):
        wanted = (details or {}).get("common_name")
        return [dict(item) for item in self.csrs if not wanted or item["DOMAIN_NAME"].lower() == wanted.lower()]

    def create(self, path, details, query):
        csr_id = 100 + len(self.csrs)
        fields = {"DOMAIN_NAME": details["CNAME"], "isPassword": "PASSWORD" in details}
        if "LEN" in details:
            fields["KEY_STRENGTH"] = int(details["LEN"])
        self.csrs.append(listed(csr_id, **fields))
        return [{"CSR_ID": csr_id}]

    def sign(self, path, details, query):
        csr = next(item for item in self.csrs if str(item["CSR_ID"]) == details["CSR_ID"])
        serial = "%x" % (0xA0 + len(self.certificates))
        self.certificates.append({"cn": csr["DOMAIN_NAME"], "serial": serial, "template": details["templateName"]})

    def details(self, path, details, query):
        return [
            {"certificateTemplate": c["template"], "endpoint": {"serial": c["serial"]}, "issuedto": {"cname": c["cn"]}}
            for c in self.certificates
            if c["cn"].lower() == details["common_name"].lower()
        ]


def test_list_keeps_the_common_name_and_adds_an_iso_date():
    client = ScriptedClient(Vault([listed(1), listed(2, "other.example.com")]).answers())
    csrs = run_entry(_csr_info.describe, client, {"common_name": "WWW.example.com"})[1]["csrs"]
    assert [item["CSR_ID"] for item in csrs] == [1]
    assert csrs[0]["created_date"] == "2026-11-23T08:10:11"
    assert client.calls == [("get_csr_list", None, {"common_name": "WWW.example.com"}, None)]


def test_list_without_a_name_sends_no_input():
    client = ScriptedClient(Vault([listed(1), listed(2, "other.example.com")]).answers())
    assert len(run_entry(_csr_info.describe, client, {"common_name": None})[1]["csrs"]) == 2
    assert client.calls == [("get_csr_list", None, None, None)]


def test_creates_with_the_certificate_input_and_returns_the_list_item():
    vault = Vault()
    client = ScriptedClient(vault.answers(), edition="B", build=6320)
    tracker, result = run_entry(
        _csr.converge,
        client,
        params(key_length=3072, country_name="de", privatekey_passphrase="Key-phr4se!", subject_alt_name=["a", "b"]),
        False,
    )
    assert tracker.changed
    sent = client.calls[1]
    assert sent[0] == "create_csr"
    assert sent[2] == {"CNAME": "www.example.com", "LEN": "3072", "COUNTRY": "DE", "PASSWORD": "Key-phr4se!"} | {
        "ALT_NAMES": "a,b"
    }
    assert result["csr_id"] == 100 and result["csr"]["KEY_STRENGTH"] == 3072
    assert result["certificate"] == {}
    assert "Key-phr4se!" not in repr(tracker.diff()) and "Key-phr4se!" not in repr(result)


def test_matching_csr_is_unchanged_and_not_listed_fields_warn():
    client = ScriptedClient(Vault([listed(7, isPassword=True)]).answers())
    tracker, result = run_entry(
        _csr.converge,
        client,
        params(
            key_algorithm="rsa",
            key_length=2048,
            signature_algorithm="SHA256",
            store_type="pkcs12",
            validity=365,
            validity_type="days",
            organization_name="Example",
            privatekey_passphrase="x",
        ),
        False,
    )
    assert not tracker.changed and result["csr_id"] == 7
    assert client.writes() == []
    assert any("does not report organization_name" in warning for warning in tracker.warnings)
    assert any("privatekey_passphrase was not compared" in warning for warning in tracker.warnings)


@pytest.mark.parametrize(
    "options",
    [
        {"key_length": 4096},
        {"key_algorithm": "EC"},
        {"signature_algorithm": "SHA384"},
        {"store_type": "JKS"},
        {"validity": 30},
        {"validity": 365, "validity_type": "hours"},
        {"privatekey_passphrase": "x"},
    ],
)
def test_a_differing_csr_is_left_and_a_new_one_created(options):
    vault = Vault([listed(7)])
    client = ScriptedClient(vault.answers())
    tracker, result = run_entry(_csr.converge, client, params(**options), False)
    assert tracker.changed and result["csr_id"] == 101
    assert client.writes() == ["create_csr"]
    assert any("a new one is created beside it" in warning for warning in tracker.warnings)


def test_the_newest_matching_csr_is_taken_and_aliases_match():
    items = [listed(3, KEYALGORITHM="EC", KEY_STRENGTH=256), listed(9, KEYALGORITHM="EC", KEY_STRENGTH="256")]
    client = ScriptedClient(Vault(items).answers())
    tracker, result = run_entry(_csr.converge, client, params(key_algorithm="ECDSA", key_length=256), False)
    assert not tracker.changed and result["csr_id"] == 9


def test_unreadable_validity_counts_as_different():
    assert "validity" in _csr.mismatches(listed(1, VALIDITY="one year"), {"validity": 365})
    assert _csr.mismatches(listed(1, VALIDITY="365"), {"validity": 365, "validity_type": "days"}) == {}
    assert _csr.mismatches(listed(1, VALIDITY="1 day"), {"validity": 1, "validity_type": "days"}) == {}


def test_check_mode_creates_and_signs_nothing():
    client = ScriptedClient(Vault().answers())
    tracker, result = run_entry(_csr.converge, client, params(state="signed", **SIGNING), True)
    assert tracker.changed and result == {"csr_id": None, "csr": {}, "certificate": {}}
    assert client.writes() == []


@pytest.mark.parametrize(
    "options, words",
    [
        ({"country_name": "DEU"}, "not a two-letter country code"),
        ({"validity": 0}, "validity must be a positive whole number"),
        ({"key_length": -1}, "key_length must be a positive whole number"),
        ({"common_name": " www"}, "leading or trailing spaces"),
        ({"state": "signed", "ca_server": "ca01", "ca_name": "CA"}, "template is missing"),
        ({"state": "signed", "ca_server": "ca01", "ca_name": "CA", "template": ""}, "template must not be empty"),
    ],
)
def test_bad_input_is_refused_before_any_request(options, words):
    client = ScriptedClient(Vault().answers())
    with pytest.raises(VaultInputError, match=words):
        run_entry(_csr.converge, client, params(**options), False)
    assert client.calls == []


def test_signed_creates_signs_and_names_the_certificate_then_is_unchanged():
    vault = Vault()
    client = ScriptedClient(vault.answers())
    tracker, result = run_entry(_csr.converge, client, params(state="signed", **SIGNING), False)
    assert tracker.changed and client.writes() == ["create_csr", "sign_csr"]
    sign = [call for call in client.calls if call[0] == "sign_csr"][0]
    assert sign[2] == {"serverName": "ca01", "caName": "Issuing CA", "templateName": "WebServer", "CSR_ID": "100"}
    assert result["certificate"] == {"common_name": "www.example.com", "serial_number": "a0"}

    again = ScriptedClient(vault.answers())
    tracker, result = run_entry(_csr.converge, again, params(state="signed", **SIGNING), False)
    assert not tracker.changed and again.writes() == []
    assert result["certificate"]["serial_number"] == "a0" and result["csr_id"] == 100


def test_existing_unsigned_csr_is_signed_once():
    vault = Vault([listed(5)], certificates=[{"cn": "www.example.com", "serial": "01", "template": ""}])
    client = ScriptedClient(vault.answers())
    tracker, result = run_entry(_csr.converge, client, params(state="signed", **SIGNING), False)
    assert tracker.changed and client.writes() == ["sign_csr"]
    assert result["certificate"]["serial_number"] == "a1"
    assert tracker.diff() == {
        "before": {"state": "present", "signed": False},
        "after": {"state": "present", "signed": True},
    }


def test_a_csr_created_now_is_signed_even_beside_an_older_certificate_of_the_template():
    vault = Vault([listed(5)], certificates=[{"cn": "www.example.com", "serial": "01", "template": "WebServer"}])
    client = ScriptedClient(vault.answers())
    tracker, result = run_entry(_csr.converge, client, params(key_length=4096, state="signed", **SIGNING), False)
    assert client.writes() == ["create_csr", "sign_csr"]
    assert result["certificate"]["serial_number"] == "a1"


def test_several_certificates_of_the_template_warn():
    certificates = [{"cn": "www.example.com", "serial": s, "template": "WebServer"} for s in ("01", "02")]
    client = ScriptedClient(Vault([listed(5)], certificates).answers())
    tracker, result = run_entry(_csr.converge, client, params(state="signed", **SIGNING), False)
    assert not tracker.changed and client.writes() == []
    assert any("does not say which CSR" in warning for warning in tracker.warnings)


def test_a_create_answer_without_csr_id_fails_saying_so():
    answers = Vault().answers()
    answers["create_csr"] = [{}]
    with pytest.raises(VaultResponseError, match="without its CSR_ID"):
        run_entry(_csr.converge, ScriptedClient(answers), params(), False)
