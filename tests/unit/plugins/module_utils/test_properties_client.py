# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Property-based bad input for the client (issue 15, "Bad input"): whatever the vault answers (any status, any
body, any header) a read and a write give a ``VaultResponse`` or a ``VaultError``, never another exception, and the
token and the secrets sent never appear in the error; whatever a task sends is encoded so that the vault decodes
exactly that; the connection options give a value or a ``VaultConfigError`` that never quotes them.

The examples are bounded and the same on every run (the ``credvault`` profile of tests/unit/conftest.py)."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, unquote, urlsplit

import requests
from hypothesis import example, given
from hypothesis import strategies as st

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultConfigError,
    VaultError,
    VaultInputError,
)
from ansible_collections.credvault.vault.plugins.module_utils._plain import to_plain
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.plugins.module_utils._settings import base_url, header_value
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse

TOKEN = "TOKEN-SECRET-1"  # what the make_client fixture authenticates with
NEW_PASSWORD = "N3w-S3cr3t!pw"
SECRETS = (TOKEN, NEW_PASSWORD)
IDS = {"resource_id": "101", "account_id": "202"}
# (catalogue key, path, details): reads and writes, one answering a file, one sending a secret.
CALLS = (
    ("get_resources", None, None),
    ("get_account_details", IDS, None),
    ("download_file", IDS, None),
    ("get_resource_account_ids", None, None),
    ("change_password", IDS, {"NEWPASSWORD": NEW_PASSWORD, "RESETTYPE": "LOCAL"}),
    ("create_resource", None, {"RESOURCENAME": "web-01", "ACCOUNTNAME": "root", "PASSWORD": NEW_PASSWORD}),
    ("delete_resource", {"resource_id": "101"}, None),
)
# Marks an input whose echo in an error message would be a leak.
MARKER = "Qz8-secret-marker"

# Text with the secrets sometimes inside it: a vault that echoes what it was sent.
echoing_text = st.one_of(
    st.text(),
    st.sampled_from(SECRETS),
    st.builds("{}{}{}".format, st.text(max_size=5), st.sampled_from(SECRETS), st.text(max_size=5)),
)
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), echoing_text
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(echoing_text, children, max_size=4),
    max_leaves=20,
)
# Keys the response normaliser looks for, so that the examples reach every branch of it.
result_objects = st.fixed_dictionaries(
    {},
    optional={
        "status": st.one_of(st.sampled_from(["Success", "Failed", "success", "FAILURE"]), json_values),
        "Status": st.one_of(st.sampled_from(["Success", "Failed"]), json_values),
        "message": json_values,
        "Message": json_values,
        "statusCode": st.one_of(st.sampled_from([20000, 20001, 40000, "20000"]), json_values),
    },
)
vault_fields = {
    "name": json_values,
    "operationName": json_values,
    "result": st.one_of(result_objects, json_values),
    "Details": json_values,
    "details": json_values,
    "totalRows": json_values,
}
vault_documents = st.one_of(
    st.fixed_dictionaries({"operation": st.fixed_dictionaries({}, optional=vault_fields)}),
    st.fixed_dictionaries({}, optional=vault_fields),
    st.fixed_dictionaries({"operation": json_values}, optional=vault_fields),
)


def _deeply_nested(depth, inside):
    """A JSON text nesting ``depth`` lists at the place ``inside`` names, deeper than any parser's stack may go."""
    nested = "[" * depth + "]" * depth
    return {
        "top": nested,
        "details": '{"operation": {"result": {"status": "Success"}, "Details": %s}}' % nested,
        "message": '{"operation": {"result": {"status": "Failed", "message": %s}}}' % nested,
        "name": '{"operation": {"name": %s, "result": {"status": "Failed"}}}' % nested,
    }[inside].encode()


