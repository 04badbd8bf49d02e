# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The built wheel in a clean virtual environment (the wheel and requests only, no ansible-core), as AWX would
install it: its entry point is found, and its backend works with the collection named in
``CREDVAULT_COLLECTIONS_PATH`` and fails clearly without it."""

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

PACKAGE = Path(__file__).resolve().parents[1]
# The directory holding ansible_collections/credvault/vault/plugins/module_utils/_client.py: the collection's copy.
COLLECTIONS_ROOT = Path(_client.__file__).resolve().parents[5]

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
    print(json.dumps({"plugin": plugin.name, "matches": secret == request["expected"]}))
"""


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)
    assert result.returncode == 0, "%s failed:\n%s%s" % (args[:4], result.stdout, result.stderr)
    return result.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the package (setuptools writes build/ and *.egg-info beside the sources)."""
    work = tmp_path_factory.mktemp("wheel")
    shutil.copytree(PACKAGE, work / "source", ignore=shutil.ignore_patterns("tests", "__pycache__", "*.egg-info"))
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
            work / "source",
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


def check_in(python, kwargs, **env):
    """Run CHECK in the clean venv, with a home of its own (no collections of this user) and only ``env`` added."""
    home = python.parents[2] / "home"
    home.mkdir(exist_ok=True)
    environment = {"PATH": os.environ["PATH"], "HOME": str(home), **env}
    request = json.dumps({"kwargs": kwargs, "expected": PASSWORD})
    output = run([python, "-c", CHECK], input=request, env=environment)
    return json.loads(output)


def test_wheel_ships_the_plugin_and_no_copy_of_the_collection(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "credvault_awx/__init__.py" in names
    assert not [name for name in names if "ansible_collections" in name or "module_utils" in name]
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[awx_plugins.credentials]" in text and "credvault_vault = credvault_awx:credvault_plugin" in text


def test_clean_venv_has_no_ansible(clean_venv):
    result = subprocess.run([clean_venv, "-c", "import ansible"], capture_output=True, check=False)
    assert result.returncode != 0


def test_installed_plugin_fetches_with_the_collection_path(clean_venv, simulators, vault):
    kwargs = dict(source_inputs(simulators["default"]), resource=vault["plain"], account="root")
    answer = check_in(clean_venv, kwargs, CREDVAULT_COLLECTIONS_PATH=str(COLLECTIONS_ROOT))
    assert answer == {"plugin": "Credvault Vault Secret Lookup", "matches": True}


def test_installed_plugin_without_the_collection_fails_clearly(clean_venv, simulators, vault):
    kwargs = dict(source_inputs(simulators["default"]), resource=vault["plain"], account="root")
    answer = check_in(clean_venv, kwargs)
    assert answer["error"].startswith("CredvaultPluginError: credvault_vault: the credvault.vault collection is not")
    assert "CREDVAULT_COLLECTIONS_PATH" in answer["error"]
    assert simulators["default"]["token"] not in answer["error"]
