# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from urllib3.exceptions import MaxRetryError, NewConnectionError

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient, to_plain
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultConfigError,
    VaultConnectionError,
    VaultResponseError,
    VaultUnsupportedError,
)

from ansible_collections.credvault.vault.tests.unit.fakes import FakeResponse, ok


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


def test_tls_settings():
    assert VaultClient("https://v", "t").verify is True
    assert VaultClient("https://v", "t", ca_path="/ca.pem").verify == "/ca.pem"
    assert VaultClient("https://v", "t", validate_certs=False, ca_path="/ca.pem").verify is False


def test_ca_path_wins_over_requests_ca_bundle_environment(make_client, monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt")
    client = make_client(ok([]), ca_path="/private/ca.pem")
    client.call("get_resources")
    assert client.session.calls[0]["verify"] == "/private/ca.pem"


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
        client.call("add_accounts", path={"resource_id": "1"},
                    details={"ACCOUNTLIST": [{"ACCOUNTNAME": "a", "PASSWORD": "p", "TOTP_SECRET": "X"}]})
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
    client = make_client(FakeResponse(body={"name": "VALIDATE_PASSWORD",
                                            "result": {"status": "Success", "message": "Valid", "statusCode": 20000}}))
    client.call("validate_password", details={"password": "p", "passwordPolicy": "Strong"})
    assert input_data(client.session.calls[0]) == {
        "operation": {"details": {"password": "p", "passwordPolicy": "Strong"}}}


def test_query_parameters_and_path_quoting(make_client):
    client = make_client(ok({"RESOURCEID": "1"}), ok({"RESOURCEID": "1", "ACCOUNTID": "2"}))
    client.call("get_resource_id", path={"resource_name": "db/primary server"})
    assert client.session.calls[0]["url"].endswith("/resources/resourcename/db%2Fprimary%20server")
    client.call("get_resource_account_ids", query={"RESOURCENAME": "a&b", "ACCOUNTNAME": "root"})
    assert client.session.calls[1]["params"] == {"RESOURCENAME": "a&b", "ACCOUNTNAME": "root"}


def test_pki_root_and_multipart_part_name(make_client):
    client = make_client(FakeResponse(body={"name": "AddCertificate", "result": {"Status": "Success",
                                                                                 "Message": "added"}}))
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

@pytest.mark.parametrize("body, operation, details, total", [
    ({"operation": {"name": "GET RESOURCES", "result": {"status": "Success", "message": "m"},
                    "Details": [{"RESOURCE ID": "1"}], "totalRows": 1}}, "GET RESOURCES", [{"RESOURCE ID": "1"}], 1),
    ({"operation": {"operationName": "GET_USERGROUP(S)", "result": {"status": "Success", "message": "m"},
                    "Details": [], "totalRows": "0"}}, "GET_USERGROUP(S)", [], 0),
    ({"name": "VALIDATE_PASSWORD", "result": {"status": "Success", "message": "Valid", "statusCode": 20000}},
     "VALIDATE_PASSWORD", None, None),
    ({"name": "GetAllSSHKeys", "result": {"status": "Success", "message": "m"}, "totalRows": 2,
      "details": [{"KeyName": "k"}]}, "GetAllSSHKeys", [{"KeyName": "k"}], 2),
    ({"name": "AddCertificate", "result": {"Status": "Success", "Message": "added"}}, "AddCertificate", None, None),
    ({"name": "associateKey", "result": {"status": "SUCCESS", "message": "m"}}, "associateKey", None, None),
    ({"operationName": "SHARE_RESOURCEGROUP(S)", "result": {"statusCode": 20001, "message": "triggered"}},
     "SHARE_RESOURCEGROUP(S)", None, None),
])
def test_every_response_shape_normalizes(make_client, body, operation, details, total):
    client = make_client(FakeResponse(body=body))
    result = client.call("get_resources")
    assert (result.ok, result.operation, result.details, result.total_rows) == (True, operation, details, total)


def test_extra_top_level_keys_are_reachable(make_client):
    client = make_client(FakeResponse(body={"name": "GetAgentInstallKey", "result": {"status": "Success"},
                                            "AgentInstallKey": "K1"}))
    assert client.call("generate_install_key").get("AgentInstallKey") == "K1"


def test_result_status_is_the_authority_over_http_status(make_client):
    client = make_client(FakeResponse(status=500, body={"operation": {"name": "GET RESOURCES",
                                                                      "result": {"status": "Success"}}}))
    assert client.call("get_resources").ok


def test_failed_status_on_http_200_raises_with_operation_and_message(make_client):
    client = make_client(FakeResponse(body={"operation": {"name": "GET_RESOURCEID", "result": {
        "status": "Failed", "message": "Resource web does not exist"}}}))
    with pytest.raises(VaultAPIError) as error:
        client.call("get_resource_id", path={"resource_name": "web"})
    assert str(error.value) == "GET_RESOURCEID failed: Resource web does not exist"
    assert (error.value.operation, error.value.http_status) == ("GET_RESOURCEID", 200)


def test_http_status_is_named_when_not_200(make_client):
    client = make_client(FakeResponse(status=401, body={"operation": {"name": "AUTHENTICATION", "result": {
        "status": "Failed", "message": "invalid token"}}}))
    with pytest.raises(VaultAPIError, match=r"AUTHENTICATION failed \(HTTP 401\): invalid token"):
        client.call("get_resources")


@pytest.mark.parametrize("answer, text", [
    (FakeResponse(status=200, content=b""), "an empty body"),
    (FakeResponse(status=200, content=b"<html>oops</html>"), "not a JSON object"),
    (FakeResponse(status=404, content=b"[1, 2]"), "HTTP 404"),
    (FakeResponse(status=200, body={"operation": {"name": "GET RESOURCES"}}), "without a result status"),
    (FakeResponse(status=200, body={"result": "garbage", "operation": "x"}), "without a result status"),
])
def test_unusable_bodies_raise_response_errors(make_client, answer, text):
    client = make_client(answer)
    with pytest.raises(VaultResponseError, match=text):
        client.call("get_resources")


def test_failed_status_with_odd_types_still_raises(make_client):
    client = make_client(FakeResponse(body={"operation": {"name": ["x"], "result": {"status": "Failed",
                                                                                    "message": {"a": 1}}}}))
    with pytest.raises(VaultAPIError, match='"a": 1'):
        client.call("get_resources")


def test_secrets_and_token_are_scrubbed_from_vault_messages(make_client):
    client = make_client(FakeResponse(body={"operation": {"name": "CHANGE PASSWORD", "result": {
        "status": "Failed", "message": "password S3cr3t!pw rejected for token TOKEN-SECRET-1"}}}))
    with pytest.raises(VaultAPIError) as error:
        client.call("change_password", path={"resource_id": "1", "account_id": "2"},
                    details={"NEWPASSWORD": "S3cr3t!pw", "RESETTYPE": "LOCAL"})
    assert "S3cr3t!pw" not in str(error.value) and "TOKEN-SECRET-1" not in str(error.value)
    assert "S3cr3t!pw" not in error.value.vault_message


def test_file_endpoints_return_the_bytes(make_client):
    client = make_client(FakeResponse(content=b"\x00binary"))
    assert client.call("download_file", path={"resource_id": "1", "account_id": "2"}).content == b"\x00binary"


def test_file_endpoints_still_report_failures(make_client):
    client = make_client(FakeResponse(body={"operation": {"name": "DOWNLOAD FILE",
                                                          "result": {"status": "Failed", "message": "no file"}}}))
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
    assert "INPUT_DATA" not in str(error.value) and "3 attempt(s)" in str(error.value)


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
        urlsplit(call["url"]).query)
