"""What the spec's tables say an answer of a row must look like."""

import re

from spec_tables import record_tables

RECORDS = record_tables()
_PYTHON_TYPES = {"string": str, "number": int, "boolean": bool, "list": list, "object": dict}
# "status is Success on success (SUCCESS in the SSH import, associate and dissociate responses)."
_UPPER_CASE_SUCCESS = ("/addSSHKey", "/associateKey", "/dissociateKey")


def check_exchange(row, edition, exchange):
    """Assert that ``exchange`` answers spec row ``row`` as the spec says, in ``edition``."""
    assert exchange.method == row.method(edition), f"{row.row_id}: sent {exchange.method}"
    assert re.fullmatch(row.path_pattern(), exchange.path), f"{row.row_id}: sent to {exchange.path}"
    assert exchange.http_status == 200, (exchange.http_status, exchange.body)
    if row.returns_file:
        assert exchange.content, f"{row.row_id}: empty file"
        return
    body = exchange.body
    assert isinstance(body, dict), f"{row.row_id}: not a JSON object"
    if row.top_level:
        assert "operation" not in body, "expected name and result at the top level"
        operation = body
    else:
        assert set(body) == {"operation"}, f"expected only the operation wrapper, got {sorted(body)}"
        operation = body["operation"]
    _check_name(row, edition, operation)
    _check_result(row, operation["result"])
    details = operation.get(row.details_key())
    for key in row.required_detail_keys(edition):
        assert isinstance(details, dict) and key in details, f"Details lacks {key}: {details!r}"
    if "totalRows" in row.output:
        assert isinstance(operation.get("totalRows"), int), f"totalRows missing or not a number: {operation!r}"
    for title, objects in exchange.records.items():
        assert objects, f"no {title} records to check"
        for record in objects:
            check_record(title, record, edition)


def check_record(title, record, edition):
    """Key spelling and JSON types of ``record`` against the spec's table ``title``."""
    fields = RECORDS[title]
    assert isinstance(record, dict), f"{title}: {record!r} is not an object"
    unknown = set(record) - set(fields)
    assert not unknown, f"{title}: keys not in the spec: {sorted(unknown)}"
    for name, spec in fields.items():
        if spec.edition and spec.edition != edition:
            assert name not in record, f"{title}: {name} is edition {spec.edition} only"
            continue
        if name not in record:
            assert spec.optional, f"{title}: {name} missing"
            continue
        value = record[name]
        expected = _PYTHON_TYPES[spec.type]
        assert isinstance(value, expected) and not (expected is int and isinstance(value, bool)), (
            f"{title}: {name} = {value!r} is not a {spec.type}"
        )


def _check_name(row, edition, operation):
    expected = row.operation_name(edition)
    if expected is None:  # the spec gives no name ("same shape" as another row)
        assert "name" in operation or "operationName" in operation
        return
    key, name = expected
    other = "operationName" if key == "name" else "name"
    assert operation.get(key) == name, f"expected {key} {name!r}, got {operation!r}"
    assert other not in operation


def _check_result(row, result):
    if row.path == "/addCertificate":  # "The AddCertificate result uses capitalized keys Status and Message."
        assert set(result) == {"Status", "Message"} and result["Status"] == "Success", result
        return
    success = "SUCCESS" if row.path in _UPPER_CASE_SUCCESS else "Success"
    assert result.get("status") == success, result
    assert isinstance(result.get("message"), str), result
    expected_code = row.status_code()
    if expected_code is not None:
        assert result.get("statusCode") == expected_code, result
    allowed = {"status", "message", "statusCode"}
    assert set(result) <= allowed, result
