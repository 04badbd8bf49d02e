#!/usr/bin/env python
# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Check a built collection tarball against the repository it was built from.

It fails when a file that must ship is missing (every git-tracked file under the content directories, the root
documents, and the MANIFEST.json/FILES.json that ``ansible-galaxy collection build`` derives from galaxy.yml) or
when something that must not ship is in it (virtual environments, build and test output, caches, generated
integration configuration, tarballs, developer tooling). ``galaxy.yml``'s ``build_ignore`` is what keeps the
second list out.

    python tests/utils/check_tarball.py .build/dist/credvault-vault-0.4.0.tar.gz
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import subprocess
import sys
import tarfile

# Directories whose every git-tracked file is content.
CONTENT_DIRECTORIES = ("plugins/", "meta/", "roles/", "docs/")
# Root files that ship whenever the repository has them (the execution environment needs requirements.txt).
ROOT_DOCUMENTS = ("README.md", "LICENSE", "CHANGELOG.rst", "CHANGELOG.md", "requirements.txt")
# Always required: the changelog's source and what ansible-galaxy derives from galaxy.yml.
ALWAYS_REQUIRED = ("changelogs/changelog.yaml", "MANIFEST.json", "FILES.json")

# Any path component with one of these names (or name patterns) must not ship.
FORBIDDEN_COMPONENTS = (
    ".venv",
    ".venv-*",
    ".build",
    ".ansible",
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
    ".tox",
    "*.egg-info",
)
# Whole paths (from the collection root) that must not ship; a directory forbids what is under it.
FORBIDDEN_PATHS = (
    "tests/output",
    "tests/simulator/build",
    "tests/simulator/dist",
    "tests/integration/integration_config.yml",
    "tests/integration/inventory",
    "changelogs/.plugin-cache.yaml",
    # developer tooling
    "Makefile",
    "ruff.toml",
    "requirements-dev.txt",
    "requirements-check.txt",
    ".ansible-lint",
    ".yamllint",
    ".gitignore",
)
FORBIDDEN_NAME_PATTERNS = ("*.pyc", "*.pyo", "*.tar.gz")


def tarball_members(tarball):
    """The paths in the tarball, without a leading ``./`` or trailing ``/``."""
    with tarfile.open(tarball, "r:gz") as archive:
        return {member.name.removeprefix("./").rstrip("/") for member in archive.getmembers()}


def tracked_files(repository):
    """The git-tracked files of the repository that exist in its work tree."""
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=repository, check=True, capture_output=True, text=True
    ).stdout
    return {path for path in listing.split("\0") if path and os.path.isfile(os.path.join(repository, path))}


def required_files(tracked):
    """The files that must be in the tarball, given the repository's tracked files."""
    required = {path for path in tracked if path.startswith(CONTENT_DIRECTORIES)}
    required.update(name for name in ROOT_DOCUMENTS if name in tracked)
    required.update(ALWAYS_REQUIRED)
    return required


def is_forbidden(path):
    """Whether a path of the tarball is something that must not ship."""
    parts = path.split("/")
    if any(fnmatch.fnmatch(part, pattern) for part in parts for pattern in FORBIDDEN_COMPONENTS):
        return True
    if any(path == forbidden or path.startswith(forbidden + "/") for forbidden in FORBIDDEN_PATHS):
        return True
    return any(fnmatch.fnmatch(parts[-1], pattern) for pattern in FORBIDDEN_NAME_PATTERNS)


def problems(members, tracked):
    """Messages for every missing required file and every forbidden file, sorted; empty when the tarball is fine."""
    missing = [f"missing from the tarball: {path}" for path in sorted(required_files(tracked) - members)]
    unwanted = [f"must not be in the tarball: {path}" for path in sorted(members) if is_forbidden(path)]
    return missing + unwanted


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tarball", help="the collection tarball built by ansible-galaxy collection build")
    parser.add_argument("--repository", default=".", help="the git work tree it was built from (default: .)")
    args = parser.parse_args(argv)

    members = tarball_members(args.tarball)
    found = problems(members, tracked_files(args.repository))
    for message in found:
        print(message, file=sys.stderr)
    if found:
        return 1
    print(f"{args.tarball}: {len(members)} entries, every required file present, nothing that must not ship")
    return 0


if __name__ == "__main__":
    sys.exit(main())
