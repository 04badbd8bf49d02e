# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The committed CHANGELOG.* are exactly what ``antsibull-changelog generate`` renders, so they cannot drift.

``generate`` renders only the releases recorded in changelogs/changelog.yaml; fragments of an unreleased version
appear after ``antsibull-changelog release``. Until the first release it writes nothing (exit code 5), and then no
CHANGELOG.* may be committed either.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
NO_RELEASE_YET = 5


def changelog_outputs():
    """The files changelogs/config.yaml tells antsibull-changelog to write."""
    with open(os.path.join(ROOT, "changelogs", "config.yaml"), encoding="utf-8") as handle:
        return [output["file"] for output in yaml.safe_load(handle)["output"]]


def antsibull_changelog():
    found = shutil.which("antsibull-changelog") or os.path.join(os.path.dirname(sys.executable), "antsibull-changelog")
    assert os.path.exists(found), "antsibull-changelog is not installed (make venv installs it)"
    return found


def test_both_rst_and_md_are_rendered():
    assert changelog_outputs() == ["CHANGELOG.rst", "CHANGELOG.md"]


def test_committed_changelogs_are_what_generate_renders(tmp_path):
    shutil.copy(os.path.join(ROOT, "galaxy.yml"), tmp_path)
    shutil.copytree(os.path.join(ROOT, "changelogs"), tmp_path / "changelogs")

    run = subprocess.run([antsibull_changelog(), "generate"], cwd=tmp_path, capture_output=True, text=True, check=False)

    committed = {name for name in changelog_outputs() if os.path.exists(os.path.join(ROOT, name))}
    if run.returncode == NO_RELEASE_YET:
        assert "not at least one release" in run.stdout
        assert committed == set(), "no release in changelogs/changelog.yaml, yet CHANGELOG.* are committed"
        return
    assert run.returncode == 0, run.stdout + run.stderr
    assert committed == set(changelog_outputs()), "run antsibull-changelog generate and commit its output"
    for name in changelog_outputs():
        with open(os.path.join(ROOT, name), encoding="utf-8") as ours:
            assert ours.read() == (tmp_path / name).read_text(encoding="utf-8"), f"{name} differs from generate's"
