"""Conformance: one test per endpoint row of the spec and edition that has it.

Each row's scenario (conformance/scenarios/) drives a fresh simulator to a
successful call; the checks come from the spec's own tables, read by the
shared parser tests/spec/spec_tables.py (method, path, operation name,
wrapper, key spelling, field types). The gate tests prove that an edition or
build without the endpoint refuses it.
"""

import re

import pytest

# Imported to register every scenario.
from conformance import scenarios  # noqa: F401 pylint: disable=unused-import
from conformance.checks import RECORDS, check_exchange
from conformance.harness import SCENARIOS
from spec_tables import endpoint_rows

ROWS = endpoint_rows()
CASES = [(row, edition) for row in ROWS for edition in row.editions]


def test_the_spec_has_97_endpoint_rows():
    assert len(ROWS) == 97


def test_every_row_has_a_scenario_and_every_scenario_a_row():
    covered = [row.row_id for row in ROWS if row.row_id in SCENARIOS]
    print(f"conformance scenarios cover {len(covered)} of {len(ROWS)} endpoint rows")
    assert sorted(set(SCENARIOS) - {row.row_id for row in ROWS}) == []
    assert len(covered) == len(ROWS), sorted(row.row_id for row in ROWS if row.row_id not in SCENARIOS)


@pytest.mark.parametrize("row, edition", CASES, ids=[f"{edition}: {row.row_id}" for row, edition in CASES])
def test_row_conforms(row, edition, make_vault):
    if row.row_id not in SCENARIOS:
        pytest.fail(f"no scenario for {row.row_id}")
    exchange = SCENARIOS[row.row_id](make_vault(edition=edition))
    check_exchange(row, edition, exchange)


def test_every_record_title_used_is_a_spec_table():
    assert "Resource (list item, from the resource list)" in RECORDS


def _concrete(row):
    return re.sub(r"\{[a-z_]+\}", "1", row.path)


# Rows that share method and path with another row differ only by input (sharing
# with USERGROUPID, creating an API user): their gates are tested by input in
# the sharing and user tests, not by path here.
_PATH_GATED = [
    row
    for row in ROWS
    if sum(1 for other in ROWS if (other.method_cell, other.path) == (row.method_cell, row.path)) == 1
]
GATES = [
    (row, edition)
    for row in _PATH_GATED
    for edition in "AB"
    if edition not in row.editions or row.minimum_build(edition) > 0
]


@pytest.mark.parametrize("row, edition", GATES, ids=[f"{edition}: {row.row_id}" for row, edition in GATES])
def test_row_is_refused_where_the_spec_says_it_does_not_exist(row, edition, make_vault):
    from conftest import PKI_ROOT, REST_ROOT  # pylint: disable=import-outside-toplevel

    root = PKI_ROOT if row.root.startswith("/api") else REST_ROOT
    method = row.method(edition)
    if edition in row.editions:
        served = make_vault(edition=edition, build=row.minimum_build(edition))
        assert served.call(method, _concrete(row), root=root)[0] != 404
        vault = make_vault(edition=edition, build=row.minimum_build(edition) - 1)
    else:
        vault = make_vault(edition=edition)
    status, body = vault.call(method, _concrete(row), root=root)
    assert status == 404
    assert body["operation"]["name"] == "UNSUPPORTED"