bodies = st.one_of(
    st.binary(),
    json_values.map(lambda value: json.dumps(value).encode()),
    vault_documents.map(lambda value: json.dumps(value).encode()),
    st.builds(_deeply_nested, st.integers(1, 5000), st.sampled_from(["top", "details", "message", "name"])),
)
header_text = st.one_of(st.text(), echoing_text)
header_names = st.one_of(
    st.sampled_from(["Content-Type", "Content-Disposition", "content-disposition", "Retry-After", "Location"]),
    st.text(),
)
disposition_values = st.one_of(
    st.builds("attachment; filename={}".format, header_text),
    st.builds('attachment; filename="{}"'.format, header_text),
    st.builds("attachment; filename*=utf-8''{}".format, header_text),
    st.builds("attachment; filename*=iso-8859-1''{}".format, header_text),
)
header_dicts = st.one_of(
    st.dictionaries(header_names, header_text, max_size=6),
    st.fixed_dictionaries(
        {},
        optional={
            "Content-Type": st.one_of(st.sampled_from(["application/json", "application/octet-stream"]), header_text),
            "Content-Disposition": st.one_of(disposition_values, header_text),
            "Retry-After": st.one_of(st.integers().map(str), st.floats().map(str), header_text),
            "Location": st.one_of(
                st.builds("https://{}:{}@{}/x?t={}".format, header_text, header_text, header_text, header_text),
                header_text,
            ),
        },
    ),
)


def _leaked(exc, details):
    """The secrets this call sent (the token, and the new password when sent) found in the error's message or in
    the result fields a failed module returns. A secret not sent may be echoed: the vault's message is kept."""
    sent = [TOKEN] + ([NEW_PASSWORD] if NEW_PASSWORD in (details or {}).values() else [])
    texts = [str(exc)] + [str(value) for value in exc.to_result().values()]
    return [secret for secret in sent if any(secret in text for text in texts)]


@given(
    call=st.sampled_from(CALLS),
    status=st.integers(100, 599),
    body=bodies,
    headers=header_dicts,
)
@example(  # the vault echoes the token in the operation name of a failed answer
    call=CALLS[0],
    status=200,
    body=b'{"operation": {"name": "' + TOKEN.encode() + b'", "result": {"status": "Failed"}}}',
    headers={},
)
def test_any_answer_gives_a_response_or_a_vault_error(make_client, call, status, body, headers):
    key, path, details = call
    # Every attempt (two retries) gets the same answer.
    client = make_client(*[FakeResponse(status, content=body, headers=dict(headers)) for _attempt in range(3)])
    try:
        outcome = client.call(key, path=path, details=details)
    except VaultError as exc:
        assert _leaked(exc, details) == []
    else:
        assert isinstance(outcome, VaultResponse)
        assert outcome.http_status == status


class TaggedText(str):
    """Stands in for ansible-core 2.19's tagged strings."""


class TaggedMapping(dict):
    """Stands in for ansible-core 2.19's tagged dicts."""


# Any text to_plain claims to pass on, lone surrogates included ("surrogatepass").
any_text = st.text(st.characters(exclude_categories=()))
# What URLs and JSON treat specially, drawn often in names.
SPECIAL_CHARACTERS = " /\\%#?&+\"'\x00\u00e9\u00df\U0001f511"
# Names for a path or a query, lone surrogates (which have no UTF-8 form) included.
names = st.text(
    st.one_of(st.characters(exclude_categories=()), st.sampled_from(SPECIAL_CHARACTERS + "\ud800")), min_size=1
)
detail_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        any_text,
        any_text.map(TaggedText),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(any_text, children, max_size=4),
        st.dictionaries(any_text.map(TaggedText), children, max_size=4).map(TaggedMapping),
    ),
    max_leaves=30,
)


def _as_json(value):
    """``value`` as JSON would give it back: tuples are lists, tagged types are plain."""
    if isinstance(value, dict):
        return {str(key): _as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json(item) for item in value]
    return str(value) if isinstance(value, str) else value


PLAIN_TYPES = (dict, list, str, int, float, bool, type(None))


def _only_plain_types(value):
    """True when ``value`` and everything inside it are exactly the JSON types, no subclass (no tagged type)."""
    if type(value) not in PLAIN_TYPES:
        return False
    if isinstance(value, dict):
        return all(isinstance(key, str) and _only_plain_types(key) and _only_plain_types(v) for key, v in value.items())
    if isinstance(value, list):
        return all(_only_plain_types(item) for item in value)
    return True


@given(detail_values)
def test_to_plain_gives_plain_types_of_the_same_value(value):
    plain = to_plain(value)
    assert _only_plain_types(plain)
    assert plain == _as_json(value)


def _input_data(sent):
    """INPUT_DATA as the vault receives it: the request prepared by requests, then read from its query or body."""
    prepared = requests.Request(sent["method"], sent["url"], params=sent["params"], data=sent["data"]).prepare()
    fields = parse_qs(urlsplit(prepared.url).query)
    if prepared.body:
        fields.update(parse_qs(prepared.body))
    return json.loads(fields["INPUT_DATA"][0])


