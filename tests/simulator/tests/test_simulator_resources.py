"""GET/POST /resources, PUT/DELETE /resources/{id}, the id lookups and resource types."""

import base64
import io

import pytest

from vault_simulator.areas.resources.resource_types import RESOURCE_TYPE_NAMES

BASE = {"RESOURCENAME": "web01", "ACCOUNTNAME": "root", "RESOURCETYPE": "Linux", "PASSWORD": "pw", "OWNERNAME": "admin"}
TYPE_FIELDS = {
    "RESOURCETYPE",
    "DEFAULTRESOURCETYPE",
    "CUSTOMRESOURCETYPE",
    "ISDEFAULT_SUPPORTED_RESOURCETYPE",
    "ISSYNCSUPPORTED",
    "ISCERTIFICATE",
    "CATEGORY",
    "SYNCTYPE",
    "OSID",
    "COMMAND_SET",
    "RESOURCE_ATTRIBUTES",
    "ACCOUNT_ATTRIBUTES",
}


def detail(vault, resource_id):
    return vault.ok("GET", f"/resources/{resource_id}/accounts")["Details"]


def custom_fields(n, prefix="F"):
    return [{"CUSTOMLABEL": f"{prefix}{i}", "CUSTOMVALUE": str(i)} for i in range(n)]


def test_empty_list(vault):
    operation = vault.ok("GET", "/resources")
    assert operation["Details"] == [] and operation["totalRows"] == 0


def test_list_items_edition_a(vault):
    vault.create_resource("web01", RESOURCEDESCRIPTION="front end")
    operation = vault.ok("GET", "/resources")
    assert operation["name"] == "GET RESOURCES"
    assert operation["totalRows"] == 1
    assert operation["Details"] == [
        {
            "RESOURCE ID": "1",
            "RESOURCE NAME": "web01",
            "RESOURCE DESCRIPTION": "front end",
            "RESOURCE TYPE": "Linux",
            "NOOFACCOUNTS": "1",
        }
    ]


def test_list_items_edition_b_have_dns_name(make_vault):
    vault = make_vault(edition="B")
    vault.create_resource("web01")
    assert vault.ok("GET", "/resources")["Details"][0]["DNS NAME"] == "web01"


def test_create_resource_and_its_first_account(vault):
    operation = vault.ok(
        "POST",
        "/resources",
        details={
            **BASE,
            "RESOURCEURL": "https://web01",
            "NOTES": "first notes",
            "RESOURCEPASSWORDPOLICY": "Medium",
            "ACCOUNTPASSWORDPOLICY": "Low",
            "RESOURCECUSTOMFIELD": [{"CUSTOMLABEL": "Env", "CUSTOMVALUE": "prod"}],
            "ACCOUNTCUSTOMFIELD": [{"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"}],
        },
    )
    assert operation == {
        "name": "CREATE RESOURCE",
        "result": {"status": "Success", "message": "Resource web01 has been added successfully"},
    }
    resource = detail(vault, "1")
    assert resource["RESOURCE URL"] == "https://web01"
    assert resource["PASSWORD POLICY"] == "Medium"
    assert resource["RESOURCE OWNER"] == "admin"
    assert resource["CUSTOM FIELD"] == [
        {
            "CUSTOMFIELDVALUE": "prod",
            "CUSTOMFIELDTYPE": "Character",
            "CUSTOMFIELDLABEL": "Env",
            "CUSTOMFIELDCOLUMNNAME": "COLUMN_CHAR1",
        }
    ]
    account = vault.ok("GET", "/resources/1/accounts/1")["Details"]
    assert account["DESCRIPTION"] == "first notes"
    assert account["CUSTOM FIELD"][0]["CUSTOMFIELDLABEL"] == "Team"
    assert account["CUSTOM FIELD"][0]["CUSTOMFIELDCOLUMNNAME"] == "COLUMN_CHAR1"
    assert vault.store.get("account", "1")["policy"] == "Low"


@pytest.mark.parametrize("missing", ["RESOURCENAME", "ACCOUNTNAME", "RESOURCETYPE", "PASSWORD"])
def test_create_needs_the_required_fields(vault, missing):
    details = {key: value for key, value in BASE.items() if key != missing}
    vault.failed("POST", "/resources", f"{missing} is required", details=details)


def test_create_refuses_unknown_type_duplicate_name_and_unknown_policy(vault):
    vault.failed(
        "POST", "/resources", "Resource type Mainframe does not exist", details={**BASE, "RESOURCETYPE": "Mainframe"}
    )
    vault.ok("POST", "/resources", details=BASE)
    vault.failed("POST", "/resources", "Resource web01 already exists", details=BASE)
    vault.failed(
        "POST",
        "/resources",
        "Password policy Weakest does not exist",
        details={**BASE, "RESOURCENAME": "web02", "RESOURCEPASSWORDPOLICY": "Weakest"},
    )


