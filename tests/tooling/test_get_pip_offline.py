# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/utils/get_pip_offline.py, ansible-test's pip bootstrap here: pip from its kept wheel when the wheels of
every pinned package are kept, else ensurepip, pip install, and the wheels kept. The pip commands are recorded, not
run."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "tests", "utils", "get_pip_offline.py")
ARGS = ["--disable-pip-version-check", "pip==25.2", "setuptools==67.7.2", "--no-setuptools", "--no-wheel"]


@pytest.fixture
def bootstrap(tmp_path, monkeypatch):
    """The script with its wheel directory in tmp_path; ``bootstrap.commands`` records each command it runs, and
    the commands whose first argument is in ``bootstrap.failing`` fail."""
    spec = importlib.util.spec_from_file_location("get_pip_offline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.WHEELS = str(tmp_path / "wheels")
    module.commands, module.failing = [], set()

    def run(command, check):
        module.commands.append(command)
        status = 1 if command[1] in module.failing else 0
        if check and status:
            raise subprocess.CalledProcessError(status, command)
        return subprocess.CompletedProcess(command, status)

    monkeypatch.setattr(module.subprocess, "run", run)
    monkeypatch.setattr(sys, "argv", ["get_pip.py"] + ARGS)
    return module


def keep(bootstrap, *names):
    os.makedirs(bootstrap.WHEELS, exist_ok=True)
    for name in names:
        open(os.path.join(bootstrap.WHEELS, name), "w").close()


def test_only_pinned_packages_can_come_from_kept_wheels(bootstrap):
    assert bootstrap.pinned_packages(ARGS) == [("pip", "25.2"), ("setuptools", "67.7.2")]
    assert bootstrap.pinned_packages(["--disable-pip-version-check", "pip"]) is None
    assert bootstrap.pinned_packages(["--disable-pip-version-check"]) is None


def test_with_every_wheel_kept_pip_installs_from_them_in_one_run(bootstrap):
    keep(bootstrap, "pip-25.2-py3-none-any.whl", "setuptools-67.7.2-py3-none-any.whl")

    assert bootstrap.main() == 0

    pip_wheel = os.path.join(bootstrap.WHEELS, "pip-25.2-py3-none-any.whl")
    assert bootstrap.commands == [
        [sys.executable, os.path.join(pip_wheel, "pip"), "install", "--no-index", "--no-compile"]
        + ["--find-links", bootstrap.WHEELS, "--disable-pip-version-check", "pip==25.2", "setuptools==67.7.2"]
    ]


@pytest.mark.parametrize(
    "kept, fast_way_fails",
    [
        pytest.param(["pip-25.2-py3-none-any.whl"], False, id="a wheel missing"),
        pytest.param(["pip-24.2-py3-none-any.whl", "setuptools-67.7.2-py3-none-any.whl"], False, id="another pip"),
        pytest.param(["pip-25.2-py3-none-any.whl", "setuptools-67.7.2-py3-none-any.whl"], True, id="kept, failing"),
    ],
)
def test_otherwise_ensurepip_and_pip_install_then_the_wheels_are_kept(bootstrap, kept, fast_way_fails):
    keep(bootstrap, *kept)
    if fast_way_fails:
        bootstrap.failing.add(os.path.join(bootstrap.WHEELS, "pip-25.2-py3-none-any.whl", "pip"))

    assert bootstrap.main() == 0

    long_way = [command[1:4] for command in bootstrap.commands if command[1] == "-m"]
    assert long_way == [
        ["-m", "ensurepip", "--default-pip"],
        ["-m", "pip", "install"],
        ["-m", "pip", "download"],
    ]
    assert bootstrap.commands[-1][-2:] == ["pip==25.2", "setuptools==67.7.2"]
