# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/utils/check_tarball.py: which files must ship in the collection tarball and which must not."""

from __future__ import annotations

import importlib.util
import io
import os
import tarfile

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "tests", "utils", "check_tarball.py")

TRACKED = {
    "plugins/modules/vault_account.py",
    "meta/runtime.yml",
    "roles/linux_remote_reset/tasks/main.yml",
    "docs/examples/demo.yml",
    "README.md",
    "changelogs/changelog.yaml",
    "Makefile",
    "tests/unit/test_runtime.py",
}
GOOD_TARBALL = (TRACKED - {"Makefile"}) | {"MANIFEST.json", "FILES.json", "plugins", "plugins/modules"}


@pytest.fixture(scope="module")
def checker():
    spec = importlib.util.spec_from_file_location("check_tarball", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_tarball_with_the_content_and_without_tooling_passes(checker):
    assert checker.problems(GOOD_TARBALL, TRACKED) == []


@pytest.mark.parametrize(
    "dropped",
    ["plugins/modules/vault_account.py", "meta/runtime.yml", "docs/examples/demo.yml", "README.md", "FILES.json"],
)
def test_a_missing_required_file_is_reported(checker, dropped):
    assert checker.problems(GOOD_TARBALL - {dropped}, TRACKED) == [f"missing from the tarball: {dropped}"]


def test_root_documents_are_required_only_when_tracked(checker):
    tracked = TRACKED | {"LICENSE", "CHANGELOG.md", "requirements.txt"}

    assert checker.problems(GOOD_TARBALL, tracked) == [
        "missing from the tarball: CHANGELOG.md",
        "missing from the tarball: LICENSE",
        "missing from the tarball: requirements.txt",
    ]


def test_tracked_tests_are_allowed_but_not_required(checker):
    assert checker.problems(GOOD_TARBALL - {"tests/unit/test_runtime.py"}, TRACKED) == []


@pytest.mark.parametrize(
    "unwanted",
    [
        ".venv/bin/python",
        ".venv-importer/bin/python",
        ".build/dist/credvault-vault-0.4.0.tar.gz",
        "tests/output/.tmp/sanity.json",
        "tests/simulator/build/lib/vault_simulator/cli.py",
        "tests/simulator/dist/credvault_vault_simulator-0.1.0.tar.gz",
        "tests/simulator/credvault_vault_simulator.egg-info/PKG-INFO",
        "plugins/module_utils/__pycache__",
        "plugins/module_utils/_client.cpython-311.pyc",
        "tests/unit/.pytest_cache/README.md",
        "tests/integration/integration_config.yml",
        "tests/integration/inventory",
        "credvault-vault-0.3.0.tar.gz",
        "changelogs/.plugin-cache.yaml",
        "Makefile",
        "requirements-dev.txt",
        "requirements-check.txt",
        ".ansible/collections/ansible_collections/credvault/vault/galaxy.yml",
    ],
)
def test_a_file_that_must_not_ship_is_reported(checker, unwanted):
    assert checker.problems(GOOD_TARBALL | {unwanted}, TRACKED) == [f"must not be in the tarball: {unwanted}"]


def test_a_target_inventory_file_is_not_mistaken_for_the_generated_one(checker):
    shipped = GOOD_TARBALL | {"tests/integration/targets/parallel_forks/inventory"}

    assert checker.problems(shipped, TRACKED) == []


def test_members_are_read_without_directory_slashes_or_dot_prefix(checker, tmp_path):
    tarball = tmp_path / "collection.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        directory = tarfile.TarInfo("./plugins/")
        directory.type = tarfile.DIRTYPE
        archive.addfile(directory)
        archive.addfile(tarfile.TarInfo("plugins/README.md"), io.BytesIO(b""))

    assert checker.tarball_members(str(tarball)) == {"plugins", "plugins/README.md"}


def test_the_command_fails_naming_what_is_missing(checker, tmp_path, monkeypatch, capsys):
    tarball = tmp_path / "collection.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.addfile(tarfile.TarInfo("MANIFEST.json"), io.BytesIO(b""))
    monkeypatch.setattr(checker, "tracked_files", lambda repository: {"README.md"})

    assert checker.main([str(tarball)]) == 1
    assert "missing from the tarball: FILES.json" in capsys.readouterr().err
