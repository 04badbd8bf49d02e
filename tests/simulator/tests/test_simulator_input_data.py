"""INPUT_DATA in a urlencoded body is read whatever the body's Content-Type says.

The spec defines the encoding (form-urlencoded, or multipart for uploads), not
the header: a published client sends the urlencoded body as ``text/json``,
others send no Content-Type at all. Each label is sent through the Flask test
client (the whole request pipeline) for a POST, a PUT and a DELETE that read
Details; test_simulator_cli sends the client's own label over real HTTPS.
"""

import io
import json
from urllib.parse import urlencode

import pytest
from conftest import PKI_ROOT, REST_ROOT

LABELS = [
    None,
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=UTF-8",
    "APPLICATION/X-WWW-FORM-URLENCODED",
    "text/json",
    "text/json; charset=utf-8",
    "TEXT/JSON",
    "text/plain",
    "application/json",
    "Application/JSON; charset=UTF-8",
]


def input_data(details, key="Details"):
    return json.dumps({"operation": {key: details}})


def send(vault, method, path, body=None, content_type=None, query=None, root=REST_ROOT):
    """Send ``body`` (bytes) labelled ``content_type`` (no Content-Type header for ``None``)."""
    headers = {"AUTHTOKEN": vault.token}
    if content_type is not None:
        headers["Content-Type"] = content_type
    response = vault.client.open(root + path, method=method, data=body, query_string=query or {}, headers=headers)
    assert response.status_code == 200, response.get_data()
    return response.get_json()


def urlencoded(details, key="Details"):
    return urlencode({"INPUT_DATA": input_data(details, key)}).encode("ascii")


def resource_details(name, **fields):
    return {
        "RESOURCENAME": name,
        "ACCOUNTNAME": "root",
        "RESOURCETYPE": "Linux",
        "PASSWORD": "s3cret",
        "OWNERNAME": "admin",
        **fields,
    }


def add_user_group(vault, name):
    response = vault.client.post(
        "/__simulator/user-groups", json={"userGroupName": name}, headers={"AUTHTOKEN": vault.token}
    )
    return response.get_json()["userGroupId"]


def resource_named(vault, name):
    return next((r for r in vault.store.all("resource") if r["name"] == name), None)


@pytest.mark.parametrize("content_type", LABELS)
def test_post_reads_a_urlencoded_body_whatever_its_label(vault, content_type):
    body = send(vault, "POST", "/resources", urlencoded(resource_details("web 01")), content_type)
    assert body["operation"]["result"] == {
        "status": "Success",
        "message": "Resource web 01 has been added successfully",
    }
    assert resource_named(vault, "web 01")["type"] == "Linux"


@pytest.mark.parametrize("content_type", LABELS)
def test_put_reads_a_urlencoded_body_whatever_its_label(vault, content_type):
    resource_id, _account_id = vault.create_resource("web01")
    details = {"RESOURCEDESCRIPTION": "Büro ✓ 50% & more", "LOCATION": "Room+4"}
    body = send(vault, "PUT", f"/resources/{resource_id}", urlencoded(details), content_type)
    assert body["operation"]["result"]["status"] == "Success", body
    stored = vault.store.get("resource", resource_id)
    assert (stored["description"], stored["location"]) == ("Büro ✓ 50% & more", "Room+4")


@pytest.mark.parametrize("content_type", LABELS)
def test_delete_reads_a_urlencoded_body_whatever_its_label(vault, content_type):
    group_id = add_user_group(vault, "ops")
    body = send(vault, "DELETE", "/userGroup", urlencoded({"userGroupIds": [group_id]}, key="details"), content_type)
    assert body["operation"]["result"] == {"status": "Success", "message": "1 of 1 user groups deleted"}
    assert vault.store.get("user_group", str(group_id)) is None


@pytest.mark.parametrize("content_type", ["text/json", None])
def test_pki_delete_reads_a_urlencoded_body_whatever_its_label(vault, content_type):
    created = send(
        vault,
        "POST",
        "/createsshkey",
        urlencoded({"keyName": "deploy", "keyType": "ed25519"}),
        content_type,
        root=PKI_ROOT,
    )
    assert created["result"]["status"] == "Success", created
    body = send(vault, "DELETE", "/deleteSSHKey", urlencoded({"key_name": "deploy"}), content_type, root=PKI_ROOT)
    assert body["result"] == {"status": "Success", "message": "SSH key deploy deleted successfully"}


def test_a_body_without_input_data_leaves_details_empty(vault):
    body = send(
        vault, "POST", "/resources", b'{"operation": {"Details": {"RESOURCENAME": "web01"}}}', "application/json"
    )
    assert body["operation"]["result"] == {"status": "Failed", "message": "RESOURCENAME is required"}


def test_a_repeated_input_data_uses_the_first(vault):
    body = urlencoded(resource_details("first")) + b"&" + urlencoded(resource_details("second"))
    send(vault, "POST", "/resources", body, "text/json")
    assert resource_named(vault, "first") is not None and resource_named(vault, "second") is None


def test_the_body_wins_over_the_query_string(vault):
    query = {"INPUT_DATA": input_data(resource_details("from-query"))}
    send(vault, "POST", "/resources", urlencoded(resource_details("from-body")), "text/json", query=query)
    assert resource_named(vault, "from-body") is not None and resource_named(vault, "from-query") is None


def test_the_query_string_is_read_when_the_body_has_no_input_data(vault):
    send(vault, "POST", "/resources", b"", "text/json", query={"INPUT_DATA": input_data(resource_details("q"))})
    assert resource_named(vault, "q") is not None
    group_id = add_user_group(vault, "ops")
    body = send(
        vault,
        "DELETE",
        "/userGroup",
        b"unrelated=1",
        None,
        query={"INPUT_DATA": input_data({"userGroupIds": [group_id]}, key="details")},
    )
    assert body["operation"]["result"]["status"] == "Success", body


def test_malformed_input_data_in_a_mislabelled_body_is_refused(vault):
    body = send(vault, "POST", "/resources", b"INPUT_DATA=%7Bnot+json", "text/json")
    assert body["operation"]["result"] == {"status": "Failed", "message": "Invalid INPUT_DATA: not a JSON document"}


def test_a_multipart_upload_keeps_working(vault):
    response = vault.client.post(
        REST_ROOT + "/resources",
        headers={"AUTHTOKEN": vault.token},
        data={
            "INPUT_DATA": input_data(resource_details("licenses", RESOURCETYPE="License Store")),
            "file": (io.BytesIO(b"KEY-1234"), "license.txt"),
        },
        content_type="multipart/form-data",
    )
    assert response.get_json()["operation"]["result"]["status"] == "Success", response.get_json()
    assert resource_named(vault, "licenses")["file"]["name"] == "license.txt"
