# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The certificate gateway (``_api.certificates``): what each row sends, what it reads back, and how a missing
certificate reads."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import certificates as certificates_api
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultConnectionError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import NO_SUCH_CERTIFICATE, NOT_YOURS, ScriptedClient

SHOP = {"common_name": "shop.example.com", "serial_number": "0A"}


class ResponseClient(ScriptedClient):
    """A ScriptedClient that answers every call, once it passes the client's checks, with ``response`` itself (a
    message, a file); it records the files sent."""

    def __init__(self, response, **kwargs):
        super().__init__({}, **kwargs)
        self.response = response
        self.files = []

    def call(self, key, path=None, details=None, query=None, files=None):
        self.answers = {key: None}
        super().call(key, path, details, query, files)
        self.files.append(files)
        return self.response


def answered(message="", content=None, **body):
    return VaultResponse("OP", "Success", message, None, None, None, 200, body, content=content)


def sent(client):
    """``(key, details)`` of each call."""
    return [(key, details) for key, dummy_path, details, dummy_query in client.calls]


# --- GetCertificateDetails ---------------------------------------------------------------------------------------


def test_details_of_a_missing_certificate_are_not_found_with_the_vaults_words():
    client = ScriptedClient({"get_certificate_details": NO_SUCH_CERTIFICATE})
    with pytest.raises(VaultNotFoundError) as caught:
        certificates_api.get_certificate_details(client, "gone.example.com", "0A")
    assert str(caught.value) == "GetCertificateDetails failed: Certificate does not exist"
    assert caught.value.vault_message == "Certificate does not exist"
    assert (caught.value.operation, caught.value.http_status) == ("GetCertificateDetails", 200)
    assert sent(client) == [("get_certificate_details", {"common_name": "gone.example.com", "serial_number": "0A"})]


@pytest.mark.parametrize(
    "failure",
    [NOT_YOURS, VaultConnectionError("GetCertificateDetails: connection refused")],
    ids=["refusal", "no answer"],
)
def test_details_refused_to_this_token_or_unanswered_are_raised_as_they_are(failure):
    client = ScriptedClient({"get_certificate_details": failure})
    with pytest.raises(type(failure)) as caught:
        certificates_api.get_certificate_details(client, "intranet.example.com")
    assert caught.value is failure and not isinstance(caught.value, VaultNotFoundError)


def test_details_are_the_items_of_the_common_name_and_a_serial_number_only_when_given():
    item = {"endpoint": {"serial": "0a"}, "certificateTemplate": "WebServer"}
    client = ScriptedClient({"get_certificate_details": [item, "not an item"]})
    assert certificates_api.get_certificate_details(client, "shop.example.com") == [item]
    certificates_api.get_certificate_details(client, "shop.example.com", "")
    assert [details for dummy, details in sent(client)] == [{"common_name": "shop.example.com"}] * 2


# --- lists -------------------------------------------------------------------------------------------------------


def test_lists_send_no_input_without_a_filter_or_a_name():
    client = ScriptedClient({"get_all_ssl_certificates": [{"Common Name": "a"}], "get_csr_list": [{"CSR_ID": 1}]})
    assert certificates_api.get_all_ssl_certificates(client, {}) == [{"Common Name": "a"}]
    certificates_api.get_all_ssl_certificates(client, {"withKeyLength": "2048"})
    assert certificates_api.get_csr_list(client) == [{"CSR_ID": 1}]
    certificates_api.get_csr_list(client, "shop.example.com")
    assert sent(client) == [
        ("get_all_ssl_certificates", None),
        ("get_all_ssl_certificates", {"withKeyLength": "2048"}),
        ("get_csr_list", None),
        ("get_csr_list", {"common_name": "shop.example.com"}),
    ]


# --- files, messages and writes ----------------------------------------------------------------------------------


def test_a_certificate_file_is_the_answers_bytes_and_file_type_is_gated():
    client = ResponseClient(answered(content=b"-----BEGIN CERTIFICATE-----"), edition="B", build=6200)
    assert certificates_api.get_certificate(client, "shop.example.com", "0A", "PEM").startswith(b"-----BEGIN")
    assert certificates_api.get_certificate_keystore(client, "shop.example.com") == b"-----BEGIN CERTIFICATE-----"
    assert sent(client) == [
        ("get_certificate", dict(SHOP, fileType="PEM")),
        ("get_certificate_keystore", {"common_name": "shop.example.com"}),
    ]
    older = ResponseClient(answered(content=b"x"), edition="B", build=6100)
    with pytest.raises(VaultUnsupportedError, match="fileType"):
        certificates_api.get_certificate(older, "shop.example.com", "0A", "PEM")
    assert older.calls == []


