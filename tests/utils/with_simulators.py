#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run a command while vault simulators are running.

Usage::

    with_simulators.py [--profiles default,strict,edition_b] [--config-out FILE]
                       [--log-dir DIR] [--timeout 30] -- COMMAND [ARGS...]

For each profile this starts ``vault-simulator`` (the one installed next to the
running Python, i.e. in the same virtual environment) on a free port, waits for
the single JSON "ready" line it prints on stdout
(``{"url", "token", "ca_path", "edition", "build", ...}``; also ``client_cert`` and
``client_key``), and then runs COMMAND with:

* ``CREDVAULT_URL``, ``CREDVAULT_AUTH_TOKEN``, ``CREDVAULT_CA_PATH``,
  ``CREDVAULT_EDITION`` and ``CREDVAULT_BUILD`` taken from the FIRST profile;
* ``CREDVAULT_SIMULATORS_FILE``: a file with every profile's ready line,
  ``{"credvault_simulators": {"<profile>": {...}, ...}}`` (JSON, which is also
  YAML, so ansible-test can use it as ``integration_config.yml``).

Every simulator is stopped when COMMAND ends, fails, or the script is
interrupted; the script exits with COMMAND's exit status. Tokens are never
printed. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

PROFILES = {
    "default": ["--edition", "A", "--build", "12450"],
    "strict": ["--edition", "A", "--build", "12450", "--require-reason", "--require-ticket"],
    "edition_b": ["--edition", "B", "--build", "6320"],
    "old_a": ["--edition", "A", "--build", "12000"],
    "access_control": ["--edition", "A", "--build", "12450", "--access-control", "--require-reason"],
    # Answers as recorded real servers do (tests/simulator/README.md, "Dialects").
    "real": ["--edition", "A", "--build", "12450", "--dialect", "real"],
    # The TLS handshake demands a client certificate: the ready line's client_cert and client_key.
    "client_cert": ["--edition", "A", "--build", "12450", "--require-client-cert"],
}

# The keys a ready line must have; it has more (client_cert and client_key, the paths of a client certificate
# of the simulator's CA), which go into the simulators file as they are.
READY_KEYS = ("url", "token", "ca_path", "edition", "build")

STOP_TIMEOUT = 10

PROG = "with_simulators"


class StartError(Exception):
    """A simulator did not start."""


class Terminated(BaseException):
    """This script received SIGTERM or SIGHUP."""


def log(message: str) -> None:
    """Print a progress or error message on stderr."""
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


class Simulator:
    """One vault-simulator process."""

    def __init__(self, profile: str, argv: list[str], log_path: str | None) -> None:
        self.profile = profile
        self.log_path = log_path
        self._ready: queue.Queue[dict | None] = queue.Queue(maxsize=1)

        stderr = None
        if log_path:
            stderr = open(log_path, "wb")  # pylint: disable=consider-using-with

        try:
            # A session of its own: Ctrl-C in the terminal reaches COMMAND, and this script
            # stops the simulators (and anything they started) itself, after COMMAND is done.
            self.process = subprocess.Popen(  # pylint: disable=consider-using-with
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=True,
            )
        finally:
            if stderr:
                stderr.close()

        threading.Thread(target=self._read_stdout, name=f"stdout-{profile}", daemon=True).start()

    def _read_stdout(self) -> None:
        """Hand over the first JSON object line, then keep draining stdout so the simulator never blocks on it."""
        found = False

        for line in self.process.stdout:
            if found:
                continue

            try:
                info = json.loads(line)
            except ValueError:
                continue  # not the ready line; its content is never printed, it may hold a secret

            if isinstance(info, dict):
                found = True
                self._ready.put(info)

        if not found:
            self._ready.put(None)

    def where_to_look(self) -> str:
        """Tell where the simulator's own messages are."""
        return f" (see {self.log_path})" if self.log_path else ""

    def wait_ready(self, deadline: float, timeout: float) -> dict:
        """Return the simulator's ready line, or raise StartError."""
        try:
            info = self._ready.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise StartError(
                f"profile {self.profile}: vault-simulator printed no ready line within {timeout:g} s{self.where_to_look()}"
            ) from None

        if info is None:
            status = self.process.wait()
            raise StartError(
                f"profile {self.profile}: vault-simulator exited with status {status} before it was ready{self.where_to_look()}"
            )

        missing = [key for key in READY_KEYS if key not in info]

        if missing:
            raise StartError(f"profile {self.profile}: the ready line of vault-simulator lacks {', '.join(missing)}")

        return info

    def stop(self) -> None:
        """Stop the simulator and every process it started."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                log(f"profile {self.profile}: vault-simulator ignored SIGTERM, killing it")
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Split the options of this script from COMMAND."""
    parser = argparse.ArgumentParser(
        prog="with_simulators.py",
        usage="%(prog)s [--profiles P1,P2] [--config-out FILE] [--log-dir DIR] [--timeout S] -- COMMAND [ARGS...]",
        description="Run COMMAND while vault simulators are running. Profiles: " + ", ".join(PROFILES) + ".",
    )
    parser.add_argument(
        "--profiles",
        default="default",
        help="comma-separated simulator profiles; the first one fills CREDVAULT_* (default: %(default)s)",
    )
    parser.add_argument(
        "--config-out",
        metavar="FILE",
        help="where to write the simulators file (default: a temporary file, removed at the end)",
    )
    parser.add_argument(
        "--log-dir",
        metavar="DIR",
        help="write each simulator's stderr to DIR/<profile>.log (default: this script's stderr)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds to wait for the simulators to be ready (default: %(default)s)",
    )
    parser.add_argument(
        "--simulator", metavar="PATH", help="vault-simulator executable (default: the one next to this Python)"
    )

    if "--" in argv:
        split = argv.index("--")
        options, command = argv[:split], argv[split + 1 :]
    else:
        options, command = argv, []

    args = parser.parse_args(options)

    if not command:
        parser.error("no COMMAND given after --")

    profiles = [profile.strip() for profile in args.profiles.split(",") if profile.strip()]
    unknown = [profile for profile in profiles if profile not in PROFILES]

    if not profiles or unknown or len(set(profiles)) != len(profiles):
        parser.error(f"--profiles wants distinct names among {', '.join(PROFILES)}; got {args.profiles!r}")

    args.profiles = profiles

    return args, command


