# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The catalogue against the specification's own endpoint tables (tests/spec/vault-rest-api.md)."""

from __future__ import annotations

import os
import re

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE, PKI, REST, parse_build

SPEC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "spec", "vault-rest-api.md")


def spec_rows():
    """(method, root, path, operation names, build) for every endpoint row of the spec."""
    rows, root = [], None
    with open(SPEC, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("### "):
                root = REST if "{rest_root}" in line else PKI if "{pki_root}" in line else None
                sharing = line.startswith("### Sharing")
                continue
            if root is None or not line.startswith("| ") or line.startswith("|---"):
                continue
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if sharing and cells[0].startswith("/"):
                cells = ["PUT"] + cells
            if not re.match(r"^(GET|POST|PUT|DELETE)", cells[0]):
                continue
            path = cells[1].split("?")[0].split(" ")[0]
            names = re.findall(r"(?:name|operationName) `([^`]+)`", line)
            rows.append((cells[0], root, path, names, cells[-1]))
    return rows


def test_spec_has_97_endpoint_rows_and_catalogue_one_per_row():
    assert len(spec_rows()) == 97
    assert len(CATALOGUE) == 97


@pytest.mark.parametrize("method, root, path, names, build", spec_rows())
def test_every_spec_row_is_in_the_catalogue(method, root, path, names, build):
    matches = [row for row in CATALOGUE.values()
               if row.root == root and row.path.replace("{", "").replace("}", "") == path.replace("{", "").replace("}", "")
               and (row.method == method or method.startswith("GET (edition A)"))
               and (not names or row.operation == names[0])]
    assert matches, "no catalogue row for %s %s" % (method, path)
    if re.match(r"^(A \d+|B \d+|-)( / B \d+)?$", build):
        assert any(row.gates == parse_build(build) for row in matches)


def test_each_spec_row_maps_to_a_distinct_catalogue_row():
    seen = set()
    for method, root, path, names, build in spec_rows():
        candidates = sorted(
            row.key for row in CATALOGUE.values()
            if row.root == root and row.path.replace("{", "").replace("}", "") == path.replace("{", "").replace("}", "")
            and (row.method == method or method.startswith("GET (edition A)")) and row.key not in seen
            and (not names or row.operation == names[0])
            and (not re.match(r"^(A \d+|B \d+|-)( / B \d+)?$", build) or row.gates == parse_build(build)))
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
