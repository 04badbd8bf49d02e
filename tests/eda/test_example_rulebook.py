# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Event-Driven Ansible example (docs/examples/eda) end to end (make eda-check): ansible-rulebook with the
vault_audit source, and the update_service.yml playbook it runs, against a running vault simulator of each dialect:
the spec's (profile default) and the one of recorded real servers (profile real: audit records keyed "Audit ID",
"Operation Type", "Time Stamp", empty lists without Details...; tests/simulator/README.md, "Dialects").

Needs CREDVAULT_SIMULATORS_FILE of tests/utils/with_simulators.py run with both profiles (--profiles default,real),
the collection installed under ANSIBLE_COLLECTIONS_PATH, and EDA_VENV: a venv with ansible-rulebook, ansible-core
and requests. ansible-rulebook and the ad-hoc commands that set up and change the account run from that venv, with
the CREDVAULT_* variables of the dialect's simulator; this test only drives them.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import time
from pathlib import Path

import pytest

from vault_simulator.areas.passwords.policy_rules import generate_password, policy_named
from vault_simulator.core.password_policies import DEFAULT_POLICY

RESOURCE = "eda-web-01"
ACCOUNT = "app"
# From a password change in the vault to the new password in the configuration file, at most.
UPDATE_DEADLINE = 90
# From starting ansible-rulebook to the source's first read of the trail (Java starts, the cursor is written).
START_DEADLINE = 60
# After the expected update, how long to keep watching for an update that must not come (the source polls every 1 s).
QUIET_PERIOD = 4
# The dialect the example runs against -> the profile of tests/utils/with_simulators.py whose simulator answers in it.
DIALECTS = {"spec": "default", "real": "real"}


def new_password():
    """A password the simulator's default policy accepts for the account, another one each time: drawn by the
    simulator's own policy engine, so that no draw holds a sequence or a repeated substring the policy refuses
    (a hand-made random text did, now and then: CHANGE PASSWORD failed)."""
    return generate_password(policy_named(DEFAULT_POLICY), secrets.SystemRandom(), login_name=ACCOUNT)


def wait_for(condition, deadline, what, rulebook):
    """Poll ``condition`` every 0.2 s until it is true; fail after ``deadline`` seconds, or at once when
    ansible-rulebook (the Popen ``rulebook``) has ended."""
    end = time.monotonic() + deadline
    while not condition():
        assert rulebook.poll() is None, "ansible-rulebook ended (exit status %s) before %s" % (rulebook.poll(), what)
        assert time.monotonic() < end, "not within %d s: %s" % (deadline, what)
        time.sleep(0.2)


def simulator(profile):
    """The ready line ({url, token, ca_path, edition, build}) of the running simulator of ``profile``."""
    with open(os.environ["CREDVAULT_SIMULATORS_FILE"], encoding="utf-8") as handle:
        simulators = json.load(handle)["credvault_simulators"]
    assert profile in simulators, "no simulator of profile %s: run with_simulators.py --profiles %s" % (
        profile,
        ",".join(DIALECTS.values()),
    )
    return simulators[profile]


