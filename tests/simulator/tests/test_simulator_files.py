"""downloadfile: the file of a File Store or License Store resource, or of an additional field."""

import base64
import io

import pytest

from vault_simulator.areas.resources.file_download import REASON_REQUIRED
from vault_simulator.core.app import content_disposition
from vault_simulator.core.reason_and_ticket import TICKET_REQUIRED

DOWNLOAD = "/resources/1/accounts/1/downloadfile"
CONTENT = b"-----BEGIN LICENSE-----\nAB12-CD34\n-----END LICENSE-----\n"


def create_file_resource(
    vault, name="licenses", resource_type="License Store", upload=("product.lic", CONTENT), token=None
):
    """Create a file resource; ``upload`` is (file name, content), or None for no file."""
    details = {"RESOURCENAME": name, "ACCOUNTNAME": "product", "RESOURCETYPE": resource_type, "PASSWORD": "s3cret"}
    if token is None:
        details["OWNERNAME"] = "admin"
    files = {"file": (io.BytesIO(upload[1]), upload[0])} if upload else None
    vault.ok("POST", "/resources", details=details, files=files, **({"token": token} if token else {}))


def attach(vault, label, upload, account_id=None, token=None):
    """Give an additional field of resource 1 (or of its account ``account_id``) the file ``upload``."""
    file_name, content = upload
    document = {
        "resourceId": "1",
        "label": label,
        "fileName": file_name,
        "contentBase64": base64.b64encode(content).decode("ascii"),
    }
    if account_id:
        document["accountId"] = account_id
    return vault.client.post(
        "/__simulator/custom-field-files", json=document, headers={"AUTHTOKEN": token or vault.token}
    )


@pytest.fixture
def file_vault(vault):
    create_file_resource(vault)
    return vault


def test_download_answers_the_raw_file_as_an_attachment(file_vault):
    response = file_vault.send("GET", DOWNLOAD)
    assert response.status_code == 200
    assert response.get_data() == CONTENT
    assert response.headers["Content-Disposition"] == 'attachment; filename="product.lic"'
    assert response.mimetype == "application/octet-stream"


@pytest.mark.parametrize(
    "file_name, disposition",
    [
        ("product.lic", 'attachment; filename="product.lic"'),
        ('say "hi".lic', 'attachment; filename="say \\"hi\\".lic"'),
        ("back\\slash.lic", 'attachment; filename="back\\\\slash.lic"'),
        ("line\nbreak.lic", "attachment; filename=\"linebreak.lic\"; filename*=UTF-8''line%0Abreak.lic"),
        (
            "licen\u00e7a \u20ac.lic",
            "attachment; filename=\"licenca .lic\"; filename*=UTF-8''licen%C3%A7a%20%E2%82%AC.lic",
        ),
        ("\u6771\u4eac.lic", "attachment; filename=\".lic\"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC.lic"),
    ],
)
def test_the_file_name_is_given_as_rfc_6266_says(file_name, disposition):
    assert content_disposition(file_name) == disposition


def test_a_name_outside_ascii_is_sent_as_filename_star(vault):
    create_file_resource(vault, upload=("licen\u00e7a.lic", CONTENT))
    assert vault.send("GET", DOWNLOAD).headers["Content-Disposition"] == (
        "attachment; filename=\"licenca.lic\"; filename*=UTF-8''licen%C3%A7a.lic"
    )


@pytest.mark.parametrize("content", [b"", b'{"operation": {"result": {"status": "Failed"}}}'])
def test_an_empty_or_json_file_is_answered_as_an_attachment(vault, content):
    create_file_resource(vault, upload=("stored.json", content))
    response = vault.send("GET", DOWNLOAD)
    assert response.status_code == 200 and response.get_data() == content
    assert response.headers["Content-Disposition"] == 'attachment; filename="stored.json"'


def test_download_of_a_file_store_guesses_the_type(vault):
    create_file_resource(vault, name="docs", resource_type="File Store", upload=("runbook.txt", b"step 1"))
    response = vault.send("GET", DOWNLOAD)
    assert (response.get_data(), response.mimetype) == (b"step 1", "text/plain")


def test_download_counts_as_an_access(file_vault):
    assert file_vault.store.get("account", "1")["last_accessed"] is None
    file_vault.send("GET", DOWNLOAD)
    assert file_vault.store.get("account", "1")["last_accessed"] is not None


def test_download_needs_reason_and_ticket_when_forced(make_vault):
    vault = make_vault(require_reason=True, require_ticket=True)
    create_file_resource(vault)
    vault.failed("GET", DOWNLOAD, REASON_REQUIRED)
    vault.failed("GET", DOWNLOAD, TICKET_REQUIRED, details={"REASON": "renewal"})
    response = vault.send("GET", DOWNLOAD, details={"REASON": "renewal", "TICKETID": "T-9"})
    assert response.get_data() == CONTENT


def test_download_failures_answer_json(vault):
    vault.create_resource("web01")
    vault.failed(
        "GET", DOWNLOAD, "Resource web01 is of type Linux: only File Store and License Store resources hold a file"
    )
    create_file_resource(vault, name="empty", resource_type="File Store", upload=None)
    vault.failed("GET", "/resources/2/accounts/2/downloadfile", "Resource empty holds no file")
    vault.failed("GET", "/resources/2/accounts/1/downloadfile", "Account with ID 1 does not exist in resource empty")
    vault.failed("GET", "/resources/9/accounts/1/downloadfile", "Resource with ID 9 does not exist")