def test_administrators_must_name_an_existing_owner(vault):
    without_owner = {key: value for key, value in BASE.items() if key != "OWNERNAME"}
    vault.failed(
        "POST",
        "/resources",
        "OWNERNAME is required when an Administrator, Password Administrator "
        "or Privileged Administrator creates a resource",
        details=without_owner,
    )
    vault.failed("POST", "/resources", "User nobody does not exist", details={**BASE, "OWNERNAME": "nobody"})


def test_owner_name_sets_the_owner(vault):
    vault.create_api_user("bob")
    vault.create_resource("web01", OWNERNAME="bob")
    assert detail(vault, "1")["RESOURCE OWNER"] == "bob"


def test_at_most_20_custom_fields_per_level(vault):
    vault.failed(
        "POST",
        "/resources",
        "RESOURCECUSTOMFIELD has 21 fields: at most 20 are allowed",
        details={**BASE, "RESOURCECUSTOMFIELD": custom_fields(21)},
    )
    vault.failed(
        "POST",
        "/resources",
        "ACCOUNTCUSTOMFIELD has 21 fields: at most 20 are allowed",
        details={**BASE, "ACCOUNTCUSTOMFIELD": custom_fields(21)},
    )
    vault.ok(
        "POST",
        "/resources",
        details={**BASE, "RESOURCECUSTOMFIELD": custom_fields(20, "R"), "ACCOUNTCUSTOMFIELD": custom_fields(20, "A")},
    )
    assert detail(vault, "1")["CUSTOM FIELD"][19]["CUSTOMFIELDCOLUMNNAME"] == "COLUMN_CHAR20"


def test_custom_field_needs_a_label(vault):
    vault.failed(
        "POST",
        "/resources",
        "Every item of RESOURCECUSTOMFIELD needs a CUSTOMLABEL",
        details={**BASE, "RESOURCECUSTOMFIELD": [{"CUSTOMVALUE": "x"}]},
    )


def test_resource_group_name_creates_then_joins_a_static_group(vault):
    vault.create_resource("web01", RESOURCEGROUPNAME="Web servers")
    vault.create_resource("web02", RESOURCEGROUPNAME="Web servers")
    groups = vault.store.all("resource_group")
    assert len(groups) == 1
    assert groups[0]["name"] == "Web servers" and groups[0]["type"] == "static"
    assert groups[0]["resources"] == ["1", "2"]


def test_file_store_keeps_the_uploaded_bytes(vault):
    content = b"\x00licence bytes\xff"
    vault.ok(
        "POST",
        "/resources",
        files={"file": (io.BytesIO(content), "licence.lic")},
        details={**BASE, "RESOURCENAME": "licences", "RESOURCETYPE": "License Store"},
    )
    stored = vault.store.get("resource", "1")["file"]
    assert stored["name"] == "licence.lic"
    assert base64.b64decode(stored["content_base64"]) == content


def test_file_refused_for_other_types(vault):
    vault.failed(
        "POST",
        "/resources",
        "A file can only be added to a resource of type File Store or License Store",
        files={"file": (io.BytesIO(b"x"), "x.txt")},
        details=BASE,
    )


def test_edit_resource_fields(vault):
    vault.create_resource(
        "web01",
        RESOURCECUSTOMFIELD=[
            {"CUSTOMLABEL": "Env", "CUSTOMVALUE": "prod"},
            {"CUSTOMLABEL": "Tier", "CUSTOMVALUE": "1"},
        ],
    )
    operation = vault.ok(
        "PUT",
        "/resources/1",
        details={
            "RESOURCENAME": "web01-renamed",
            "LOCATION": "Paris",
            "RESOURCEURL": "https://new",
            "DEPARTMENT": "IT",
            "RESOURCEDESCRIPTION": "renamed",
            "RESOURCEPASSWORDPOLICY": "Low",
            "RESOURCETYPE": "Windows",
            "RESOURCECUSTOMFIELD": [
                {"CUSTOMLABEL": "Env", "CUSTOMVALUE": "test"},
                {"CUSTOMLABEL": "Zone", "CUSTOMVALUE": "eu"},
            ],
        },
    )
    assert operation["name"] == "EDIT RESOURCE"
    resource = detail(vault, "1")
    assert {
        key: resource[key]
        for key in (
            "RESOURCE NAME",
            "LOCATION",
            "RESOURCE URL",
            "DEPARTMENT",
            "RESOURCE DESCRIPTION",
            "PASSWORD POLICY",
            "RESOURCE TYPE",
        )
    } == {
        "RESOURCE NAME": "web01-renamed",
        "LOCATION": "Paris",
        "RESOURCE URL": "https://new",
        "DEPARTMENT": "IT",
        "RESOURCE DESCRIPTION": "renamed",
        "PASSWORD POLICY": "Low",
        "RESOURCE TYPE": "Windows",
    }
    assert [
        (f["CUSTOMFIELDLABEL"], f["CUSTOMFIELDVALUE"], f["CUSTOMFIELDCOLUMNNAME"]) for f in resource["CUSTOM FIELD"]
    ] == [("Env", "test", "COLUMN_CHAR1"), ("Tier", "1", "COLUMN_CHAR2"), ("Zone", "eu", "COLUMN_CHAR3")]


