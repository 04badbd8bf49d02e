"""Scenarios of the password workflow, password policy, file download and remote reset rows."""

import io

from conformance.harness import scenario

PASSWORD_REQUEST = "Password request (list item)"
PASSWORD_POLICY = "Password policy (item of POLICIES; Details also carries ORGANIZATION)"


def _requesting_user(vault):
    """A Password User ``pat`` who owns resource web01; returns (pat's token, pat's id, account id)."""
    token = vault.create_api_user("pat")
    pat_id = vault.ok("GET", "/user/getUserId", query={"USERNAME": "pat"})["Details"]["USERID"]
    _resource_id, account_id = vault.create_resource("web01", OWNERNAME="pat")
    return token, pat_id, account_id


def _approved(vault):
    token, pat_id, account_id = _requesting_user(vault)
    vault.ok("POST", f"/accounts/{account_id}/requestpassword", token=token, details={"REASON": "deploy"})
    vault.ok("POST", f"/accounts/{account_id}/requester/{pat_id}/approve")
    return token, pat_id, account_id


@scenario("POST /accounts/{account_id}/requestpassword")
def request_password(vault):
    token, _pat_id, account_id = _requesting_user(vault)
    exchange = vault.exchange(
        "POST",
        f"/accounts/{account_id}/requestpassword",
        token=token,
        details={"REASON": "deploy", "PASSWDID": account_id},
    )
    assert exchange.details == {"STATUS": "WAITING FOR APPROVAL / CHECKOUT"}
    return exchange


@scenario("GET /accounts/passwordaccessrequests")
def list_requests(vault):
    token, pat_id, account_id = _requesting_user(vault)
    vault.ok("POST", f"/accounts/{account_id}/requestpassword", token=token, details={"REASON": "deploy"})
    exchange = vault.exchange("GET", "/accounts/passwordaccessrequests")
    details = exchange.details
    assert set(details) == {"REQUESTER USERID", "REQUESTED BY", "REQUESTED BY FULLNAME", "PASSWORDREQUESTLIST"}
    assert details["REQUESTER USERID"] == pat_id
    return exchange.expect(PASSWORD_REQUEST, *details["PASSWORDREQUESTLIST"])


@scenario("POST /accounts/{account_id}/requester/{requester_id}/reject")
def reject_request(vault):
    token, pat_id, account_id = _requesting_user(vault)
    vault.ok("POST", f"/accounts/{account_id}/requestpassword", token=token, details={"REASON": "deploy"})
    return vault.exchange(
        "POST",
        f"/accounts/{account_id}/requester/{pat_id}/reject",
        details={"PASSWDID": account_id, "REQUESTEDID": pat_id},
    )


@scenario("POST /accounts/{account_id}/requester/{requester_id}/approve")
def approve_request(vault):
    token, pat_id, account_id = _requesting_user(vault)
    vault.ok("POST", f"/accounts/{account_id}/requestpassword", token=token, details={"REASON": "deploy"})
    return vault.exchange("POST", f"/accounts/{account_id}/requester/{pat_id}/approve")


@scenario("POST /accounts/{account_id}/checkout")
def check_out(vault):
    token, _pat_id, account_id = _approved(vault)
    exchange = vault.exchange("POST", f"/accounts/{account_id}/checkout", token=token, details={"REASON": "deploy"})
    assert exchange.details == {"STATUS": "***** [checkIn]"}
    return exchange


@scenario("POST /accounts/{account_id}/requester/{requester_id}/checkin")
def check_in(vault):
    token, pat_id, account_id = _approved(vault)
    vault.ok("POST", f"/accounts/{account_id}/checkout", token=token, details={"REASON": "deploy"})
    return vault.exchange(
        "POST",
        f"/accounts/{account_id}/requester/{pat_id}/checkin",
        details={"PASSWDID": account_id, "REQUESTEDID": pat_id},
    )


@scenario("GET /passwords/generate")
def generate_password(vault):
    exchange = vault.exchange("GET", "/passwords/generate", details={"POLICY": "Medium"})
    assert set(exchange.details) == {"PASSWORD"} and len(exchange.details["PASSWORD"]) >= 8
    return exchange


@scenario("GET /passwords/policies")
def list_policies(vault):
    exchange = vault.exchange("GET", "/passwords/policies")
    assert set(exchange.details) == {"ORGANIZATION", "POLICIES"}
    assert isinstance(exchange.details["ORGANIZATION"], str)
    return exchange.expect(PASSWORD_POLICY, *exchange.details["POLICIES"])


@scenario("POST /passwords/validate")
def validate_password(vault):
    return vault.exchange(
        "POST",
        "/passwords/validate",
        lower_case_details=True,
        details={"password": "Kt7#vQ9!mZ2p", "passwordPolicy": "Strong"},
    )


@scenario("GET /resources/{resource_id}/accounts/{account_id}/downloadfile")
def download_file(vault):
    vault.ok(
        "POST",
        "/resources",
        files={"file": (io.BytesIO(b"LICENSE-KEY-1234"), "product.lic")},
        details={
            "RESOURCENAME": "licenses",
            "ACCOUNTNAME": "product",
            "RESOURCETYPE": "License Store",
            "PASSWORD": "s3cret",
            "OWNERNAME": "admin",
        },
    )
    resource_id, account_id = vault.ids("licenses", "product")
    exchange = vault.exchange(
        "GET", f"/resources/{resource_id}/accounts/{account_id}/downloadfile", details={"REASON": "audit"}
    )
    assert exchange.content == b"LICENSE-KEY-1234"
    return exchange


@scenario("POST /resources/configureremotepasswordreset")
def configure_remote_password_reset(vault):
    resource_id, _account_id = vault.create_resource("web01")
    exchange = vault.exchange(
        "POST",
        "/resources/configureremotepasswordreset",
        details={
            "REMOTEMODE": "ssh",
            "RESOURCEIDENTIFIER": "linux",
            "REMOTELOGINACCOUNT": "root",
            "AUTHENTICATION": "passauth",
            "ELEVATIONTYPE": "sudo",
            "RESOURCEIDS": [resource_id],
            "RESOURCETYPE": "Linux",
            "REMOVEENTER": "false",
        },
    )
    (item,) = exchange.details["CONFIGURATION RESULT"]
    assert set(item) == {"STATUS", "RESOURCENAME", "RESOURCEID"} and all(isinstance(v, str) for v in item.values())
    return exchange
