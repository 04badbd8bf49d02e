# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""SSL certificates against a scripted client: selection, dates, create/import/delete, info and fetch."""

from __future__ import annotations

import datetime

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from ansible_collections.credvault.vault.plugins.module_utils import (
    _certificate,
    _certificate_info,
    _certificate_lookup,
)
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultInputError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.plugins.plugin_utils import _certificate_export
from ansible_collections.credvault.vault.tests.unit.fakes import (
    NO_SUCH_CERTIFICATE,
    NOT_YOURS,
    ScriptedClient,
    run_entry,
)

TODAY = datetime.date(2026, 11, 23)


def listed(name="www.example.com", serial="8f2b", expiry="Dec 3, 2026", length="2048", algorithm="SHA256withRSA"):
    item = {
        "CertID": 1,
        "Common Name": name,
        "FromDate": "Nov 23, 2026",
        "ExpiryDate": expiry,
        "KeyStrength": length,
        "SignatureAlgorithm": algorithm,
    }
    if serial is not None:
        item["serialNumber"] = serial
    return item


def response(message="", content=None, details=None):
    return VaultResponse("OP", "Success", message, None, details, None, 200, {}, content=content)


def scripted_client(*items, message_serial=True, edition=None, build=None):
    """A vault holding ``items``; createCertificate/addCertificate add one with serial ``abc``."""
    store = [dict(item) for item in items]
    uploads = []

    def create(path, details, query):
        store.append(listed(details.get("CNAME", "www.example.com"), serial="abc"))
        return response("Certificate x (serial number abc) created successfully" if message_serial else "created")

    def add(path, details, query):
        uploads.append(details)
        store.append(listed("file.example.com", serial="abc"))
        return response("Certificate added")

    def delete(path, details, query):
        store[:] = [i for i in store if i.get("serialNumber") != details["serial_number"]]
        return []

    def details_of(path, details, query):
        return [
            {
                "endpoint": {
                    "serial": item.get("serialNumber") or "fill%d" % number,
                    "expiry_date": "2026-12-03 10:00:00.0",
                }
            }
            for number, item in enumerate(store)
            if item["Common Name"].lower() == details["common_name"].lower()
        ]

    client = ScriptedClient(
        {
            "get_all_ssl_certificates": lambda path, details, query: [dict(i) for i in store],
            "get_all_ssl_certificates_expiry": [{"Common Name": "www.example.com", "ExpiryDate": "Dec 3, 2026"}],
            "get_certificate_details": details_of,
            "create_certificate": create,
            "add_certificate": add,
            "delete_certificate": delete,
            "get_certificate": lambda path, details, query: response(content=b"-----BEGIN CERTIFICATE-----\n"),
            "get_certificate_keystore": lambda path, details, query: response(content=b"\x30\x82"),
            "get_certificate_passphrase": lambda path, details, query: response("Secret-phr4se"),
        },
        edition=edition,
        build=build,
    )
    client.store, client.uploads = store, uploads
    return client


def keys(client):
    return [key for key, *dummy in client.calls]


# --- selection -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given, expected",
    [("8F:2B", "8f2b"), ("00 8f 2b", "8f2b"), ("0000", "0"), ("abc", "abc"), (None, None)],
)
def test_normalized_serial(given, expected):
    assert _certificate_lookup.normalized_serial(given) == expected


@pytest.mark.parametrize("given", ["", "xyz", "12-34"])
def test_normalized_serial_refuses_what_is_not_hex(given):
    with pytest.raises(VaultInputError, match="is not a serial number"):
        _certificate_lookup.normalized_serial(given)


def test_ambiguous_common_name_names_the_serials():
    client = scripted_client(listed(serial="aa01"), listed(serial="bb02"))
    with pytest.raises(VaultInputError, match="names 2 certificates .serial numbers aa01, bb02.: give serial_number"):
        _certificate_lookup.select_certificate(client, "WWW.example.com")
    assert _certificate_lookup.select_certificate(client, "www.example.com", "BB:02")["serialNumber"] == "bb02"
    assert _certificate_lookup.select_certificate(client, "www.example.com", "cc") is None
    assert _certificate_lookup.select_certificate(client, "other.example.com") is None


