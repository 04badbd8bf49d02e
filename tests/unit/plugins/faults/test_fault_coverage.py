# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module, lookup and inventory plugin against every fault kind of the simulator (issue 23).

The cells of the integration target ``fault_matrix``, for every plugin, at the speed of a unit test: each cell arms
one fault in a simulator of this process (``harness``), runs the plugin as Ansible would, clears the fault, runs it
again until it converges and counts the objects of its name. A write meets the fault on its first write, a reader
on its reads; what each cell asserts is the matrix's (``check_cell``). The plugins come from the plugins/
directories, so a plugin added without a row in ``ROWS`` fails here. A module's row is the ``fault`` of its
declaration (tests/modules/<module>.yml, ``declared_row``); the lookups' and the inventory plugin's are here. The
table of outcomes is written to ``$CREDVAULT_FAULT_TABLE`` (default: ``fault_table.md`` in pytest's base temporary
directory).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._options import client_from_options
from ansible_collections.credvault.vault.plugins.module_utils._write_log import MAY_HAVE_BEEN_APPLIED
from ansible_collections.credvault.vault.tests.unit.plugins.faults import harness
from ansible_collections.credvault.vault.tests.utils import module_facts

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")
PLUGINS = [
    "%s/%s" % (kind, name[:-3])
    for kind in ("modules", "lookup", "inventory")
    for name in sorted(os.listdir(os.path.join(ROOT, "plugins", kind)))
    if name.endswith(".py") and not name.startswith("_")
]

PASSWORD = "Fc-Pass-5521!"
NEW_PASSWORD = "Fc-Pass-7734?"
# The latency cell's client timeout covers every request of its run, not only the delayed one: short enough to keep
# 42 cells fast, long enough that an undelayed answer of the in-process vault never reaches it on a busy machine.
LATENCY_TIMEOUT, LATENCY_SECONDS = 1.0, 1.6
CLEAN_TIMEOUT = 15


@dataclass(frozen=True)
class Fault:
    """A fault for the first write (``write_rule``; a write row without one meets ``read_rule`` on its reads) and
    for reads (``read_rule``); ``count`` keeps it short, none makes it last until cleared."""

    write_rule: dict | None
    read_rule: dict
    absorbed_on_reads: bool = False
    retries: int = 1


FAULTS = {
    "latency": Fault(
        {"kind": "latency", "seconds": LATENCY_SECONDS, "count": 1},
        {"kind": "latency", "seconds": LATENCY_SECONDS, "count": 1},
        absorbed_on_reads=True,
    ),
    "burst503": Fault(None, {"kind": "status", "status": 503, "count": 2}, absorbed_on_reads=True, retries=2),
    "status502": Fault(None, {"kind": "status", "status": 502}),
    "drop": Fault({"kind": "drop", "count": 1}, {"kind": "drop"}),
    "drop_after": Fault({"kind": "drop_after", "count": 1}, {"kind": "drop_after", "count": 1}, absorbed_on_reads=True),
    "malformed": Fault({"kind": "malformed", "count": 1}, {"kind": "malformed"}),
    "empty": Fault({"kind": "empty", "count": 1}, {"kind": "empty"}),
    "html": Fault({"kind": "html", "status": 500, "count": 1}, {"kind": "html", "status": 500}),
    "failed": Fault({"kind": "failed", "count": 1}, {"kind": "failed", "count": 1}),
}
# Lasting faults a read retries: its failure says how many attempts were made.
RETRIED_READ_FAULTS = ("status502", "drop", "malformed", "empty")
# Faults that leave a write's outcome unknown to the client: the failure must say so.
UNKNOWN_OUTCOME_FAULTS = ("latency", "burst503", "status502", "drop", "drop_after", "malformed", "empty", "html")
FAILED_MESSAGE = "Simulated failure (fault injection)"
# What a write whose outcome is unknown says ("the write may have been applied").
MAY_HAVE = MAY_HAVE_BEEN_APPLIED.partition(":")[0]
# What must never show in a message: a traceback, Ansible's module failure, an exception's class name, library text.
FOREIGN_TEXT = re.compile(
    r"Traceback|MODULE FAILURE|module_stderr|\b[A-Z][A-Za-z]*(Error|Exception|Disconnected)\b"
    r"|HTTPS?ConnectionPool|Max retries|object at 0x"
)
# Keys of a result that are not what was read.
NOT_READ = ("changed", "warnings", "deprecations", "invocation", "diff", "failed", "msg")


