"""Scenarios of the rows under "Resources and accounts" served since the foundation."""

from conformance.harness import scenario

RESOURCE_LIST_ITEM = "Resource (list item, from the resource list)"
RESOURCE_DETAIL = "Resource (detail, inside the account-list response)"
CUSTOM_FIELD = "Custom field (output)"


@scenario("GET /resources")
def list_resources(vault):
    vault.create_resource("web01")
    exchange = vault.exchange("GET", "/resources")
    return exchange.expect(RESOURCE_LIST_ITEM, *exchange.details)


@scenario("GET /resources/{resource_id}/accounts")
def list_accounts(vault):
    resource_id, _account_id = vault.create_resource(
        "web01", RESOURCECUSTOMFIELD=[{"CUSTOMLABEL": "Rack", "CUSTOMVALUE": "R12"}]
    )
    exchange = vault.exchange("GET", f"/resources/{resource_id}/accounts")
    detail = exchange.details
    return (
        exchange.expect(RESOURCE_DETAIL, detail)
        .expect("Account (list item)", *detail["ACCOUNT LIST"])
        .expect(CUSTOM_FIELD, *detail["CUSTOM FIELD"])
    )


@scenario("GET /resources/{resource_id}/accounts/{account_id}")
def account_details(vault):
    resource_id, account_id = vault.create_resource(
        "web01", ACCOUNTCUSTOMFIELD=[{"CUSTOMLABEL": "Team", "CUSTOMVALUE": "ops"}]
    )
    exchange = vault.exchange("GET", f"/resources/{resource_id}/accounts/{account_id}")
    return exchange.expect("Account (detail)", exchange.details).expect(CUSTOM_FIELD, *exchange.details["CUSTOM FIELD"])


@scenario("GET /resources/{resource_id}/accounts/{account_id}/password")
def get_password(vault):
    resource_id, account_id = vault.create_resource("web01")
    return vault.exchange(
        "GET", f"/resources/{resource_id}/accounts/{account_id}/password", details={"REASON": "deploy"}
    )


@scenario("PUT /resources/{resource_id}/accounts/{account_id}/password")
def change_password(vault):
    resource_id, account_id = vault.create_resource("web01")
    return vault.exchange(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}/password",
        details={"NEWPASSWORD": "N3w-pass-Rotated!", "RESETTYPE": "LOCAL", "REASON": "rotation"},
    )


@scenario("POST /resources")
def create_resource(vault):
    return vault.exchange(
        "POST",
        "/resources",
        details={
            "RESOURCENAME": "web01",
            "ACCOUNTNAME": "root",
            "RESOURCETYPE": "Linux",
            "PASSWORD": "s3cret",
            "OWNERNAME": "admin",
        },
    )


@scenario("GET /resources/getResourceIdAccountId")
def resource_and_account_ids(vault):
    vault.create_resource("web01")
    exchange = vault.exchange(
        "GET", "/resources/getResourceIdAccountId", query={"RESOURCENAME": "web01", "ACCOUNTNAME": "root"}
    )
    assert set(exchange.details) == {"RESOURCEID", "ACCOUNTID"}
    return exchange


@scenario("GET /resources/resourcename/{resource_name}")
def resource_id_of_name(vault):
    vault.create_resource("web01")
    exchange = vault.exchange("GET", "/resources/resourcename/web01")
    assert set(exchange.details) == {"RESOURCEID"}
    return exchange


@scenario("DELETE /resources/{resource_id}")
def delete_resource(vault):
    resource_id, _account_id = vault.create_resource("web01")
    return vault.exchange("DELETE", f"/resources/{resource_id}")


@scenario("PUT /resources/{resource_id}")
def edit_resource(vault):
    resource_id, _account_id = vault.create_resource("web01")
    return vault.exchange("PUT", f"/resources/{resource_id}", details={"LOCATION": "Rack 12"})


@scenario("DELETE /resources/{resource_id}/accounts/{account_id}")
def delete_account(vault):
    resource_id, account_id = vault.create_resource("web01")
    return vault.exchange("DELETE", f"/resources/{resource_id}/accounts/{account_id}")


@scenario("POST /resources/{resource_id}/accounts")
def add_accounts(vault):
    resource_id, _account_id = vault.create_resource("web01")
    exchange = vault.exchange(
        "POST",
        f"/resources/{resource_id}/accounts",
        details={
            "ACCOUNTLIST": [{"ACCOUNTNAME": "deploy", "PASSWORD": "pw1"}, {"ACCOUNTNAME": "backup", "PASSWORD": "pw2"}]
        },
    )
    # "Details: list of one object keyed by each ACCOUNTNAME, each with STATUS text"
    (statuses,) = exchange.details
    assert set(statuses) == {"deploy", "backup"} and all(set(s) == {"STATUS"} for s in statuses.values())
    return exchange


@scenario("PUT /resources/{resource_id}/accounts/{account_id}")
def edit_account(vault):
    resource_id, account_id = vault.create_resource("web01")
    return vault.exchange("PUT", f"/resources/{resource_id}/accounts/{account_id}", details={"NOTES": "primary"})


@scenario("GET /resources/resourcetypes")
def resource_types(vault):
    exchange = vault.exchange("GET", "/resources/resourcetypes")
    assert isinstance(exchange.details["ORGANIZATIONNAME"], str)
    title = "Resource type (item of RESOURCETYPES; Details also carries ORGANIZATIONNAME)"
    return exchange.expect(title, *exchange.details["RESOURCETYPES"])


@scenario("GET /accounts/{account_id}/totp")
def current_totp(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.ok(
        "PUT",
        f"/resources/{resource_id}/accounts/{account_id}",
        details={"ACCOUNTNAME": "root", "TOTP_SECRET": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"},
    )
    exchange = vault.exchange("GET", f"/accounts/{account_id}/totp")
    assert exchange.details["TOTP"].isdigit()
    return exchange