def test_missing_serial_is_filled_from_the_details():
    client = scripted_client(listed(serial=None))
    item = _certificate_lookup.select_certificate(client, "www.example.com")
    assert item["serialNumber"] == "fill0"
    assert keys(client) == ["get_all_ssl_certificates", "get_certificate_details"]


def test_selector_and_describe():
    item = listed()
    assert _certificate_lookup.selector(item) == {"common_name": "www.example.com", "serial_number": "8f2b"}
    assert _certificate_lookup.certificate_label(item) == "www.example.com (serial number 8f2b)"


# --- dates -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Jan 5, 2027", "2027-01-05"),
        ("Sept 30, 2026", "2026-09-30"),
        ("2027-01-05 10:11:12.0", "2027-01-05T10:11:12"),
        ("2027-01-05 10:11:12", "2027-01-05T10:11:12"),
        ("Feb 30, 2027", None),
        ("Foo 3, 2027", None),
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_iso_date(text, expected):
    assert _certificate_lookup.iso_date(text) == expected


def test_days_left_and_dated_items():
    assert _certificate_lookup.days_left("2026-12-03", TODAY) == 10
    assert _certificate_lookup.days_left("2026-11-20T08:00:00", TODAY) == -3
    assert _certificate_lookup.days_left(None, TODAY) is None
    dated = _certificate_lookup.with_dates(listed(), TODAY)
    assert (dated["from_date"], dated["expiry_date"], dated["days_left"]) == ("2026-11-23", "2026-12-03", 10)
    expiry = _certificate_lookup.with_dates({"Common Name": "a", "ExpiryDate": "garbage"}, TODAY)
    assert "from_date" not in expiry and expiry["expiry_date"] is None and expiry["days_left"] is None
    detail = _certificate_lookup.detail_with_dates(
        {"endpoint": {"from_date": "2026-11-23 00:00:00.0", "expiry_date": "2027-11-23 00:00:00.0"}}, TODAY
    )
    assert (detail["from_date"], detail["expiry_date"], detail["days_left"]) == (
        "2026-11-23T00:00:00",
        "2027-11-23T00:00:00",
        365,
    )


# --- vault_certificate: fields ---------------------------------------------------------------------------------


def params(**options):
    settings = {"common_name": "www.example.com", "state": "present", "file_type": "certificate"}
    settings.update(options)
    return settings


def describe_certificates(client, options):
    """``vault_certificate_info``'s entry point run as the module runs it: what it returns."""
    tracker, values = run_entry(_certificate_info.describe, client, options)
    assert not tracker.recorded  # a read-only module shows no diff
    return values


def run_certificate(client, options, check_mode):
    """``vault_certificate``'s entry point run as the module runs it: the task's tracker and the certificate."""
    tracker, values = run_entry(_certificate.converge, client, options, check_mode)
    return tracker, values["certificate"]


def test_create_from_fields_then_unchanged():
    client = scripted_client()
    tracker, item = run_certificate(client, params(key_length=2048, privatekey_passphrase="Pp-1"), False)
    assert tracker.changed and item["serialNumber"] == "abc" and item["days_left"] is not None
    sent = [details for key, dummy, details, dummy_q in client.calls if key == "create_certificate"][0]
    assert sent == {"CNAME": "www.example.com", "LEN": "2048", "PASSWORD": "Pp-1"}
    assert tracker.diff()["after"]["privatekey_passphrase"] == "<hidden, changed>"
    assert "Pp-1" not in repr(tracker.diff())
    tracker, item = run_certificate(client, params(key_length=2048), False)
    assert not tracker.changed and item["serialNumber"] == "abc" and not tracker.warnings


def test_created_certificate_found_without_a_serial_in_the_message():
    client = scripted_client(listed(serial="old"), message_serial=False)
    client.store[0]["Common Name"] = "other"
    tracker, item = run_certificate(client, params(), False)
    assert item["serialNumber"] == "abc"


def test_check_mode_creates_nothing():
    client = scripted_client()
    tracker, item = run_certificate(client, params(validity=10, validity_type="days"), True)
    assert tracker.changed and item == {} and client.writes() == []
    assert tracker.diff()["after"]["validity"] == 10


