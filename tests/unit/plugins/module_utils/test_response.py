# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""File answers (Content-Disposition, octet-stream) and the rule that the client survives any answer."""

from __future__ import annotations

import json
import random

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultError
from ansible_collections.credvault.vault.plugins.module_utils._response import (
    VaultResponse,
    attachment_name,
    is_attachment,
)
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse

FILE_PATH = {"resource_id": "1", "account_id": "2"}
JSON_FAILED = b'{"operation": {"result": {"status": "Failed"}}}'


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Disposition": 'attachment; filename="product.lic"'},
        {"content-disposition": "ATTACHMENT"},
        {"Content-Type": "application/octet-stream"},
        {"Content-Type": "Application/Octet-Stream; charset=binary"},
    ],
)
@pytest.mark.parametrize("content", [b"", JSON_FAILED, b'{"result": {"status": "Success"}}', b"\x00bytes"])
def test_a_file_answer_is_the_file_whatever_its_bytes(make_client, headers, content):
    client = make_client(FakeResponse(content=content, headers=headers))
    response = client.call("download_file", path=FILE_PATH)
    assert response.content == content
    assert len(client.session.calls) == 1


@pytest.mark.parametrize("content", [b"", JSON_FAILED])
def test_without_file_headers_an_empty_or_failed_json_answer_is_not_a_file(make_client, content):
    client = make_client(
        *[FakeResponse(content=content, headers={"Content-Type": "application/json"}) for dummy in range(3)]
    )
    with pytest.raises(VaultError):
        client.call("download_file", path=FILE_PATH)


def test_a_file_answer_with_an_error_status_is_not_a_file(make_client):
    client = make_client(
        FakeResponse(status=403, content=JSON_FAILED, headers={"Content-Disposition": 'attachment; filename="x"'})
    )
    with pytest.raises(VaultAPIError):
        client.call("download_file", path=FILE_PATH)


def test_other_endpoints_ignore_file_headers(make_client):
    client = make_client(
        *[FakeResponse(content=JSON_FAILED, headers={"Content-Type": "application/octet-stream"}) for dummy in range(3)]
    )
    with pytest.raises(VaultAPIError):
        client.call("get_resources")


def test_the_response_exposes_its_headers_and_file_name(make_client):
    client = make_client(
        FakeResponse(
            content=b"x", headers={"Content-Disposition": 'attachment; filename="product.lic"', "X-Other": "1"}
        )
    )
    response = client.call("download_file", path=FILE_PATH)
    assert response.headers["content-disposition"] == 'attachment; filename="product.lic"'
    assert response.headers["x-other"] == "1"
    assert response.file_name == "product.lic"


@pytest.mark.parametrize(
    "value, name",
    [
        ('attachment; filename="product.lic"', "product.lic"),
        ("attachment; filename=product.lic", "product.lic"),
        ('attachment; FILENAME="a b.txt"', "a b.txt"),
        (r'attachment; filename="say \"hi\".txt"', 'say "hi".txt'),
        ('attachment; filename="semi;colon.txt"', "semi;colon.txt"),
        ("attachment; filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt", "\u20ac rates.txt"),
        ("attachment; filename*=UTF-8''%E2%82%AC.txt; filename=\"fallback.txt\"", "\u20ac.txt"),
        ("attachment; filename*=iso-8859-1'en'%A3rates.txt", "\xa3rates.txt"),
        ("attachment; filename*=utf-8''%FF%FE.txt; filename=plain.txt", "plain.txt"),
        ("attachment; filename*=KOI8-R''%C1.txt; filename=plain.txt", "plain.txt"),
        ('attachment; filename="caf\xc3\xa9.txt"', "caf\xe9.txt"),
        ('attachment; filename="../../etc/passwd"', "passwd"),
        ('attachment; filename="/etc/cron.d/evil"', "evil"),
        (r"attachment; filename=..\..\windows\evil.dll", "evil.dll"),
        (r'attachment; filename="..\..\evil.dll"', "....evil.dll"),
        ("attachment; filename*=UTF-8''..%2F..%2Fetc%2Fshadow", "shadow"),
    ],
)
def test_attachment_names_are_parsed_and_reduced_to_a_base_name(value, name):
    assert attachment_name(value) == name


