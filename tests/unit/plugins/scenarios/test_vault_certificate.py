# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_certificate on the default (edition A) and edition_b simulators: the scenarios of
tests/integration/targets/vault_certificate that go beyond the module's integration contract, moved here with their
assertions (issue 36).

- fields.yml: the certificate the vault made from fields as its key store shows it (subject, alternative names,
  key, signature, validity, serial), the second run with the common name in capitals (warned fields not
  compared), a task asking for another key length and signature (warned, unchanged), a second certificate of the
  same common name (the ambiguous delete naming both serials, the check-mode delete by serial in capitals, both
  listed by vault_certificate_info, both deleted by serial, colons included, then nothing to delete). The integration
  target keeps: create in check mode, create, again, one bad input, delete, delete again.
- files.yml: the mismatch of src with a field option (mutually exclusive), the key store with a wrong password
  (the vault's refusal, the password not in the result) and the key store exported back with the passphrase the
  vault kept. The integration target keeps the imports of controller files (PEM, DER, key store; check mode, again).
- edition_b.yml, all of it: an EC certificate for one hour on edition B, exported as PEM, deleted.

The other bad inputs of fields.yml and files.yml are facts of tests/unit/plugins/module_utils/test_certificate.py
and test_certificate_input.py already (country code, comma, validity_type, serial of a new certificate, serial
that is not hex, file of another common name or serial, key store without password, unreadable src).

Helper of this file: ``tool`` is setup_simulator's certificate_tool.py (makes certificate files, describes them).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import pkcs12

from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_action
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, writes

TOOL = os.path.join(
    os.path.dirname(__file__),
    "..",
    "..",
    "..",
    "integration",
    "targets",
    "setup_simulator",
    "files",
    "certificate_tool.py",
)
PASSPHRASE = "Ut-Cert-phr4se!"
STORE_PASSWORD = "Ut-Store-passw0rd!"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("certificate_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make(tool, monkeypatch, path, common_name, serial, days, fmt, password=None):
    """certificate_tool.py make (the key store's password read from ``password`` instead of stdin)."""
    monkeypatch.setattr(tool, "password", lambda: password and password.encode())
    return tool.make(str(path), common_name, serial, days, fmt)


def exported(tool, vault, tmp_path, name, fmt, password=None, **args):
    """vault_certificate_export of ``name`` to a file of tmp_path, described as certificate_tool.py inspect does;
    with ``password`` a key store opened with it (True: the passphrase the export returns)."""
    dest = tmp_path / ("%s.%s" % (name, fmt))
    result = run_action("vault_certificate_export", dict(vault.connection, common_name=name, dest=str(dest), **args))
    assert not result.get("failed"), result
    data = dest.read_bytes()
    if fmt == "p12":
        secret = result["passphrase"] if password is True else password
        key, certificate, dummy = pkcs12.load_key_and_certificates(data, secret.encode())
        return tool.describe(certificate, key)
    return tool.describe(x509.load_pem_x509_certificate(data))


FIELDS = dict(
    subject_alt_name=None,  # the common name and 192.0.2.7, set per test
    organization_name="Example Ltd",
    organizational_unit_name="Web",
    locality_name="London",
    state_or_province_name="England",
    country_name="gb",
    key_algorithm="RSA",
    key_length=3072,
    signature_algorithm="SHA384",
    validity=20,
    validity_type="days",
    privatekey_passphrase=PASSPHRASE,
)


def test_a_certificate_from_fields_and_a_second_of_its_name(vaults, unique, tool, tmp_path, monkeypatch):
    """fields.yml beyond the contract: what the vault made, second runs that warn, two certificates of one name."""
    vault = vaults["default"]
    name = unique + ".example.com"
    fields = dict(FIELDS)
    fields["subject_alt_name"] = [name, "192.0.2.7"]
    created = run(vault, "vault_certificate", common_name=name, **fields)
    assert created["changed"], created
    made = created["certificate"]
    assert made["Common Name"] == name
    assert (made["KeyStrength"], made["SignatureAlgorithm"]) == ("3072", "SHA384withRSA")
    assert made["serialNumber"] and made["days_left"] in (19, 20)
    assert re.match(r"^\d{4}-\d\d-\d\d$", made["expiry_date"])

    vault.forget_requests()
    again = run(vault, "vault_certificate", common_name=name.upper(), **fields)
    assert not again["changed"] and again["certificate"]["serialNumber"] == made["serialNumber"]
    assert len([w for w in warning_messages(again) if "not compared" in w]) == 1
    differs = run(vault, "vault_certificate", common_name=name, key_length=2048, signature_algorithm="SHA256")
    assert not differs["changed"]
    assert len([w for w in warning_messages(differs) if "key_length is 3072 in the vault, 2048 in the task" in w]) == 1
    assert (
        len([w for w in warning_messages(differs) if "signature_algorithm is SHA384withRSA in the vault, SHA256" in w])
        == 1
    )
    assert writes(vault) == []

    found = exported(tool, vault, tmp_path, name, "p12", password=PASSPHRASE, what="keystore")
    assert found["subject"] == {"CN": name, "O": "Example Ltd", "OU": "Web", "L": "London", "ST": "England", "C": "GB"}
    assert sorted(found["sans"]) == sorted([name, "192.0.2.7"])
    assert (found["key_algorithm"], found["key_size"], found["signature_hash"]) == ("RSA", 3072, "SHA384")
    assert found["validity_seconds"] == 20 * 86400
    assert (found["serial"], found["expiry_day"]) == (made["serialNumber"], made["expiry_date"])
    assert found["key_matches"]

    make(tool, monkeypatch, tmp_path / "second.pem", name, "5ec0d", "30", "pem")
    second = run(vault, "vault_certificate", common_name=name, src=str(tmp_path / "second.pem"))
    assert second["changed"] and second["certificate"]["serialNumber"] == "5ec0d"
    ambiguous = run(vault, "vault_certificate", common_name=name, state="absent")
    assert ambiguous["failed"]
    for part in (made["serialNumber"], "5ec0d", "give serial_number"):
        assert part in ambiguous["msg"]
    absent = dict(common_name=name, serial_number=made["serialNumber"].upper(), state="absent")
    dry_delete = run(vault, "vault_certificate", check_mode=True, **absent)
    assert dry_delete["changed"]
    assert (dry_delete["diff"]["before"]["state"], dry_delete["diff"]["after"]["state"]) == ("present", "absent")
    both = run(vault, "vault_certificate_info", common_name=name)
    assert (len(both["certificates"]), len(both["details"])) == (2, 2)
    for serial in (made["serialNumber"], "5e:c0:d"):
        assert run(vault, "vault_certificate", common_name=name, serial_number=serial, state="absent")["changed"]
    assert not run(vault, "vault_certificate", common_name=name, state="absent")["changed"]


def test_key_store_files_beyond_the_import(vaults, unique, tool, tmp_path, monkeypatch):
    """files.yml beyond the contract: src with a field option, a wrong key store password, the passphrase kept."""
    vault = vaults["default"]
    name = unique + ".example.com"
    store = tmp_path / "store.p12"
    make(tool, monkeypatch, store, name, "0ab2", "400", "p12", password=STORE_PASSWORD)
    pem = tmp_path / "file.pem"
    make(tool, monkeypatch, pem, name, "0ab1", "400", "pem")

    vault.forget_requests()
    both = run(vault, "vault_certificate", common_name=name, src=str(pem), key_length=2048)
    assert both["failed"] and "mutually exclusive" in both["msg"]
    assert vault.requests == []

    imported = run(
        vault,
        "vault_certificate",
        common_name=name,
        src=str(store),
        file_type="keystore",
        keystore_password=STORE_PASSWORD,
    )
    assert imported["changed"] and imported["certificate"]["serialNumber"] == "ab2"
    keystore = dict(common_name=name, src=str(store), file_type="keystore")
    wrong = run(vault, "vault_certificate", keystore_password="Wrong-passw0rd!", **keystore)
    assert wrong["failed"], wrong
    assert len([w for w in warning_messages(wrong) if "could not be read here" in w]) == 1
    assert "could not be opened" in wrong["msg"]
    assert "Wrong-passw0rd!" not in json.dumps(wrong)

    back = exported(tool, vault, tmp_path, name, "p12", password=True, what="keystore", return_passphrase=True)
    assert back["serial"] == "ab2" and back["key_matches"]
    assert run(vault, "vault_certificate", common_name=name, state="absent")["changed"]


def test_edition_b_an_ec_certificate_for_one_hour(vaults, unique, tool, tmp_path):
    """edition_b.yml: created, unchanged, as PEM (fileType of edition B) the key and validity asked for, deleted."""
    vault = vaults["edition_b"]
    name = unique + ".example.com"
    fields = dict(key_algorithm="EC", key_length=256, signature_algorithm="SHA256", validity=1, validity_type="hours")
    created = run(vault, "vault_certificate", common_name=name, **fields)
    assert created["changed"] and created["certificate"]["SignatureAlgorithm"] == "SHA256withECDSA"
    assert not run(vault, "vault_certificate", common_name=name, **fields)["changed"]
    found = exported(tool, vault, tmp_path, name, "pem", format="PEM")
    assert (found["key_algorithm"], found["key_size"], found["signature_hash"]) == ("EC", 256, "SHA256")
    assert found["validity_seconds"] == 3600
    assert found["serial"] == created["certificate"]["serialNumber"]
    vault.forget_requests()
    assert run(vault, "vault_certificate", check_mode=True, common_name=name, state="absent")["changed"]
    assert writes(vault) == []
    assert run(vault, "vault_certificate", common_name=name, state="absent")["changed"]