def test_existing_certificate_differences_are_warned_not_changed():
    client = scripted_client(listed(length="2048", algorithm="SHA256withRSA"))
    tracker, item = run_certificate(
        client, params(key_length=4096, signature_algorithm="SHA384", key_algorithm="EC", organization_name="X"), False
    )
    assert not tracker.changed and client.writes() == []
    assert "key_length is 2048 in the vault, 4096 in the task" in tracker.warnings[0]
    assert "signature_algorithm is SHA256withRSA in the vault, SHA384 in the task" in tracker.warnings[0]
    assert "key_algorithm is RSA in the vault, EC in the task" in tracker.warnings[0]
    assert "organization_name" in tracker.warnings[1]


def test_same_fields_in_other_spelling_are_equal():
    client = scripted_client(listed(algorithm="SHA256withECDSA", length="256"))
    tracker, dummy = run_certificate(
        client, params(key_length=256, signature_algorithm="sha-256", key_algorithm="ECDSA"), False
    )
    assert not tracker.changed and tracker.warnings == []


def test_serial_number_of_a_missing_certificate_cannot_be_created():
    client = scripted_client()
    with pytest.raises(VaultInputError, match="the vault chooses the serial number"):
        run_certificate(client, params(serial_number="ff"), True)


def test_bad_certificate_input_is_refused_before_any_request():
    client = scripted_client()
    with pytest.raises(VaultInputError, match="two-letter"):
        run_certificate(client, params(country_name="GBR"), True)
    assert client.calls == []


# --- vault_certificate: files ----------------------------------------------------------------------------------


def self_signed(common_name="file.example.com"):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(0xABC)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=10))
        .sign(key, hashes.SHA256())
    )
    return key, certificate


def test_file_identity_of_pem_der_and_pkcs12():
    key, certificate = self_signed()
    pem = certificate.public_bytes(serialization.Encoding.PEM)
    der = certificate.public_bytes(serialization.Encoding.DER)
    p12 = pkcs12.serialize_key_and_certificates(
        b"x", key, certificate, None, serialization.BestAvailableEncryption(b"Ks-1")
    )
    wanted = {"common_name": "file.example.com", "serial_number": "abc"}
    assert _certificate.file_identity(pem, "certificate") == wanted
    assert _certificate.file_identity(der, "certificate") == wanted
    assert _certificate.file_identity(p12, "keystore", "Ks-1") == wanted
    assert _certificate.file_identity(p12, "keystore", "wrong") is None
    assert _certificate.file_identity(b"garbage", "certificate") is None


def test_import_a_keystore_then_unchanged(tmp_path):
    key, certificate = self_signed()
    path = tmp_path / "store.p12"
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(b"x", key, certificate, None, serialization.BestAvailableEncryption(b"K"))
    )
    options = params(common_name="file.example.com", src=str(path), file_type="keystore", keystore_password="K")
    client = scripted_client()
    tracker, item = run_certificate(client, options, False)
    assert tracker.changed and item["serialNumber"] == "abc"
    assert client.uploads == [{"fileType": "KEYSTORE", "PASSWORD": "K"}]
    assert tracker.diff()["after"]["keystore_password"] == "<hidden, changed>"
    tracker, item = run_certificate(client, options, False)
    assert not tracker.changed and len(client.uploads) == 1


def test_a_file_of_another_common_name_is_refused_before_any_request(tmp_path):
    path = tmp_path / "c.pem"
    path.write_bytes(self_signed()[1].public_bytes(serialization.Encoding.PEM))
    client = scripted_client()
    with pytest.raises(VaultInputError, match="common name file.example.com, not www.example.com"):
        run_certificate(client, params(src=str(path)), False)
    with pytest.raises(VaultInputError, match="serial number abc, not ff"):
        run_certificate(client, params(common_name="file.example.com", src=str(path), serial_number="ff"), False)
    assert client.calls == []


def test_unreadable_file_relies_on_the_vault_refusing_a_duplicate(tmp_path):
    path = tmp_path / "c.pem"
    path.write_bytes(b"not a certificate the library reads")
    client = scripted_client(listed("file.example.com", serial="abc"))
    client.answers["add_certificate"] = lambda p, d, q: VaultAPIError(
        "failed", vault_message="Certificate file.example.com (serial number abc) is already in the vault"
    )
    tracker, item = run_certificate(client, params(common_name="file.example.com", src=str(path)), False)
    assert not tracker.changed and item["serialNumber"] == "abc"
    assert "already holds" in tracker.warnings[0]


