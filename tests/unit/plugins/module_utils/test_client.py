# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json
import os
import warnings
from urllib.parse import parse_qs, quote, quote_plus, urlsplit

import pytest
import requests
import urllib3
from urllib3.exceptions import InsecureRequestWarning, MaxRetryError, NewConnectionError

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConfigError,
    VaultConnectionError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._plain import to_plain
from ansible_collections.credvault.vault.plugins.module_utils._redaction import scrub
from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, FakeSession, ok


def input_data(call):
    source = call["params"] if "INPUT_DATA" in (call["params"] or {}) else call["data"]
    return json.loads(source["INPUT_DATA"])


class Tagged(str):
    """Like ansible-core 2.19's tagged strings: a str subclass."""


# ---- configuration -------------------------------------------------------------------------


def test_headers_carry_token_and_org_name():
    client = VaultClient("https://vault.example:7272/", "TOKEN-SECRET-1", org_name="Acme")
    assert client.session.headers["AUTHTOKEN"] == "TOKEN-SECRET-1"
    assert client.session.headers["orgName"] == "Acme"
    assert client.base_url == "https://vault.example:7272"


def test_tls_settings(tmp_path):
    ca_file = tmp_path / "ca.pem"
    ca_file.write_text("PEM")
    assert VaultClient("https://v", "t").verify is True
    assert VaultClient("https://v", "t", ca_path=str(ca_file)).verify == str(ca_file)
    assert VaultClient("https://v", "t", validate_certs=False, ca_path="/missing/ca.pem").verify is False


def test_ca_path_wins_over_requests_ca_bundle_environment(make_client, monkeypatch, tmp_path):
    ca_file = tmp_path / "ca.pem"
    ca_file.write_text("PEM")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt")
    client = make_client(ok([]), ca_path=str(ca_file))
    client.call("get_resources")
    assert client.session.calls[0]["verify"] == str(ca_file)


@pytest.mark.parametrize("url", [None, "", "http://vault.example", "vault.example", "https://"])
def test_bad_url_is_a_config_error(url):
    with pytest.raises(VaultConfigError, match="url"):
        VaultClient(url, "t")


def test_missing_token_and_bad_edition():
    with pytest.raises(VaultConfigError, match="auth_token"):
        VaultClient("https://v", None)
    with pytest.raises(VaultConfigError, match="edition"):
        VaultClient("https://v", "t", edition="C")


# ---- gate ------------------------------------------------------------------------------------


def test_gate_refuses_endpoint_missing_from_edition_before_sending(make_client):
    client = make_client(edition="B", build=6320)
    with pytest.raises(VaultUnsupportedError) as error:
        client.call("get_totp", path={"account_id": "1"})
    assert "FETCH_CURRENT_TOTP" in str(error.value) and "edition A from build 12430" in str(error.value)
    assert "edition B build 6320" in str(error.value)
    assert client.session.calls == [] and client.requests_sent == 0


def test_gate_refuses_below_minimum_build(make_client):
    client = make_client(edition="A", build=11299)
    with pytest.raises(VaultUnsupportedError, match="edition A from build 11300 or edition B from build 5300"):
        client.call("get_resource_types")
    assert client.session.calls == []


def test_gate_refuses_a_gated_field_anywhere_in_the_input(make_client):
    client = make_client(edition="A", build=12230)
    with pytest.raises(VaultUnsupportedError, match="TOTP_SECRET"):
        client.call(
            "add_accounts",
            path={"resource_id": "1"},
            details={"ACCOUNTLIST": [{"ACCOUNTNAME": "a", "PASSWORD": "p", "TOTP_SECRET": "X"}]},
        )
    assert client.session.calls == []


def test_gate_opens_at_the_minimum_build(make_client):
    client = make_client(ok({"TOTP": "123456"}), edition="A", build=12430)
    assert client.call("get_totp", path={"account_id": "1"}).details == {"TOTP": "123456"}


@pytest.mark.parametrize("options", [{}, {"edition": "B"}, {"build": 1}])
def test_without_edition_and_build_nothing_is_refused(make_client, options):
    client = make_client(ok({"TOTP": "1"}), **options)
    client.call("get_totp", path={"account_id": "1"})
    assert len(client.session.calls) == 1


def test_method_follows_the_edition(make_client):
    client = make_client(ok([]), edition="B", build=6320)
    client.call("get_ssh_key", details={"keyName": "k"})
    assert client.session.calls[0]["method"] == "POST"


# ---- request encoding ------------------------------------------------------------------------


def test_get_sends_input_data_as_query_parameter(make_client):
    client = make_client(ok({"PASSWORD": "x"}))
    client.call("get_password", path={"resource_id": "1", "account_id": "2"}, details={"REASON": "deploy"})
    call = client.session.calls[0]
    assert call["method"] == "GET"
    assert call["url"] == "https://vault.example:7272/restapi/json/v1/resources/1/accounts/2/password"
    assert input_data(call) == {"operation": {"Details": {"REASON": "deploy"}}}
    assert call["data"] is None


