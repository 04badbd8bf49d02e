#!/usr/bin/env python
# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Find a Python interpreter of a given version the way a user's machine has it.

Usage::

    interpreters.py 3.13            # print the path of a working python3.13, or exit 1
    interpreters.py --newest 3.13 3.12 3.11   # print the first of these that is found

First ``python3.13`` on the PATH, if it runs (pyenv's shims are on the PATH but fail
unless pyenv is told to use that version), then the newest ``3.13.*`` that pyenv keeps
(``$PYENV_ROOT``, else ``pyenv root``, else ``~/.pyenv``). A candidate counts only when
it runs and reports the version asked for; the path printed is the interpreter's own (``sys.executable``), not the
shim's. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys


def _resolve(path, version):
    """The interpreter's own path (through a shim) when ``path`` runs and is Python ``version`` (``3.13``), else None."""
    try:
        result = subprocess.run(
            [path, "-c", "import sys; print('%d.%d' % sys.version_info[:2]); print(sys.executable)"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    lines = result.stdout.split()
    if result.returncode or lines[:1] != [version]:
        return None
    return lines[1] if len(lines) == 2 and os.path.isabs(lines[1]) else path


def _pyenv_root():
    if os.environ.get("PYENV_ROOT"):
        return os.environ["PYENV_ROOT"]
    if shutil.which("pyenv"):
        result = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=False)
        if result.returncode == 0 and result.stdout.strip():
            return result.stdout.strip()
    return os.path.expanduser("~/.pyenv")


def _patch_level(path, version):
    """Sort key of ``<root>/versions/3.13.0/bin/python3.13``: its patch number (0), -1 if not numeric."""
    patch = path.split(os.sep)[-3][len(version) + 1 :]
    return int(patch) if patch.isdigit() else -1


def candidates(version):
    """Paths where a ``python<version>`` may be, best first."""
    on_path = shutil.which("python" + version)
    if on_path:
        yield on_path
    pattern = os.path.join(_pyenv_root(), "versions", version + ".*", "bin", "python" + version)
    yield from sorted(glob.glob(pattern), key=lambda path: _patch_level(path, version), reverse=True)


def find(version):
    """The path of a working Python ``version``, or None."""
    return next(filter(None, (_resolve(path, version) for path in candidates(version))), None)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--newest", action="store_true", help="print the first of the versions that is found")
    parser.add_argument("versions", nargs="+", metavar="VERSION", help="a Python version such as 3.13")
    args = parser.parse_args(argv)
    if not args.newest and len(args.versions) > 1:
        parser.error("give one version, or --newest with several")
    for version in args.versions:
        path = find(version)
        if path:
            print(path)
            return 0
    print("no working Python %s found on the PATH or in pyenv" % " or ".join(args.versions), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
