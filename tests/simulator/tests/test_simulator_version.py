"""The simulator is versioned with the collection: its version is the one of galaxy.yml.

pyproject.toml holds the version as a literal (so that the sources build with plain setuptools, also from
an installed collection, which has MANIFEST.json instead of galaxy.yml); this test keeps the two equal.
"""

import json
import tomllib
from pathlib import Path

import pytest
import yaml

SIMULATOR_DIR = Path(__file__).resolve().parents[1]
COLLECTION_DIR = SIMULATOR_DIR.parents[1]


def collection_version():
    """galaxy.yml's version in the sources, MANIFEST.json's in an installed collection."""
    galaxy = COLLECTION_DIR / "galaxy.yml"
    if galaxy.exists():
        return str(yaml.safe_load(galaxy.read_text(encoding="utf-8"))["version"])
    manifest = COLLECTION_DIR / "MANIFEST.json"
    if manifest.exists():
        return json.loads(manifest.read_text(encoding="utf-8"))["collection_info"]["version"]
    pytest.skip("the simulator is not inside the collection: no galaxy.yml or MANIFEST.json two levels up")


def test_the_simulator_has_the_collections_version():
    pyproject = tomllib.loads((SIMULATOR_DIR / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == collection_version(), (
        "set [project] version in tests/simulator/pyproject.toml to the collection's version in galaxy.yml"
    )
