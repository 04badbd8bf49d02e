# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_resource_group's race of parallel runs, moved down from the integration target
tests/integration/targets/vault_resource_group_parallel (issue 36), whose fifteen forks ensured the same group present,
then absent, two rounds, against a vault that serves the resource list and the group deletion late.

Here processes run the module's main() at once against the in-process vault, with the same latency faults (the
resource list late while they ensure the group present, the deletion late while they ensure it absent): each round
one process creates the group (the others wait for its lock and find it), every process ends with the group holding
its resource, then the deletions race (more than three DELETE RESOURCE GROUP sent), exactly one process reports the
deletion and every one ends without the group. The integration keeps the resource group's race in
tests/integration/targets/parallel_forks (same_object.yml: fifteen forks ensure one group; same_deletion.yml: eight
delete it).
"""

from __future__ import annotations

import importlib
import multiprocessing

from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run

MODULE = "vault_resource_group"
PROCESSES = 5
ROUNDS = 2
LATE = 1.0  # seconds: every process reads the group list before another one's write lands


def ensure_rounds(connection, name, resource, barrier, results):
    """In a child process: each round, wait for the others, ensure the group present; wait; ensure it absent."""
    from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import COLLECTION, run_module

    importlib.import_module("%s.modules.%s" % (COLLECTION, MODULE))  # imported before the race starts
    for round_number in range(ROUNDS):
        barrier.wait()  # the resource list is late
        present = run_module(
            MODULE, dict(connection, name=name, description="Made by racing processes", resources=[resource])
        )
        barrier.wait()  # every process is done; the deletion is late
        barrier.wait()
        absent = run_module(MODULE, dict(connection, name=name, state="absent"))
        results.put(
            {
                "round": round_number,
                "failed": [result.get("msg") for result in (present, absent) if result.get("failed")],
                "present_ok": present.get("group", {}).get("resourceGroupName") == name
                and present.get("resources") == [resource],
                "absent_ok": absent.get("group") == {},
                "created": bool(present.get("changed")),
                "deleted": bool(absent.get("changed")),
            }
        )
        barrier.wait()  # every process is done


def test_racing_processes_create_the_group_once_and_race_its_deletion(vaults, unique):
    vault = vaults["default"]
    name, resource = unique, unique + "-r1"
    made = run(
        vault,
        "vault_resource",
        name=resource,
        type="Linux",
        owner="admin",
        first_account={"name": "root", "password": "Rg-Par4llel-pw-2207!"},
    )
    assert not made.get("failed"), made.get("msg")
    context = multiprocessing.get_context("forkserver")
    barrier = context.Barrier(PROCESSES + 1, timeout=120)
    results = context.Queue()
    processes = [
        context.Process(target=ensure_rounds, args=(vault.connection, name, resource, barrier, results))
        for dummy in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    vault.forget_requests()
    operations = []
    try:
        for dummy_round in range(ROUNDS):
            vault.faults.arm({"kind": "latency", "path": "/resources$", "method": "GET", "seconds": LATE}, "read")
            barrier.wait()
            barrier.wait()
            vault.faults.arm(
                {"kind": "latency", "path": "/resourcegroup$", "method": "DELETE", "seconds": LATE}, "write"
            )
            barrier.wait()
            barrier.wait()
            operations.append([entry["operation"] for entry in vault.requests])
            vault.forget_requests()
        reported = [results.get(timeout=60) for dummy in range(PROCESSES * ROUNDS)]
    except BaseException:
        barrier.abort()  # the processes stop waiting
        raise
    finally:
        vault.faults.clear()
        for process in processes:
            process.join(60)
    assert [process.exitcode for process in processes] == [0] * PROCESSES

    assert [entry["failed"] for entry in reported] == [[]] * (PROCESSES * ROUNDS)
    for round_number in range(ROUNDS):
        rounds = [entry for entry in reported if entry["round"] == round_number]
        assert all(entry["present_ok"] and entry["absent_ok"] for entry in rounds)
        # one creation per round (the processes waited for the lock), and the deletions raced
        assert operations[round_number].count("CREATE RESOURCE GROUP") == 1
        assert operations[round_number].count("DELETE RESOURCE GROUP") > 3
        # exactly one process created the group and exactly one deleted it; the others found it done
        assert [entry["created"] for entry in rounds].count(True) == 1
        assert [entry["deleted"] for entry in rounds].count(True) == 1
