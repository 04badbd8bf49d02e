# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The benchmark's table (Markdown) and chart (PNG). Every figure is given with its ratio to the reference
measured in the same run: absolute times of these machines are not comparable from one run to the next."""

from __future__ import annotations

REFERENCE = "plain requests, new connection per request"


def ratio(value, reference):
    return "%.2fx" % (value / reference) if reference else "n/a"


def lookup_table(runs, floors):
    """``runs``: lookup_bench.Run list; ``floors``: {terms: seconds of one round trip per term, sequential}."""
    lines = [
        "| terms | client | wall s | x reference | requests/term | connections opened |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for terms in sorted({run.terms for run in runs}):
        group = [run for run in runs if run.terms == terms]
        reference = next(run.seconds for run in group if run.name == REFERENCE)
        for run in group:
            lines.append(
                "| %d | %s | %.3f | %s | %.2f | %s |"
                % (
                    terms,
                    run.name,
                    run.seconds,
                    ratio(run.seconds, reference),
                    run.requests_per_term,
                    "n/a" if run.connections is None else run.connections,
                )
            )
        lines.append(
            "| %d | floor: one round trip per term, sequential | %.3f | %s | 1.00 | - |"
            % (terms, floors[terms], ratio(floors[terms], reference))
        )
    return "\n".join(lines)


def cpu_table(runs, groups):
    """The CPU seconds of runs (lookup_bench.Run list), by number of terms and then by ``groups``: ``[(reference name,
    [names compared with it])]``, each with its ratio to its reference, in all and per request sent."""
    lines = [
        "| terms | client | CPU s | x reference | requests | CPU ms per request | x reference per request |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for terms in sorted({run.terms for run in runs}):
        named = {run.name: run for run in runs if run.terms == terms}
        for reference_name, compared in groups:
            reference = named[reference_name]
            for run in [reference] + [named[name] for name in compared]:
                lines.append(
                    "| %d | %s | %.3f | %s | %d | %.3f | %s |"
                    % (
                        terms,
                        run.name,
                        run.cpu_seconds,
                        ratio(run.cpu_seconds, reference.cpu_seconds),
                        run.requests,
                        _per_request_ms(run),
                        ratio(_per_request_ms(run), _per_request_ms(reference)),
                    )
                )
    return "\n".join(lines)


def _per_request_ms(run):
    return 1000.0 * run.cpu_seconds / run.requests if run.requests else 0.0


def module_table(runs):
    """``runs``: module_bench.PlayRun list; the first is the reference (the loop's create)."""
    reference = runs[0].seconds
    lines = [
        "| form | run | accounts | wall s | x loop create | requests | writes |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        form, dummy, what = run.name.partition(": ")
        lines.append(
            "| %s | %s | %d | %.2f | %s | %d | %d |"
            % (form, what, run.items, run.seconds, ratio(run.seconds, reference), run.requests, run.writes)
        )
    return "\n".join(lines)


def host_credentials_table(runs):
    """``runs``: host_credentials_bench.HostRun list whose last is the reference (the role)."""
    reference = runs[-1].seconds
    lines = [
        "| login password from | vault requests | per host | per host and task | password retrievals | wall s | x role |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        lines.append(
            "| %s | %d | %.1f | %.2f | %d | %.2f | %s |"
            % (
                run.name,
                run.requests,
                run.requests_per_host,
                run.requests_per_host / run.tasks,
                run.retrievals,
                run.seconds,
                ratio(run.seconds, reference),
            )
        )
    return "\n".join(lines)


def run_cache_table(runs):
    """``runs``: host_credentials_bench.HostRun list (run_cache_bench.measure) whose first (without the cache) is the reference."""
    reference = runs[0].seconds
    lines = [
        "| lookup in group_vars | hosts x tasks | requests | audited retrievals (GET PASSWORD) | wall s | x without |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        lines.append(
            "| %s | %d x %d | %d | %d | %.2f | %s |"
            % (run.name, run.hosts, run.tasks, run.requests, run.retrievals, run.seconds, ratio(run.seconds, reference))
        )
    return "\n".join(lines)


def startup_table(runs, imports):
    """``runs``: PlayRun list whose first is the ping loop; ``imports``: {what: median import ms}."""
    reference = runs[0].per_item_ms
    lines = ["| task | per task ms | x ping | requests per task |", "|---|---:|---:|---:|"]
    for run in runs:
        lines.append(
            "| %s | %.0f | %s | %.1f |"
            % (run.name, run.per_item_ms, ratio(run.per_item_ms, reference), run.requests / run.items)
        )
    lines += ["", "| imported by the module (in one Python process) | ms |", "|---|---:|"]
    lines += ["| %s | %.0f |" % (what, ms) for what, ms in imports.items()]
    return "\n".join(lines)


def scale_table(runs):
    """``runs``: simulator_scale_bench.ScaleRun list, smallest size first. Seeding and GET RESOURCES against the
    JSON floor of their size, name lookups against the smallest size, the state file against memory."""
    smallest = runs[0]
    lines = [
        "| resources | JSON floor s | seeding s | x floor | GET RESOURCES s | x floor | name lookups/s | x at %d "
        "| lookups/s, --state file | x in memory |" % smallest.resources,
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        floor = run.json_floor_seconds
        lines.append(
            "| %d | %.3f | %.2f | %s | %.3f | %s | %.0f | %s | %.0f | %s |"
            % (
                run.resources,
                floor,
                run.seeding_seconds,
                ratio(run.seeding_seconds, floor),
                run.list_seconds,
                ratio(run.list_seconds, floor),
                run.lookups_in_memory,
                ratio(run.lookups_in_memory, smallest.lookups_in_memory),
                run.lookups_state_file,
                ratio(run.lookups_state_file, run.lookups_in_memory),
            )
        )
    return "\n".join(lines)


def audit_table(polls, pages, interval):
    """``polls``: audit_bench.Poll list; ``pages``: audit_bench.PageTime list; ``interval``: the source's seconds
    between two polls, which a poll and its handing over should stay well under."""
    lines = [
        "| poll | records given | GET_AUDIT requests | poll s | handing over s | x interval (%g s) |" % interval,
        "|---|---:|---:|---:|---:|---:|",
    ]
    for run in polls:
        lines.append(
            "| %s | %d | %d | %.3f | %.3f | %s |"
            % (
                run.name,
                run.given,
                run.requests,
                run.seconds,
                run.handover_seconds,
                ratio(run.seconds + run.handover_seconds, interval),
            )
        )
    lines += ["", "| the simulator's GET_AUDIT (no injected latency) | trail | s |", "|---|---:|---:|"]
    lines += ["| STARTINDEX %d | %d | %.3f |" % (page.start, page.total, page.seconds) for page in pages]
    return "\n".join(lines)


def chart(runs, floors, path, latency_ms):
    """Wall time against number of terms for each client, and the floor, on log-log axes."""
    import matplotlib  # pylint: disable=import-outside-toplevel  # only the chart needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    figure, axes = plt.subplots(figsize=(8, 5))
    for name in dict.fromkeys(run.name for run in runs):
        points = sorted((run.terms, run.seconds) for run in runs if run.name == name)
        axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=name)
    terms = sorted(floors)
    axes.plot(terms, [floors[t] for t in terms], linestyle="--", color="black", label="floor: one round trip per term")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("terms in one lookup call")
    axes.set_ylabel("wall time (s)")
    axes.set_title("vault_password lookup, %g ms injected per request" % latency_ms)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