class World:
    """The vaults and what every row uses: a base resource with account root, a user to share with, a file store,
    an SSH key, a certificate, a user group, a requester on the access-control vault."""

    def __init__(self, vaults, directory):
        self.vaults = vaults
        self.directory = directory
        vault = vaults["default"]
        self.port = vault.port
        self.run(
            "default",
            "module",
            "vault_resource",
            name="fc-base",
            type="Linux",
            owner="admin",
            first_account={"name": "root", "password": PASSWORD},
        )
        self.run(
            "default",
            "module",
            "vault_user",
            name="fc-grantee",
            first_name="Fault",
            last_name="Grantee",
            email="fc-grantee@example.com",
            role="Password User",
            password=PASSWORD,
        )
        self.call(
            "default",
            "create_resource",
            files={"product.lic": b"license-key: FC-4471"},
            details={
                "RESOURCENAME": "fc-files",
                "RESOURCETYPE": "File Store",
                "ACCOUNTNAME": "keeper",
                "PASSWORD": PASSWORD,
                "OWNERNAME": "admin",
            },
        )
        for edition in ("default", "edition_b"):
            self.run(edition, "module", "vault_ssh_key", name="fc-key", key_type="ed25519")
        # The vault makes the admin's PGP key when it is first asked for: not within the short timeout of a cell.
        self.call("edition_b", "get_pgp_key", details={"User": "admin", "keyExportType": "public"})
        self.run(
            "default",
            "module",
            "vault_certificate",
            common_name="fc-cert.example.com",
            key_algorithm="EC",
            key_length=256,
            signature_algorithm="SHA256",
            validity=30,
            validity_type="days",
        )
        self.call(
            "default", "discover_ssl_single", details={"HOST": "localhost", "PORT": str(self.port), "TIMEOUT": "10"}
        )
        from vault_simulator.areas.user_groups.records import add_user_group  # pylint: disable=import-error

        store = vault.simulator.store
        with store.transaction():
            add_user_group(store, "fc-team")
        requester = self.call(
            "access_control",
            "create_api_user",
            details={"USERNAME": "fc-requester", "ROLE": "Password User", "ISAPIUSER": "true"},
        )
        self.requester_token = requester.details_dict()["AUTHTOKEN"]
        self.run(
            "access_control",
            "module",
            "vault_resource",
            name="fc-base",
            type="Linux",
            owner="admin",
            first_account={"name": "root", "password": PASSWORD},
        )

    def connection(self, vault, timeout=CLEAN_TIMEOUT, retries=1):
        return dict(self.vaults[vault].connection, timeout=timeout, retries=retries)

    def call(self, vault, key, **kwargs):
        client = client_from_options(self.connection(vault).get)
        try:
            return client.call(key, **kwargs)
        finally:
            client.close()

    def run(self, vault, kind, plugin, timeout=CLEAN_TIMEOUT, retries=1, /, **args):
        """Run ``plugin`` of ``kind`` (module, action, lookup with ``_terms``, inventory)."""
        connection = self.connection(vault, timeout, retries)
        if kind == "module":
            return harness.run_module(plugin, dict(connection, **args))
        if kind == "action":
            return harness.run_action(plugin, dict(connection, **args))
        if kind == "lookup":
            return harness.run_lookup(plugin, args.pop("_terms"), dict(connection, **args))
        return harness.run_inventory(dict(connection, **args), self.directory)

    def records(self, vault, kind, **fields):
        """The records of ``kind`` the vault's store holds with those ``fields``."""
        found = self.vaults[vault].simulator.store.all(kind)
        return [item for item in found if all(str(item.get(key)) == str(value) for key, value in fields.items())]

    def count(self, vault, kind, **fields):
        return len(self.records(vault, kind, **fields))


@dataclass(frozen=True)
class Row:
    """How one plugin meets the faults.

    ``run(world, name, timeout, retries)`` runs it on the cell's object ``name``; ``writes``: it writes to the vault
    (its first write meets the fault); ``prepare(world, name)`` makes what the cell needs first; ``count(world,
    name)`` the number of objects of each name the cell made (each must be 1); ``always_changed``: every run writes
    (the vault cannot be compared); ``compared``: a faulted run that succeeded read what the clean run reads;
    ``reads``: it reads before writing (a writer that does not meets every fault on its write); ``waits``: its write
    waits for the vault's work whatever the connection's timeout, so latency delays it without failing it."""

    run: Callable
    writes: bool = False
    reads: bool = True
    prepare: Callable | None = None
    count: Callable | None = None
    always_changed: bool = False
    compared: bool = True
    waits: bool = False

    @property
    def vault(self):
        """The vault the row runs against (its runner's)."""
        return self.run.vault


def lookup(plugin, /, *terms, vault="default", **options):
    return _runner("lookup", plugin, vault, dict(options, _terms=list(terms)))