def test_download_needs_access_to_the_resource(file_vault):
    pat = file_vault.create_api_user("pat")
    file_vault.failed("GET", DOWNLOAD, "You are not authorized to download the file of licenses/product", token=pat)
    create_file_resource(
        file_vault, name="pat-files", resource_type="File Store", upload=("notes.txt", b"mine"), token=pat
    )
    assert file_vault.send("GET", "/resources/2/accounts/2/downloadfile", token=pat).get_data() == b"mine"


def test_download_of_account_and_resource_field_files(vault):
    vault.create_resource(
        "krb01", resource_type="Windows", ACCOUNTCUSTOMFIELD=[{"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"}]
    )
    assert attach(vault, "Keytab", ("svc.keytab", b"\x05\x02keytab"), account_id="1").status_code == 201
    assert attach(vault, "Diagram", ("rack.png", b"\x89PNG")).status_code == 201
    response = vault.send(
        "GET", DOWNLOAD, details={"ISCUSTOMFIELD": "true", "CUSTOMFIELDTYPE": "ACCOUNT", "CUSTOMFIELDLABEL": "Keytab"}
    )
    assert response.get_data() == b"\x05\x02keytab"
    assert response.headers["Content-Disposition"] == 'attachment; filename="svc.keytab"'
    response = vault.send(
        "GET", DOWNLOAD, details={"ISCUSTOMFIELD": True, "CUSTOMFIELDTYPE": "RESOURCE", "CUSTOMFIELDLABEL": "Diagram"}
    )
    assert (response.get_data(), response.mimetype) == (b"\x89PNG", "image/png")
    fields = vault.ok("GET", "/resources/1/accounts/1")["Details"]["CUSTOM FIELD"]
    assert {f["CUSTOMFIELDLABEL"]: f["CUSTOMFIELDVALUE"] for f in fields} == {"Team": "ops", "Keytab": "svc.keytab"}


def test_an_edited_field_value_keeps_its_file(vault):
    vault.create_resource("krb01")
    attach(vault, "Keytab", ("svc.keytab", b"keytab"), account_id="1")
    renamed = [{"CUSTOMLABEL": "Keytab", "CUSTOMVALUE": "renamed"}]
    vault.ok("PUT", "/resources/1/accounts/1", details={"ACCOUNTCUSTOMFIELD": renamed})
    response = vault.send(
        "GET", DOWNLOAD, details={"ISCUSTOMFIELD": "true", "CUSTOMFIELDTYPE": "ACCOUNT", "CUSTOMFIELDLABEL": "Keytab"}
    )
    assert response.get_data() == b"keytab"


@pytest.mark.parametrize(
    "details, message",
    [
        ({"CUSTOMFIELDLABEL": "Keytab"}, "CUSTOMFIELDTYPE is required"),
        ({"CUSTOMFIELDTYPE": "account", "CUSTOMFIELDLABEL": "Keytab"}, "CUSTOMFIELDTYPE must be ACCOUNT or RESOURCE"),
        ({"CUSTOMFIELDTYPE": "ACCOUNT"}, "CUSTOMFIELDLABEL is required"),
        ({"CUSTOMFIELDTYPE": "ACCOUNT", "CUSTOMFIELDLABEL": "Nope"}, "The account root has no additional field Nope"),
        (
            {"CUSTOMFIELDTYPE": "ACCOUNT", "CUSTOMFIELDLABEL": "Team"},
            "The additional field Team of account root holds no file",
        ),
        (
            {"CUSTOMFIELDTYPE": "RESOURCE", "CUSTOMFIELDLABEL": "Keytab"},
            "The resource krb01 has no additional field Keytab",
        ),
    ],
)
def test_field_download_failures(vault, details, message):
    vault.create_resource("krb01", ACCOUNTCUSTOMFIELD=[{"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"}])
    attach(vault, "Keytab", ("svc.keytab", b"keytab"), account_id="1")
    vault.failed("GET", DOWNLOAD, message, details={"ISCUSTOMFIELD": "true", **details})


@pytest.mark.parametrize(
    "document, status, error",
    [
        ({"label": "K", "fileName": "k", "contentBase64": "aw=="}, 400, "missing resourceId"),
        (
            {"resourceId": "1", "label": "K", "fileName": "k", "contentBase64": "not base64!"},
            400,
            "contentBase64 is not base64",
        ),
        ({"resourceId": "9", "label": "K", "fileName": "k", "contentBase64": "aw=="}, 404, "resource 9 does not exist"),
        (
            {"resourceId": "1", "accountId": "9", "label": "K", "fileName": "k", "contentBase64": "aw=="},
            404,
            "account 9 does not exist in resource krb01",
        ),
    ],
)
def test_attaching_a_field_file_checks_its_input(vault, document, status, error):
    vault.create_resource("krb01")
    response = vault.client.post("/__simulator/custom-field-files", json=document, headers={"AUTHTOKEN": vault.token})
    assert (response.status_code, response.get_json()) == (status, {"error": error})


def test_attaching_a_field_file_needs_the_admin_token(vault):
    vault.create_resource("krb01")
    pat = vault.create_api_user("pat")
    assert attach(vault, "Keytab", ("svc.keytab", b"keytab"), token=pat).status_code == 401
    assert vault.store.get("resource", "1")["custom_fields"] == []
