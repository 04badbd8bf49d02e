#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Offline stand-in for the get-pip.py bootstrap script that ansible-test downloads.

ansible-test creates empty virtual environments (``python -m venv --without-pip``)
and bootstraps pip in them by running a ``get-pip.py`` script that it downloads
from the internet and caches as ``~/.ansible/test/cache/get_pip_<version>.py``.
These machines cannot reach that download, so ``make collection`` puts this
script in the cache instead. It installs the pip that ships with Python
(``ensurepip``) and then runs ``pip install`` with the arguments ansible-test
passed, for example ``--disable-pip-version-check pip==24.2 --no-setuptools
--no-wheel``. ``--no-setuptools`` and ``--no-wheel`` are get-pip.py options
that pip itself does not know, so they are dropped.
"""

from __future__ import annotations

import subprocess
import sys

GET_PIP_ONLY_OPTIONS = frozenset(("--no-setuptools", "--no-wheel"))


def main() -> int:
    """Bootstrap pip with ensurepip, then install the requested packages."""
    subprocess.run([sys.executable, "-m", "ensurepip", "--default-pip"], check=True)

    pip_args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY_OPTIONS]

    if any(not arg.startswith("-") for arg in pip_args):
        subprocess.run([sys.executable, "-m", "pip", "install"] + pip_args, check=True)

    return 0


if __name__ == "__main__":
    sys.exit(main())
