#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Smoke run of the collection on one ansible-core version: every plugin type against the simulator.

Usage::

    smoke.py --ansible-bin DIR --collections DIR --work-dir DIR [--log-dir DIR]

``--ansible-bin`` is the bin directory of a virtual environment with one ansible-core and requests; every
ansible command comes from it and modules run with its python. ``--collections`` holds
ansible_collections/credvault/vault. Everything the run writes goes to ``--work-dir`` (private to the run:
runs of several versions at once share nothing), the commands' output to ``--log-dir`` (default
WORK-DIR/logs).

The script starts three simulators (tests/utils/with_simulators.py, profiles default, strict and edition_b,
on free ports) and runs itself again under them to run, with ANSIBLE_DEPRECATION_WARNINGS=true:

* ``ansible-playbook tests/smoke/smoke.yml``: the lookups (with password, TOTP, reason and ticket), every
  action plugin, and vault_resource, vault_account, vault_user_group and vault_resource_info with check mode
  and idempotence. Each file of tests/smoke/tasks/checks is a check of its own: the play prints a marker
  "SMOKE CHECK PASSED|FAILED <check>" for it, and a failed one is reported with the task that failed and that
  task's message, read from the play's output;
* ``ansible-inventory --list`` and ``--graph`` of tests/smoke/smoke.vault_resources.yml: the expected hosts
  and groups;
* ``ansible-playbook tests/smoke/action_warnings.yml`` once per output callback (``CALLBACKS``: default, minimal,
  result_format yaml, and the tree callback beside the default): vault_user's own warning, also in a loop, printed
  by each and kept in the tree callback's file, and no callback failing on a result (check ``action_warnings_*``);
* ``ansible-playbook --syntax-check`` of tests/smoke/role_syntax.yml, which uses the role linux_remote_reset;
* on ansible-core 2.22 and later only (the Secrets API is new in 2.22; before, the check is not run, and the
  summary says so): ``ansible-playbook -vvvv tests/smoke/secrets_masked.yml``, after smoke.yml, which prints a
  looked-up password, a TOTP code, a generated password, a private key, the token the lookups used and an API
  user's token without ``no_log``: each must print as ``$REDACTED$`` (check ``secrets_masked``).

A command fails when it exits non-zero, or when its output holds "DEPRECATION WARNING", a "[WARNING]" line
(with the environment pinned here none comes from ansible-core itself, so any warning is taken as the
collection's), or a secret of the run (the passwords generated here, the simulators' tokens, and the keys and
tokens the play wrote to files of mode 0600). The script prints one line per failure and a summary of the
passed checks, never a secret, and exits 1 when anything failed. Inherited ANSIBLE_* and CREDVAULT_*
variables are ignored; no configuration file applies; ANSIBLE_HOME and the temporary directories are under
WORK-DIR, so nothing is written to $HOME. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time

from vault_simulator.areas.passwords.policy_rules import broken_rules, generate_password, policy_named
from vault_simulator.core.password_policies import DEFAULT_POLICY