def test_the_passphrase_is_the_answers_message():
    client = ResponseClient(answered("Secret-phr4se"))
    assert certificates_api.get_certificate_passphrase(client, "shop.example.com", "0A") == "Secret-phr4se"
    assert sent(client) == [("get_certificate_passphrase", SHOP)]


def test_an_added_file_sends_its_password_only_for_a_key_store():
    client = ResponseClient(answered("Certificate x (serial number abc) added"))
    files = {"shop.pem": b"-----BEGIN CERTIFICATE-----"}
    assert certificates_api.add_certificate(client, "CERTFILE", files) == "Certificate x (serial number abc) added"
    certificates_api.add_certificate(client, "KEYSTORE", {"shop.p12": b"\x30"}, "Store-pw")
    assert sent(client) == [
        ("add_certificate", {"fileType": "CERTFILE"}),
        ("add_certificate", {"fileType": "KEYSTORE", "PASSWORD": "Store-pw"}),
    ]
    assert client.files == [files, {"shop.p12": b"\x30"}]


def test_a_delete_sends_both_selector_keys_as_the_list_item_gives_them():
    client = ScriptedClient({"delete_certificate": None})
    certificates_api.delete_certificate(client, "shop.example.com", None)
    assert sent(client) == [("delete_certificate", {"common_name": "shop.example.com", "serial_number": None})]


def test_a_deployment_names_a_server_only_when_given_and_answers_the_whole_response():
    statuses = [{"server": "web01", "status": "Success", "message": "deployed"}]
    client = ResponseClient(answered("done", deployStatus=statuses), edition="A", build=11300)
    assert certificates_api.deploy_certificate(client, "shop.example.com", "0A").get("deployStatus") == statuses
    certificates_api.deploy_certificate(client, "shop.example.com", None, "web01")
    assert sent(client) == [
        ("deploy_certificate", SHOP),
        ("deploy_certificate", {"common_name": "shop.example.com", "serverName": "web01"}),
    ]


def test_signing_sends_the_csr_id_as_a_string():
    client = ScriptedClient({"sign_csr": None})
    certificates_api.sign_csr(client, "ca01", "Issuing CA", "WebServer", 105)
    assert sent(client) == [
        ("sign_csr", {"serverName": "ca01", "caName": "Issuing CA", "templateName": "WebServer", "CSR_ID": "105"})
    ]


# --- shares and groups -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "target", "details"),
    [
        (certificates_api.share_certificate_with_user, SHOP, dict(SHOP, userId="7")),
        (certificates_api.share_certificate_with_group, SHOP, dict(SHOP, userGroupId="7")),
        (certificates_api.revoke_certificate_from_user, SHOP, dict(SHOP, userId="7")),
        (certificates_api.revoke_certificate_from_group, SHOP, dict(SHOP, userGroupId="7")),
        (certificates_api.share_certificate_group_with_user, "Web", {"certificate_group_name": "Web", "userId": "7"}),
        (
            certificates_api.share_certificate_group_with_group,
            "Web",
            {"certificate_group_name": "Web", "userGroupId": "7"},
        ),
        (certificates_api.revoke_certificate_group_from_user, "Web", {"certificate_group_name": "Web", "userId": "7"}),
        (
            certificates_api.revoke_certificate_group_from_group,
            "Web",
            {"certificate_group_name": "Web", "userGroupId": "7"},
        ),
    ],
    ids=lambda value: getattr(value, "__name__", "-"),
)
def test_each_share_row_sends_its_target_with_its_grantee_field_and_answers_the_message(function, target, details):
    client = ResponseClient(answered("Shared"))
    assert function(client, target, "7") == "Shared"
    assert sent(client) == [(function.endpoint.key, details)]


def test_a_group_edit_names_the_group_to_rename_only_for_a_rename():
    group = {"group_name": "Web2", "group_description": "shop", "group_mail": "", "ssl_details": "4"}
    client = ScriptedClient({"edit_certificate_group": [group], "create_certificate_group": []})
    assert certificates_api.edit_certificate_group(client, "Web2", {"ssl_details": "4"}, old_group_name="Web") == [
        group
    ]
    certificates_api.edit_certificate_group(client, "Web2", {})
    assert certificates_api.create_certificate_group(client, "Web3", {"group_mail": ""}) == []
    assert sent(client) == [
        ("edit_certificate_group", {"ssl_details": "4", "group_name": "Web2", "old_group_name": "Web"}),
        ("edit_certificate_group", {"group_name": "Web2"}),
        ("create_certificate_group", {"group_mail": "", "group_name": "Web3"}),
    ]
