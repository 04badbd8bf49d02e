#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A job as AWX and Automation Platform run it, through ansible-runner, and a search of everything it kept.

Usage::

    runner_check.py --ansible-bin DIR --collections DIR --work-dir DIR

``--ansible-bin`` is the bin directory of a virtual environment with one ansible-core and requests (ansible-runner
runs its ``ansible-playbook``); ``--collections`` holds ansible_collections/credvault/vault. The script starts a
simulator (tests/utils/with_simulators.py, profile default) and runs itself again under it, then:

1. seeds the accounts the job reads (tests/runner/seed.yml, with ansible-playbook; not searched);
2. for each way of handing over the token (``MODES``), builds a private data directory as AWX does: the project
   (tests/runner/project), the inventory (tests/runner/inventory: three local hosts and the inventory plugin), the
   credential of the collection's credential type (extensions/aap/credential_type.yml) with its injectors applied
   as AWX applies them (each ``file`` template written to a file of mode 0600 in the directory, its path as
   ``tower.filename.<name>``, then the ``env`` templates), and runs ``ansible-runner run`` on site.yml, which has
   no ``no_log`` anywhere: fact gathering, the host_credentials role, the inventory plugin, every lookup, and a
   module that returns a secret, their values used in a template;
3. searches every file of the private data directory (the job events, stdout, ``command``, which holds the whole
   environment, the fact cache, ``env/``) for the token and every secret the job handled - those the script drew
   (passwords, the TOTP secret) and those the template wrote (a looked-up password, a generated password, the
   API user's token, the private key's lines; not the TOTP code, whose six digits turn up by chance) - and prints
   the table of what it found where.

``MODES``: ``token in a file`` is the credential type as it is (the token in a file, its path in
CREDVAULT_AUTH_TOKEN_FILE); ``token in the environment`` the same type with the token injected as
CREDVAULT_AUTH_TOKEN, as it was before (the comparison). The run fails when, with the token in a file, any
secret is found anywhere but in the injector's own token file; or when, with the token in the environment, the
token is not found in ``command`` (then the search itself is broken).