def test_post_sends_input_data_as_form_field(make_client):
    client = make_client(ok())
    client.call("create_resource", details={"RESOURCENAME": "r"})
    call = client.session.calls[0]
    assert call["method"] == "POST" and "INPUT_DATA" not in call["params"]
    assert input_data(call) == {"operation": {"Details": {"RESOURCENAME": "r"}}}


def test_lower_case_details_where_the_spec_says_so(make_client):
    client = make_client(
        FakeResponse(
            body={"name": "VALIDATE_PASSWORD", "result": {"status": "Success", "message": "Valid", "statusCode": 20000}}
        )
    )
    client.call("validate_password", details={"password": "p", "passwordPolicy": "Strong"})
    assert input_data(client.session.calls[0]) == {
        "operation": {"details": {"password": "p", "passwordPolicy": "Strong"}}
    }


def test_query_parameters_and_path_quoting(make_client):
    client = make_client(ok({"RESOURCEID": "1"}), ok({"RESOURCEID": "1", "ACCOUNTID": "2"}))
    client.call("get_resource_id", path={"resource_name": "db/primary server"})
    assert client.session.calls[0]["url"].endswith("/resources/resourcename/db%2Fprimary%20server")
    client.call("get_resource_account_ids", query={"RESOURCENAME": "a&b", "ACCOUNTNAME": "root"})
    assert client.session.calls[1]["params"] == {"RESOURCENAME": "a&b", "ACCOUNTNAME": "root"}


def test_pki_root_and_multipart_part_name(make_client):
    client = make_client(
        FakeResponse(body={"name": "AddCertificate", "result": {"Status": "Success", "Message": "added"}})
    )
    client.call("add_certificate", details={"fileType": "CERTFILE"}, files={"cert.pem": b"PEM"})
    call = client.session.calls[0]
    assert call["url"] == "https://vault.example:7272/api/pki/restapi/addCertificate"
    assert call["files"] == {"File": ("cert.pem", b"PEM")}
    assert "INPUT_DATA" in call["data"]


def test_tagged_strings_become_plain_types():
    plain = to_plain({Tagged("KEY"): [Tagged("v"), True, 3, 1.5, None, (Tagged("t"),)]})
    key = next(iter(plain))
    assert {type(value) for value in (key, plain[key][0], plain[key][5][0])} == {str}
    assert plain == {"KEY": ["v", True, 3, 1.5, None, ["t"]]}
    with pytest.raises(TypeError):
        to_plain(object())


# ---- response shapes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, operation, details, total",
    [
        (
            {
                "operation": {
                    "name": "GET RESOURCES",
                    "result": {"status": "Success", "message": "m"},
                    "Details": [{"RESOURCE ID": "1"}],
                    "totalRows": 1,
                }
            },
            "GET RESOURCES",
            [{"RESOURCE ID": "1"}],
            1,
        ),
        (
            {
                "operation": {
                    "operationName": "GET_USERGROUP(S)",
                    "result": {"status": "Success", "message": "m"},
                    "Details": [],
                    "totalRows": "0",
                }
            },
            "GET_USERGROUP(S)",
            [],
            0,
        ),
        (
            {"name": "VALIDATE_PASSWORD", "result": {"status": "Success", "message": "Valid", "statusCode": 20000}},
            "VALIDATE_PASSWORD",
            None,
            None,
        ),
        (
            {
                "name": "GetAllSSHKeys",
                "result": {"status": "Success", "message": "m"},
                "totalRows": 2,
                "details": [{"KeyName": "k"}],
            },
            "GetAllSSHKeys",
            [{"KeyName": "k"}],
            2,
        ),
        ({"name": "AddCertificate", "result": {"Status": "Success", "Message": "added"}}, "AddCertificate", None, None),
        ({"name": "associateKey", "result": {"status": "SUCCESS", "message": "m"}}, "associateKey", None, None),
        (
            {"operationName": "SHARE_RESOURCEGROUP(S)", "result": {"statusCode": 20001, "message": "triggered"}},
            "SHARE_RESOURCEGROUP(S)",
            None,
            None,
        ),
    ],
)
def test_every_response_shape_normalizes(make_client, body, operation, details, total):
    client = make_client(FakeResponse(body=body))
    result = client.call("get_ha_status")  # a row _answers does not declare: the shapes as they are
    assert (result.ok, result.operation, result.details, result.total_rows) == (True, operation, details, total)


def test_extra_top_level_keys_are_reachable(make_client):
    client = make_client(
        FakeResponse(body={"name": "GetAgentInstallKey", "result": {"status": "Success"}, "AgentInstallKey": "K1"})
    )
    assert client.call("generate_install_key").get("AgentInstallKey") == "K1"


