# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/bench: the terms the benchmark fetches, and its tables, each figure with its ratio to the reference of
the same run."""

from __future__ import annotations

import os
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, BENCH)
    try:
        import lookup_bench  # pylint: disable=import-outside-toplevel
        import module_bench  # pylint: disable=import-outside-toplevel
        import report  # pylint: disable=import-outside-toplevel
        import simulator  # pylint: disable=import-outside-toplevel
        import simulator_scale_bench  # pylint: disable=import-outside-toplevel
    finally:
        sys.path.remove(BENCH)
    return lookup_bench, module_bench, report, simulator, simulator_scale_bench


def test_terms_are_distinct_and_ten_per_resource(bench):
    simulator = bench[3]

    pairs = simulator.term_names(25)

    assert len(set(pairs)) == 25
    assert [resource for resource, dummy in pairs].count(simulator.resource_name(0)) == 10
    assert simulator.term_names(25)[:10] == simulator.term_names(10)


def test_lookup_table_gives_each_run_its_ratio_to_the_plain_client_and_the_floor(bench):
    lookup_bench, report = bench[0], bench[2]
    runs = [
        lookup_bench.Run(report.REFERENCE, 100, 8.0, 200, 200, 0.2),
        lookup_bench.Run("lookup, concurrency 8", 100, 1.0, 200, 8, 0.2),
        lookup_bench.Run("lookup, concurrency 8, id cache warm", 100, 0.5, 100, None, 0.1),
    ]

    table = report.lookup_table(runs, {100: 2.0})

    assert "| 100 | lookup, concurrency 8 | 1.000 | 0.12x | 2.00 | 8 |" in table
    assert "| 100 | lookup, concurrency 8, id cache warm | 0.500 | 0.06x | 1.00 | n/a |" in table
    assert "| 100 | floor: one round trip per term, sequential | 2.000 | 0.25x | 1.00 | - |" in table


def test_cpu_table_gives_each_run_its_ratio_to_its_own_reference_in_all_and_per_request(bench):
    lookup_bench, report = bench[0], bench[2]
    runs = [
        lookup_bench.Run("reference", 100, 1.0, 100, 8, 0.5),
        lookup_bench.Run("lookup", 100, 0.9, 120, 8, 0.6),
        lookup_bench.Run("lookup, unlisted", 100, 0.9, 120, 8, 9.0),
        lookup_bench.Run("bundle: reference", 100, 1.0, 100, 8, 1.0),
        lookup_bench.Run("bundle: lookup", 100, 0.9, 120, 8, 0.6),
    ]

    table = report.cpu_table(runs, [("reference", ["lookup"]), ("bundle: reference", ["bundle: lookup"])])

    assert table.splitlines()[2:] == [
        "| 100 | reference | 0.500 | 1.00x | 100 | 5.000 | 1.00x |",
        "| 100 | lookup | 0.600 | 1.20x | 120 | 5.000 | 1.00x |",
        "| 100 | bundle: reference | 1.000 | 1.00x | 100 | 10.000 | 1.00x |",
        "| 100 | bundle: lookup | 0.600 | 0.60x | 120 | 5.000 | 0.50x |",
    ]


def test_module_table_compares_with_the_loop_create(bench):
    module_bench, report = bench[1], bench[2]
    runs = [
        module_bench.PlayRun("loop of vault_account: create", 100, 100.0, 600, 100),
        module_bench.PlayRun("vault_accounts: converged", 100, 2.0, 2, 0),
    ]

    table = report.module_table(runs)

    assert "| loop of vault_account | create | 100 | 100.00 | 1.00x | 600 | 100 |" in table
    assert "| vault_accounts | converged | 100 | 2.00 | 0.02x | 2 | 0 |" in table


def test_writes_are_told_from_reads_by_operation_name(bench):
    module_bench = bench[1]

    assert not module_bench._is_read("ADD ACCOUNTS")
    assert not module_bench._is_read("EDIT ACCOUNT")
    assert module_bench._is_read("GET RESOURCE ACCOUNTLIST")
    assert module_bench._is_read("GET_RESOURCEACCOUNTID")


def test_scale_table_gives_seeding_and_the_list_against_the_json_floor_and_lookups_against_the_smallest(bench):
    report, scale = bench[2], bench[4]
    runs = [
        scale.ScaleRun(100, 0.002, 0.08, 0.004, 500.0, 450.0),
        scale.ScaleRun(5000, 0.1, 3.0, 0.2, 400.0, 200.0),
    ]

    table = report.scale_table(runs)

    assert (
        "| resources | JSON floor s | seeding s | x floor | GET RESOURCES s | x floor | name lookups/s | x at 100 |"
        in table
    )
    assert "| 100 | 0.002 | 0.08 | 40.00x | 0.004 | 2.00x | 500 | 1.00x | 450 | 0.90x |" in table
    assert "| 5000 | 0.100 | 3.00 | 30.00x | 0.200 | 2.00x | 400 | 0.80x | 200 | 0.50x |" in table
