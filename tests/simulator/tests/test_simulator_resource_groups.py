"""Resource groups: static and dynamic membership, list items, subgroups, deletion,
lookups, access control and organizations."""

import re

import pytest

from vault_simulator.core import removals
from vault_simulator.core.groups import members_of
from vault_simulator.core.records import RESOURCE_GROUP

GROUPS = "/resourcegroup"


def create_group(vault, name, token=None, headers=None, **fields):
    kwargs = {"token": token} if token else {}
    vault.ok("POST", GROUPS, details={"GROUPNAME": name, **fields}, headers=headers, **kwargs)
    return group_id(vault, name, token=token, headers=headers)


def group_id(vault, name, token=None, headers=None):
    kwargs = {"token": token} if token else {}
    details = vault.ok(
        "GET", f"{GROUPS}/getResourceGroupId", query={"RESOURCEGROUPNAME": name}, headers=headers, **kwargs
    )["Details"]
    return details["RESOURCEGROUPID"]


def dynamic(*criteria, andor="and"):
    """Dynamic group input from (condition, operator, value) triples."""
    fields = {"GROUPTYPE": "DYNAMIC", "andor": andor, "NoOfCriteria": len(criteria)}
    for number, (condition, operator, value) in enumerate(criteria, start=1):
        fields.update({f"condition_{number}": condition, f"operator_{number}": operator, f"valuefield_{number}": value})
    return fields


def group_names_of(vault, resource_id, **kwargs):
    details = vault.ok("GET", f"/resources/{resource_id}/associatedGroups", **kwargs)["Details"]
    return [group["GROUP NAME"] for group in details["ASSOCIATED GROUPS"]]


def associate(vault, group, resource_ids, verb="associateResources", **kwargs):
    return vault.ok("POST", f"{GROUPS}/{group}/{verb}", details={"RESOURCEIDS": resource_ids}, **kwargs)


def listed(vault, **kwargs):
    return vault.ok("GET", GROUPS, **kwargs)


# Creating and listing


def test_a_new_group_is_listed_with_the_spec_fields_in_edition_a(vault):
    create_group(vault, "Web servers", DESCRIPTION="front ends")
    operation = listed(vault)
    assert operation["totalRows"] == 1
    (item,) = operation["Details"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}", item.pop("timeCreated"))
    assert item == {
        "resourceGroupId": "1",
        "resourceGroupName": "Web servers",
        "resourceGroupDescription": "front ends",
        "resourceGroupType": "static",
        "ownerId": "1",
        "subGroupOf": "",
        "ownership": "owned",
    }


def test_edition_b_items_carry_access_type_and_is_owner_instead_of_ownership(make_vault):
    vault = make_vault(edition="B")
    create_group(vault, "Web servers")
    (item,) = listed(vault)["Details"]
    assert "ownership" not in item
    assert (item["accessType"], item["isOwner"]) == ("fullaccess", "true")


def test_an_administrator_manages_a_group_another_user_owns(make_vault):
    for edition, expected in (("A", {"ownership": "managed"}), ("B", {"isOwner": "false"})):
        vault = make_vault(edition=edition)
        token = vault.create_api_user("alice")
        create_group(vault, "Alice's", token=token)
        (item,) = listed(vault)["Details"]
        assert item["ownerId"] == "2"
        assert {key: item[key] for key in expected} == expected


def test_the_alternative_field_names_of_the_request_sample_are_accepted(vault):
    vault.ok("POST", GROUPS, details={"critgroup": "Databases", "critdesc": "all DBs", "RuleCriteria": "Strong"})
    (item,) = listed(vault)["Details"]
    assert (item["resourceGroupName"], item["resourceGroupDescription"]) == ("Databases", "all DBs")
    assert vault.store.get("resource_group", "1")["policy"] == "Strong"


def test_group_names_are_unique(vault):
    create_group(vault, "Web servers")
    vault.failed("POST", GROUPS, "Resource group Web servers already exists", details={"GROUPNAME": "Web servers"})
    assert listed(vault)["totalRows"] == 1


