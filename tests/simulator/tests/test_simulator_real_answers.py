"""The real dialect against the recorded answers of real servers (``tests/real_answers/bodies/*.json``).

For every recorded body whose request the simulator serves, the same kind of request is sent to a simulator in
the real dialect (of edition A for Password Manager Pro, B for PAM360), with what it needs made first: the
conformance scenario of the spec row the request belongs to (``conformance/scenarios``), or a scenario of this
module where the recorded body's keys depend on what the vault holds (custom fields, account names) or on how the
call went (an empty list, a refused token). The answer must have the same keys as the recorded body, at every
depth (the top level, ``operation``, ``result``, ``Details`` and the keys of list items; values may differ):

- a key of the recorded body the answer lacks is a failure;
- a key of the answer that no recorded body of the same operation and outcome has is a failure too (of a body
  recorded only in part, ``body_part``, the keys of the answer within that part);

except the keys ``NOT_IMITATED`` lists, each with the reason. A corpus body is
``{"product", "source", "request": {"method", "path"[, "query"]}, "catalogue_key", "http_status", "notes",
"body"[, "body_part"]}`` (``tests/real_answers/README.md``);
``REAL_ANSWERS_BODIES`` names another directory of them.
"""

import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from conftest import PKI_ROOT, REST_ROOT

from conformance import scenarios  # noqa: F401 pylint: disable=unused-import
from conformance.harness import SCENARIOS
from spec_tables import endpoint_rows

SIMULATOR_DIR = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("REAL_ANSWERS_BODIES") or SIMULATOR_DIR.parent / "real_answers" / "bodies")
BODIES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []
ROWS = endpoint_rows()
# Catalogue rows that share their method and path with another spec row: the spec row each one is.
CATALOGUE_ROWS = {
    "create_api_user": "POST /user (with ISAPIUSER true)",
    "share_resource_with_group": "PUT /resources/{resource_id}/share by USERGROUPID",
    "share_account_with_group": "PUT /resources/{resource_id}/accounts/{account_id}/share by USERGROUPID",
}
AUTHENTICATION = "Authentication"
HOST_REFUSED = "User is not allowed to access from this host"

# (catalogue key, key path) -> why the real dialect does not answer with that key as the recorded body does.
# A path is the keys from the top of the body joined by ".", "[]" standing for the items of a list.
NOT_IMITATED = {
    (
        "get_account_list",
        "operation.Details.PASSWORD POLICY",
    ): "an older Password Manager Pro (rmetcalf9/PasswordManPro_CLI) names the resource's policy PASSWORD POLICY, "
    "as the spec does; newer ones and PAM360 write RESOURCE PASSWORD POLICY, which the real dialect imitates",
    (
        "get_resources",
        "operation.Details[].DNS NAME",
    ): "the spec gives the resource list DNS NAME in edition B; the recorded PAM360 list has none, and the "
    "simulator keeps the spec's key rather than drop it from edition B",
}


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def key_paths(value, prefix=""):
    """Every key of ``value`` at every depth, as ``a.b[].c``."""
    paths = set()
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else key
            paths.add(path)
            paths |= key_paths(item, path)
    elif isinstance(value, list):
        for item in value:
            paths |= key_paths(item, prefix + "[]")
    return paths


def edition_of(corpus_body):
    return "B" if "PAM360" in (corpus_body.get("product") or "") else "A"


def split_request(corpus_body):
    """``(root, path below the root, query)`` of the recorded request (a path without a root is a REST path)."""
    url = urlsplit(corpus_body["request"]["path"])
    path, query = url.path, {**dict(parse_qsl(url.query)), **corpus_body["request"].get("query", {})}
    for root in (PKI_ROOT, REST_ROOT):
        if path.startswith(root + "/"):
            return root, path[len(root) :], query
    return REST_ROOT, path, query


def spec_row(corpus_body):
    """The spec row of the recorded request, or ``None`` when the spec (and so the simulator) has none."""
    key = corpus_body.get("catalogue_key")
    if key in CATALOGUE_ROWS:
        return next(row for row in ROWS if row.row_id == CATALOGUE_ROWS[key])
    root, path, _query = split_request(corpus_body)
    method = corpus_body["request"]["method"].upper()
    edition = edition_of(corpus_body)
    for row in ROWS:
        if row.root == root and re.fullmatch(row.path_pattern(), root + path) and row.method(edition) == method:
            return row
    return None


