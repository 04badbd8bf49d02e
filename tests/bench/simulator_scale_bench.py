# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulator at a real vault's size: seeding, GET RESOURCES, name lookups, and a state file against memory.

For each size, a seed file of that many resources with one account each:

- seeding: the file applied in this process to a new simulator whose state is a new file, as
  ``vault-simulator --seed-file FILE --state STATE`` applies it before announcing itself (no process start-up,
  no TLS files in the figure);
- the floor of both: encoding and then decoding once with ``json`` every record the seeding made (the resources
  and their accounts), the least any store of JSON records does with them;
- GET RESOURCES: the fastest of a few over one kept-alive connection to a simulator started with the seed file
  (state in memory), every resource in its answer;
- name lookups: ``GET_RESOURCEACCOUNTID`` of names spread over the whole vault, one after another over one
  kept-alive connection for ``LOOKUP_SECONDS``, to that simulator and to one started on the seeded state file
  (``--state``); every answer must be a success.

Run alone: ``python simulator_scale_bench.py [--scale 100,1000,5000]`` prints the table (``bench.py`` writes it
into results.md).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from dataclasses import dataclass

import report
from simulator import RESOURCE_TYPE, REST, Simulator, simulator_executable

DEFAULT_SIZES = "100,1000,5000"
LOOKUP_SECONDS = 2.0
MIN_LOOKUPS = 10
LIST_SAMPLES = 3
ACCOUNT = "root"


@dataclass
class ScaleRun:
    """The figures of one size: seconds, and name lookups per second."""

    resources: int
    json_floor_seconds: float
    seeding_seconds: float
    list_seconds: float
    lookups_in_memory: float
    lookups_state_file: float


def scale_name(index):
    return "scale-%05d" % index


def write_seed_file(path, size):
    """``size`` resources with one account each; the names are plain words, so no YAML quoting is needed."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("resources:\n")
        for index in range(size):
            handle.write(
                "  - name: %s\n    type: %s\n    accounts:\n      - name: %s\n        password: Scale-Pw-%d\n"
                % (scale_name(index), RESOURCE_TYPE, ACCOUNT, index)
            )


def seed_in_process(seed_path, state_path):
    """Seconds to apply the seed file to a new simulator on ``state_path``, and the JSON floor of what it made."""
    # The simulator's own code, in this process: the same installation vault-simulator runs.
    from vault_simulator.core.app import create_app  # pylint: disable=import-outside-toplevel
    from vault_simulator.core.config import SimulatorConfig  # pylint: disable=import-outside-toplevel
    from vault_simulator.core.records import ACCOUNT as ACCOUNTS  # pylint: disable=import-outside-toplevel
    from vault_simulator.core.records import RESOURCE  # pylint: disable=import-outside-toplevel
    from vault_simulator.core.simulator import simulator_of  # pylint: disable=import-outside-toplevel
    from vault_simulator.seed_file import load_seed_file  # pylint: disable=import-outside-toplevel

    vault = simulator_of(create_app(SimulatorConfig(state_path=state_path)))
    try:
        start = time.perf_counter()
        load_seed_file(seed_path).apply_to(vault)
        seconds = time.perf_counter() - start
        records = vault.store.all(RESOURCE) + vault.store.all(ACCOUNTS)
    finally:
        vault.store.close()
    start = time.perf_counter()
    for record in records:
        json.loads(json.dumps(record))
    return seconds, time.perf_counter() - start


def list_seconds(simulator, size):
    """The fastest of ``LIST_SAMPLES`` GET RESOURCES, each answer holding all ``size`` resources."""
    times = []
    for dummy in range(LIST_SAMPLES):
        start = time.perf_counter()
        answer = simulator.session.get(
            simulator.info["url"] + REST + "/resources", timeout=300, verify=simulator.info["ca_path"]
        ).json()
        times.append(time.perf_counter() - start)
        listed = answer["operation"].get("Details", [])
        if len(listed) != size:
            raise AssertionError("GET RESOURCES listed %d of %d resources" % (len(listed), size))
    return min(times)


def lookups_per_second(simulator, size):
    """GET_RESOURCEACCOUNTID of names spread over the vault, one at a time over the simulator's one session."""
    url = simulator.info["url"] + REST + "/resources/getResourceIdAccountId"
    stride = 7919  # a prime: consecutive lookups land far apart in the vault
    done = 0
    start = time.perf_counter()
    while done < MIN_LOOKUPS or time.perf_counter() - start < LOOKUP_SECONDS:
        name = scale_name(done * stride % size)
        answer = simulator.session.get(
            url,
            params={"RESOURCENAME": name, "ACCOUNTNAME": ACCOUNT},
            timeout=300,
            verify=simulator.info["ca_path"],
        ).json()
        if answer["operation"]["result"]["status"] != "Success":
            raise AssertionError("GET_RESOURCEACCOUNTID of %s failed: %s" % (name, answer["operation"]["result"]))
        done += 1
    return done / (time.perf_counter() - start)


def measure_size(executable, size, work_dir):
    seed_path = os.path.join(work_dir, "scale-%d.yml" % size)
    state_path = os.path.join(work_dir, "scale-%d.sqlite" % size)
    write_seed_file(seed_path, size)
    seeding, floor = seed_in_process(seed_path, state_path)
    in_memory = Simulator(executable, ["--seed-file", seed_path])
    try:
        listing = list_seconds(in_memory, size)
        memory_rate = lookups_per_second(in_memory, size)
    finally:
        in_memory.stop()
    on_file = Simulator(executable, ["--state", state_path])
    try:
        file_rate = lookups_per_second(on_file, size)
    finally:
        on_file.stop()
    return ScaleRun(size, floor, seeding, listing, memory_rate, file_rate)


def measure(executable, sizes, work_dir):
    """A ``ScaleRun`` per size, in the order given."""
    runs = []
    for size in sizes:
        runs.append(measure_size(executable, size, work_dir))
        print("simulator at scale: %d resources measured" % size, flush=True)
    return runs


def parse_sizes(text):
    return [int(part) for part in text.split(",")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default=DEFAULT_SIZES, help="numbers of resources (default %s)" % DEFAULT_SIZES)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work_dir:
        runs = measure(simulator_executable(), parse_sizes(args.scale), work_dir)
    print(report.scale_table(runs))


if __name__ == "__main__":
    main()