@pytest.mark.parametrize(
    "details, message",
    [
        ({}, "GROUPNAME is required"),
        ({"GROUPNAME": "G", "GROUPTYPE": "SMART"}, "GROUPTYPE must be STATIC or DYNAMIC"),
        ({"GROUPNAME": "G", "POLICY": "Nonexistent"}, "Password policy Nonexistent does not exist"),
        ({"GROUPNAME": "G", "PARENTGROUPID": 42}, "Resource group with ID 42 does not exist"),
        ({"GROUPNAME": "G", "PARENTGROUPID": "top"}, "PARENTGROUPID must be a resource group id (a number)"),
        ({"GROUPNAME": "G", "NoHelpDeskRetrieval": "maybe"}, "NoHelpDeskRetrieval must be true or false"),
        (
            {"GROUPNAME": "G", "GROUPTYPE": "DYNAMIC"},
            "A dynamic resource group needs NoOfCriteria, a number of at least 1",
        ),
        (
            {"GROUPNAME": "G", **dynamic(("OWNER", "CONTAINS", "x"))},
            "condition_1 must be one of RESOURCENAME, LOGINNAME, RESOURCETYPE, DNSNAME, DESCRIPTION, DEPARTMENT, "
            "LOCATION, RESOURCEURL",
        ),
        (
            {"GROUPNAME": "G", **dynamic(("RESOURCENAME", "LIKE", "x"))},
            "operator_1 must be one of CONTAINS, NOT_CONTAINS, EQUALS, NOT_EQUALS, STARTS_WITH, ENDS_WITH",
        ),
        ({"GROUPNAME": "G", **dynamic(("RESOURCENAME", "CONTAINS", ""))}, "valuefield_1 is required"),
        ({"GROUPNAME": "G", **dynamic(("RESOURCENAME", "CONTAINS", "x"), andor="xor")}, "andor must be and or or"),
    ],
)
def test_bad_group_input_fails_and_creates_nothing(vault, details, message):
    vault.failed("POST", GROUPS, message, details=details)
    assert vault.store.all("resource_group") == []


def test_a_subgroup_names_its_parent(vault):
    parent = create_group(vault, "Servers")
    child = create_group(vault, "Web", PARENTGROUPID=int(parent))
    items = {item["resourceGroupId"]: item["subGroupOf"] for item in listed(vault)["Details"]}
    assert items == {parent: "", child: parent}


# Static membership


def test_associate_and_disassociate_answer_per_resource_and_change_membership(vault):
    web01, _account_id = vault.create_resource("web01")
    web02, _account_id = vault.create_resource("web02")
    group = create_group(vault, "Web servers")
    operation = associate(vault, group, [int(web01), int(web02), 99])
    assert operation["Details"] == {
        web01: {"status": "Success"},
        web02: {"status": "Success"},
        "99": {"status": "Failed"},
    }
    assert operation["result"]["message"] == (
        "2 of 3 resources associated with resource group Web servers: resource with ID 99 does not exist"
    )
    assert group_names_of(vault, web01) == ["Web servers"]
    operation = associate(vault, group, [int(web01)], verb="disassociateResources")
    assert operation["Details"] == {web01: {"status": "Success"}}
    assert group_names_of(vault, web01) == []
    assert group_names_of(vault, web02) == ["Web servers"]


def test_associating_twice_keeps_one_membership(vault):
    web01, _account_id = vault.create_resource("web01")
    group = create_group(vault, "Web servers")
    associate(vault, group, [int(web01)])
    associate(vault, group, [web01])
    assert vault.store.get("resource_group", group)["resources"] == [web01]


@pytest.mark.parametrize(
    "resource_ids, message",
    [
        (None, "RESOURCEIDS is required: a list of resource ids"),
        ([], "RESOURCEIDS is required: a list of resource ids"),
        ("1", "RESOURCEIDS is required: a list of resource ids"),
        ([1, "web01"], "RESOURCEIDS must be a list of numbers"),
    ],
)
def test_resource_ids_must_be_a_list_of_numbers(vault, resource_ids, message):
    vault.create_resource("web01")
    group = create_group(vault, "Web servers")
    vault.failed("POST", f"{GROUPS}/{group}/associateResources", message, details={"RESOURCEIDS": resource_ids})