def outcome(body):
    """``Authentication`` (a refused caller), ``Failed`` or ``Success``, from the recorded body."""
    operation = body.get("operation", body)
    if operation.get("name") == AUTHENTICATION:
        return AUTHENTICATION
    result = operation.get("result") or {}
    return "Failed" if (result.get("status") or result.get("Status") or "").lower() == "failed" else "Success"


def is_empty_list(body):
    operation = body.get("operation", body)
    return operation.get("totalRows") == 0 and "Details" not in operation and "details" not in operation


# Scenarios of this module: (vault, recorded body, row) -> the simulator's answer (parsed JSON).


def refused_caller(vault, recorded, row, root, path, query):
    """An unknown token, or a token restricted to another address, as the recorded refusal says."""
    message = recorded["operation"]["result"]["message"]
    token = "NOT-A-TOKEN"
    if message == HOST_REFUSED:
        token = vault.create_api_user("restricted")
        response = vault.client.put(
            "/__simulator/users/restricted/allowed-hosts",
            json={"hosts": ["10.0.0.5"]},
            headers={"AUTHTOKEN": vault.token},
        )
        assert response.status_code == 200
    return vault.send(row.method(vault.simulator.config.edition), path, token=token, query=query, root=root)


def empty_list(vault, recorded, row, root, path, query):
    """A list operation on a vault that holds nothing of its kind."""
    return vault.send(row.method(vault.simulator.config.edition), path, query=query, root=root)


def account_list(vault, recorded, row, root, path, query):
    """The resource's custom fields only when the recorded one has some."""
    details = recorded["operation"]["Details"]
    fields = {"RESOURCECUSTOMFIELD": [{"CUSTOMLABEL": "Usage", "CUSTOMVALUE": "Development"}]}
    resource_id, _account_id = vault.create_resource("web-01", **(fields if "CUSTOM FIELD" in details else {}))
    return vault.send("GET", f"/resources/{resource_id}/accounts")


def account_details(vault, recorded, row, root, path, query):
    """The account's custom fields only when the recorded one has some."""
    details = recorded["operation"]["Details"]
    fields = {"ACCOUNTCUSTOMFIELD": [{"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"}]}
    resource_id, account_id = vault.create_resource("web-01", **(fields if "CUSTOM FIELD" in details else {}))
    return vault.send("GET", f"/resources/{resource_id}/accounts/{account_id}")


def add_accounts(vault, recorded, row, root, path, query):
    """The accounts the recorded answer names (its Details are keyed by account name)."""
    names = [name for item in recorded["operation"].get("Details", []) for name in item]
    resource_id, _account_id = vault.create_resource("web-01", account="first")
    items = [{"ACCOUNTNAME": name, "PASSWORD": "Kx7#mPq2vR9z"} for name in names or ["second"]]
    return vault.send("POST", f"/resources/{resource_id}/accounts", details={"ACCOUNTLIST": items})


SCENARIOS_BY_ROW = {
    "GET /resources/{resource_id}/accounts": account_list,
    "GET /resources/{resource_id}/accounts/{account_id}": account_details,
    "POST /resources/{resource_id}/accounts": add_accounts,
}


def answer_to(make_vault, recorded_file):
    """The real dialect's answer to the recorded body's kind of request: ``(spec row, HTTP status, parsed JSON)``."""
    corpus_body = load(recorded_file)
    row = spec_row(corpus_body)
    if row is None:
        pytest.skip(f"the simulator serves no {corpus_body['request']['method']} {corpus_body['request']['path']}")
    edition = edition_of(corpus_body)
    if edition not in row.editions:
        pytest.skip(f"{row.row_id} is not served in edition {edition}")
    vault = make_vault(dialect="real", edition=edition)
    recorded = corpus_body["body"]
    root, path, query = split_request(corpus_body)
    if outcome(recorded) == AUTHENTICATION:
        response = refused_caller(vault, recorded, row, root, path, query)
    elif is_empty_list(recorded):
        response = empty_list(vault, recorded, row, root, path, query)
    elif outcome(recorded) == "Failed":
        pytest.fail(f"{recorded_file.name}: no scenario for a failed {row.row_id} yet: add one to this module")
    elif row.row_id in SCENARIOS_BY_ROW:
        response = SCENARIOS_BY_ROW[row.row_id](vault, recorded, row, root, path, query)
    else:
        exchange = SCENARIOS[row.row_id](vault)
        return row, exchange.http_status, exchange.body
    return row, response.status_code, response.get_json(silent=True)