def test_result_status_is_the_authority_over_http_status(make_client):
    client = make_client(
        FakeResponse(status=500, body={"operation": {"name": "GET RESOURCES", "result": {"status": "Success"}}})
    )
    assert client.call("get_resources").ok


def test_failed_status_on_http_200_raises_with_operation_and_message(make_client):
    client = make_client(
        FakeResponse(
            body={
                "operation": {
                    "name": "GET_RESOURCEID",
                    "result": {"status": "Failed", "message": "Resource web does not exist"},
                }
            }
        )
    )
    with pytest.raises(VaultAPIError) as error:
        client.call("get_resource_id", path={"resource_name": "web"})
    assert str(error.value) == "GET_RESOURCEID failed: Resource web does not exist"
    assert (error.value.operation, error.value.http_status) == ("GET_RESOURCEID", 200)


def test_a_failed_answer_keeps_its_details_for_per_item_reasons(make_client):
    items = [{"svc": {"STATUS": "Account svc already exists"}}]
    client = make_client(
        FakeResponse(
            body={
                "operation": {
                    "name": "ADD ACCOUNTS",
                    "result": {"status": "Failed", "message": "No account was added"},
                    "Details": items,
                }
            }
        )
    )
    with pytest.raises(VaultAPIError) as error:
        client.call("add_accounts", path={"resource_id": "1"}, details={"ACCOUNTLIST": []})
    assert error.value.details == items and "details" not in error.value.to_result()


def test_http_status_is_named_when_not_200(make_client):
    client = make_client(
        FakeResponse(
            status=401,
            body={"operation": {"name": "AUTHENTICATION", "result": {"status": "Failed", "message": "invalid token"}}},
        )
    )
    with pytest.raises(VaultAPIError, match=r"AUTHENTICATION failed \(HTTP 401\): invalid token"):
        client.call("get_resources")


@pytest.mark.parametrize(
    "answer, text",
    [
        (FakeResponse(status=404, content=b"[1, 2]"), "HTTP 404 with a body that is not a JSON object"),
        (FakeResponse(status=500, content=b"<html>oops</html>"), "HTTP 500 with a body that is not a JSON object"),
        (FakeResponse(status=401, content=b""), "HTTP 401 with an empty body"),
    ],
)
def test_unusable_error_answers_to_reads_raise_response_errors_at_once(make_client, answer, text):
    client = make_client(answer)
    with pytest.raises(VaultResponseError, match=text):
        client.call("get_resources")
    assert len(client.session.calls) == 1 and not client.wrote


def test_failed_status_with_odd_types_still_raises(make_client):
    client = make_client(
        FakeResponse(body={"operation": {"name": ["x"], "result": {"status": "Failed", "message": {"a": 1}}}})
    )
    with pytest.raises(VaultAPIError, match='"a": 1'):
        client.call("get_resources")


def test_secrets_and_token_are_scrubbed_from_vault_messages(make_client):
    client = make_client(
        FakeResponse(
            body={
                "operation": {
                    "name": "CHANGE PASSWORD",
                    "result": {"status": "Failed", "message": "password S3cr3t!pw rejected for token TOKEN-SECRET-1"},
                }
            }
        )
    )
    with pytest.raises(VaultAPIError) as error:
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": "S3cr3t!pw", "RESETTYPE": "LOCAL"},
        )
    assert "S3cr3t!pw" not in str(error.value) and "TOKEN-SECRET-1" not in str(error.value)
    assert "S3cr3t!pw" not in error.value.vault_message


def test_file_endpoints_return_the_bytes(make_client):
    client = make_client(FakeResponse(content=b"\x00binary"))
    assert client.call("download_file", path={"resource_id": "1", "account_id": "2"}).content == b"\x00binary"


@pytest.mark.parametrize("key", sorted(key for key, row in CATALOGUE.items() if row.returns_file))
def test_a_cut_off_json_answer_of_a_file_row_is_no_file(make_client, key):
    """A body that says it is JSON and does not parse is an answer cut off (retried), never the file: the fault
    suite's ``malformed`` fault had the PGP key file hold ``{"operation": {"name": "``."""
    cut_off = FakeResponse(content=b'{"operation": {"name": "', headers={"Content-Type": "application/json"})
    client = make_client(cut_off, cut_off, retries=1)
    with pytest.raises(VaultResponseError, match=r"not a JSON object \(after 2 attempts\)"):
        client.call(key, path={"resource_id": "1", "account_id": "2"} if CATALOGUE[key].placeholders else None)


def test_a_json_file_that_parses_is_still_the_file(make_client):
    document = FakeResponse(content=b'{"license": "FC-1"}', headers={"Content-Type": "application/json"})
    client = make_client(document)
    assert client.call("download_file", path={"resource_id": "1", "account_id": "2"}).content == document.content


def test_file_endpoints_still_report_failures(make_client):
    client = make_client(
        FakeResponse(
            body={"operation": {"name": "DOWNLOAD FILE", "result": {"status": "Failed", "message": "no file"}}}
        )
    )
    with pytest.raises(VaultAPIError, match="no file"):
        client.call("download_file", path={"resource_id": "1", "account_id": "2"})


