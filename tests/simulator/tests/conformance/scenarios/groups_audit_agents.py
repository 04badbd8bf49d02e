"""Scenarios of the resource-group rows and of "Audit, agents and the service"
(plus the PKI /generateInstallKey)."""

from conformance.harness import scenario

PKI_ROOT = "/api/pki/restapi"
GROUP_LIST_ITEM = "Resource group (list item)"


def _static_group(vault, name="Web servers", **fields):
    vault.ok("POST", "/resourcegroup", details={"GROUPNAME": name, "GROUPTYPE": "STATIC", **fields})
    details = vault.ok("GET", "/resourcegroup/getResourceGroupId", query={"RESOURCEGROUPNAME": name})["Details"]
    return details["RESOURCEGROUPID"]


@scenario("POST /resourcegroup")
def create_group(vault):
    return vault.exchange(
        "POST",
        "/resourcegroup",
        details={
            "GROUPNAME": "Linux servers",
            "DESCRIPTION": "every Linux box",
            "GROUPTYPE": "DYNAMIC",
            "POLICY": "Strong",
            "NoHelpDeskRetrieval": "false",
            "andor": "and",
            "NoOfCriteria": 2,
            "condition_1": "RESOURCENAME",
            "operator_1": "CONTAINS",
            "valuefield_1": "lnx",
            "condition_2": "LOGINNAME",
            "operator_2": "CONTAINS",
            "valuefield_2": "root",
        },
    )


@scenario("GET /resourcegroup")
def list_groups(vault):
    parent_id = _static_group(vault)
    _static_group(vault, "Frontends", PARENTGROUPID=int(parent_id))
    exchange = vault.exchange("GET", "/resourcegroup")
    assert [item["subGroupOf"] for item in exchange.details] == ["", parent_id]
    return exchange.expect(GROUP_LIST_ITEM, *exchange.details)


@scenario("POST /resourcegroup/{group_id}/associateResources")
def associate_resources(vault):
    resource_id, _account_id = vault.create_resource("web01")
    group_id = _static_group(vault)
    exchange = vault.exchange(
        "POST", f"/resourcegroup/{group_id}/associateResources", details={"RESOURCEIDS": [int(resource_id)]}
    )
    assert exchange.details == {resource_id: {"status": "Success"}}
    return exchange


@scenario("POST /resourcegroup/{group_id}/disassociateResources")
def disassociate_resources(vault):
    group_id = _static_group(vault)
    resource_id, _account_id = vault.create_resource("web01", RESOURCEGROUPNAME="Web servers")
    exchange = vault.exchange(
        "POST", f"/resourcegroup/{group_id}/disassociateResources", details={"RESOURCEIDS": [int(resource_id)]}
    )
    assert exchange.details == {resource_id: {"status": "Success"}}
    return exchange


@scenario("DELETE /resourcegroup")
def delete_group(vault):
    group_id = _static_group(vault)
    return vault.exchange("DELETE", "/resourcegroup", query={"RESOURCEGROUPID": group_id})


@scenario("GET /resourcegroup/getResourceGroupId")
def group_id_of_name(vault):
    _static_group(vault)
    exchange = vault.exchange(
        "GET", "/resourcegroup/getResourceGroupId", query={"RESOURCEGROUPNAME": "Web servers", "USERID": "1"}
    )
    assert set(exchange.details) == {"RESOURCEGROUPID"}
    return exchange


@scenario("GET /resources/{resource_id}/associatedGroups")
def associated_groups(vault):
    resource_id, _account_id = vault.create_resource("web01", RESOURCEGROUPNAME="Web servers")
    exchange = vault.exchange("GET", f"/resources/{resource_id}/associatedGroups")
    return exchange.expect("Associated group", *exchange.details["ASSOCIATED GROUPS"])


@scenario("GET /audit")
def read_audit(vault):
    resource_id, account_id = vault.create_resource("web01")
    vault.ok("GET", f"/resources/{resource_id}/accounts/{account_id}/password", details={"REASON": "deploy"})
    exchange = vault.exchange(
        "GET", "/audit", query={"AUDITTYPE": "Resource", "STARTINDEX": "0", "LIMIT": "10", "DURATION": "TODAY"}
    )
    return exchange.expect("Audit record", *exchange.details)


@scenario("POST /agents/agentkey")
def fetch_agent_key(vault):
    exchange = vault.exchange(
        "POST", "/agents/agentkey", details={"generateAgentKey": "true", "validityPeriod": 2}, lower_case_details=True
    )
    return exchange.expect("Agent key (Details)", exchange.details)


@scenario("GET /server/getHighAvailabilityStatus")
def high_availability_status(vault):
    exchange = vault.exchange("GET", "/server/getHighAvailabilityStatus")
    return exchange.expect("HA status (Details)", exchange.details)


@scenario("POST /generateInstallKey")
def agent_install_key(vault):
    exchange = vault.exchange("POST", "/generateInstallKey", root=PKI_ROOT)
    assert isinstance(exchange.body["AgentInstallKey"], str) and exchange.body["AgentInstallKey"]
    return exchange