def _runner(kind, plugin, vault, args):
    def run(world, name, timeout, retries):
        return world.run(vault, kind, plugin, timeout, retries, **_fill(args, _values(world, name)))

    run.vault = vault
    return run


def _values(world, name):
    """What the templates of a row's arguments may name: ``{name}`` the cell's object, ``{dir}`` a folder, the
    vault's ``{port}``, the ``{requester}``'s token on the access-control vault, ``{password}`` and
    ``{new_password}``."""
    return {
        "name": name,
        "dir": str(world.directory),
        "port": world.port,
        "requester": world.requester_token,
        "password": PASSWORD,
        "new_password": NEW_PASSWORD,
    }


def _fill(value, values):
    if isinstance(value, str):
        return value.format(**values) if "{" in value else value
    if isinstance(value, dict):
        return {key: _fill(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item, values) for item in value]
    return value


# The keys of a declaration's ``fault``: the row's flags, and how it runs, prepares and counts.
ROW_FLAGS = ("writes", "reads", "always_changed", "compared", "waits")
FAULT_KEYS = ("runner", "vault", "args", "prepare", "count") + ROW_FLAGS


def declared_row(module, fault):
    """The row of ``module`` from the ``fault`` of its declaration (tests/modules/<module>.yml, read by
    tests/utils/module_facts.py): ``runner`` ``module`` (the default) or ``action`` (its action plugin, for a module
    that runs on the controller), ``vault`` (``default``, ``edition_b`` or ``access_control``), ``args`` (templates:
    ``_values``), the flags of ``Row``, ``prepare`` (modules run on the row's vault before the cell, each ``{module:
    <name>, args: {...}}``, each must succeed) and ``count`` (each ``{records: <kind of the simulator's store>,
    <field>: <template>}``, where a field may be ``{id_of: <kind>, <field>: <template>}``: the id of that record)."""
    unknown = sorted(set(fault) - set(FAULT_KEYS))
    assert not unknown, "tests/modules/%s.yml: unknown keys of fault: %s (the keys: %s)" % (module, unknown, FAULT_KEYS)
    vault = fault.get("vault", "default")
    return Row(
        _runner(fault.get("runner", "module"), module, vault, fault.get("args", {})),
        prepare=_preparation(vault, fault["prepare"]) if "prepare" in fault else None,
        count=_counter(vault, fault["count"]) if "count" in fault else None,
        **{flag: fault[flag] for flag in ROW_FLAGS if flag in fault},
    )


def _preparation(vault, steps):
    def prepare(world, name):
        for step in steps:
            outcome = world.run(vault, "module", step["module"], **_fill(step.get("args", {}), _values(world, name)))
            assert not outcome.get("failed"), "preparing %s: %s" % (name, outcome)

    return prepare


def _counter(vault, entries):
    def count(world, name):
        return [world.count(vault, **_fields(world, vault, entry, name)) for entry in entries]

    return count


def _fields(world, vault, entry, name):
    """``{kind: ..., <field>: value}`` of a ``count`` entry (or of an ``id_of``) with its templates filled."""
    fields = {"kind": entry.get("records", entry.get("id_of"))}
    for key, value in entry.items():
        if key in ("records", "id_of"):
            continue
        if isinstance(value, dict):
            (record,) = world.records(vault, **_fields(world, vault, value, name))
            fields[key] = record["id"]
        else:
            fields[key] = _fill(value, _values(world, name))
    return fields


ROWS = {
    **{"modules/" + facts.module: declared_row(facts.module, facts.fault) for facts in module_facts.load(ROOT)},
    "lookup/vault_password": Row(lookup("vault_password", "fc-base/root")),
    "lookup/vault_generated_password": Row(lookup("vault_generated_password", "Strong"), compared=False),
    "lookup/vault_ssh_key": Row(lookup("vault_ssh_key", "fc-key", vault="edition_b")),
    "inventory/vault_resources": Row(
        _runner("inventory", "vault_resources", "default", {"filters": {"name_pattern": "^fc-base$"}})
    ),
}

TABLE = {}


@pytest.fixture(scope="module")
def world(fault_vaults, tmp_path_factory):
    return World(fault_vaults, tmp_path_factory.mktemp("fault-files"))


@pytest.fixture(scope="module", autouse=True)
def table(tmp_path_factory):
    """Write the table of outcomes once every cell ran."""
    yield
    path = os.environ.get("CREDVAULT_FAULT_TABLE") or str(tmp_path_factory.getbasetemp() / "fault_table.md")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(markdown_table())