@pytest.mark.parametrize(
    "value",
    [
        None,
        "",
        "attachment",
        "inline",
        'attachment; filename=""',
        'attachment; filename=".."',
        'attachment; filename="."',
        'attachment; filename="dir/"',
        'attachment; filename="a/.."',
        "attachment; filename*=UTF-8''a%00b",
        'attachment; filename="a\x01b"',
        "attachment; filename*=UTF-8''a%0Ab",
        "attachment; filename*=UTF-8''%E2%80%AEtxt.exe",
        'attachment; filename="%s"' % ("x" * 256),
        "attachment; filename=",
        "attachment; filename*=UTF-8''",
    ],
)
def test_missing_or_unsafe_names_give_none(value):
    assert attachment_name(value) is None


def test_is_attachment_needs_the_disposition_or_the_type():
    assert not is_attachment({})
    assert not is_attachment({"content-disposition": "inline; filename=x", "content-type": "application/json"})
    assert is_attachment({"content-disposition": " Attachment ; filename=x"})


def test_a_response_without_headers_has_no_file_name():
    assert VaultResponse("OP", "Success", "", None, None, None, 200, {}).file_name is None


# ---- every answer from the network is untrusted -----------------------------------------------


def hostile_bodies():
    rng = random.Random(8)
    bodies = [
        b"",
        b"null",
        b"[]",
        b"0",
        b'"text"',
        b"{",
        b"\xff\xfe\x00",
        b"{}" * 3,
        b"[" * 100000,
        b'{"a":' * 50000,
        b'{"operation": {"result": {"statusCode": 1e999}}}',
        b'{"operation": {"result": {"statusCode": "9' + b"9" * 5000 + b'"}}}',
        b'{"operation": {"result": {"status": null, "statusCode": true}, "totalRows": NaN}}',
        b'{"operation": {"result": {"status": ["Success"], "message": {"x": [1]}}, "name": 5}}',
        b'{"operation": [], "result": []}',
        b'{"result": {"Status": "success"}, "totalRows": -Infinity}',
        json.dumps({"operation": {"result": {"status": "Failed", "message": "x" * 100000}}}).encode(),
    ]
    for dummy in range(40):
        bodies.append(bytes(rng.randrange(256) for dummy in range(rng.randrange(1, 200))))
    return bodies


HOSTILE_HEADERS = [
    {},
    {"Location": "http://[::1"},
    {"Location": "\x00\x01"},
    {"Retry-After": "nan"},
    {"Retry-After": "-1e999"},
    {"Content-Disposition": "attachment; filename*=UTF-8''%"},
    {"Content-Disposition": 'attachment; filename="\\"'},
    {"Content-Type": ";;;"},
]


@pytest.mark.parametrize("key", ["get_resources", "download_file", "create_resource"])
def test_the_client_survives_any_body_status_and_header(make_client, key):
    rng = random.Random(key)
    statuses = [100, 199, 200, 201, 204, 299, 300, 304, 399, 400, 404, 429, 500, 503, 599, 600, 999]
    for body in hostile_bodies():
        status, headers = rng.choice(statuses), rng.choice(HOSTILE_HEADERS)
        client = make_client(*[FakeResponse(status=status, content=body, headers=headers) for dummy in range(3)])
        try:
            response = client.call(key, path=FILE_PATH, details={"RESOURCENAME": "r"})
        except VaultError as error:
            assert len(str(error)) < 2000
        else:
            assert isinstance(response, VaultResponse)
            response.file_name  # pylint: disable=pointless-statement
