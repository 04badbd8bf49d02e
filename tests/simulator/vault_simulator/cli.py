"""The ``vault-simulator`` command: start an HTTPS vault and announce it on stdout.

When the socket listens, exactly one JSON line is printed to stdout::

    {"url": "https://127.0.0.1:PORT", "token": "...", "ca_path": "/abs/ca.pem",
     "edition": "A", "build": 12450, "client_cert": "/abs/client.pem",
     "client_key": "/abs/client-key.pem"}

``client_cert`` and ``client_key`` (a certificate and key the test CA signed) are always there; the server demands
them only with ``--require-client-cert``.

Everything else (the request log) goes to stderr. SIGTERM and SIGINT stop it.

This module and ``__main__`` stand outside the core and the areas: they start a
vault, and may use both (``--user-group`` adds user groups, ``--seed-file`` everything ``seed_file`` makes).
"""

import argparse
import json
import shutil
import signal
import sys
import tempfile

from vault_simulator.areas.user_groups.records import add_user_group
from vault_simulator.core.app import create_app
from vault_simulator.core.config import DEFAULT_BUILDS, EDITIONS, SimulatorConfig
from vault_simulator.core.dialect import DEFAULT_DIALECT, DIALECTS
from vault_simulator.core.faults import FaultRule
from vault_simulator.core.server import serve
from vault_simulator.core.simulator import simulator_of
from vault_simulator.core.tenancy import add_organization
from vault_simulator.core.tls import create_tls_files
from vault_simulator.seed_file import SeedFileError, load_seed_file


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="vault-simulator", description="Simulate the credential vault REST API.")
    parser.add_argument("--edition", choices=EDITIONS, default="A", help="vault edition (default: A)")
    parser.add_argument(
        "--build", type=int, help=f"build number (default: A {DEFAULT_BUILDS['A']}, B {DEFAULT_BUILDS['B']})"
    )
    parser.add_argument(
        "--dialect",
        choices=DIALECTS,
        default=DEFAULT_DIALECT,
        help="how to answer: spec, as the specification writes its answers (default), or real, as recorded "
        "real servers (Password Manager Pro, PAM360) answer; see README.md, Dialects",
    )
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: 0, a free port)")
    parser.add_argument(
        "--host",
        choices=("127.0.0.1", "localhost"),
        default="127.0.0.1",
        help="loopback name to listen on (default: 127.0.0.1)",
    )
    parser.add_argument("--admin-token", help="AUTHTOKEN of the built-in admin user (default: random)")
    parser.add_argument("--require-reason", action="store_true", help="force a REASON for password retrieval")
    parser.add_argument("--require-ticket", action="store_true", help="enable ticketing: TICKETID required")
    parser.add_argument(
        "--access-control",
        action="store_true",
        help="password access control: request, approval and checkout before retrieval",
    )
    parser.add_argument(
        "--seed", type=int, help="random seed: makes generated tokens, ids, keys and passwords reproducible"
    )
    parser.add_argument(
        "--seed-file",
        metavar="FILE.yml",
        help="YAML file of user groups, users, resources and accounts to create before starting "
        "(see README.md); unrelated to --seed",
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        type=_fault_rule,
        metavar="KIND[:key=value,...]",
        help="inject a fault, e.g. status:status=503,rate=0.5,path=/resources or "
        "latency:seconds=0.2 (kinds: latency, status, drop, drop_after, malformed, empty, html, failed, redirect); repeatable",
    )
    parser.add_argument(
        "--organization",
        action="append",
        default=[],
        metavar="DISPLAYNAME",
        help="add an organization besides the default one; repeatable",
    )
    parser.add_argument(
        "--user-group",
        action="append",
        default=[],
        metavar="NAME",
        help="add a user group (the vault's API cannot create one); repeatable",
    )
    parser.add_argument(
        "--state",
        help="SQLite file that keeps the state across restarts (default: in memory); written ahead without a sync "
        "per request: what was answered survives a kill of the simulator, a power loss may take the last "
        "operations (see README.md, State file)",
    )
    parser.add_argument(
        "--tls-dir",
        help="directory for ca.pem, server.pem, server-key.pem, client.pem, client-key.pem "
        "(default: a new temporary directory, removed at exit)",
    )
    parser.add_argument(
        "--require-client-cert",
        action="store_true",
        help="demand a TLS client certificate signed by the simulator's CA (client.pem / client-key.pem in the "
        "TLS directory)",
    )
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    # Checked before anything is made: a bad file stops the start with a clear message.
    seed = _load_seed_file(args.seed_file) if args.seed_file else None
    config = SimulatorConfig(
        edition=args.edition,
        build=args.build,
        admin_token=args.admin_token,
        require_reason=args.require_reason,
        require_ticket=args.require_ticket,
        state_path=args.state,
        access_control=args.access_control,
        seed=args.seed,
        faults=tuple(args.fault),
        dialect=args.dialect,
    )
    app = create_app(config)
    simulator = simulator_of(app)
    with simulator.store.transaction():
        for display_name in args.organization:
            add_organization(simulator.store, display_name)
        for group_name in args.user_group:
            add_user_group(simulator.store, group_name)
    if seed is not None:
        try:
            seed.apply_to(simulator)
        except SeedFileError as error:
            simulator.store.close()
            _exit_with(str(error))
    tls_dir = args.tls_dir or tempfile.mkdtemp(prefix="vault-simulator-")
    tls_files = create_tls_files(tls_dir)

    def announce(port):
        ready = {
            "url": f"https://{args.host}:{port}",
            "token": simulator.admin_token,
            "ca_path": tls_files.ca_path,
            "edition": config.edition,
            "build": config.build,
            "client_cert": tls_files.client_cert_path,
            "client_key": tls_files.client_key_path,
        }
        sys.stdout.write(json.dumps(ready) + "\n")
        sys.stdout.flush()

    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        serve(app, args.host, args.port, tls_files, announce, require_client_cert=args.require_client_cert)
    except KeyboardInterrupt:  # a signal that came before the serve loop ran
        pass
    finally:
        simulator.store.close()
        if not args.tls_dir:
            shutil.rmtree(tls_dir, ignore_errors=True)
    return 0


def _load_seed_file(path):
    try:
        return load_seed_file(path)
    except SeedFileError as error:
        _exit_with(str(error))


def _exit_with(message):
    """Stop as argparse does for a bad argument: the message on stderr, exit status 2."""
    sys.stderr.write(f"vault-simulator: error: {message}\n")
    raise SystemExit(2)


def _fault_rule(text):
    try:
        return FaultRule.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _interrupt(signum, frame):
    """Turn SIGTERM (and SIGINT) into the KeyboardInterrupt that stops the server (see ``core.server.serve``)."""
    raise KeyboardInterrupt