HERE = os.path.dirname(os.path.abspath(__file__))
SMOKE = os.path.join(os.path.dirname(HERE), "smoke")
PROFILES = ("default", "strict", "edition_b")
INSIDE = "--inside-simulators"
# Group -> hosts that ansible-inventory must show for the resources of tests/smoke/tasks/checks/seed.yml.
EXPECTED_GROUPS = {
    "vault_type_linux": {"smoke-inv-web-01"},
    "vault_type_windows": {"smoke-inv-win-01"},
    "vault_group_smoke_inv_web": {"smoke-inv-web-01"},
}
EXPECTED_HOSTS = set().union(*EXPECTED_GROUPS.values())
WARNING = re.compile(r"^\s*\[WARNING\]")
TASK = re.compile(r"^TASK \[(.*)\] \**$")
FAILED_TASK = re.compile(r"^(?:fatal|failed): \[[^\]]+\].*? => (\{.*?)\s*$")
MARKER = re.compile(r'"msg": "SMOKE CHECK (PASSED|FAILED) ([\w-]+)"')
# ansible-core's Secrets API, which masks registered values as $REDACTED$: from 2.22 (plugin_utils/_compat.py).
SECRETS_API = (2, 22)
MASKED = re.compile(r'"msg": "SMOKE MASKED (\w+)=(.*)"')
# What tests/smoke/secrets_masked.yml prints without no_log.
# tests/smoke/action_warnings.yml's runs: the name of each, and the environment that picks its output callback.
CALLBACKS = {
    "default": {"ANSIBLE_STDOUT_CALLBACK": "default"},
    "minimal": {"ANSIBLE_STDOUT_CALLBACK": "minimal"},
    "yaml": {"ANSIBLE_STDOUT_CALLBACK": "default", "ANSIBLE_CALLBACK_RESULT_FORMAT": "yaml"},
    # ansible-core 2.21 and later deprecate the tree callback (with a deprecation warning of their own, which the
    # run would take for the collection's): the other three runs watch for the collection's deprecations.
    "tree": {"ANSIBLE_CALLBACKS_ENABLED": "ansible.builtin.tree", "ANSIBLE_DEPRECATION_WARNINGS": "false"},
}
# The warning those runs must print (expected there, so not a failure), and what a callback that broke prints.
ACTION_WARNING = "and its token is not at token_dest"
CALLBACK_BROKEN = "Callback dispatch"
MASKED_NAMES = ("password", "totp", "generated_password", "private_key", "auth_token", "api_token")
MAX_REASON = 300