def test_an_unknown_group_fails_as_a_whole(vault):
    web01, _account_id = vault.create_resource("web01")
    vault.failed(
        "POST",
        f"{GROUPS}/7/associateResources",
        "Resource group with ID 7 does not exist",
        details={"RESOURCEIDS": [int(web01)]},
    )


def test_resources_cannot_be_associated_with_a_dynamic_group(vault):
    web01, _account_id = vault.create_resource("web01")
    group = create_group(vault, "Dyn", **dynamic(("RESOURCENAME", "CONTAINS", "db")))
    operation = associate(vault, group, [int(web01)])
    assert operation["Details"] == {web01: {"status": "Failed"}}
    assert "resource group Dyn is dynamic" in operation["result"]["message"]
    assert group_names_of(vault, web01) == []


def test_resource_group_name_on_create_resource_refuses_a_dynamic_group(vault):
    create_group(vault, "Dyn", **dynamic(("RESOURCENAME", "CONTAINS", "db")))
    vault.failed(
        "POST",
        "/resources",
        "Resource group Dyn is not a static group",
        details={
            "RESOURCENAME": "web01",
            "ACCOUNTNAME": "root",
            "RESOURCETYPE": "Linux",
            "PASSWORD": "pw",
            "OWNERNAME": "admin",
            "RESOURCEGROUPNAME": "Dyn",
        },
    )


def test_a_deleted_resource_leaves_its_static_groups(vault):
    web01, _account_id = vault.create_resource("web01", RESOURCEGROUPNAME="Web servers")
    web02, _account_id = vault.create_resource("web02", RESOURCEGROUPNAME="Web servers")
    vault.ok("DELETE", f"/resources/{web01}")
    group = vault.store.get("resource_group", group_id(vault, "Web servers"))
    assert members_of(vault.store, group) == [web02]


# Dynamic membership


def test_dynamic_members_follow_the_criteria_at_read_time(vault):
    create_group(vault, "Web", **dynamic(("RESOURCENAME", "CONTAINS", "WEB")))
    web01, _account_id = vault.create_resource("web01")
    db01, _account_id = vault.create_resource("db01")
    assert (group_names_of(vault, web01), group_names_of(vault, db01)) == (["Web"], [])
    vault.ok("PUT", f"/resources/{web01}", details={"RESOURCENAME": "cache01"})
    assert group_names_of(vault, web01) == []


def test_login_name_matches_any_account_of_the_resource(vault):
    create_group(vault, "Oracle", **dynamic(("LOGINNAME", "EQUALS", "oracle")))
    db01, _account_id = vault.create_resource("db01")
    assert group_names_of(vault, db01) == []
    vault.ok(
        "POST", f"/resources/{db01}/accounts", details={"ACCOUNTLIST": [{"ACCOUNTNAME": "oracle", "PASSWORD": "pw"}]}
    )
    assert group_names_of(vault, db01) == ["Oracle"]


@pytest.mark.parametrize(
    "operator, value, members",
    [
        ("CONTAINS", "eb", ["web01"]),
        ("NOT_CONTAINS", "eb", ["db01", "mail01"]),
        ("doesNotContain", "eb", ["db01", "mail01"]),
        ("EQUALS", "DB01", ["db01"]),
        ("notEquals", "db01", ["web01", "mail01"]),
        ("STARTS_WITH", "ma", ["mail01"]),
        ("endsWith", "01", ["web01", "db01", "mail01"]),
    ],
)
def test_operators(vault, operator, value, members):
    ids = {name: vault.create_resource(name)[0] for name in ("web01", "db01", "mail01")}
    group = vault.store.get("resource_group", create_group(vault, "G", **dynamic(("RESOURCENAME", operator, value))))
    assert members_of(vault.store, group) == [ids[name] for name in members]