def operation_key(corpus_body, row):
    return corpus_body.get("catalogue_key") or row.row_id


def recorded_union():
    """Per (operation, outcome), the key paths of every recorded body of it."""
    union = {}
    for path in BODIES:
        corpus_body = load(path)
        row = spec_row(corpus_body)
        if row is not None:
            group = (operation_key(corpus_body, row), outcome(corpus_body["body"]), is_empty_list(corpus_body["body"]))
            union.setdefault(group, set()).update(key_paths(corpus_body["body"]))
    return union


def within(path, part):
    """True when key path ``path`` lies in the part ``part`` of a body (``None``: the whole body)."""
    return part is None or path == part or path.startswith((part + ".", part + "[]"))


def exempt(key, paths):
    return {path for path in paths if (key, path) not in NOT_IMITATED}


@pytest.mark.skipif(not BODIES, reason=f"no recorded bodies in {CORPUS}")
@pytest.mark.parametrize("recorded_file", BODIES, ids=[path.stem for path in BODIES])
def test_the_real_dialect_answers_with_the_recorded_keys(make_vault, recorded_file):
    corpus_body = load(recorded_file)
    row, http_status, answer = answer_to(make_vault, recorded_file)
    assert isinstance(answer, dict), f"{row.row_id}: the simulator's answer is not JSON"
    if corpus_body.get("http_status") is not None:  # when the source shows it
        assert http_status == corpus_body["http_status"], f"{recorded_file.name}: HTTP {http_status}"
    key = operation_key(corpus_body, row)
    recorded_keys, answer_keys = key_paths(corpus_body["body"]), key_paths(answer)
    missing = sorted(exempt(key, recorded_keys - answer_keys))
    assert missing == [], f"{recorded_file.name}: the real dialect lacks {missing}\nanswer: {json.dumps(answer)}"
    group = (key, outcome(corpus_body["body"]), is_empty_list(corpus_body["body"]))
    answer_part = {path for path in answer_keys if within(path, corpus_body.get("body_part"))}
    extra = sorted(exempt(key, answer_part - recorded_union()[group]))
    assert extra == [], f"{recorded_file.name}: no recorded {key} answer has {extra}\nanswer: {json.dumps(answer)}"


@pytest.mark.skipif(not BODIES, reason=f"no recorded bodies in {CORPUS}")
def test_every_key_not_imitated_is_one_the_corpus_has_or_the_dialect_writes(make_vault):
    """No stale entry: each names an operation of the corpus."""
    keys = set()
    for path in BODIES:
        corpus_body = load(path)
        row = spec_row(corpus_body)
        if row is not None:
            keys.add(operation_key(corpus_body, row))
    assert sorted({key for key, _path in NOT_IMITATED} - keys) == []


def test_within():
    assert within("operation.Details.ACCOUNT LIST[].PASSWDID", "operation.Details.ACCOUNT LIST[]")
    assert within("operation.Details.A", "operation.Details") and within("operation.name", None)
    assert not within("operation.name", "operation.Details")
    assert not within("operation.DetailsX", "operation.Details")


def test_key_paths():
    body = {"operation": {"name": "N", "Details": [{"A": 1, "L": [{"B": 2}]}, {"C": 3}]}}
    assert key_paths(body) == {
        "operation",
        "operation.name",
        "operation.Details",
        "operation.Details[].A",
        "operation.Details[].L",
        "operation.Details[].L[].B",
        "operation.Details[].C",
    }