def policy_password(*login_names):
    """A password the simulator's default policy accepts for accounts called ``login_names``, drawn by the
    simulator's own policy engine: a hand-made random text holds a sequence or a repeated substring now and then,
    and CHANGE PASSWORD refuses it."""
    policy = policy_named(DEFAULT_POLICY)
    while True:
        password = generate_password(policy, secrets.SystemRandom())
        if not any(broken_rules(policy, password, name) for name in login_names):
            return password


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="smoke.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--ansible-bin", required=True, help="bin directory of the ansible-core virtualenv")
    parser.add_argument("--collections", required=True, help="directory holding ansible_collections/credvault/vault")
    parser.add_argument("--work-dir", required=True, help="private scratch directory of this run")
    parser.add_argument("--log-dir", help="where the commands' output goes (default: WORK-DIR/logs)")
    parser.add_argument(INSIDE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for name in ("ansible_bin", "collections", "work_dir"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    args.log_dir = os.path.abspath(args.log_dir or os.path.join(args.work_dir, "logs"))
    return args


def clean_environment():
    """os.environ without what would reach into the run: ansible settings, vault connections, Python paths."""
    dropped = ("ANSIBLE_", "CREDVAULT_")
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(dropped) and name not in ("PYTHONPATH", "VIRTUAL_ENV")
    }


def start_simulators(args, argv):
    """Run this script again under with_simulators.py; return its exit status."""
    os.makedirs(args.work_dir, exist_ok=True)
    simulators_file = os.path.join(args.work_dir, "simulators.json")
    command = [
        sys.executable,
        os.path.join(HERE, "with_simulators.py"),
        "--profiles",
        ",".join(PROFILES),
        "--config-out",
        simulators_file,
        "--log-dir",
        os.path.join(args.log_dir, "simulators"),
        "--",
        sys.executable,
        os.path.abspath(__file__),
        *argv,
        INSIDE,
    ]
    started = time.monotonic()
    try:
        status = subprocess.call(command, env=clean_environment())
    finally:
        # It holds the simulators' tokens, which are of no use once they stopped.
        if os.path.exists(simulators_file):
            os.unlink(simulators_file)
    print("smoke: %s in %.0f s" % ("passed" if status == 0 else "FAILED", time.monotonic() - started), flush=True)
    return status


class Run:
    """The secrets of one run, its files, and the environment of its ansible commands."""

    def __init__(self, args):
        self.args = args
        with open(os.environ["CREDVAULT_SIMULATORS_FILE"], encoding="utf-8") as handle:
            simulators = json.load(handle)["credvault_simulators"]
        self.secrets = {
            "root_password": policy_password("root"),
            "deploy_password": policy_password("deploy"),
            "account_password": policy_password("app", "admin"),
            "member_password": policy_password("smoke-member"),
            "totp_secret": base64.b32encode(secrets.token_bytes(20)).decode("ascii"),
        }
        # Values that must never be printed: the generated ones and the simulators' tokens; see also key_files.
        self.hidden = list(self.secrets.values()) + [simulator["token"] for simulator in simulators.values()]
        self.keys = os.path.join(args.work_dir, "keys")
        self.vars_file = os.path.join(args.work_dir, "smoke-vars.json")
        variables = {
            "smoke_work_dir": args.work_dir,
            "smoke_secrets": self.secrets,
        }
        for profile in PROFILES:
            simulator = simulators[profile]
            variables["smoke_" + profile] = {
                "url": simulator["url"],
                "auth_token": simulator["token"],
                "ca_path": simulator["ca_path"],
                "edition": simulator["edition"],
                "build": simulator["build"],
            }
        if os.path.exists(self.vars_file):
            os.unlink(self.vars_file)
        shutil.rmtree(self.keys, ignore_errors=True)
        os.makedirs(self.keys, mode=0o700)
        descriptor = os.open(self.vars_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(variables, handle)
        os.makedirs(args.log_dir, exist_ok=True)
        self.env = self.ansible_environment()

    def ansible_environment(self):
        """Ansible pinned to this run: its collection, no configuration file, its own directories under WORK-DIR."""
        work = self.args.work_dir
        config = os.path.join(work, "ansible.cfg")
        with open(config, "w", encoding="utf-8"):
            pass  # an empty configuration: no ansible.cfg of the machine or of $HOME applies
        env = clean_environment()
        env.update(
            {
                "CREDVAULT_URL": os.environ["CREDVAULT_URL"],
                "CREDVAULT_AUTH_TOKEN": os.environ["CREDVAULT_AUTH_TOKEN"],
                "CREDVAULT_CA_PATH": os.environ["CREDVAULT_CA_PATH"],
                "PATH": self.args.ansible_bin + os.pathsep + env.get("PATH", ""),
                "ANSIBLE_CONFIG": config,
                "ANSIBLE_HOME": os.path.join(work, "ansible-home"),
                "ANSIBLE_LOCAL_TEMP": os.path.join(work, "tmp", "local"),
                "ANSIBLE_REMOTE_TEMP": os.path.join(work, "tmp", "remote"),
                "ANSIBLE_COLLECTIONS_PATH": self.args.collections,
                "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "false",
                "ANSIBLE_DEPRECATION_WARNINGS": "true",
                "ANSIBLE_NOCOLOR": "true",
                "ANSIBLE_PIPELINING": "true",
                "ANSIBLE_RETRY_FILES_ENABLED": "false",
                "ANSIBLE_INVENTORY_UNPARSED_FAILED": "true",
            }
        )
        return env

    def start(self, name, tool, *arguments, **env):
        """Start ``tool`` of --ansible-bin, with the variables ``env`` added to the environment, its output to
        LOG-DIR/<name>.out and .err."""
        command = [os.path.join(self.args.ansible_bin, tool), *arguments]
        paths = [os.path.join(self.args.log_dir, name + suffix) for suffix in (".out", ".err")]
        with open(paths[0], "wb") as out, open(paths[1], "wb") as err:
            process = subprocess.Popen(
                command, cwd=self.args.work_dir, env=dict(self.env, **env), stdout=out, stderr=err
            )
        return name, process, paths

    def finish(self, started, failures):
        """Wait for the commands ``started``; add to ``failures`` what their exit status and output show. Return
        the exit status and stdout of each command, by name."""
        outputs = {}
        for name, process, paths in started:
            status = process.wait()
            texts = []
            for path in paths:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    texts.append(handle.read())
            output = "\n".join(texts)
            outputs[name] = status, texts[0]
            if status != 0:
                # The last error: a play prints those of ignored and rescued tasks before the one that ended it.
                error = next((line for line in reversed(output.splitlines()) if re.search(r"ERROR|fatal:", line)), "")
                failures.append(
                    (name, "exited with status %d %s(%s)" % (status, error + " " if error else "", paths[1]))
                )
            found = warnings(texts[0], False) + warnings(texts[1], True)
            if name.startswith("action_warnings_"):
                found = [warning for warning in found if squeezed(ACTION_WARNING) not in squeezed(warning)]
            failures.extend((name, warning) for warning in found)
            if any(squeezed(secret) in squeezed(output) for secret in self.hidden + self.key_files()):
                failures.append((name, "a secret of the run appears in its output (%s)" % " ".join(paths)))
        return outputs

    def output(self, name):
        """What command ``name`` printed, stdout then stderr."""
        texts = []
        for suffix in (".out", ".err"):
            with open(os.path.join(self.args.log_dir, name + suffix), encoding="utf-8", errors="replace") as handle:
                texts.append(handle.read())
        return "\n".join(texts)

    def key_files(self):
        """The secrets the play wrote to WORK-DIR/keys, the files of mode 0600 (keys and tokens): each line of at
        least 16 characters but the armor lines (-----BEGIN ...) of a key file."""
        found = []
        for name in os.listdir(self.keys):
            path = os.path.join(self.keys, name)
            if os.stat(path).st_mode & 0o777 == 0o600:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    found.extend(line.strip() for line in handle)
        return [line for line in found if len(line) >= 16 and not line.startswith("-----")]

    def redact(self, text):
        for secret in self.hidden + self.key_files():
            text = text.replace(secret, "********")
        return text


def failed_result(lines, index):
    """The result a failed task printed at lines[index]: JSON on that line, or (from ansible-core 2.20) indented
    over the lines up to a closing brace at the start of a line."""
    text = FAILED_TASK.match(lines[index]).group(1)
    for line in lines[index + 1 :]:
        if text.endswith("}"):
            break
        text += "\n" + line
        if line == "}":
            break
    try:
        return json.loads(text)
    except ValueError:
        return {}


def check_play(output, failures):
    """The checks of the play, from the markers tests/smoke/tasks/run_check.yml prints: a failed one with the last
    task that failed before its marker and that task's message; a check of tests/smoke/tasks/checks without a
    marker did not run. Return the names of those that passed."""
    passed, reported, task, reason = [], set(), None, None
    lines = output.splitlines()
    for index, line in enumerate(lines):
        header, failed, marker = TASK.match(line), FAILED_TASK.match(line), MARKER.search(line)
        if header:
            task = header.group(1)
        elif failed:
            result = failed_result(lines, index)
            reason = "task %r failed: %s" % (task, result.get("msg") or result.get("censored") or "(no message)")
        elif marker:
            outcome, check = marker.groups()
            reported.add(check)
            if outcome == "PASSED":
                passed.append(check)
            else:
                failures.append((check, reason or "failed"))
            reason = None
    checks = sorted(name[: -len(".yml")] for name in os.listdir(os.path.join(SMOKE, "tasks", "checks")))
    failures.extend((check, "did not run") for check in checks if check not in reported)
    return passed


def warnings(output, wrapped):
    """Each deprecation warning and [WARNING] of ``output``, once; with ``wrapped`` (stderr, which holds nothing
    else) with the lines Ansible wrapped it onto."""
    found, continued = [], False
    for line in output.splitlines():
        if "DEPRECATION WARNING" in line or WARNING.match(line):
            found.append(line.strip())
            continued = wrapped
        elif continued and line.strip() and not line.startswith(("[", "ERROR")):
            found[-1] += " " + line.strip()
        else:
            continued = False
    return list(dict.fromkeys(found))


def squeezed(text):
    """``text`` without its whitespace: Ansible wraps a warning to the terminal's width, breaking it at spaces and
    after hyphens (textwrap's break_on_hyphens), so a path or a token may reach the output split over two lines."""
    return "".join(text.split())


def graph_groups(graph):
    """Group -> host names, from the output of ansible-inventory --graph."""
    groups, parents = {}, []
    for line in graph.splitlines():
        name = line.lstrip(" |-")
        depth = len(line) - len(name)
        parents = [(level, group) for level, group in parents if level < depth]
        if name.startswith("@"):
            group = name[1:].rstrip(":")
            groups.setdefault(group, set())
            parents.append((depth, group))
        elif name and parents:
            groups[parents[-1][1]].add(name)
    return groups


def unwrapped(item):
    """A JSON object of ansible-inventory --list, or the string inside it: ansible-core 2.19 writes each string an
    inventory plugin set as {"__ansible_unsafe": "..."}."""
    return item["__ansible_unsafe"] if list(item) == ["__ansible_unsafe"] else item


def list_groups(listing):
    """Group -> host names, and the host variables, from the output of ansible-inventory --list."""
    inventory = json.loads(listing, object_hook=unwrapped)
    groups = {name: set(group.get("hosts", [])) for name, group in inventory.items() if name != "_meta"}
    return groups, inventory.get("_meta", {}).get("hostvars", {})


def check_groups(name, groups, failures):
    """Every host of the inventory is expected, and every expected group holds its hosts."""
    hosts = set().union(*groups.values()) if groups else set()
    problems = ["hosts %s, expected %s" % (sorted(hosts), sorted(EXPECTED_HOSTS))] if hosts != EXPECTED_HOSTS else []
    for group, expected in EXPECTED_GROUPS.items():
        if groups.get(group) != expected:
            problems.append("group %s holds %s, expected %s" % (group, sorted(groups.get(group, [])), sorted(expected)))
    failures.extend((name, problem) for problem in problems)


def check_inventory(outputs, failures):
    """The hosts, groups and variables of ansible-inventory --list and --graph, of those that exited 0."""
    if outputs["inventory_list"][0] == 0:
        try:
            groups, hostvars = list_groups(outputs["inventory_list"][1])
        except ValueError:
            failures.append(("inventory_list", "ansible-inventory --list printed no JSON"))
        else:
            web = hostvars.get("smoke-inv-web-01", {})
            if web.get("credvault_resource_type") != "Linux" or web.get("smoke_os") != "linux":
                failures.append(("inventory_list", "smoke-inv-web-01 lacks the variables of its resource and compose"))
            check_groups("inventory_list", groups, failures)
    if outputs["inventory_graph"][0] == 0:
        check_groups("inventory_graph", graph_groups(outputs["inventory_graph"][1]), failures)


def check_action_warnings(run, failures):
    """Each run of tests/smoke/action_warnings.yml printed its three warnings, broke no callback, and the tree
    callback's file holds the warning of the last task."""
    for callback in CALLBACKS:
        name = "action_warnings_" + callback
        output = run.output(name)
        for number in (1, 2, 3):
            dest = "absent-%s-%d.token" % (callback, number)
            wanted = (squeezed(ACTION_WARNING), squeezed(dest))
            if not any(all(part in squeezed(line) for part in wanted) for line in warnings(output, True)):
                failures.append((name, "the warning that no token is at %s was not printed" % dest))
        if CALLBACK_BROKEN in output:
            failures.append((name, "an output callback failed on a result: %s" % CALLBACK_BROKEN))
    tree = os.path.join(run.args.work_dir, "tree", "localhost")
    with open(tree, encoding="utf-8", errors="replace") as handle:
        if "absent-tree-3.token" not in handle.read():
            failures.append(("action_warnings_tree", "the tree callback's file lacks the warning of the last task"))


def check_masked(output, failures):
    """Each value tests/smoke/secrets_masked.yml prints without no_log was printed, and only as $REDACTED$."""
    printed = {}
    for name, value in MASKED.findall(output):
        printed.setdefault(name, set()).add(value)
    for name in MASKED_NAMES:
        if name not in printed:
            failures.append(("secrets_masked", "the play did not print %s" % name))
        elif printed[name] != {"$REDACTED$"}:
            failures.append(("secrets_masked", "the play printed %s unmasked" % name))


def has_secrets_api(version):
    """Whether ansible-core ``version`` (as ansible.release says it, 2.22.0rc1 included) has the Secrets API."""
    line = re.match(r"(\d+)\.(\d+)\.", version)
    return bool(line) and (int(line.group(1)), int(line.group(2))) >= SECRETS_API


def ansible_core_version(args):
    command = [os.path.join(args.ansible_bin, "python"), "-c", "import ansible.release as r; print(r.__version__)"]
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no ansible-core in %s)" % args.ansible_bin


def run_checks(args):
    """Run the commands under the simulators, print what failed and what passed; return the exit status."""
    run = Run(args)
    try:
        failures, passed = run_commands(args, run)
        return report(args, run, failures, passed)
    finally:
        os.unlink(run.vars_file)  # it holds the run's passwords


def run_commands(args, run):
    """Run the play and the syntax check, then ansible-inventory; return the failures of all their checks and
    the names of the checks that passed."""
    failures = []
    python = "ansible_python_interpreter=" + os.path.join(args.ansible_bin, "python")
    local = ("-i", "localhost,", "-c", "local", "-e", python)
    # The syntax check needs no simulator state: it runs beside the play. The inventory needs the play's resources.
    outputs = run.finish(
        [
            run.start(
                "playbook", "ansible-playbook", *local, "-e", "@" + run.vars_file, os.path.join(SMOKE, "smoke.yml")
            ),
            run.start(
                "role_syntax", "ansible-playbook", "--syntax-check", *local, os.path.join(SMOKE, "role_syntax.yml")
            ),
        ],
        failures,
    )
    inventory = os.path.join(SMOKE, "smoke.vault_resources.yml")
    # Only the collection's plugin reads the file: a failure is its own, not hidden among those of auto, yaml and ini.
    enabled = {"ANSIBLE_INVENTORY_ENABLED": "credvault.vault.vault_resources"}
    after_play = [
        run.start("inventory_list", "ansible-inventory", "-i", inventory, "--list", **enabled),
        run.start("inventory_graph", "ansible-inventory", "-i", inventory, "--graph", **enabled),
    ]
    warned = os.path.join(SMOKE, "action_warnings.yml")
    tree = {"ANSIBLE_CALLBACK_TREE_DIR": os.path.join(args.work_dir, "tree")}
    after_play += [
        run.start(
            "action_warnings_" + callback,
            "ansible-playbook",
            *local,
            "-e",
            "@" + run.vars_file,
            "-e",
            "smoke_callback=" + callback,
            warned,
            **tree,
            **environment,
        )
        for callback, environment in CALLBACKS.items()
    ]
    version = ansible_core_version(args)
    masked = has_secrets_api(version)
    if masked:
        # It reads the accounts and the SSH key the play seeded.
        playbook = os.path.join(SMOKE, "secrets_masked.yml")
        after_play.append(
            run.start("secrets_masked", "ansible-playbook", "-vvvv", *local, "-e", "@" + run.vars_file, playbook)
        )
    else:
        print(
            "smoke: check secrets_masked not run: ansible-core %s has no Secrets API (2.22 and later)" % version,
            flush=True,
        )
    outputs.update(run.finish(after_play, failures))
    check_inventory(outputs, failures)
    check_action_warnings(run, failures)
    if masked:
        check_masked(outputs["secrets_masked"][1], failures)
    failed = {name for name, _reason in failures}
    passed = check_play(outputs["playbook"][1], failures)
    names = ("role_syntax", "inventory_list", "inventory_graph") + tuple("action_warnings_" + c for c in CALLBACKS)
    names += ("secrets_masked",) if masked else ()
    passed += [name for name in names if name not in failed]
    return failures, passed


def report(args, run, failures, passed):
    """Print one line per failure, without a secret, and the summary; return the exit status."""
    for name, reason in failures:
        reason = " ".join(run.redact(reason).split())
        print(
            "smoke FAILED %s: %s" % (name, reason[:MAX_REASON] + ("..." if len(reason) > MAX_REASON else "")),
            flush=True,
        )
    print(
        "smoke ansible-core %s: %d checks passed (%s); %d failures"
        % (ansible_core_version(args), len(passed), ", ".join(passed), len(failures)),
        flush=True,
    )
    return 1 if failures else 0


def main(argv):
    args = parse_args(argv)
    if not os.access(os.path.join(args.ansible_bin, "ansible-playbook"), os.X_OK):
        print("smoke FAILED setup: no ansible-playbook in %s" % args.ansible_bin, flush=True)
        return 1
    if args.inside_simulators:
        return run_checks(args)
    return start_simulators(args, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
