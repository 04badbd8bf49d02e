# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The corpus of real answers (``tests/real_answers/bodies/*.json``) keeps its format, and its ``README.md`` lists
every file.

Standard library and pytest only: the catalogue is loaded from ``plugins/module_utils/_catalogue.py`` by file path
(it imports nothing but the standard library), so this runs without the collection being installed.
"""

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "real_answers"
BODIES_DIR = HERE / "bodies"
README = HERE / "README.md"
CATALOGUE_FILE = ROOT / "plugins" / "module_utils" / "_catalogue.py"
BODIES = sorted(BODIES_DIR.glob("*.json"))

PRODUCTS = {"pmp": "Password Manager Pro", "pam360": "PAM360"}
KINDS = {
    "real installation called with curl",
    "real installation called through a client",
    "vendor sample",
    "client's recorded test payload",
    "client's recorded example",
    "vendor documentation",
}
ROOTS = {"rest": "/restapi/json/v1", "pki": "/api/pki/restapi"}
METHODS = {"GET", "POST", "PUT", "DELETE"}
REQUIRED = {"product", "source", "request", "catalogue_key", "http_status", "notes", "body"}
OPTIONAL = {"body_part"}
FILE_NAME = re.compile(r"^(pmp|pam360)__([a-z0-9_]+?)__([A-Za-z0-9.-]+)(?:__(\d+))?\.json$")
COMMIT = re.compile(r"^[0-9a-f]{40}$")
REPOSITORY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")


def load_catalogue():
    spec = importlib.util.spec_from_file_location("real_answers_catalogue", CATALOGUE_FILE)
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while the class is made.
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module.CATALOGUE


CATALOGUE = load_catalogue()


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def path_pattern(row):
    """The full request path of a catalogue row as a regular expression (``{name}`` is one path segment)."""
    path = ROOTS[row.root] + row.path
    return "^" + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(path)) + "$"


def readme_files():
    """File names in the first column of the README's table of files."""
    names = []
    for line in README.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `([^`]+\.json)` \|", line)
        if match:
            names.append(match.group(1))
    return names


def test_there_are_bodies():
    assert BODIES, f"no corpus files in {BODIES_DIR}"


@pytest.mark.parametrize("path", BODIES, ids=[path.stem for path in BODIES])
def test_a_corpus_file_has_the_format(path):
    record = load(path)
    assert isinstance(record, dict), "a corpus file holds one JSON object"
    assert REQUIRED <= set(record), f"missing {sorted(REQUIRED - set(record))}"
    assert set(record) <= REQUIRED | OPTIONAL, f"unknown keys {sorted(set(record) - REQUIRED - OPTIONAL)}"

    match = FILE_NAME.match(path.name)
    assert match, f"{path.name} is not <product>__<catalogue_key>__<short-source>[__<n>].json"
    product_tag, key_in_name = match.group(1), match.group(2)
    assert record["product"] == PRODUCTS[product_tag]
    assert record["catalogue_key"] == key_in_name, "the file name carries the catalogue key"

    key = record["catalogue_key"]
    assert isinstance(key, str) and key in CATALOGUE, f"{key!r} is not a key of the catalogue"

    status = record["http_status"]
    assert status is None or (isinstance(status, int) and not isinstance(status, bool) and 100 <= status <= 599)

    assert isinstance(record["notes"], str) and record["notes"].strip(), "notes say what the body shows"
    assert isinstance(record["body"], dict) and record["body"], "the body is a non-empty object"
    if "body_part" in record:
        assert isinstance(record["body_part"], str) and record["body_part"].strip()


@pytest.mark.parametrize("path", BODIES, ids=[path.stem for path in BODIES])
def test_a_corpus_file_names_its_source(path):
    source = load(path)["source"]
    assert isinstance(source, dict)
    assert isinstance(source.get("url"), str) and source["url"].startswith("https://"), "the source has a url"
    assert source.get("kind") in KINDS, f"kind {source.get('kind')!r} is not one of {sorted(KINDS)}"
    if "repository" in source:
        assert REPOSITORY.match(source["repository"]), "repository is owner/name"
        assert isinstance(source.get("path"), str) and source["path"] and not source["path"].startswith("/")
        assert isinstance(source.get("commit"), str) and COMMIT.match(source["commit"]), "commit is 40 hex digits"
        expected = f"https://github.com/{source['repository']}/blob/{source['commit']}/{source['path']}"
        assert source["url"] == expected
    else:
        assert isinstance(source.get("title"), str) and source["title"].strip(), "a page source has a title"


@pytest.mark.parametrize("path", BODIES, ids=[path.stem for path in BODIES])
def test_a_corpus_file_request_is_its_catalogue_row(path):
    record = load(path)
    request = record["request"]
    assert isinstance(request, dict) and {"method", "path"} <= set(request) <= {"method", "path", "query"}
    assert request["method"] in METHODS
    assert isinstance(request["path"], str) and request["path"].startswith("/") and "?" not in request["path"]
    query = request.get("query", {})
    assert isinstance(query, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in query.items())

    row = CATALOGUE[record["catalogue_key"]]
    assert request["method"] in {row.method, row.method_in_b or row.method}, f"{row.key} is {row.method}"
    assert re.match(path_pattern(row), request["path"]), f"{request['path']} is not {ROOTS[row.root]}{row.path}"


def test_every_file_is_in_the_readme_table_once():
    listed = readme_files()
    duplicates = sorted({name for name in listed if listed.count(name) > 1})
    assert duplicates == [], f"listed more than once: {duplicates}"
    on_disk = {path.name for path in BODIES}
    assert sorted(on_disk - set(listed)) == [], "files missing from the README's table"
    assert sorted(set(listed) - on_disk) == [], "README rows without a file"


def test_path_pattern():
    row = CATALOGUE["get_account_details"]
    assert re.match(path_pattern(row), "/restapi/json/v1/resources/1/accounts/2")
    assert not re.match(path_pattern(row), "/restapi/json/v1/resources/1/accounts/2/password")