def markdown_table():
    lines = ["| plugin | %s |" % " | ".join(FAULTS), "|---|%s" % ("---|" * len(FAULTS))]
    for plugin in PLUGINS:
        cells = [TABLE.get((plugin, fault), "-") for fault in FAULTS]
        lines.append("| %s | %s |" % (plugin, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def outcome(result):
    if result.get("failed"):
        return "failed*" if result.get("changed") else "failed"
    return "changed" if result.get("changed") else "ok"


def read_part(result):
    return {key: value for key, value in result.items() if key not in NOT_READ}


def test_every_plugin_has_a_fault_row():
    assert sorted(ROWS) == sorted(PLUGINS), "plugins without a row in ROWS: %s; rows without a plugin: %s" % (
        sorted(set(PLUGINS) - set(ROWS)),
        sorted(set(ROWS) - set(PLUGINS)),
    )


@pytest.mark.parametrize("fault_id", list(FAULTS))
@pytest.mark.parametrize("plugin", PLUGINS)
def test_fault(world, plugin, fault_id):
    assert plugin in ROWS, "%s has no fault row: add one to ROWS in %s" % (plugin, __file__)
    row, fault = ROWS[plugin], FAULTS[fault_id]
    vault = world.vaults[row.vault]
    name = "fc-%s-%s" % (plugin.split("/")[1].replace("_", "-"), fault_id.replace("_", "-"))
    if row.prepare:
        row.prepare(world, name)
    scope = "write" if row.writes and (fault.write_rule or not row.reads) else "read"

    vault.forget_requests()
    vault.faults.arm(fault.write_rule or fault.read_rule if scope == "write" else fault.read_rule, scope)
    timeout = LATENCY_TIMEOUT if fault_id == "latency" else CLEAN_TIMEOUT
    try:
        faulted = row.run(world, name, timeout, fault.retries)
        fired = list(vault.faults.fired)
        if fault_id == "latency" and scope == "write" and fired:
            vault.wait_until_served(*fired[0][:2])
    finally:
        vault.faults.clear()
    log = vault.requests
    rerun = row.run(world, name, CLEAN_TIMEOUT, 1)
    converged = rerun
    if rerun.get("changed") and not row.always_changed:
        converged = row.run(world, name, CLEAN_TIMEOUT, 1)
    counts = row.count(world, name) if row.count else []
    TABLE[(plugin, fault_id)] = "%s / %s" % (outcome(faulted), outcome(rerun))
    check_cell(world, row, fault_id, scope, faulted, fired, log, rerun, converged, counts)


def check_cell(world, row, fault_id, scope, faulted, fired, log, rerun, converged, counts):
    """The fault_matrix's assertions, for one cell."""
    fault = FAULTS[fault_id]
    failed, message = faulted.get("failed"), faulted.get("msg", "")
    where = "faulted run: %s; re-run: %s" % (faulted, rerun)
    assert fired, "the fault never fired: the cell tested nothing (%s)" % where
    if scope == "read":
        # A fault the client absorbs (retried reads) did not fail the task; a lasting one did.
        assert not (fault.absorbed_on_reads and failed), where
        assert "count" in fault.read_rule or failed, where
        # A read that succeeded read what the clean run reads (or warned that it could not tell).
        if not failed and not row.writes and row.compared:
            assert read_part(faulted) == read_part(rerun) or faulted.get("warnings"), where
        if fault_id in RETRIED_READ_FAULTS:
            assert "(after %d attempts)" % (1 + fault.retries) in message, where
    else:
        # A write met by a fault fails (a write that waits for the vault's work outlasts latency), and was sent
        # once: writes are never repeated.
        method, path = fired[0][:2]
        assert failed or (row.waits and fault_id == "latency"), where
        assert len([entry for entry in log if (entry["method"], entry["path"]) == (method, path)]) == 1, log
        if not failed:
            pass
        elif fault_id in UNKNOWN_OUTCOME_FAULTS:
            assert MAY_HAVE in message and faulted.get("changed"), where
        else:
            assert MAY_HAVE not in message and not faulted.get("changed"), where
    if failed:
        # The message names the vault's operation, quotes its words for Failed, and shows nothing foreign.
        method, path = fired[0][:2]
        operation = next(entry["operation"] for entry in log if (entry["method"], entry["path"]) == (method, path))
        assert operation in message, where
        assert fault_id != "failed" or FAILED_MESSAGE in message, where
        assert not FOREIGN_TEXT.search(message), where
        for secret in (PASSWORD, NEW_PASSWORD, world.vaults[row.vault].connection["auth_token"]):
            assert secret not in message, where
    # After the fault clears the task succeeds, then converges, and the vault holds one object of each name.
    assert not rerun.get("failed"), where
    assert not converged.get("failed"), where
    assert row.always_changed or not converged.get("changed"), "did not converge: %s" % converged
    assert all(count == 1 for count in counts), "objects of the cell's names: %s (%s)" % (counts, where)