# ---- retries ---------------------------------------------------------------------------------


def test_reads_retry_on_retryable_statuses_with_capped_jittered_backoff(make_client):
    client = make_client(FakeResponse(status=503, content=b"busy"), FakeResponse(status=502, content=b""), ok([]))
    assert client.call("get_resources").ok
    assert len(client.session.calls) == 3 and client.requests_sent == 3
    assert len(client.sleeps) == 2 and all(0 <= delay <= 8.0 for delay in client.sleeps)


def test_retry_after_is_honoured_up_to_the_cap(make_client):
    client = make_client(FakeResponse(status=429, headers={"Retry-After": "120"}), ok([]))
    client.call("get_resources")
    assert client.sleeps == [8.0]


def test_reads_give_up_after_the_configured_retries(make_client):
    client = make_client(*[FakeResponse(status=504, content=b"") for dummy in range(3)])
    with pytest.raises(VaultResponseError, match="HTTP 504"):
        client.call("get_resources")
    assert len(client.session.calls) == 3


def test_writes_are_not_retried_on_5xx(make_client):
    client = make_client(FakeResponse(status=503, content=b""), ok())
    with pytest.raises(VaultResponseError):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert len(client.session.calls) == 1


def test_an_agent_key_fetch_is_a_read_and_its_generation_a_write(make_client):
    # "With no input the agent-key call returns an available key; input is given only to generate a new one."
    client = make_client(FakeResponse(status=503, content=b""), ok({"agentKey": "k"}))
    assert client.call("get_agent_key").ok
    assert len(client.session.calls) == 2 and not client.wrote and client.written == []
    client = make_client(FakeResponse(status=503, content=b""), ok({"agentKey": "k"}))
    with pytest.raises(VaultResponseError, match="may have been applied"):
        client.call("get_agent_key", details={"generateAgentKey": "true"})
    assert len(client.session.calls) == 1 and client.wrote


def test_writes_are_retried_on_429(make_client):
    client = make_client(FakeResponse(status=429, content=b""), ok())
    assert client.call("create_resource", details={"RESOURCENAME": "r"}).ok
    assert len(client.session.calls) == 2


def test_writes_are_retried_only_when_never_sent(make_client):
    refused = requests.exceptions.ConnectionError(MaxRetryError(None, "/x", NewConnectionError(None, "refused")))
    client = make_client(refused, ok())
    assert client.call("create_resource", details={"RESOURCENAME": "r"}).ok
    client = make_client(requests.exceptions.ReadTimeout("read timed out"), ok())
    with pytest.raises(VaultConnectionError):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert len(client.session.calls) == 1


def test_connection_errors_hide_the_url_and_secrets(make_client):
    leak = "HTTPSConnectionPool(host='v', port=1): Max retries exceeded with url: /x?INPUT_DATA=secret-reason (boom)"
    client = make_client(*[requests.exceptions.ConnectionError(leak) for dummy in range(3)])
    with pytest.raises(VaultConnectionError) as error:
        client.call("get_resources")
    assert "INPUT_DATA" not in str(error.value) and "after 3 attempts" in str(error.value)
    assert "secret-reason" not in str(error.value)


def test_tls_failure_is_not_retried_and_says_what_to_do(make_client):
    client = make_client(requests.exceptions.SSLError("certificate verify failed"))
    with pytest.raises(VaultConnectionError, match="ca_path"):
        client.call("get_resources")
    assert len(client.session.calls) == 1


def test_retries_zero_means_one_attempt(make_client):
    client = make_client(FakeResponse(status=503, content=b""), retries=0)
    with pytest.raises(VaultResponseError):
        client.call("get_resources")
    assert len(client.session.calls) == 1


def test_query_string_of_request_never_holds_the_token(make_client):
    client = make_client(ok([]))
    client.call("get_resources")
    call = client.session.calls[0]
    assert "TOKEN-SECRET-1" not in json.dumps(call["params"]) and "AUTHTOKEN" not in parse_qs(
        urlsplit(call["url"]).query
    )


# ---- header values (auth_token, org_name) ----------------------------------------------------

SECRET_TOKEN = "TOKEN-SECRET-1"


@pytest.mark.parametrize(
    "token", [SECRET_TOKEN + "\n", SECRET_TOKEN + "\r\n", "  %s\t" % SECRET_TOKEN, Tagged(SECRET_TOKEN + "\n")]
)
def test_surrounding_whitespace_is_removed_from_the_token(make_client, token):
    client = make_client(ok([]), auth_token=token)
    client.call("get_resources")
    assert client.real_session.headers["AUTHTOKEN"] == SECRET_TOKEN
    assert not isinstance(client.real_session.headers["AUTHTOKEN"], Tagged)


