"""Authentication, the edition/build gate, INPUT_DATA parsing, response shapes and the admin log."""

import pytest

from vault_simulator.core import registry
from vault_simulator.core.app import create_app
from vault_simulator.core.config import SimulatorConfig
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import FAILED, SUCCESS, Reply, success
from vault_simulator.core.simulator import simulator_of
from vault_simulator.core.styles import PKI, REST, REST_OPERATION_NAME, REST_TOP_LEVEL

AUTH_FAILED = "Authentication failed: the AUTHTOKEN is missing or invalid"


def test_missing_token_is_refused_with_the_route_operation_name(vault):
    status, body = vault.call("GET", "/resources", token=None)
    assert status == 401
    assert body == {"operation": {"name": "GET RESOURCES", "result": {"status": "Failed", "message": AUTH_FAILED}}}


def test_unknown_token_is_refused(vault):
    status, body = vault.call("POST", "/resources", token="NOT-A-TOKEN", details={"RESOURCENAME": "x"})
    assert status == 401
    assert body["operation"]["name"] == "CREATE RESOURCE"
    assert vault.store.all("resource") == []


def test_token_in_the_query_is_ignored(vault):
    status, body = vault.call("GET", "/resources", token=None, query={"AUTHTOKEN": vault.token})
    assert status == 401
    assert body["operation"]["result"]["message"] == AUTH_FAILED


def test_unknown_route_without_token_is_an_authentication_failure(vault):
    status, body = vault.call("GET", "/no/such/path", token=None)
    assert status == 401
    assert body["operation"]["name"] == "AUTHENTICATION"


def test_unknown_path_is_unsupported(vault):
    status, body = vault.call("GET", "/no/such/path")
    assert status == 404
    assert body == {
        "operation": {
            "name": "UNSUPPORTED",
            "result": {
                "status": "Failed",
                "message": "GET /restapi/json/v1/no/such/path is not supported by this vault (edition A build 12450)",
            },
        }
    }


def test_method_not_served_is_unsupported(vault):
    status, body = vault.call("PATCH", "/resources")
    assert status == 404
    assert body["operation"]["result"]["message"].startswith("PATCH /restapi/json/v1/resources is not supported")


def test_unknown_pki_path_is_unsupported_in_the_same_shape(vault):
    status, body = vault.call("GET", "/noSuchPkiOperation", root="/api/pki/restapi")
    assert status == 404
    assert body["operation"]["name"] == "UNSUPPORTED"


@pytest.mark.parametrize("edition, build", [("B", 6320), ("A", 12000), ("A", 12429)])
def test_totp_is_refused_where_the_build_or_edition_lacks_it(make_vault, edition, build):
    vault = make_vault(edition=edition, build=build)
    status, body = vault.call("GET", "/accounts/1/totp")
    assert status == 404
    assert body["operation"]["result"]["message"] == (
        f"GET /restapi/json/v1/accounts/1/totp is not supported by this vault (edition {edition} build {build})"
    )


def test_totp_route_is_served_from_a_12430(make_vault):
    vault = make_vault(edition="A", build=12430)
    vault.failed("GET", "/accounts/99/totp", "Account with ID 99 does not exist")


@pytest.mark.parametrize(
    "edition, build, served", [("A", 11299, False), ("A", 11300, True), ("B", 5299, False), ("B", 5300, True)]
)
def test_resource_types_gate(make_vault, edition, build, served):
    vault = make_vault(edition=edition, build=build)
    status, body = vault.call("GET", "/resources/resourcetypes")
    assert status == (200 if served else 404)
    assert body["operation"]["name"] == ("GET RESOURCE TYPES" if served else "UNSUPPORTED")


def test_org_name_header_selects_the_organization(vault):
    vault.client.post(
        "/__simulator/organizations", json={"displayName": "Branch Office"}, headers={"AUTHTOKEN": vault.token}
    )
    vault.create_resource("in-default")
    vault.create_resource("in-branch", headers={"orgName": "Branch Office"})

    def names(**kwargs):
        return [r["RESOURCE NAME"] for r in vault.ok("GET", "/resources", **kwargs)["Details"]]

    assert names() == ["in-default"]
    assert names(headers={"orgName": "Default Organization"}) == ["in-default"]
    assert names(headers={"orgName": "Branch Office"}) == ["in-branch"]
    vault.failed("GET", "/resources", "Organization Nowhere does not exist", headers={"orgName": "Nowhere"})


def test_input_data_as_form_field_and_as_query_parameter(vault):
    for via, name in (("form", "by-form"), ("query", "by-query")):
        vault.ok(
            "POST",
            "/resources",
            via=via,
            details={
                "RESOURCENAME": name,
                "ACCOUNTNAME": "root",
                "RESOURCETYPE": "Linux",
                "PASSWORD": "pw",
                "OWNERNAME": "admin",
            },
        )
    names = [item["RESOURCE NAME"] for item in vault.ok("GET", "/resources")["Details"]]
    assert names == ["by-form", "by-query"]


def test_input_data_for_get_as_form_field(vault):
    details = vault.ok("GET", "/resources/resourcetypes", via="form", details={"RESOURCETYPE_CONTAINING": ["Store"]})[
        "Details"
    ]
    assert {t["RESOURCETYPE"] for t in details["RESOURCETYPES"]} == {"File Store", "License Store", "Key Store"}


def test_lower_case_details_key_is_accepted(vault):
    details = vault.ok(
        "GET", "/resources/resourcetypes", lower_case_details=True, details={"RESOURCETYPE_CONTAINING": ["AWS"]}
    )["Details"]
    assert [t["RESOURCETYPE"] for t in details["RESOURCETYPES"]] == ["AWS IAM"]


