#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The performance benchmark (``make bench``).

Usage::

    bench.py --collections DIR [--latency-ms 20] [--terms 1,10,100,1000] [--accounts 100]
             [--hosts 20] [--host-tasks 10] [--cache-hosts 50] [--cache-tasks 10] [--startup-tasks 20]
             [--scale 100,1000,5000] [--burst 10000] [--out docs/benchmark] [--no-chart]
    bench.py --collections DIR --lookup-cpu [--latency-ms 20] [--terms 1000] [--profile N]

It starts its own simulators, seeds them, injects ``--latency-ms`` into every
vault request (the simulator's latency fault: a stand-in for the network and a
real vault's own time), and writes ``OUT/results.md`` (the tables) and
``OUT/lookup.png`` (the chart). DIR holds ``ansible_collections/credvault/vault``.

Figures are compared only within one run: each is given as a ratio to its
reference measured in the same run (the plain ``requests`` client for the
lookup, the loop's create for the modules, the role for the host credentials,
``ansible.builtin.ping`` for the start-up, the JSON floor and the smallest size
for the simulator at scale, the source's interval for the event source), since
absolute times of these shared machines vary between runs. The event source
runs against a simulator of its own, whose audit trail holds only what that
part writes. The lookup's CPU time (this process's, the client's side only) is
compared with a plain client sending only ``GET PASSWORD`` over as many
keep-alive sessions as the lookup's connections.

``--lookup-cpu`` measures only that (no root needed) and prints its table; with
``--profile N`` it also prints the N functions of the lookup (concurrency 1, as
cProfile sees one thread; the requests are the same) that cost the most CPU,
by own and by cumulative time, for the largest number of terms.

The host credentials part logs in over SSH with passwords: it needs root (it
creates a unix user and starts a private sshd, both removed at the end) and
/usr/sbin/sshd (and sshpass with ansible-core before 2.19), and stops with a
message naming what is missing before anything is measured.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import audit_bench
import host_credentials_bench
import report
import requests
import run_cache_bench
import simulator_scale_bench
from lookup_bench import LookupClient, PasswordOnlyClient, PlainClient, measure, profile
from module_bench import run_play
from simulator import Simulator, simulator_executable, term_names
from ssh_server import missing_requirements

CONCURRENCY = 8
IMPORT_SAMPLES = 5
LOOKUP = "lookup, concurrency %d" % CONCURRENCY
LOOKUP_COLD = LOOKUP + ", id cache cold"
LOOKUP_WARM = LOOKUP + ", id cache warm"
CPU_REFERENCE = "plain requests, GET PASSWORD only, %d sessions" % CONCURRENCY
# The runs trusting a large CA bundle are named with this first.
BUNDLE = "CA bundle: "
CPU_REPEATS = 3


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", required=True, help="directory holding ansible_collections/credvault/vault")
    parser.add_argument("--latency-ms", type=float, default=20.0, help="latency injected per request (default 20)")
    parser.add_argument("--terms", default="1,10,100,1000", help="numbers of terms per lookup call")
    parser.add_argument("--accounts", type=int, default=100, help="accounts converged by the module runs")
    parser.add_argument("--hosts", type=int, default=20, help="inventory hosts of the host credentials runs")
    parser.add_argument("--host-tasks", type=int, default=10, help="tasks per host of the host credentials runs")
    parser.add_argument("--cache-hosts", type=int, default=50, help="hosts of the run cache runs (default 50)")
    parser.add_argument("--cache-tasks", type=int, default=10, help="tasks per host of the run cache runs (default 10)")
    parser.add_argument("--startup-tasks", type=int, default=20, help="tasks of each module start-up run (default 20)")
    parser.add_argument(
        "--scale",
        default=simulator_scale_bench.DEFAULT_SIZES,
        help="numbers of resources of the simulator at scale (default %s)" % simulator_scale_bench.DEFAULT_SIZES,
    )
    parser.add_argument(
        "--burst", type=int, default=10000, help="audit records of the event source's burst (default 10000)"
    )
    parser.add_argument("--out", default="docs/benchmark", help="directory for results.md and lookup.png")
    parser.add_argument("--no-chart", action="store_true", help="write no chart (make test's smoke run)")
    parser.add_argument("--lookup-cpu", action="store_true", help="measure and print only the lookup's CPU table")
    parser.add_argument(
        "--profile", type=int, metavar="N", help="with --lookup-cpu: print the lookup's top N functions"
    )
    return parser.parse_args(argv)


def lookup_runs(simulator, collections, counts, cache_dir):
    """Every client on every number of terms; the secrets are checked on each run."""
    info = simulator.info
    clients = [
        (report.REFERENCE, lambda pairs: PlainClient(info, keep_alive=False)),
        ("plain requests, one session", lambda pairs: PlainClient(info, keep_alive=True)),
        ("lookup, concurrency 1", lambda pairs: LookupClient(info, collections, {"concurrency": 1})),
    ]
    runs, floors = [], {}
    for count in counts:
        pairs = term_names(count)
        floors[count] = count * simulator.round_trip()
        for name, make in clients:
            runs.append(measure(simulator, name, pairs, make(pairs)))
        runs.extend(cpu_runs(simulator, collections, pairs, cache_dir))
        print("lookup: %d terms measured" % count, flush=True)
    return runs, floors


def cpu_runs(simulator, collections, pairs, work_dir):
    """The runs over ``CONCURRENCY`` connections: the CPU reference and the lookup (without and with its id cache),
    each but the cold cache the median of ``CPU_REPEATS`` by CPU time; then both again trusting a CA bundle as large
    as requests' own (certifi's, with the simulator's CA added), as where the vault's CA is one of the system's."""
    info = simulator.info
    cache = {"id_cache": True, "id_cache_path": os.path.join(work_dir, "ids-%d.json" % len(pairs))}
    cached = LookupClient(info, collections, cache)
    bundled = dict(info, ca_path=ca_bundle(work_dir, info["ca_path"]))

    def median(name, make):
        return median_run([measure(simulator, name, pairs, make()) for dummy in range(CPU_REPEATS)])

    return [
        median(CPU_REFERENCE, lambda: PasswordOnlyClient(info, pairs, CONCURRENCY)),
        median(LOOKUP, lambda: LookupClient(info, collections, {})),
        measure(simulator, LOOKUP_COLD, pairs, cached),
        median(LOOKUP_WARM, lambda: cached),
        median(BUNDLE + CPU_REFERENCE, lambda: PasswordOnlyClient(bundled, pairs, CONCURRENCY)),
        median(BUNDLE + LOOKUP, lambda: LookupClient(bundled, collections, {})),
    ]


def median_run(runs):
    """The run of median CPU time."""
    return sorted(runs, key=lambda run: run.cpu_seconds)[len(runs) // 2]


def ca_bundle(work_dir, ca_path):
    """A CA file holding requests' own bundle (certifi's) and the simulator's CA, written once in ``work_dir``."""
    path = os.path.join(work_dir, "ca-bundle.pem")
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as bundle:
            for part in (requests.certs.where(), ca_path):
                with open(part, encoding="utf-8") as handle:
                    bundle.write(handle.read().rstrip("\n") + "\n")
    return path


def cpu_table(runs):
    return report.cpu_table(runs, [(CPU_REFERENCE, [LOOKUP, LOOKUP_WARM]), (BUNDLE + CPU_REFERENCE, [BUNDLE + LOOKUP])])


def lookup_cpu(args, collections):
    """``--lookup-cpu``: the CPU table alone (and with ``--profile``, the lookup's top functions), printed."""
    counts = [int(part) for part in args.terms.split(",")]
    simulator = Simulator(simulator_executable())
    try:
        with tempfile.TemporaryDirectory() as work_dir:
            simulator.seed(term_names(max(counts)))
            simulator.set_latency(args.latency_ms / 1000.0)
            runs = [run for count in counts for run in cpu_runs(simulator, collections, term_names(count), work_dir)]
            print(cpu_table(runs), flush=True)
            if args.profile:
                lookup = LookupClient(simulator.info, collections, {"concurrency": 1})
                print(profile(lookup, term_names(max(counts)), args.profile))
    finally:
        simulator.stop()


def module_runs(simulator, collections, work_dir, accounts):
    simulator.seed([("bench-loop", "seed"), ("bench-list", "seed")])
    runs = []
    for form, kind, resource in (
        ("loop of vault_account", "loop", "bench-loop"),
        ("vault_accounts", "list", "bench-list"),
    ):
        for what in ("create", "converged (update_password on_create)"):
            name = "%s: %s" % (form, what)
            runs.append(run_play(simulator, work_dir, collections, kind, resource, accounts, name))
            print("modules: %s measured" % name, flush=True)
    return runs


def startup_runs(simulator, collections, work_dir, tasks):
    """Per-task cost without injected latency: ping, a vault module, the vault module without pipelining."""
    simulator.set_latency(0)
    runs = [
        run_play(simulator, work_dir, collections, "ping", "bench-loop", tasks, "ansible.builtin.ping"),
        run_play(simulator, work_dir, collections, "info", "bench-loop", tasks, "vault_account_info"),
        run_play(
            simulator,
            work_dir,
            collections,
            "info",
            "bench-loop",
            tasks,
            "vault_account_info, pipelining off",
            pipelining=False,
        ),
    ]
    return runs, import_times(collections)


def import_times(collections):
    """Median milliseconds to import what ping imports, and what a vault module adds to it."""
    subjects = {
        "ansible.module_utils.basic (what ping imports)": "ansible.module_utils.basic",
        "requests": "requests",
        "a vault module (vault_account_info, everything it imports)": (
            "ansible_collections.credvault.vault.plugins.modules.vault_account_info"
        ),
    }
    env = dict(os.environ, PYTHONPATH=collections)
    code = (
        "import time, importlib; t = time.perf_counter(); importlib.import_module(%r); print(time.perf_counter() - t)"
    )
    times = {}
    for label, module in subjects.items():
        samples = sorted(
            float(
                subprocess.run([sys.executable, "-c", code % module], env=env, capture_output=True, check=True).stdout
            )
            for dummy in range(IMPORT_SAMPLES)
        )
        times[label] = 1000.0 * samples[len(samples) // 2]
    return times


def ansible_version():
    from ansible.release import __version__  # pylint: disable=import-outside-toplevel  # only for this check

    return tuple(int(part) for part in __version__.split(".")[:2])


def main(argv=None):
    args = parse_args(argv)
    if args.lookup_cpu:
        lookup_cpu(args, os.path.abspath(args.collections))
        return
    missing = missing_requirements(ansible_version())
    if missing:
        sys.exit("bench.py: the host credentials benchmark needs: %s" % "; ".join(missing))
    counts = [int(part) for part in args.terms.split(",")]
    collections = os.path.abspath(args.collections)
    os.makedirs(args.out, exist_ok=True)
    simulator = Simulator(simulator_executable())
    try:
        with tempfile.TemporaryDirectory() as work_dir:
            simulator.seed(term_names(max(counts)))
            simulator.set_latency(args.latency_ms / 1000.0)
            hosts = host_credentials_bench.measure_both(simulator, work_dir, collections, args.hosts, args.host_tasks)
            print("host credentials: measured", flush=True)
            lookups, floors = lookup_runs(simulator, collections, counts, work_dir)
            cached = run_cache_bench.measure(
                simulator, collections, work_dir, term_names(1)[0], args.cache_hosts, args.cache_tasks
            )
            print("run cache: measured", flush=True)
            modules = module_runs(simulator, collections, work_dir, args.accounts)
            startup, imports = startup_runs(simulator, collections, work_dir, args.startup_tasks)
            scale = simulator_scale_bench.measure(
                simulator_executable(), simulator_scale_bench.parse_sizes(args.scale), work_dir
            )
    finally:
        simulator.stop()
    audit_simulator = Simulator(simulator_executable())
    try:
        with tempfile.TemporaryDirectory() as work_dir:
            polls, pages, interval = audit_bench.measure(
                audit_simulator, collections, work_dir, args.burst, args.latency_ms / 1000.0
            )
            print("event source: measured", flush=True)
    finally:
        audit_simulator.stop()
    text = "\n\n".join(
        [
            "# Benchmark results",
            "Written by `make bench` (tests/bench/bench.py): %g ms injected into every vault request; "
            "ratios are to the reference measured in the same run." % args.latency_ms,
            "## Lookup: `vault_password`, secrets per call",
            report.lookup_table(lookups, floors),
            "## Lookup client CPU: %s against one GET PASSWORD per secret" % LOOKUP,
            "CPU seconds of the benchmark's own process (the client's side: the simulator runs apart), against a plain "
            "`requests` client that knows the ids and sends only `GET PASSWORD`, over as many keep-alive sessions as "
            "the lookup's connections.",
            cpu_table(lookups),
            "## Run cache: a lookup in group_vars, %d hosts x %d tasks, forks %d"
            % (args.cache_hosts, args.cache_tasks, run_cache_bench.FORKS),
            "One `ansible-playbook` run (`ansible_connection: local`) whose every task templates "
            "`lookup('credvault.vault.vault_password', ...)` from group_vars; every task checks the password.",
            report.run_cache_table(cached),
            "## Modules: %d accounts on one resource" % args.accounts,
            report.module_table(modules),
            "## Host credentials: %d hosts x %d tasks over SSH with password login, forks %d"
            % (args.hosts, args.host_tasks, host_credentials_bench.FORKS),
            'Every task is `ansible.builtin.raw: "true"` over Ansible\'s ssh connection (default ControlPersist) to a '
            "private sshd that accepts only passwords; every task of both plays must succeed.",
            report.host_credentials_table(hosts),
            "## Module start-up (no injected latency, %d tasks each)" % args.startup_tasks,
            report.startup_table(startup, imports),
            "## Simulator at scale: resources with one account each",
            "Seeding: the seed file applied in process to a new state file; GET RESOURCES: the fastest of %d over "
            "one connection; name lookups: `GET_RESOURCEACCOUNTID` one after another over one kept-alive connection "
            "for %g s, to a simulator in memory and to one on the state file (`--state`). The JSON floor is encoding "
            "and decoding once every record the seeding made (the resources and their accounts)."
            % (simulator_scale_bench.LIST_SAMPLES, simulator_scale_bench.LOOKUP_SECONDS),
            report.scale_table(scale),
            "## Event source after a burst of %d audit records" % args.burst,
            "`credvault.vault.vault_audit`'s logic (`AuditEvents.poll`, the collection's client, default arguments) "
            "against a simulator whose resource trail gains %d records at once; each poll's records are handed over "
            "as the source does (each noted in the cursor's journal, `cursor_file` written after the poll)."
            % args.burst,
            report.audit_table(polls, pages, interval),
        ]
    )
    with open(os.path.join(args.out, "results.md"), "w", encoding="utf-8") as handle:
        handle.write(text + "\n")
    if not args.no_chart:
        report.chart(lookups, floors, os.path.join(args.out, "lookup.png"), args.latency_ms)
    print(text)


if __name__ == "__main__":
    main()