@pytest.mark.parametrize(
    "token, problem",
    [
        ("TOKEN-\nSECRET-1", "control character"),
        ("TOKEN-\r\nSECRET-1", "control character"),
        ("TOKEN-\tSECRET-1", "control character"),
        ("TOKEN-\x00SECRET-1", "control character"),
        ("TOKEN-\x7fSECRET-1", "control character"),
        ("TOKEN-SECRET-\u20ac", "outside ASCII"),
        ("TOKEN-SECRET-\xe9", "outside ASCII"),
        ("TOKEN-SECRET-\ud800", "outside ASCII"),
        (" \n\t ", "empty"),
        (42, "must be a string"),
    ],
)
def test_a_malformed_token_is_refused_without_showing_it(monkeypatch, token, problem):
    sent = []
    monkeypatch.setattr(requests.Session, "request", lambda *args, **kwargs: sent.append(args))
    with pytest.raises(VaultConfigError) as error:
        VaultClient("https://vault.example", token)
    message = str(error.value)
    assert problem in message and "auth_token" in message
    assert "SECRET" not in message and "TOKEN-" not in message and repr(token) not in message
    assert sent == []


@pytest.mark.parametrize(
    "org, header", [("Acme\n", "Acme"), ("  Caf\xe9 \xc5sa ", "Caf\xe9 \xc5sa"), (Tagged("Acme Corp"), "Acme Corp")]
)
def test_org_name_is_stripped_and_may_hold_latin_1(org, header):
    client = VaultClient("https://v", "t", org_name=org)
    assert client.session.headers["orgName"] == header
    assert client.session.headers["orgName"].encode("latin-1")


@pytest.mark.parametrize(
    "org, problem",
    [
        ("Acme\nInjected: 1", "control character"),
        ("Acme\r\nX", "control character"),
        ("Ac\tme", "control character"),
        ("Ac\x00me", "control character"),
        ("Ac\x85me", "control character"),
        ("Acme \u20ac", "outside Latin-1"),
        ("\u6771\u4eac", "outside Latin-1"),
        ("   ", "empty"),
    ],
)
def test_an_org_name_that_cannot_be_a_header_is_refused_without_showing_it(org, problem):
    with pytest.raises(VaultConfigError) as error:
        VaultClient("https://v", "t", org_name=org)
    message = str(error.value)
    assert problem in message and "org_name" in message
    assert message.startswith("org_name ") and "Acme" not in message
    assert not org.strip() or org.strip() not in message


@pytest.mark.parametrize("org", [None, ""])
def test_no_org_name_sends_no_header(org):
    assert "orgName" not in VaultClient("https://v", "t", org_name=org).session.headers


# ---- url --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://svcuser:Pw-98765@vault.example:7272",
        "https://svcuser@vault.example",
        "https://svcuser:Pw-98765@vault.example/restapi",
        "http://svcuser:Pw-98765@vault.example",
        "svcuser:Pw-98765@vault.example",
        "https://svcuser:Pw#98765@vault.example",
        "https://:Pw-98765@vault.example",
    ],
)
def test_user_information_in_the_url_is_refused_without_echoing_it(url):
    with pytest.raises(VaultConfigError) as error:
        VaultClient(url, "t")
    message = str(error.value)
    assert "svcuser" not in message and "Pw" not in message and "98765" not in message
    assert "vault.example" not in message


@pytest.mark.parametrize(
    "url, problem",
    [
        ("https://vault.example:7272/restapi/json/v1", "must not have a path"),
        ("https://vault.example/vault/", "must not have a path"),
        ("https://vault.example/?debug=1", "must not have a query"),
        ("https://vault.example?x", "must not have a query"),
        ("https://vault.example/?", "must not have a query"),
        ("https://vault.example#top", "or a fragment"),
        ("https://vault.example:99999", "not a valid URL"),
        ("https://vault.example:port", "not a valid URL"),
        ("https://[::1", "not a valid URL"),
        ("https://vault.example/a b", "space or a control character"),
        ("https://vault\n.example", "space or a control character"),
        ("ftp://vault.example", "must be https://"),
        ("HTTP://vault.example", "must be https://"),
    ],
)
def test_a_url_that_is_not_a_bare_https_origin_is_refused(url, problem):
    with pytest.raises(VaultConfigError, match=problem) as error:
        VaultClient(url, "t")
    assert "debug" not in str(error.value) and "top" not in str(error.value)


@pytest.mark.parametrize(
    "url, base",
    [
        ("https://vault.example:7272/", "https://vault.example:7272"),
        (" https://vault.example\n", "https://vault.example"),
        ("HTTPS://Vault.Example", "https://Vault.Example"),
        ("https://[::1]:7272", "https://[::1]:7272"),
        (Tagged("https://vault.example"), "https://vault.example"),
    ],
)
def test_a_bare_https_origin_is_accepted(url, base):
    assert VaultClient(url, "t").base_url == base