def test_edit_refuses_a_taken_name_and_an_unknown_id(vault):
    vault.create_resource("web01")
    vault.create_resource("web02")
    vault.failed("PUT", "/resources/2", "Resource web01 already exists", details={"RESOURCENAME": "web01"})
    vault.failed("PUT", "/resources/99", "Resource with ID 99 does not exist", details={"LOCATION": "x"})


@pytest.mark.parametrize(
    "current, requested",
    [("Linux", "Key Store"), ("Linux", "AWS IAM"), ("License Store", "File Store"), ("Rackspace", "Linux")],
)
def test_type_cannot_change_from_or_to_fixed_types(vault, current, requested):
    vault.create_resource("r", resource_type=current)
    vault.failed(
        "PUT",
        "/resources/1",
        "The resource type cannot be changed from or to Key Store, License Store, Rackspace or AWS IAM",
        details={"RESOURCETYPE": requested},
    )
    assert detail(vault, "1")["RESOURCE TYPE"] == current


def test_type_change_to_unknown_type_fails(vault):
    vault.create_resource("r")
    vault.failed("PUT", "/resources/1", "Resource type Toaster does not exist", details={"RESOURCETYPE": "Toaster"})


def test_delete_resource_takes_its_accounts(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.ok(
        "POST",
        f"/resources/{resource_id}/accounts",
        details={"ACCOUNTLIST": [{"ACCOUNTNAME": "second", "PASSWORD": "pw"}]},
    )
    operation = vault.ok("DELETE", f"/resources/{resource_id}")
    assert operation["name"] == "DELETE RESOURCE"
    assert vault.store.all("account") == []
    assert vault.ok("GET", "/resources")["totalRows"] == 0
    vault.failed("DELETE", f"/resources/{resource_id}", f"Resource with ID {resource_id} does not exist")


def test_resource_id_by_name(vault):
    vault.create_resource("web 01")
    operation = vault.ok("GET", "/resources/resourcename/web 01")
    assert operation["name"] == "GET_RESOURCEID"
    assert operation["Details"] == {"RESOURCEID": "1"}
    vault.failed("GET", "/resources/resourcename/ghost", "Resource ghost does not exist")


def test_resource_and_account_ids_by_names(vault):
    vault.create_resource("web01", account="deploy")
    operation = vault.ok(
        "GET", "/resources/getResourceIdAccountId", query={"RESOURCENAME": "web01", "ACCOUNTNAME": "deploy"}
    )
    assert operation["name"] == "GET_RESOURCEACCOUNTID"
    assert operation["Details"] == {"RESOURCEID": "1", "ACCOUNTID": "1"}
    vault.failed(
        "GET",
        "/resources/getResourceIdAccountId",
        "Resource ghost does not exist",
        query={"RESOURCENAME": "ghost", "ACCOUNTNAME": "deploy"},
    )
    vault.failed(
        "GET",
        "/resources/getResourceIdAccountId",
        "Account ghost does not exist in resource web01",
        query={"RESOURCENAME": "web01", "ACCOUNTNAME": "ghost"},
    )
    vault.failed("GET", "/resources/getResourceIdAccountId", "ACCOUNTNAME is required", query={"RESOURCENAME": "web01"})


def test_resource_types(vault):
    operation = vault.ok("GET", "/resources/resourcetypes")
    assert operation["name"] == "GET RESOURCE TYPES"
    details = operation["Details"]
    assert details["ORGANIZATIONNAME"] == "Default Organization"
    names = [t["RESOURCETYPE"] for t in details["RESOURCETYPES"]]
    for required in (
        "Windows",
        "Linux",
        "WindowsDomain",
        "MS SQL server",
        "Oracle DB server",
        "MySQL server",
        "Cisco IOS",
        "File Store",
        "License Store",
        "Key Store",
        "Rackspace",
        "AWS IAM",
    ):
        assert required in names
    assert names == list(RESOURCE_TYPE_NAMES)
    for resource_type in details["RESOURCETYPES"]:
        assert set(resource_type) == TYPE_FIELDS
        assert isinstance(resource_type["COMMAND_SET"], list) and isinstance(resource_type["OSID"], str)


def test_resource_types_filter(vault):
    details = vault.ok("GET", "/resources/resourcetypes", details={"RESOURCETYPE_CONTAINING": ["sql", "Windows"]})[
        "Details"
    ]
    assert [t["RESOURCETYPE"] for t in details["RESOURCETYPES"]] == [
        "Windows",
        "WindowsDomain",
        "MS SQL server",
        "MySQL server",
    ]
    vault.failed(
        "GET",
        "/resources/resourcetypes",
        "RESOURCETYPE_CONTAINING must be a list",
        details={"RESOURCETYPE_CONTAINING": "sql"},
    )
