#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Offline stand-in for the get-pip.py bootstrap script that ansible-test downloads.

ansible-test creates empty virtual environments (``python -m venv --without-pip``)
and bootstraps pip in them by running a ``get-pip.py`` script that it downloads
from the internet and caches as ``~/.ansible/test/cache/get_pip_<version>.py``.
These machines cannot reach that download, so ``make collection`` puts this
script in the cache instead. It is called with the arguments of a pip install,
for example ``--disable-pip-version-check pip==24.2 --no-setuptools --no-wheel``
(``--no-setuptools`` and ``--no-wheel`` are get-pip.py options that pip itself
does not know, so they are dropped).

The first time it installs the pip that ships with Python (``ensurepip``), runs
``pip install`` with those arguments, and keeps the wheels of the packages asked
for (``name==version``) in ``pip-bootstrap-wheels`` beside this script. Once they
are there, pip runs from its own wheel and installs them from that directory, as
get-pip.py does: one pip run instead of two, without compiling every module up
front. A bootstrap then takes 2 s of CPU time instead of 4.5 to 6.5 (make test
bootstraps some seventy virtual environments, most of them for ansible-test sanity).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

GET_PIP_ONLY_OPTIONS = frozenset(("--no-setuptools", "--no-wheel"))
WHEELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pip-bootstrap-wheels")
PINNED = re.compile(r"^([A-Za-z0-9_.-]+)==([A-Za-z0-9_.+!-]+)$")


def pinned_packages(pip_args):
    """The packages of ``pip_args`` as (name, version) pairs, or None when one of them is not ``name==version``."""
    packages = [arg for arg in pip_args if not arg.startswith("-")]
    pins = [PINNED.match(package) for package in packages]
    if not packages or not all(pins):
        return None
    return [pin.groups() for pin in pins]


def cached_wheel(name, version):
    """The kept wheel of ``name`` ``version``, or None."""
    found = glob.glob(os.path.join(WHEELS, "%s-%s-*.whl" % (name.replace("-", "_"), glob.escape(version))))
    return found[0] if found else None


def install_from_wheels(pins, pip_args):
    """Install the pinned packages with pip run from its kept wheel; False when a wheel is missing or pip failed."""
    wheels = [cached_wheel(name, version) for name, version in pins]
    pip_wheel = next((wheel for (name, _version), wheel in zip(pins, wheels) if name == "pip"), None)
    if not pip_wheel or not all(wheels):
        return False
    # --no-compile: Python compiles what is imported when it is (pip, once or twice; setuptools seldom, if ever),
    # not all of it now. ansible-test uninstalls pip from a sanity venv once the requirements are in.
    command = [sys.executable, os.path.join(pip_wheel, "pip"), "install", "--no-index", "--no-compile"]
    command += ["--find-links", WHEELS]
    return subprocess.run(command + pip_args, check=False).returncode == 0


def keep_wheels(packages):
    """Download the wheels of ``packages`` into WHEELS, each file moved into place whole (bootstraps run side by
    side); without a package index nothing is kept, and the next bootstrap takes the long way again."""
    os.makedirs(WHEELS, exist_ok=True)
    download = tempfile.mkdtemp(dir=WHEELS)
    try:
        command = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet", "--no-deps"]
        if subprocess.run(command + ["--dest", download] + packages, check=False).returncode == 0:
            for name in os.listdir(download):
                os.replace(os.path.join(download, name), os.path.join(WHEELS, name))
    finally:
        shutil.rmtree(download, ignore_errors=True)


def main() -> int:
    """Install the requested packages from the kept wheels, or bootstrap pip with ensurepip and keep them."""
    pip_args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY_OPTIONS]
    pins = pinned_packages(pip_args)
    if pins and install_from_wheels(pins, pip_args):
        return 0

    subprocess.run([sys.executable, "-m", "ensurepip", "--default-pip"], check=True)
    packages = [arg for arg in pip_args if not arg.startswith("-")]
    if packages:
        subprocess.run([sys.executable, "-m", "pip", "install"] + pip_args, check=True)
    if pins and any(name == "pip" for name, _version in pins):
        keep_wheels(packages)

    return 0


if __name__ == "__main__":
    sys.exit(main())
