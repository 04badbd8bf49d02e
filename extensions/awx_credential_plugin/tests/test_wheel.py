# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The built wheel in a clean virtual environment (the wheel and requests only: no ansible-core, no collection), as
AWX admins install credential plugins: its entry point is found, and its backend fetches passwords and TOTP codes
(with a reason and a ticket, a CA, through a proxy) with the collection's client built into the wheel."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import PASSWORD, source_inputs

from ansible_collections.credvault.vault.plugins.module_utils import _client
from ansible_collections.credvault.vault.tests.unit.local_servers import ConnectProxy

PACKAGE = Path(__file__).resolve().parents[1]
# The collection's plugins/module_utils, whose client setup.py copies into the wheel.
MODULE_UTILS = Path(_client.__file__).resolve().parent

CHECK = """
import json, os, sys
from importlib.metadata import entry_points

found = [ep for ep in entry_points(group="awx_plugins.credentials") if ep.name == "credvault_vault"]
plugin = found[0].load()
request = json.loads(sys.stdin.read())
try:
    secret = plugin.backend(**request["kwargs"])
except Exception as exc:
    print(json.dumps({"plugin": plugin.name, "error": "%s: %s" % (type(exc).__name__, exc)}))
else:
    six_digits = len(secret) == 6 and secret.isdigit()
    print(json.dumps({"plugin": plugin.name, "matches": secret == request["expected"], "six_digits": six_digits}))
"""


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)
    assert result.returncode == 0, "%s failed:\n%s%s" % (args[:4], result.stdout, result.stderr)
    return result.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the package and of the collection's module_utils where they are in the
    collection (setuptools writes build/ and *.egg-info beside the sources)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "extensions" / "awx_credential_plugin"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "__pycache__", "*.egg-info", "build"))
    shutil.copytree(MODULE_UTILS, work / "plugins" / "module_utils", ignore=shutil.ignore_patterns("__pycache__"))
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--progress-bar",
            "off",
            "-w",
            work / "dist",
            source,
        ]
    )
    (built,) = (work / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="module")
def clean_venv(wheel, tmp_path_factory):
    """The python of a new virtual environment holding the wheel and requests."""
    venv = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", "--progress-bar", "off", "--disable-pip-version-check", wheel, "requests"])
    return python


def check_in(python, kwargs, expected=PASSWORD, **env):
    """Run CHECK in the clean venv, with a home of its own (no collections of this user) and only ``env`` added."""
    home = python.parents[2] / "home"
    home.mkdir(exist_ok=True)
    environment = {"PATH": os.environ["PATH"], "HOME": str(home), **env}
    request = json.dumps({"kwargs": kwargs, "expected": expected})
    output = run([python, "-c", CHECK], input=request, env=environment)
    return json.loads(output)


def test_wheel_ships_the_plugin_and_the_collections_client(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "credvault_awx/__init__.py" in names
    # Paths under the package: the gateway's modules sit in a package of their own (_api/).
    shipped = {name[len("credvault_awx/_vault/") :] for name in names if name.startswith("credvault_awx/_vault/")}
    assert {"__init__.py", "_account.py", "_client.py", "_errors.py", "_totp.py", "_proxy.py"} <= shipped
    for name in shipped - {"__init__.py"}:
        assert zipfile.ZipFile(wheel).read("credvault_awx/_vault/" + name) == (MODULE_UTILS / name).read_bytes()
    assert not [name for name in names if "ansible_collections" in name or "module_utils" in name]
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[awx_plugins.credentials]" in text and "credvault_vault = credvault_awx:credvault_plugin" in text


def test_clean_venv_has_no_ansible(clean_venv):
    """Neither ansible-core nor a collection is importable there, in the environment the checks below run with."""
    environment = {"PATH": os.environ["PATH"], "HOME": str(clean_venv.parents[2] / "home")}
    for package in ("ansible", "ansible_collections"):
        result = subprocess.run(
            [clean_venv, "-c", "import %s" % package], capture_output=True, env=environment, check=False
        )
        assert result.returncode != 0, package


def test_installed_plugin_fetches_a_password_without_any_collection(clean_venv, simulators, vault):
    kwargs = dict(source_inputs(simulators["default"]), resource=vault["plain"], account="root")
    answer = check_in(clean_venv, kwargs)
    assert answer == {"plugin": "Credvault Vault Secret Lookup", "matches": True, "six_digits": False}


def test_installed_plugin_fetches_with_reason_and_ticket_through_a_proxy(clean_venv, simulators, vault):
    with ConnectProxy() as proxy:
        kwargs = dict(
            source_inputs(simulators["strict"], proxy_url=proxy.url),
            resource=vault["strict"],
            account="root",
            reason="Release 4.2",
            ticket_id="CHG-1",
        )
        assert check_in(clean_venv, kwargs)["matches"] is True
        assert proxy.tunnels, "the request did not go through the proxy"


def test_installed_plugin_fetches_a_totp_code(clean_venv, simulators, vault):
    kwargs = dict(source_inputs(simulators["default"]), resource=vault["with_totp"], account="root", field="totp")
    answer = check_in(clean_venv, kwargs, expected=None)
    assert answer["six_digits"] is True, answer  # the code's value against the secret: test_backend