@pytest.mark.parametrize("andor, members", [("and", ["web01"]), ("or", ["web01", "win01", "db01"])])
def test_and_needs_every_criterion_or_any_one(vault, andor, members):
    ids = {
        "web01": vault.create_resource("web01")[0],
        "win01": vault.create_resource("win01", resource_type="Windows")[0],
        "db01": vault.create_resource("db01")[0],
        "nas01": vault.create_resource("nas01", resource_type="Windows")[0],
    }
    group = vault.store.get(
        "resource_group",
        create_group(
            vault,
            "G",
            **dynamic(("RESOURCENAME", "STARTS_WITH", "w"), ("RESOURCETYPE", "EQUALS", "linux"), andor=andor),
        ),
    )
    assert members_of(vault.store, group) == [ids[name] for name in members]


def test_associated_groups_lists_static_and_dynamic_groups_with_numeric_ids(vault):
    dynamic_id = create_group(vault, "Linux", **dynamic(("RESOURCETYPE", "EQUALS", "linux")))
    web01, _account_id = vault.create_resource("web01", RESOURCEGROUPNAME="Web servers")
    groups = vault.ok("GET", f"/resources/{web01}/associatedGroups")["Details"]["ASSOCIATED GROUPS"]
    assert groups == [
        {"GROUP ID": int(dynamic_id), "GROUP NAME": "Linux"},
        {"GROUP ID": int(group_id(vault, "Web servers")), "GROUP NAME": "Web servers"},
    ]


def test_associated_groups_of_an_unknown_resource_fails(vault):
    vault.failed("GET", "/resources/5/associatedGroups", "Resource with ID 5 does not exist")


# Deleting


def test_delete_removes_the_group_and_its_subgroups_but_never_resources(vault):
    web01, _account_id = vault.create_resource("web01", RESOURCEGROUPNAME="Servers")
    parent = group_id(vault, "Servers")
    child = create_group(vault, "Web", PARENTGROUPID=int(parent))
    create_group(vault, "Web-EU", PARENTGROUPID=int(child))
    other = create_group(vault, "Other")
    operation = vault.ok("DELETE", GROUPS, query={"RESOURCEGROUPID": parent})
    assert operation["result"]["message"] == (
        "Resource group Servers deleted successfully together with its subgroups Web, Web-EU"
    )
    assert [item["resourceGroupId"] for item in listed(vault)["Details"]] == [other]
    assert group_names_of(vault, web01) == []
    assert vault.ok("GET", "/resources")["totalRows"] == 1


def test_delete_drops_the_group_from_accounts_and_tells_listeners(vault, monkeypatch):
    monkeypatch.setitem(removals.REMOVAL_RULES, RESOURCE_GROUP, list(removals.REMOVAL_RULES[RESOURCE_GROUP]))
    told = []
    removals.when_removed(RESOURCE_GROUP)(lambda store, deleted: told.append(deleted["name"]))
    web01, root = vault.create_resource("web01")
    group = create_group(vault, "Web servers")
    vault.ok("PUT", f"/resources/{web01}/accounts/{root}", details={"ACCOUNT_RESOURCE_GROUP_IDS": [group]})
    vault.ok("DELETE", GROUPS, query={"RESOURCEGROUPID": group})
    assert told == ["Web servers"]
    assert vault.store.get("account", root)["resource_group_ids"] == []


@pytest.mark.parametrize(
    "query, message",
    [
        ({}, "RESOURCEGROUPID must be a resource group id (a number)"),
        ({"RESOURCEGROUPID": "9"}, "Resource group with ID 9 does not exist"),
    ],
)
def test_delete_needs_an_existing_group_id(vault, query, message):
    vault.failed("DELETE", GROUPS, message, query=query)


# Looking up an id


def test_group_id_is_looked_up_by_name_and_owner(vault):
    token = vault.create_api_user("alice")
    alices = create_group(vault, "Alice's", token=token)
    details = vault.ok("GET", f"{GROUPS}/getResourceGroupId", query={"RESOURCEGROUPNAME": "Alice's", "USERID": "2"})[
        "Details"
    ]
    assert details == {"RESOURCEGROUPID": alices}
    vault.failed(
        "GET",
        f"{GROUPS}/getResourceGroupId",
        "Resource group Alice's of the user with ID 1 does not exist",
        query={"RESOURCEGROUPNAME": "Alice's", "USERID": "1"},
    )
    vault.failed(
        "GET",
        f"{GROUPS}/getResourceGroupId",
        "User with ID 8 does not exist",
        query={"RESOURCEGROUPNAME": "Alice's", "USERID": "8"},
    )
    vault.failed("GET", f"{GROUPS}/getResourceGroupId", "RESOURCEGROUPNAME is required", query={"USERID": "2"})