def test_malformed_input_data_fails_with_http_200(vault):
    status, body = vault.call("GET", "/resources", query={"INPUT_DATA": "{not json"})
    assert status == 200
    assert body["operation"] == {
        "name": "GET RESOURCES",
        "result": {"status": "Failed", "message": "Invalid INPUT_DATA: not a JSON document"},
    }


def test_input_data_without_operation_fails(vault):
    vault.failed(
        "GET",
        "/resources",
        'Invalid INPUT_DATA: expected {"operation": {"Details": {...}}}',
        query={"INPUT_DATA": '{"Details": {}}'},
    )


def test_a_failure_half_way_leaves_nothing_behind(vault):
    vault.failed(
        "POST",
        "/resources",
        "Password policy Nope does not exist",
        details={
            "RESOURCENAME": "half",
            "ACCOUNTNAME": "root",
            "RESOURCETYPE": "Linux",
            "PASSWORD": "pw",
            "OWNERNAME": "admin",
            "RESOURCECUSTOMFIELD": [{"CUSTOMLABEL": "Env", "CUSTOMVALUE": "x"}],
            "ACCOUNTPASSWORDPOLICY": "Nope",
        },
    )
    assert vault.store.all("resource") == []
    assert vault.store.all("custom_field") == []


def test_request_log_records_and_clears(vault):
    vault.ok("GET", "/resources")
    vault.call("GET", "/resources", token=None)
    vault.call("GET", "/nowhere", query={"INPUT_DATA": "secret"})
    assert vault.requests() == [
        {"method": "GET", "path": "/restapi/json/v1/resources", "operation": "GET RESOURCES", "status": "Success"},
        {"method": "GET", "path": "/restapi/json/v1/resources", "operation": "GET RESOURCES", "status": "Failed"},
        {"method": "GET", "path": "/restapi/json/v1/nowhere", "operation": "UNSUPPORTED", "status": "Failed"},
    ]
    response = vault.client.delete("/__simulator/requests", headers={"AUTHTOKEN": vault.token})
    assert response.status_code == 204
    assert vault.requests() == []


def test_request_log_shows_that_reads_wrote_nothing(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.client.delete("/__simulator/requests", headers={"AUTHTOKEN": vault.token})
    vault.ok("GET", f"/resources/{resource_id}/accounts")
    vault.ok("GET", f"/resources/{resource_id}/accounts/{account_id}")
    assert [entry["method"] for entry in vault.requests()] == ["GET", "GET"]


def test_request_log_needs_the_admin_token(vault):
    user_token = vault.create_api_user("alice", role="Administrator")
    for headers in ({}, {"AUTHTOKEN": user_token}):
        assert vault.client.get("/__simulator/requests", headers=headers).status_code == 401
        assert vault.client.delete("/__simulator/requests", headers=headers).status_code == 401
    assert len(vault.requests()) == 1


def test_fixed_admin_token(make_vault):
    vault = make_vault(admin_token="FIXED-TOKEN")
    assert vault.token == "FIXED-TOKEN"
    vault.ok("GET", "/resources", token="FIXED-TOKEN")


def test_edition_b_default_build():
    assert SimulatorConfig(edition="B").build == 6320
    assert SimulatorConfig().build == 12450
    with pytest.raises(ValueError):
        SimulatorConfig(edition="C")


@pytest.mark.parametrize(
    "style, expected",
    [
        (
            REST,
            {
                "operation": {
                    "name": "OP",
                    "result": {"status": "Success", "message": "m", "statusCode": 20000},
                    "Details": [1],
                    "totalRows": 1,
                }
            },
        ),
        (
            REST_OPERATION_NAME,
            {
                "operation": {
                    "operationName": "OP",
                    "result": {"status": "Success", "message": "m", "statusCode": 20000},
                    "Details": [1],
                    "totalRows": 1,
                }
            },
        ),
        (
            REST_TOP_LEVEL,
            {
                "name": "OP",
                "result": {"status": "Success", "message": "m", "statusCode": 20000},
                "totalRows": 1,
                "Details": [1],
            },
        ),
        (
            PKI,
            {
                "name": "OP",
                "result": {"status": "Success", "message": "m", "statusCode": 20000},
                "totalRows": 1,
                "details": [1],
            },
        ),
    ],
)
def test_response_styles(style, expected):
    assert style.shape("OP", Reply(SUCCESS, "m", [1], {"totalRows": 1, "statusCode": 20000})) == expected


def test_style_leaves_details_out_when_none():
    assert REST.shape("OP", Reply(FAILED, "no")) == {
        "operation": {"name": "OP", "result": {"status": "Failed", "message": "no"}}
    }


def test_a_pki_registration_is_served_top_level_under_the_pki_root(monkeypatch):
    monkeypatch.setattr(registry, "ENDPOINTS", list(registry.ENDPOINTS))

    @endpoint("GET", "/listTestItems", op="ListTestItems", builds={"A": 0}, style=PKI)
    def all_items(ctx):
        return success("listed", [], totalRows=0)

    app = create_app()
    response = app.test_client().get(
        "/api/pki/restapi/listTestItems", headers={"AUTHTOKEN": simulator_of(app).admin_token}
    )
    assert response.status_code == 200
    assert response.get_json() == {
        "name": "ListTestItems",
        "result": {"status": "Success", "message": "listed"},
        "totalRows": 0,
        "details": [],
    }
    rest = app.test_client().get("/restapi/json/v1/listTestItems", headers={"AUTHTOKEN": simulator_of(app).admin_token})
    assert rest.status_code == 404