class Setup:
    """Paths and environment of one run of the example, against the simulator ``sim`` (a ready line)."""

    def __init__(self, work, sim):
        self.venv = Path(os.environ["EDA_VENV"])
        installed = Path(os.environ["ANSIBLE_COLLECTIONS_PATH"]) / "ansible_collections/credvault/vault"
        self.example = installed / "docs/examples/eda"
        self.cursor = work / "vault_audit.cursor"
        self.config = work / "service.conf"
        self.update_log = work / "updates.log"
        self.vars_file = work / "vars.yml"
        self.outputs = []
        self.vars_file.write_text(
            json.dumps(
                {
                    "watched_resources": [RESOURCE],
                    "watched_accounts": [ACCOUNT],
                    "poll_interval": 1,
                    "cursor_file": str(self.cursor),
                    "service_config_file": str(self.config),
                    "service_update_log": str(self.update_log),
                }
            )
        )
        # ansible-rulebook runs ansible-galaxy (to find the collection) and ansible-playbook from the PATH; the
        # source, the playbook's lookup and the ad-hoc modules connect with the CREDVAULT_* variables.
        self.token = str(sim["token"])
        self.env = dict(
            os.environ,
            PATH="%s:%s" % (self.venv / "bin", os.environ["PATH"]),
            CREDVAULT_URL=str(sim["url"]),
            CREDVAULT_AUTH_TOKEN=self.token,
            CREDVAULT_CA_PATH=str(sim["ca_path"]),
            CREDVAULT_EDITION=str(sim["edition"]),
            CREDVAULT_BUILD=str(sim["build"]),
        )

    def run_module(self, module, args):
        """One module of the collection on localhost, as an ad-hoc command; a failure shows the module's result
        (Ansible masks its no_log options, the passwords)."""
        command = [self.venv / "bin/ansible", "localhost", "-i", "localhost,", "-c", "local"]
        command += ["-e", "ansible_python_interpreter=%s" % (self.venv / "bin/python"), "-m", module]
        result = subprocess.run(
            command + ["-a", json.dumps(args)], env=self.env, capture_output=True, timeout=120, check=False
        )
        failed = result.returncode != 0
        assert not failed, "%s failed: %s" % (module, result.stdout.decode(errors="replace")[-2000:])

    def change_password(self, password):
        self.run_module(
            "credvault.vault.vault_account_password", {"resource": RESOURCE, "account": ACCOUNT, "password": password}
        )

    def start_rulebook(self, work):
        """ansible-rulebook in the example's directory (run_playbook finds update_service.yml there), its output
        to a file of its own for each start."""
        output = work / ("rulebook-%d.log" % (len(self.outputs) + 1))
        self.outputs.append(output)
        with output.open("wb") as log:
            return subprocess.Popen(
                [self.venv / "bin/ansible-rulebook", "-r", "rulebook.yml", "-i", "inventory.yml"]
                + ["--vars", str(self.vars_file)],
                cwd=self.example,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def updates(self):
        """The audit record ids of the playbook's runs, one per line of its update log."""
        if not self.update_log.exists():
            return []
        return [line.split("audit record ", 1)[1].split(":", 1)[0] for line in self.update_log.read_text().splitlines()]

    def updated(self, password, runs):
        """Whether the config holds ``password`` and the playbook has logged ``runs`` updates (it writes the
        config first, then the log)."""
        holds = self.config.exists() and ("password = %s\n" % password) in self.config.read_text()
        return holds and len(self.updates()) >= runs


def stop(process):
    """Stop ansible-rulebook and whatever it started (its own session) and wait for it."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(params=sorted(DIALECTS))
def setup(request, tmp_path):
    return Setup(tmp_path, simulator(DIALECTS[request.param]))


def test_a_password_change_updates_the_service_once_across_a_restart(setup, tmp_path):
    first_password, second_password, third_password = new_password(), new_password(), new_password()
    setup.run_module(
        "credvault.vault.vault_resource",
        {
            "name": RESOURCE,
            "type": "Linux",
            "owner": "admin",
            "first_account": {"name": ACCOUNT, "password": first_password},
        },
    )

    rulebook = setup.start_rulebook(tmp_path)
    try:
        # start_at is `now`: a change counts once the source has read the trail for the first time (and written
        # its cursor); one made before may be taken as past.
        wait_for(setup.cursor.exists, START_DEADLINE, "the source's first read (its cursor file)", rulebook)
        setup.change_password(second_password)
        wait_for(lambda: setup.updated(second_password, 1), UPDATE_DEADLINE, "the new password in the config", rulebook)
    finally:
        stop(rulebook)
    # Asserted on counts, never on the text: a failing assertion shows its operands, and the file holds a password.
    assert setup.config.stat().st_mode & 0o777 == 0o600
    users = setup.config.read_text().count("user = %s\n" % ACCOUNT)
    assert users == 1
    (first_update,) = setup.updates()

    # A change while ansible-rulebook is stopped is handled after the restart, from the cursor; the one handled
    # before is not handled again.
    setup.change_password(third_password)
    rulebook = setup.start_rulebook(tmp_path)
    try:
        wait_for(lambda: setup.updated(third_password, 2), UPDATE_DEADLINE, "the change made while stopped", rulebook)
        time.sleep(QUIET_PERIOD)
        assert rulebook.poll() is None, "ansible-rulebook ended during the quiet period"
    finally:
        stop(rulebook)
    updates = setup.updates()
    assert len(updates) == 2, "the playbook ran for audit records %s" % updates
    assert updates[0] == first_update and updates[1] != first_update

    secrets_used = {"first password": first_password, "second password": second_password}
    secrets_used.update({"third password": third_password, "token": setup.token})
    for output in setup.outputs:
        text = output.read_text(errors="replace")
        shows_the_run = "TASK [Write the configuration file" in text
        assert shows_the_run, "%s does not show the playbook's run" % output
        leaked = [name for name, secret in secrets_used.items() if secret in text]
        assert not leaked, "%s holds the %s" % (output, leaked)
    logged = setup.update_log.read_text()
    leaked = [name for name, secret in secrets_used.items() if secret in logged]
    assert not leaked, "the update log holds the %s" % leaked