# ---- numbers and files of the configuration ---------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        ({"timeout": 0}, "timeout must be more than 0 seconds"),
        ({"timeout": -1}, "timeout must be more than 0 seconds"),
        ({"timeout": -0.5}, "timeout must be more than 0 seconds"),
        ({"timeout": float("nan")}, "timeout must be more than 0 seconds"),
        ({"timeout": float("inf")}, "timeout must be more than 0 seconds"),
        ({"timeout": "soon"}, "timeout must be a number of seconds"),
        ({"timeout": True}, "timeout must be a number of seconds"),
        ({"retries": -1}, "retries must be 0 or more, not -1"),
        ({"retries": 1.5}, "retries must be a whole number"),
        ({"retries": "many"}, "retries must be a whole number"),
        ({"build": "12k"}, "build must be a whole number"),
        ({"build": 0}, "build must be 1 or more"),
        ({"validate_certs": "no"}, "validate_certs must be true or false"),
    ],
)
def test_out_of_range_numbers_are_config_errors(options, message):
    with pytest.raises(VaultConfigError, match=message):
        VaultClient("https://v", "t", **options)


def test_timeout_takes_fractions_and_none_means_the_defaults(make_client):
    client = make_client(ok([]), timeout=2.5)
    client.call("get_resources")
    assert client.session.calls[0]["timeout"] == 2.5
    defaults = VaultClient("https://v", "t", timeout=None, retries=None, validate_certs=None, build=None)
    assert (defaults.timeout, defaults.retries, defaults.verify, defaults.build) == (30.0, 3, True, None)


def test_a_missing_ca_path_is_a_config_error_naming_it(tmp_path):
    missing = tmp_path / "no-such-ca.pem"
    with pytest.raises(VaultConfigError, match="ca_path %s does not exist" % missing):
        VaultClient("https://v", "t", ca_path=str(missing))


def test_an_unreadable_ca_path_is_a_config_error_naming_it(tmp_path, monkeypatch):
    ca_file = tmp_path / "ca.pem"
    ca_file.write_text("PEM")
    monkeypatch.setattr(os, "access", lambda path, mode: not (path == str(ca_file) and mode == os.R_OK))
    with pytest.raises(VaultConfigError, match="ca_path %s cannot be read" % ca_file):
        VaultClient("https://v", "t", ca_path=str(ca_file))


# ---- unreadable answers: reads retried, writes may have been applied --------------------------

UNREADABLE_2XX = [
    pytest.param(lambda: FakeResponse(status=200, content=b'{"operation": {"name": "'), id="truncated"),
    pytest.param(lambda: FakeResponse(status=200, content=b"<html>proxy</html>"), id="html"),
    pytest.param(lambda: FakeResponse(status=200, content=b""), id="empty"),
    pytest.param(lambda: FakeResponse(status=200, content=b"[1, 2]"), id="array"),
    pytest.param(lambda: FakeResponse(status=204, content=b""), id="204"),
    pytest.param(lambda: FakeResponse(status=200, body={"operation": {"name": "GET RESOURCES"}}), id="no-status"),
    pytest.param(lambda: FakeResponse(status=200, body={"result": "garbage", "operation": "x"}), id="odd-types"),
]


@pytest.mark.parametrize("unreadable", UNREADABLE_2XX)
def test_a_read_retries_an_unreadable_success_answer_like_a_503(make_client, unreadable):
    client = make_client(unreadable(), unreadable(), ok([{"RESOURCE NAME": "r1"}]))
    assert client.call("get_resources").details == [{"RESOURCE NAME": "r1"}]
    assert len(client.session.calls) == 3 and len(client.sleeps) == 2
    assert all(0 <= delay <= 8.0 for delay in client.sleeps) and not client.wrote


@pytest.mark.parametrize("unreadable", UNREADABLE_2XX)
def test_a_read_gives_up_on_unreadable_answers_after_the_retries(make_client, unreadable):
    client = make_client(unreadable(), unreadable(), unreadable())
    with pytest.raises(
        VaultResponseError,
        match=r"GET RESOURCES: the vault answered HTTP 20\d with .* "
        r"\(after 3 attempts\)",
    ) as error:
        client.call("get_resources")
    assert len(client.session.calls) == 3 and "may have been applied" not in str(error.value)


@pytest.mark.parametrize("unreadable", UNREADABLE_2XX)
def test_a_write_with_an_unreadable_answer_is_not_retried_and_may_have_been_applied(make_client, unreadable):
    client = make_client(unreadable(), ok())
    with pytest.raises(VaultResponseError, match="CREATE RESOURCE: .*the write may have been applied"):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert len(client.session.calls) == 1 and client.wrote


@pytest.mark.parametrize(
    "answer",
    [
        FakeResponse(status=503, content=b"busy"),
        FakeResponse(status=502, content=b""),
        FakeResponse(status=500, content=b"<html/>"),
    ],
)
def test_a_write_answered_an_unreadable_error_may_have_been_applied(make_client, answer):
    client = make_client(answer)
    with pytest.raises(VaultResponseError, match="may have been applied"):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert client.wrote