def test_keystore_needs_its_password_and_src_must_be_readable(tmp_path):
    with pytest.raises(VaultInputError, match="keystore_password"):
        run_certificate(scripted_client(), params(src=str(tmp_path / "x"), file_type="keystore"), False)
    with pytest.raises(VaultInputError, match="cannot be read"):
        run_certificate(scripted_client(), params(src=str(tmp_path / "missing")), False)


# --- vault_certificate: absent ---------------------------------------------------------------------------------


def test_delete_by_selector_then_absent():
    client = scripted_client(listed(serial="aa01"))
    tracker, item = run_certificate(client, params(state="absent"), True)
    assert tracker.changed and client.writes() == []
    tracker, item = run_certificate(client, params(state="absent"), False)
    assert tracker.changed and item == {}
    assert ("delete_certificate", None, {"common_name": "www.example.com", "serial_number": "aa01"}, None) in (
        client.calls
    )
    tracker, item = run_certificate(client, params(state="absent"), False)
    assert not tracker.changed


def test_delete_of_an_ambiguous_common_name_is_refused():
    client = scripted_client(listed(serial="aa01"), listed(serial="bb02"))
    with pytest.raises(VaultInputError, match="aa01, bb02"):
        run_certificate(client, params(state="absent"), False)
    assert client.writes() == []


# --- info ------------------------------------------------------------------------------------------------------


def test_list_with_filters():
    client = scripted_client(listed())
    info = describe_certificates(
        client, {"expiring_within_days": 30, "key_length": 2048, "signature_algorithm": "SHA256withRSA"}
    )
    assert info["certificates"][0]["expiry_date"] == "2026-12-03"
    assert client.calls[0][2] == {
        "withExpiryDaysLessThan": "30",
        "withKeyLength": "2048",
        "withSignatureAlgorithm": "SHA256withRSA",
    }


def test_info_refusals():
    for options, text in (
        ({"expiring_within_days": 0}, "positive"),
        ({"expiry": True, "key_length": 1024}, "takes no filter"),
        ({"serial_number": "ab"}, "give common_name"),
    ):
        with pytest.raises(VaultInputError, match=text):
            describe_certificates(scripted_client(), options)


def test_expiry_list_and_one_certificate():
    client = scripted_client(listed(serial="aa01"), listed(serial="bb02"))
    assert describe_certificates(client, {"expiry": True})["expiry_dates"][0]["expiry_date"] == "2026-12-03"
    info = describe_certificates(client, {"common_name": "www.example.com", "serial_number": "BB02"})
    assert info["exists"] and [i["serialNumber"] for i in info["certificates"]] == ["bb02"]
    assert [d["endpoint"]["serial"] for d in info["details"]] == ["bb02"]
    assert info["details"][0]["expiry_date"] == "2026-12-03T10:00:00"
    missing = describe_certificates(client, {"common_name": "nobody"})
    assert missing == {"exists": False, "certificates": [], "details": []}


def test_info_on_a_certificate_this_token_may_not_access_fails_with_the_refusal():
    client = ScriptedClient({"get_all_ssl_certificates": [], "get_certificate_details": NOT_YOURS})
    with pytest.raises(VaultAPIError, match="the vault refused certificate hidden.example.com to this token"):
        describe_certificates(client, {"common_name": "hidden.example.com"})


# --- fetch -----------------------------------------------------------------------------------------------------


def test_fetch_certificate_keystore_and_passphrase():
    client = scripted_client(listed())
    content, item, passphrase = _certificate_export.fetch(client, {"common_name": "www.example.com"})
    assert content.startswith(b"-----BEGIN") and passphrase is None and item["serialNumber"] == "8f2b"
    assert "get_certificate_passphrase" not in keys(client)
    content, item, passphrase = _certificate_export.fetch(
        client, {"common_name": "www.example.com", "what": "keystore", "return_passphrase": True}
    )
    assert content == b"\x30\x82" and passphrase == "Secret-phr4se"
    assert ("get_certificate_keystore", None, {"common_name": "www.example.com", "serial_number": "8f2b"}, None) in (
        client.calls
    )