Last, tests/runner/project/user_debug.yml (a user's ``debug`` of a looked-up password, without ``no_log``) runs
the same way: from ansible-core 2.22 the password must be in no artifact ($REDACTED$, the Secrets API); before, it
is found in stdout and the job events, as the AWX guide says, which the table shows. And guide_pattern.yml, the
pattern the guide gives against that (its tasks as written there): the password must be in no artifact.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import shutil
import subprocess
import sys

import yaml
from jinja2 import Environment

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(ROOT, "tests", "runner")
CREDENTIAL_TYPE = os.path.join(ROOT, "extensions", "aap", "credential_type.yml")
INSIDE = "--inside-simulators"
TOKEN_IN_FILE, TOKEN_IN_ENVIRONMENT = "token in a file", "token in the environment"
MODES = (TOKEN_IN_ENVIRONMENT, TOKEN_IN_FILE)
# The kinds of file in the private data directory: artifacts/<ident>/<name> by <name>, env/, and the rest.
ARTIFACTS = {"command": "command", "job_events": "job events", "stdout": "stdout", "fact_cache": "fact cache"}
KINDS = (*ARTIFACTS.values(), "other artifacts", "env/ (the injected files, envvars)", "other files")
SECRETS_API = (2, 22)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="runner_check.py", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--ansible-bin", required=True, help="bin directory of the ansible-core virtualenv")
    parser.add_argument("--collections", required=True, help="directory holding ansible_collections/credvault/vault")
    parser.add_argument("--work-dir", required=True, help="private scratch directory of this run")
    parser.add_argument(INSIDE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for name in ("ansible_bin", "collections", "work_dir"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    return args


def clean_environment():
    """os.environ without what would reach into the run: ansible settings, vault connections, Python paths."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("ANSIBLE_", "CREDVAULT_")) and name not in ("PYTHONPATH", "VIRTUAL_ENV")
    }


def core_version(ansible_bin):
    output = subprocess.run(
        [os.path.join(ansible_bin, "python"), "-c", "import ansible.release as r; print(r.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return tuple(int(part) for part in output.split(".")[:2])


class Job:
    """One run of the collection's jobs: its secrets, and the environment of its ansible commands."""

    def __init__(self, args):
        self.args = args
        self.core = core_version(args.ansible_bin)
        self.token = os.environ["CREDVAULT_AUTH_TOKEN"]
        self.secrets = {"login_node%d" % number: self.drawn() for number in (1, 2, 3)}
        self.secrets.update(root_password=self.drawn(), deploy_password=self.drawn(), app_password=self.drawn())
        self.secrets["totp_secret"] = base64.b32encode(secrets.token_bytes(20)).decode("ascii")
        self.config = os.path.join(args.work_dir, "ansible.cfg")
        with open(self.config, "w", encoding="utf-8"):
            pass  # no ansible.cfg of the machine or of $HOME applies

    @staticmethod
    def drawn():
        """A password of the simulator's default policy's kind: letters, digits and a sign, no run of three."""
        return "Rn-%s-9x!" % secrets.token_hex(6)

    def environment(self, **extra):
        env = clean_environment()
        env.update(
            {
                "PATH": self.args.ansible_bin + os.pathsep + env.get("PATH", ""),
                "ANSIBLE_CONFIG": self.config,
                "ANSIBLE_HOME": os.path.join(self.args.work_dir, "ansible-home"),
                "ANSIBLE_LOCAL_TEMP": os.path.join(self.args.work_dir, "tmp"),
                "ANSIBLE_COLLECTIONS_PATH": self.args.collections,
                "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "false",
                "ANSIBLE_NOCOLOR": "true",
                "ANSIBLE_PYTHON_INTERPRETER": os.path.join(self.args.ansible_bin, "python"),
            }
        )
        env.update(extra)
        return env

    def seed(self):
        secrets_file = os.path.join(self.args.work_dir, "seed-secrets.json")
        descriptor = os.open(secrets_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump({"runner_secrets": self.secrets}, handle)
        try:
            run_quietly(
                [os.path.join(self.args.ansible_bin, "ansible-playbook"), "-e", "@" + secrets_file, "seed.yml"],
                cwd=RUNNER,
                env=self.environment(
                    CREDVAULT_URL=os.environ["CREDVAULT_URL"],
                    CREDVAULT_AUTH_TOKEN=self.token,
                    CREDVAULT_CA_PATH=os.environ["CREDVAULT_CA_PATH"],
                ),
                what="seeding the job's accounts",
            )
        finally:
            os.unlink(secrets_file)

    def private_data_dir(self, name, mode):
        """The directory of one job, as AWX prepares it; returns it, the injected token file (or None) and the
        path the template writes the job's secrets to."""
        directory = os.path.join(self.args.work_dir, name)
        shutil.rmtree(directory, ignore_errors=True)
        shutil.copytree(os.path.join(RUNNER, "project"), os.path.join(directory, "project"))
        shutil.copytree(os.path.join(RUNNER, "inventory"), os.path.join(directory, "inventory"))
        os.makedirs(os.path.join(directory, "env"))
        environment, token_file = self.injected(directory, mode)
        witness = os.path.join(self.args.work_dir, name + "-witness.txt")
        write_yaml(os.path.join(directory, "env", "envvars"), environment)
        write_yaml(os.path.join(directory, "env", "extravars"), {"runner_witness": witness, "runner_run": name})
        return directory, token_file, witness

    def injected(self, directory, mode):
        """The credential type's injectors applied as AWX applies them: its ``file`` templates rendered into files
        of mode 0600 in ``directory``, then its ``env`` templates with their paths. With the token in the
        environment, the type's token injectors are those it had before: CREDVAULT_AUTH_TOKEN, no token file."""
        with open(CREDENTIAL_TYPE, encoding="utf-8") as handle:
            credential_type = yaml.safe_load(handle)
        with open(os.environ["CREDVAULT_CA_PATH"], encoding="utf-8") as handle:
            inputs = {"url": os.environ["CREDVAULT_URL"], "auth_token": self.token, "ca_certificate": handle.read()}
        for field in credential_type["inputs"]["fields"]:
            inputs.setdefault(field["id"], False if field.get("type") == "boolean" else "")
        files = dict(credential_type["injectors"]["file"])
        env_templates = dict(credential_type["injectors"]["env"])
        if mode == TOKEN_IN_ENVIRONMENT:
            del files["template.auth_token"]
            del env_templates["CREDVAULT_AUTH_TOKEN_FILE"]
            env_templates["CREDVAULT_AUTH_TOKEN"] = "{{ auth_token }}"
        jinja = Environment()
        filenames = {}
        for key, template in files.items():
            path = os.path.join(directory, "env", "credential_" + key.split(".", 1)[1])
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(jinja.from_string(template).render(**inputs))
            filenames[key.split(".", 1)[1]] = path
        environment = {
            name: jinja.from_string(template).render(tower={"filename": filenames}, **inputs)
            for name, template in env_templates.items()
        }
        return environment, filenames.get("auth_token")

    def run_job(self, name, playbook, mode):
        """``ansible-runner run`` of ``playbook`` in a new private data directory; returns it, the injected token
        file and the witness file the job wrote (None when the playbook writes none)."""
        directory, token_file, witness = self.private_data_dir(name, mode)
        runner = os.path.join(os.path.dirname(sys.executable), "ansible-runner")
        run_quietly(
            [runner, "run", directory, "-p", playbook, "--ident", name],
            env=self.environment(),
            what="the job %s" % name,
            logs=os.path.join(directory, "artifacts", name, "stdout"),
        )
        return directory, token_file, witness if os.path.exists(witness) else None

    def job_secrets(self, witness):
        """Every secret of the job, by name: the token, those the script drew, and those the template wrote
        (the lookups' values, the API user's token, each line of the private key's body)."""
        found = dict(self.secrets, auth_token=self.token)
        with open(witness, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        for line in lines:
            name, sep, value = line.partition("=")
            # Not the TOTP code: six digits turn up by chance in job events (counters, times, process ids).
            if sep and name in ("password", "generated", "api_token"):
                found[name] = value
        body = [line for line in lines if len(line) >= 20 and "=" not in line[:-2] and not line.startswith("-----")]
        found.update(("private_key_line_%d" % number, line) for number, line in enumerate(body))
        return found


def run_quietly(command, env, what, cwd=None, logs=None):
    """Run ``command``; on failure exit, printing the end of its output (or of ``logs``) - the seed and the jobs
    print no secret without ``no_log``, but this is a test run and its tokens are of a throw-away simulator."""
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if result.returncode:
        tail = result.stdout + result.stderr
        if logs and os.path.exists(logs):
            with open(logs, encoding="utf-8", errors="replace") as handle:
                tail = handle.read()
        print("runner_check: %s failed (status %d):\n%s" % (what, result.returncode, tail[-4000:]), flush=True)
        sys.exit(1)


def write_yaml(path, data):
    with open(path, "w", encoding="utf-8") as handle:
        yaml.safe_dump(data, handle)


def forms(value):
    """How ``value`` can appear in a file: as it is, and as a JSON string holds it."""
    return {value, json.dumps(value)[1:-1]}


def kind_of(relative):
    parts = relative.split(os.sep)
    if parts[0] == "artifacts" and len(parts) > 2:
        return ARTIFACTS.get(parts[2], "other artifacts")
    return KINDS[-2] if parts[0] == "env" else KINDS[-1]


def search(directory, job_secrets, excluded=()):
    """Kind of artifact -> the names of the secrets found in its files (``excluded`` files left out)."""
    found = {}
    for folder, dummy, names in os.walk(directory):
        for name in names:
            path = os.path.join(folder, name)
            if path in excluded or os.path.islink(path):
                continue
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
            for secret_name, value in job_secrets.items():
                if value and any(form in text for form in forms(value)):
                    found.setdefault(kind_of(os.path.relpath(path, directory)), set()).add(secret_name)
    return found


def cell(names):
    if not names:
        return "0"
    return "%d: %s" % (len(names), ", ".join(sorted(names)))


def inside(args):
    job = Job(args)
    version = "%d.%d" % job.core
    job.seed()
    results, problems = {}, []
    for number, mode in enumerate(MODES):
        directory, token_file, witness = job.run_job("site-%d" % number, "site.yml", mode)
        if witness is None:
            problems.append("%s: the job wrote no witness file" % mode)
            continue
        job_secrets = job.job_secrets(witness)
        os.unlink(witness)
        results[mode] = search(directory, job_secrets, excluded=[token_file] if token_file else [])
    debug_directory, debug_token_file, dummy = job.run_job("user-debug", "user_debug.yml", TOKEN_IN_FILE)
    debug = search(debug_directory, {"password": job.secrets["root_password"]}, excluded=[debug_token_file])
    pattern_directory, pattern_token_file, dummy = job.run_job("guide-pattern", "guide_pattern.yml", TOKEN_IN_FILE)
    pattern = search(pattern_directory, {"password": job.secrets["app_password"]}, excluded=[pattern_token_file])

    print("| artifact (ansible-core %s) | %s | %s |" % (version, TOKEN_IN_ENVIRONMENT, TOKEN_IN_FILE))
    print("|---|---|---|")
    for kind in KINDS:
        print("| %s | %s | %s |" % (kind, *(cell(results.get(mode, {}).get(kind)) for mode in MODES)))
    where = ", ".join(sorted(debug)) or "nowhere"
    print("| a user's debug of a looked-up password, no no_log: found in | | %s |" % where)
    print(
        "| the AWX guide's pattern (a template, a no_log fact): found in | | %s |"
        % (", ".join(sorted(pattern)) or "nowhere")
    )
    print(flush=True)

    if TOKEN_IN_FILE in results and any(results[TOKEN_IN_FILE].values()):
        problems.append("with the token in a file, secrets were found: %s" % results[TOKEN_IN_FILE])
    if "auth_token" not in results.get(TOKEN_IN_ENVIRONMENT, {}).get("command", set()):
        problems.append("with the token in the environment, the search did not find it in command: it is broken")
    if pattern:
        problems.append("the AWX guide's pattern left the password in: %s" % ", ".join(sorted(pattern)))
    if job.core >= SECRETS_API and debug:
        problems.append("a user's debug of a looked-up password was kept unmasked on %s: %s" % (version, debug))
    if job.core < SECRETS_API and not debug:
        problems.append("a user's debug before 2.22 was expected in stdout and events; the search found nothing")
    for problem in problems:
        print("runner_check: FAILED %s" % problem, flush=True)
    return 1 if problems else 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if getattr(args, INSIDE[2:].replace("-", "_")):
        return inside(args)
    shutil.rmtree(args.work_dir, ignore_errors=True)
    os.makedirs(args.work_dir)
    command = [sys.executable, os.path.join(HERE, "with_simulators.py"), "--profiles", "default"]
    command += ["--log-dir", os.path.join(args.work_dir, "simulators"), "--"]
    command += [sys.executable, os.path.abspath(__file__), *argv, INSIDE]
    return subprocess.call(command, env=clean_environment())


if __name__ == "__main__":
    sys.exit(main())