def test_a_write_answered_429_every_time_was_not_applied(make_client):
    client = make_client(*[FakeResponse(status=429, content=b"slow down") for dummy in range(3)])
    with pytest.raises(VaultResponseError) as error:
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert "may have been applied" not in str(error.value) and not client.wrote
    assert len(client.session.calls) == 3


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(lambda: requests.exceptions.ReadTimeout("read timed out"), id="read-timeout"),
        pytest.param(
            lambda: requests.exceptions.ConnectionError("Connection aborted: RemoteDisconnected"), id="dropped"
        ),
    ],
)
def test_a_write_that_timed_out_or_dropped_after_sending_may_have_been_applied(make_client, error):
    client = make_client(error(), ok())
    with pytest.raises((VaultConnectionError, VaultResponseError), match="the write may have been applied"):
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": "S3cr3t!pw", "RESETTYPE": "LOCAL"},
        )
    assert len(client.session.calls) == 1 and client.wrote


def test_a_read_that_timed_out_is_retried(make_client):
    client = make_client(requests.exceptions.ReadTimeout("read timed out"), ok([]))
    assert client.call("get_resources").ok
    assert len(client.session.calls) == 2 and not client.wrote


class BrokenBody:
    """An answer whose headers arrived (``stream=True``) and whose body fails while it is read."""

    status_code = 200
    headers = {}

    def __init__(self, error):
        self.raw = self
        self.error = error
        self.closed = False

    def read1(self, amt, decode_content=None):
        raise self.error

    def close(self):
        self.closed = True


BODY_FAULTS = [
    pytest.param(lambda: urllib3.exceptions.ProtocolError("Connection broken: IncompleteRead"), id="cut-off"),
    pytest.param(lambda: urllib3.exceptions.DecodeError("bad gzip"), id="undecodable"),
    pytest.param(lambda: urllib3.exceptions.SSLError("EOF occurred in violation of protocol"), id="tls-eof"),
]


@pytest.mark.parametrize("fault", BODY_FAULTS)
def test_a_write_whose_body_broke_may_have_been_applied_and_its_connection_is_closed(make_client, fault):
    broken = BrokenBody(fault())
    client = make_client(broken, ok())
    with pytest.raises(VaultResponseError, match="answer was cut off or could not be decoded; the write may have"):
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert len(client.session.calls) == 1 and client.wrote and broken.closed


@pytest.mark.parametrize("fault", BODY_FAULTS)
def test_a_read_whose_body_broke_is_retried_and_its_connection_is_closed(make_client, fault):
    broken = BrokenBody(fault())
    client = make_client(broken, ok([]))
    assert client.call("get_resources").ok
    assert len(client.session.calls) == 2 and not client.wrote and broken.closed


class OldUrllib3Body:
    """The body stream of urllib3 before 2.0 (older distributions' python3-requests): ``read`` only, no ``read1``."""

    status_code = 200
    headers = {"Content-Type": "application/json"}

    def __init__(self, body):
        self.raw = self
        self.pieces = [body[:7], body[7:]]

    def read(self, amt, decode_content=None):
        return self.pieces.pop(0) if self.pieces else b""

    def close(self):
        pass


def test_an_answer_is_read_from_urllib3_before_2(make_client):
    answer = {"operation": {"name": "GET RESOURCES", "result": {"status": "Success"}, "Details": []}}
    client = make_client(OldUrllib3Body(json.dumps(answer).encode()))
    assert client.call("get_resources").ok


# ---- wrote ------------------------------------------------------------------------------------


def test_wrote_is_false_after_reads_only(make_client):
    client = make_client(ok([]), FakeResponse(body={"name": "VALIDATE_PASSWORD", "result": {"statusCode": 20000}}))
    client.call("get_resources")
    client.call("validate_password", details={"password": "p", "passwordPolicy": "Strong"})
    assert client.wrote is False


def test_wrote_is_true_once_a_write_succeeded_and_stays_true(make_client):
    client = make_client(
        ok(),
        FakeResponse(
            body={"operation": {"name": "CHANGE PASSWORD", "result": {"status": "Failed", "message": "policy"}}}
        ),
    )
    assert client.wrote is False
    client.call("edit_account", path={"resource_id": "1", "account_id": "2"}, details={"NOTES": "n"})
    assert client.wrote is True
    with pytest.raises(VaultAPIError):
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": "x", "RESETTYPE": "LOCAL"},
        )
    assert client.wrote is True


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(
            lambda: FakeResponse(
                body={"operation": {"name": "CREATE RESOURCE", "result": {"status": "Failed", "message": "exists"}}}
            ),
            id="refused",
        ),
        pytest.param(
            lambda: requests.exceptions.ConnectionError(MaxRetryError(None, "/x", NewConnectionError(None, "refused"))),
            id="never-sent",
        ),
        pytest.param(lambda: requests.exceptions.ConnectTimeout("connect timed out"), id="connect-timeout"),
        pytest.param(lambda: requests.exceptions.SSLError("certificate verify failed"), id="tls"),
    ],
)
def test_wrote_stays_false_when_a_write_was_refused_or_never_sent(make_client, answer):
    client = make_client(*[answer() for dummy in range(3)])
    with pytest.raises((VaultAPIError, VaultConnectionError)) as error:
        client.call("create_resource", details={"RESOURCENAME": "r"})
    assert client.wrote is False and "may have been applied" not in str(error.value)