def test_fetch_format_gate_and_refusals():
    client = scripted_client(listed(), edition="A", build=12450)
    with pytest.raises(VaultUnsupportedError, match="fileType needs"):
        _certificate_export.fetch(client, {"common_name": "www.example.com", "format": "KEY"})
    assert client.calls == []
    with pytest.raises(VaultInputError, match="format applies to what: certificate"):
        _certificate_export.fetch(client, {"common_name": "www.example.com", "what": "keystore", "format": "PEM"})
    with pytest.raises(VaultNotFoundError, match="does not exist"):
        _certificate_export.fetch(client, {"common_name": "nobody"})
    client = scripted_client(listed(), edition="B", build=6200)
    _certificate_export.fetch(client, {"common_name": "www.example.com", "format": "key"})
    assert client.calls[-1][2] == {"common_name": "www.example.com", "serial_number": "8f2b", "fileType": "KEY"}


def encrypted_material(key, certificate, passphrase):
    encryption = serialization.BestAvailableEncryption(passphrase.encode())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    p12 = pkcs12.serialize_key_and_certificates(b"x", key, certificate, None, encryption)
    return pem, p12


def test_same_private_material_opens_both_files():
    key, certificate = self_signed()
    other_key, other_certificate = self_signed()
    first_pem, first_p12 = encrypted_material(key, certificate, "Pp")
    second_pem, second_p12 = encrypted_material(key, certificate, "Pp")
    assert first_pem != second_pem and first_p12 != second_p12
    assert _certificate_export.same_private_material(first_pem, second_pem, "Pp")
    assert _certificate_export.same_private_material(first_p12, second_p12, "Pp")
    other_pem, other_p12 = encrypted_material(other_key, other_certificate, "Pp")
    assert not _certificate_export.same_private_material(first_pem, other_pem, "Pp")
    assert not _certificate_export.same_private_material(first_p12, other_p12, "Pp")
    assert not _certificate_export.same_private_material(first_pem, second_pem, "wrong")
    assert not _certificate_export.same_private_material(b"\xfe\xed\xfe\xed1", b"\xfe\xed\xfe\xed2", "Pp")


def test_fetch_keeps_an_equivalent_key_file_and_hides_the_passphrase_it_read():
    key, certificate = self_signed()
    current, dummy = encrypted_material(key, certificate, "Secret-phr4se")
    fresh, dummy = encrypted_material(key, certificate, "Secret-phr4se")
    client = scripted_client(listed(), edition="B", build=6320)
    client.answers["get_certificate"] = lambda path, details, query: response(content=fresh)
    options = {"common_name": "www.example.com", "format": "KEY"}
    content, item, passphrase = _certificate_export.fetch(client, options, current)
    assert content == current and passphrase is None
    assert "get_certificate_passphrase" in keys(client)
    content, item, passphrase = _certificate_export.fetch(client, options, None)
    assert content == fresh
    other, dummy = encrypted_material(*self_signed(), "Secret-phr4se")
    assert _certificate_export.fetch(client, options, other)[0] == fresh


@pytest.mark.parametrize(
    ("details", "error", "words"),
    [
        (
            NOT_YOURS,
            VaultAPIError,
            "the vault refused certificate hidden.example.com with serial number 0A to this token: "
            "You are not authorized to access certificate",
        ),
        (
            NO_SUCH_CERTIFICATE,
            VaultNotFoundError,
            "certificate hidden.example.com with serial number 0A does not exist (or is not visible to this token)",
        ),
    ],
)
def test_an_unlisted_certificate_is_refused_when_the_vault_says_so_else_missing(details, error, words):
    client = ScriptedClient({"get_all_ssl_certificates": [], "get_certificate_details": details})
    with pytest.raises(error) as caught:
        _certificate_lookup.require_certificate(client, "hidden.example.com", "0A")
    assert words in str(caught.value)
    assert client.calls[-1] == (
        "get_certificate_details",
        None,
        {"common_name": "hidden.example.com", "serial_number": "0A"},
        None,
    )
