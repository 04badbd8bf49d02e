# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The catalogue against the specification's own endpoint tables (tests/spec/vault-rest-api.md)."""

from __future__ import annotations

import re

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE, PKI, REST, parse_build
from ansible_collections.credvault.vault.tests.spec.spec_tables import PKI_ROOT, REST_ROOT, endpoint_rows

ROOTS = {REST_ROOT: REST, PKI_ROOT: PKI}


def spec_rows():
    """(method, root, path, operation names, build) for every endpoint row of the spec, as the
    shared parser (tests/spec/spec_tables.py) reads them."""
    return [(row.method_cell, ROOTS[row.root], row.path, row.operation_names(), row.build) for row in endpoint_rows()]


def test_spec_has_97_endpoint_rows_and_catalogue_one_per_row():
    assert len(spec_rows()) == 97
    assert len(CATALOGUE) == 97


@pytest.mark.parametrize("method, root, path, names, build", spec_rows())
def test_every_spec_row_is_in_the_catalogue(method, root, path, names, build):
    matches = [
        row
        for row in CATALOGUE.values()
        if row.root == root
        and row.path.replace("{", "").replace("}", "") == path.replace("{", "").replace("}", "")
        and (row.method == method or method.startswith("GET (edition A)"))
        and (not names or row.operation == names[0])
    ]
    assert matches, "no catalogue row for %s %s" % (method, path)
    if re.match(r"^(A \d+|B \d+|-)( / B \d+)?$", build):
        assert any(row.gates == parse_build(build) for row in matches)


def test_each_spec_row_maps_to_a_distinct_catalogue_row():
    seen = set()
    for method, root, path, names, build in spec_rows():
        candidates = sorted(
            row.key
            for row in CATALOGUE.values()
            if row.root == root
            and row.path.replace("{", "").replace("}", "") == path.replace("{", "").replace("}", "")
            and (row.method == method or method.startswith("GET (edition A)"))
            and row.key not in seen
            and (not names or row.operation == names[0])
            and (not re.match(r"^(A \d+|B \d+|-)( / B \d+)?$", build) or row.gates == parse_build(build))
        )
        assert candidates, (method, path, build)
        seen.add(candidates[0])
    assert seen == set(CATALOGUE)


def test_parse_build_reads_the_spec_notation():
    assert parse_build("-") == {"A": 0, "B": 0}
    assert parse_build("A 11300 / B 5300") == {"A": 11300, "B": 5300}
    assert parse_build("B 6320") == {"B": 6320}
    assert parse_build("A 12430") == {"A": 12430}
    with pytest.raises(ValueError):
        parse_build("C 1")


def test_get_ssh_key_is_get_in_a_and_post_in_b():
    row = CATALOGUE["get_ssh_key"]
    assert (row.method_for("A"), row.method_for("B"), row.method_for(None)) == ("GET", "POST", "GET")
    assert row.is_read


def test_lower_case_details_operations():
    lower = sorted(key for key, row in CATALOGUE.items() if row.details_key == "details")
    assert lower == ["delete_user_groups", "get_agent_key", "get_user_groups", "get_users", "validate_password"]


def test_upload_parts_follow_the_spec():
    assert CATALOGUE["create_resource"].file_part == "file"
    assert CATALOGUE["add_certificate"].file_part == "File"
    assert CATALOGUE["import_ssh_key"].file_part == "File"


def test_account_input_fields_are_gated():
    gates = CATALOGUE["edit_account"].field_gates()
    assert gates["TOTP_SECRET"] == {"A": 12430}
    assert gates["RECORD_RDP_SESSIONS"] == {"A": 12230, "B": 6000}
    assert CATALOGUE["add_accounts"].field_gates() == gates


@pytest.mark.parametrize("row", endpoint_rows(), ids=lambda row: row.path)
def test_operation_names_per_edition_follow_the_spec(row):
    """createCSR answers ``CreateCSR``, in edition B ``CreateCertificate``; every other row one name."""
    names = row.operation_names()
    if not names:
        return
    key = next(
        key
        for key, entry in CATALOGUE.items()
        if ROOTS[row.root] == entry.root
        and entry.path.replace("{", "").replace("}", "") == row.path.replace("{", "").replace("}", "")
        and entry.operation == names[0]
    )
    for edition in ("A", "B"):
        assert CATALOGUE[key].operation_for(edition) == row.operation_name(edition)[1]