def test_a_failed_gate_or_config_writes_nothing(make_client):
    client = make_client(edition="A", build=12000)
    with pytest.raises(VaultUnsupportedError):
        client.call("share_resources", details={})
    assert client.wrote is False


# ---- library errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(
            lambda: requests.exceptions.InvalidHeader(
                "Invalid leading whitespace in header value: 'TOKEN-SECRET-1\\n'"
            ),
            id="invalid-header",
        ),
        pytest.param(
            lambda: requests.exceptions.InvalidURL("Failed to parse: https://v/x?INPUT_DATA=S3cr3t!pw"),
            id="invalid-url",
        ),
        pytest.param(lambda: requests.exceptions.RequestException("TOKEN-SECRET-1"), id="any-request-error"),
        pytest.param(
            lambda: UnicodeEncodeError("latin-1", "TOKEN-SECRET-1\u20ac", 14, 15, "not latin-1"), id="unicode"
        ),
        pytest.param(lambda: ValueError("Invalid header value b'TOKEN-SECRET-1\\n'"), id="value-error"),
    ],
)
def test_any_library_error_while_sending_becomes_a_scrubbed_connection_error(make_client, error):
    client = make_client(error())
    with pytest.raises(VaultConnectionError) as raised:
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": "S3cr3t!pw", "RESETTYPE": "LOCAL"},
        )
    message = str(raised.value)
    assert message.startswith("CHANGE PASSWORD: the request could not be sent (")
    assert "TOKEN-SECRET-1" not in message and "S3cr3t" not in message and "INPUT_DATA" not in message
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_connection_error_text_loses_user_info_and_encoded_secrets(make_client):
    leak = (
        "HTTPSConnectionPool(host='v', port=1): Max retries exceeded (Caused by ProxyError("
        "'http://proxyuser:proxypass@proxy:3128' S3cr3t%21pw S3cr3t!pw))"
    )
    client = make_client(requests.exceptions.ConnectionError(leak))
    with pytest.raises(VaultConnectionError) as error:
        client.call(
            "change_password",
            path={"resource_id": "1", "account_id": "2"},
            details={"NEWPASSWORD": "S3cr3t!pw", "RESETTYPE": "LOCAL"},
        )
    message = str(error.value)
    assert "proxypass" not in message and "proxyuser" not in message and "S3cr3t" not in message


def test_scrub_masks_secrets_as_written_in_json_and_in_urls():
    secret = 'p a"s\\s&w/o\nrd'
    text = " | ".join((secret, json.dumps(secret), quote(secret, safe=""), quote_plus(secret)))
    scrubbed = scrub(text, [secret])
    assert "p a" not in scrubbed and "p%20a" not in scrubbed and "p+a" not in scrubbed
    assert scrubbed.count("********") == 4


# ---- validate_certs: false --------------------------------------------------------------------


def test_validate_certs_false_does_not_silence_urllib3_for_the_process(monkeypatch):
    called = []
    monkeypatch.setattr(urllib3, "disable_warnings", lambda *args: called.append(args))
    before = list(warnings.filters)
    client = VaultClient("https://v", "t", validate_certs=False)
    assert client.insecure is True and client.verify is False
    assert called == [] and warnings.filters == before
    assert VaultClient("https://v", "t").insecure is False


def test_insecure_warning_is_silenced_only_around_the_clients_own_requests(make_client):
    class WarningSession(FakeSession):
        def request(self, method, url, **kwargs):
            warnings.warn("Unverified HTTPS request", InsecureRequestWarning)
            return super().request(method, url, **kwargs)

    for insecure, expected in ((True, 0), (False, 1)):
        client = make_client(validate_certs=not insecure)
        client.session = WarningSession([ok([])])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            client.call("get_resources")
            warnings.warn("Unverified HTTPS request elsewhere", InsecureRequestWarning)
        assert len([w for w in caught if w.category is InsecureRequestWarning]) == expected + 1


def test_every_request_is_sent_without_following_redirects(make_client):
    client = make_client(ok([]), ok(), FakeResponse(content=b"file"))
    client.call("get_resources")
    client.call("create_resource", details={"RESOURCENAME": "r"}, files={"f": b"x"})
    client.call("download_file", path={"resource_id": "1", "account_id": "2"})
    assert [call["allow_redirects"] for call in client.session.calls] == [False, False, False]