# Access control and organizations


def test_a_password_user_manages_only_their_own_groups(vault):
    token = vault.create_api_user("alice")
    admins = create_group(vault, "Admin's")
    alices = create_group(vault, "Alice's", token=token)
    assert [item["resourceGroupId"] for item in listed(vault, token=token)["Details"]] == [alices]
    vault.failed(
        "DELETE",
        GROUPS,
        "You are not authorized to delete resource group Admin's",
        token=token,
        query={"RESOURCEGROUPID": admins},
    )
    vault.failed(
        "POST",
        GROUPS,
        "You are not authorized to add a subgroup to resource group Admin's",
        token=token,
        details={"GROUPNAME": "Sub", "PARENTGROUPID": int(admins)},
    )
    vault.failed(
        "POST",
        f"{GROUPS}/{admins}/associateResources",
        "You are not authorized to change the resources of resource group Admin's",
        token=token,
        details={"RESOURCEIDS": [1]},
    )
    assert [item["resourceGroupId"] for item in listed(vault)["Details"]] == [admins, alices]


def test_a_password_user_cannot_group_a_resource_they_cannot_see(vault):
    token = vault.create_api_user("alice")
    web01, _account_id = vault.create_resource("web01")
    alices = create_group(vault, "Alice's", token=token)
    operation = associate(vault, alices, [int(web01)], token=token)
    assert operation["Details"] == {web01: {"status": "Failed"}}
    assert "you are not authorized to group resource web01" in operation["result"]["message"]


def test_groups_belong_to_the_organization_that_created_them(vault):
    response = vault.client.post(
        "/__simulator/organizations", json={"displayName": "Branch"}, headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 201
    branch = {"orgName": "Branch"}
    create_group(vault, "Web servers")
    create_group(vault, "Web servers", headers=branch)
    branch_web, _account_id = vault.create_resource("web01", headers=branch)
    assert [item["resourceGroupName"] for item in listed(vault, headers=branch)["Details"]] == ["Web servers"]
    assert listed(vault)["totalRows"] == 1
    default_group = group_id(vault, "Web servers")
    operation = associate(vault, default_group, [int(branch_web)])
    assert operation["Details"] == {branch_web: {"status": "Failed"}}
    vault.failed(
        "DELETE",
        GROUPS,
        f"Resource group with ID {default_group} does not exist",
        headers=branch,
        query={"RESOURCEGROUPID": default_group},
    )


def test_the_list_needs_a_b_6000_or_a_12230_build_while_membership_works_earlier(make_vault):
    vault = make_vault(edition="B", build=5400)
    web01, _account_id = vault.create_resource("web01")
    group = create_group(vault, "Web servers")
    associate(vault, group, [int(web01)])
    assert group_names_of(vault, web01) == ["Web servers"]
    status, body = vault.call("GET", GROUPS)
    assert (status, body["operation"]["name"]) == (404, "UNSUPPORTED")


def test_a_shared_group_is_listed_at_the_shared_level_and_its_shares_go_with_it(make_vault):
    vault = make_vault(edition="B")
    token = vault.create_api_user("alice")
    group = create_group(vault, "Web servers")
    share = {"resourceGroupIds": [group], "userIds": ["2"]}
    vault.ok("PUT", f"{GROUPS}/share", details={**share, "accessType": "modify"})
    (item,) = listed(vault, token=token)["Details"]
    assert (item["resourceGroupId"], item["accessType"], item["isOwner"]) == (group, "modify", "false")
    vault.failed(
        "DELETE",
        GROUPS,
        "You are not authorized to delete resource group Web servers",
        token=token,
        query={"RESOURCEGROUPID": group},
    )
    vault.ok("DELETE", GROUPS, query={"RESOURCEGROUPID": group})
    assert vault.store.all("share") == []
    assert listed(vault, token=token)["totalRows"] == 0