@given(
    key=st.sampled_from(["get_resources", "create_resource", "get_all_ssl_certificates"]),
    details=st.dictionaries(any_text, detail_values, max_size=4),
)
def test_details_reach_the_vault_as_sent(make_client, key, details):
    client = make_client(FakeResponse(body={"operation": {"result": {"status": "Success"}}}))
    client.call(key, details=details)
    sent = client.session.calls[0]
    endpoint = CATALOGUE[key]
    assert _input_data(sent) == {"operation": {endpoint.details_key: _as_json(details)}}


def _has_utf8(text):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@given(name=names)
@example(name="a/b %2F #1 ?x=&y+z")
@example(name="lone \ud800 surrogate")
def test_a_name_in_the_path_reaches_the_vault_as_sent_or_is_refused(make_client, name):
    """``GET_RESOURCEID`` carries the resource name as one path segment (``/``, ``%``, ``#``, ``?`` escaped)."""
    client = make_client(FakeResponse(body={"operation": {"result": {"status": "Success"}, "Details": {}}}))
    try:
        client.call("get_resource_id", path={"resource_name": name})
    except VaultInputError as exc:
        assert not _has_utf8(name)
        assert client.session.calls == []
        assert "GET_RESOURCEID" in str(exc) and "lone surrogate" in str(exc)
        return
    url = client.session.calls[0]["url"]
    segment = requests.Request("GET", url).prepare().path_url.rsplit("/", 1)[1]
    assert unquote(segment, errors="strict") == name


@given(name=names)
@example(name="a/b %2F #1 ?x=&y+z \u00e9 \U0001f511")
@example(name="lone \udfff surrogate")
def test_a_name_in_the_query_reaches_the_vault_as_sent_or_is_refused(make_client, name):
    """``GET_RESOURCEACCOUNTID`` carries the names as query parameters."""
    client = make_client(FakeResponse(body={"operation": {"result": {"status": "Success"}, "Details": {}}}))
    try:
        client.call("get_resource_account_ids", query={"RESOURCENAME": name, "ACCOUNTNAME": TaggedText(name)})
    except VaultInputError as exc:
        assert not _has_utf8(name)
        assert client.session.calls == []
        assert "query parameter RESOURCENAME" in str(exc)
        return
    sent = client.session.calls[0]
    query = parse_qs(urlsplit(requests.Request("GET", sent["url"], params=sent["params"]).prepare().url).query)
    assert query.get("RESOURCENAME", [""]) == [name]
    assert query.get("ACCOUNTNAME", [""]) == [name]


marked_text = st.builds("{}{}{}".format, any_text, st.just(MARKER), any_text)
header_inputs = st.one_of(any_text, marked_text, st.integers(), st.none(), st.binary())


@given(value=header_inputs, highest=st.sampled_from([0x7F, 0xFF]))
def test_header_value_gives_a_header_or_a_config_error_that_never_quotes_it(value, highest):
    try:
        text = header_value(value, "auth_token", highest)
    except VaultConfigError as exc:
        assert MARKER not in str(exc)
    else:
        assert text == text.strip() and text
        assert all(ord(char) <= highest and ord(char) >= 0x20 and ord(char) != 0x7F for char in text)


url_parts = st.one_of(any_text, marked_text, st.sampled_from(["", "vault.example", "7272", "[::1]", "@", ":"]))
urls = st.one_of(
    any_text,
    marked_text,
    st.builds(
        "{}://{}{}{}{}".format,
        st.sampled_from(["https", "http", "HTTPS", "", "ftp"]),
        st.one_of(st.just(""), st.builds("{}:{}@".format, url_parts, url_parts)),
        url_parts,
        st.one_of(st.just(""), st.builds(":{}".format, url_parts)),
        st.one_of(st.just(""), st.just("/"), st.builds("/{}".format, url_parts), st.builds("?{}".format, url_parts)),
    ),
    st.integers(),
    st.none(),
)


@given(urls)
def test_base_url_gives_an_https_origin_or_a_config_error_that_never_quotes_it(url):
    try:
        origin = base_url(url)
    except VaultConfigError as exc:
        assert MARKER not in str(exc)
    else:
        parts = urlsplit(origin)
        assert parts.scheme == "https" and parts.hostname
        assert parts.path == parts.query == parts.fragment == ""
        assert parts.username is None and parts.password is None
