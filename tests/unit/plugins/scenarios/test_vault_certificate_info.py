# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_certificate_info on the default (edition A) and edition_b simulators: the scenarios of
tests/integration/targets/vault_certificate_info that go beyond the module's integration contract, moved here with
their assertions (issue 36).

- read.yml, run there on edition A and on edition B: here on both (parametrized), every read of it: the whole list
  with ISO dates and days left, the filters (expiring within days, key length, signature algorithm, all three),
  the expiry list (serial numbers on edition A only), one certificate by common name in capitals and by serial
  number with its details, names the vault does not know, no write. The integration target keeps, on edition A:
  the whole list, one certificate by common name, one bad input (serial_number without common_name), no write.

The other bad inputs of read.yml (expiry with a filter, expiring_within_days 0) are facts of
tests/unit/plugins/module_utils/test_certificate.py's test_info_refusals already. report.yml (the guide playbook
docs/examples/certificate_expiry_report.yml) and examples.yml stay in integration.
"""

from __future__ import annotations

import re

import pytest

from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, writes

DAY = r"^\d{4}-\d\d-\d\d$"


@pytest.mark.parametrize("profile", ["default", "edition_b"])
def test_lists_filters_expiry_and_details(vaults, unique, profile):
    """read.yml: certificates.yml's two certificates, read every way the module reads."""
    vault = vaults[profile]
    soon_cn, later_cn = unique + "-soon.example.com", unique + "-later.example.com"
    soon = run(
        vault,
        "vault_certificate",
        common_name=soon_cn,
        key_algorithm="RSA",
        key_length=2048,
        signature_algorithm="SHA256",
        validity=10,
    )
    later = run(
        vault,
        "vault_certificate",
        common_name=later_cn,
        key_algorithm="EC",
        key_length=384,
        signature_algorithm="SHA384",
        validity=400,
    )
    assert soon["changed"] and later["changed"], (soon, later)
    soon_serial = soon["certificate"]["serialNumber"]
    try:
        vault.forget_requests()
        every = run(vault, "vault_certificate_info")
        assert not every["changed"]
        (every_soon,) = [item for item in every["certificates"] if item["Common Name"] == soon_cn]
        (every_later,) = [item for item in every["certificates"] if item["Common Name"] == later_cn]
        assert every_soon["serialNumber"] == soon_serial
        assert re.match(DAY, every_soon["expiry_date"]) and re.match(DAY, every_soon["from_date"])
        assert every_soon["days_left"] in (9, 10) and every_later["days_left"] in (399, 400)

        filters = [
            {"expiring_within_days": 30},
            {"key_length": 384},
            {"signature_algorithm": "SHA384withECDSA"},
            {"expiring_within_days": 30, "key_length": 2048, "signature_algorithm": "SHA256withRSA"},
        ]
        ours = []
        for options in filters:
            names = [item["Common Name"] for item in run(vault, "vault_certificate_info", **options)["certificates"]]
            ours.append([name for name in (soon_cn, later_cn) if name in names])
        assert ours == [[soon_cn], [later_cn], [later_cn], [soon_cn]]

        expiry = run(vault, "vault_certificate_info", expiry=True)
        (expiry_soon,) = [item for item in expiry["expiry_dates"] if item["Common Name"] == soon_cn]
        assert expiry_soon["expiry_date"] == every_soon["expiry_date"]
        assert expiry_soon["days_left"] == every_soon["days_left"]
        assert ("serialNumber" in expiry_soon) == (vault.connection["edition"] == "A")

        one = run(vault, "vault_certificate_info", common_name=soon_cn.upper())
        assert one["exists"] and [item["serialNumber"] for item in one["certificates"]] == [soon_serial]
        (detail,) = one["details"]
        assert detail["endpoint"]["serial"] == soon_serial
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$", detail["expiry_date"])
        assert detail["expiry_date"][:10] == every_soon["expiry_date"]
        assert detail["days_left"] == every_soon["days_left"]
        assert detail["endpoint"]["PublicKeyLength"] == 2048
        serial = later["certificate"]["serialNumber"]
        by_serial = run(vault, "vault_certificate_info", common_name=later_cn, serial_number=serial)
        assert by_serial["exists"] and by_serial["details"][0]["endpoint"]["keyalg"] == "EC"

        unknown = [
            run(vault, "vault_certificate_info", common_name=unique + "-nobody.example.com"),
            run(vault, "vault_certificate_info", common_name=soon_cn, serial_number="ff00"),
        ]
        assert [result["exists"] for result in unknown] == [False, False]
        assert writes(vault) == []
    finally:
        for name in (soon_cn, later_cn):
            run(vault, "vault_certificate", common_name=name, state="absent")