def find_simulator(explicit: str | None) -> str:
    """Return the vault-simulator executable to run."""
    if explicit:
        return explicit

    beside_python = os.path.join(os.path.dirname(sys.executable), "vault-simulator")

    if os.access(beside_python, os.X_OK):
        return beside_python

    on_path = shutil.which("vault-simulator")

    if on_path:
        return on_path

    raise StartError(f"vault-simulator is not installed next to {sys.executable} (run `make venv`)")


def write_config(path: str, ready: dict[str, dict]) -> None:
    """Write the simulators file, readable by its owner only since it holds tokens."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)

    fd, temp_path = tempfile.mkstemp(prefix=".simulators-", suffix=".json", dir=directory)

    with os.fdopen(fd, "w", encoding="utf-8") as config_file:
        json.dump({"credvault_simulators": ready}, config_file, indent=2, sort_keys=True)
        config_file.write("\n")

    os.replace(temp_path, path)


def command_environment(first: dict, config_path: str) -> dict[str, str]:
    """Return the environment for COMMAND."""
    env = dict(os.environ)

    values = {
        "CREDVAULT_URL": first.get("url"),
        "CREDVAULT_AUTH_TOKEN": first.get("token"),
        "CREDVAULT_CA_PATH": first.get("ca_path"),
        "CREDVAULT_EDITION": first.get("edition"),
        "CREDVAULT_BUILD": first.get("build"),
    }

    for name, value in values.items():
        if value is None or value == "":
            env.pop(name, None)
        else:
            env[name] = str(value)

    env["CREDVAULT_SIMULATORS_FILE"] = os.path.abspath(config_path)

    return env


def exit_status(returncode: int) -> int:
    """Turn a Popen return code into a shell-style exit status."""
    return 128 - returncode if returncode < 0 else returncode


def run_command(command: list[str], env: dict[str, str]) -> int:
    """Run COMMAND and return its exit status."""
    try:
        process = subprocess.Popen(command, env=env)  # pylint: disable=consider-using-with
    except OSError as ex:
        log(f"cannot run {command[0]}: {ex.strerror}")
        return 127

    try:
        return exit_status(process.wait())
    except KeyboardInterrupt:
        # The terminal sent SIGINT to COMMAND as well: give it time to clean up.
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.terminate()
        raise
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def on_signal(signum: int, _frame: object) -> None:
    """Turn SIGTERM and SIGHUP into an exception so that the simulators get stopped."""
    raise Terminated(signum)


def main(argv: list[str]) -> int:
    """Start the simulators, run COMMAND, stop the simulators."""
    args, command = parse_args(argv)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    simulators: list[Simulator] = []
    temp_config = None

    try:
        executable = find_simulator(args.simulator)

        if args.log_dir:
            os.makedirs(args.log_dir, exist_ok=True)

        for profile in args.profiles:
            log_path = os.path.join(args.log_dir, f"{profile}.log") if args.log_dir else None
            simulators.append(Simulator(profile, [executable, "--port", "0"] + PROFILES[profile], log_path))

        deadline = time.monotonic() + args.timeout
        ready = {}

        for simulator in simulators:
            info = simulator.wait_ready(deadline, args.timeout)
            ready[simulator.profile] = info
            log(f"profile {simulator.profile}: edition {info['edition']} build {info['build']} at {info['url']}")

        if args.config_out:
            config_path = args.config_out
        else:
            fd, temp_config = tempfile.mkstemp(prefix="credvault-simulators-", suffix=".json")
            os.close(fd)
            config_path = temp_config

        write_config(config_path, ready)

        return run_command(command, command_environment(ready[args.profiles[0]], config_path))
    except StartError as ex:
        log(str(ex))
        return 1
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except Terminated as ex:
        log(f"stopped by signal {ex.args[0]}")
        return 128 + ex.args[0]
    finally:
        # Late signals must not interrupt the clean-up.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

        for simulator in simulators:
            simulator.stop()

        if temp_config:
            os.unlink(temp_config)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
