"""The password workflow: request, approve or reject, check out, check in, under access control or not."""

import pytest

PASSWORD = "/resources/1/accounts/1/password"
REQUESTS = "/accounts/passwordaccessrequests"
NOT_CHECKED_OUT = (
    "Password access control is on: request the password of web01/root, have the request approved "
    "and check it out before retrieving it"
)


class Workflow:
    """A vault where Password User ``pat`` owns resource web01 (account 1, root)."""

    def __init__(self, vault):
        self.vault = vault
        self.pat = vault.create_api_user("pat")
        self.pat_id = self.user_id("pat")
        vault.create_resource("web01", OWNERNAME="pat", password="Web-R00t-pw!")

    def user_id(self, name):
        return self.vault.ok("GET", "/user/getUserId", query={"USERNAME": name})["Details"]["USERID"]

    def request(self, token=None, reason="deploy"):
        return self.vault.ok("POST", "/accounts/1/requestpassword", token=token or self.pat, details={"REASON": reason})

    def approve(self, requester_id=None, **kwargs):
        return self.vault.ok("POST", f"/accounts/1/requester/{requester_id or self.pat_id}/approve", **kwargs)

    def checkout(self, token=None):
        return self.vault.ok("POST", "/accounts/1/checkout", token=token or self.pat, details={"REASON": "deploy"})

    def decide(self, action, requester_id=None):
        requester_id = requester_id or self.pat_id
        return self.vault.call(
            "POST",
            f"/accounts/1/requester/{requester_id}/{action}",
            details={"PASSWDID": "1", "REQUESTEDID": requester_id},
        )[1]["operation"]

    def act(self, step):
        """The operation answering one workflow step by its usual actor (pat, or the admin to decide)."""
        if step in ("requestpassword", "checkout"):
            return self.vault.call("POST", f"/accounts/1/{step}", token=self.pat)[1]["operation"]
        if step == "approve":
            return self.vault.call("POST", f"/accounts/1/requester/{self.pat_id}/approve")[1]["operation"]
        return self.decide(step)

    def status(self):
        listed = self.vault.ok("GET", "/resources/1/accounts")["Details"]["ACCOUNT LIST"][0]["PASSWORD STATUS"]
        detail = self.vault.ok("GET", "/resources/1/accounts/1")["Details"]["PASSWORD STATUS"]
        assert listed == detail
        return listed


@pytest.fixture
def controlled(make_vault):
    return Workflow(make_vault(access_control=True))


@pytest.fixture
def uncontrolled(vault):
    return Workflow(vault)


def failed_message(operation):
    assert operation["result"]["status"] == "Failed", operation
    return operation["result"]["message"]


def test_the_whole_workflow_under_access_control(controlled):
    vault, pat = controlled.vault, controlled.pat
    vault.failed("GET", PASSWORD, NOT_CHECKED_OUT, token=pat)
    assert controlled.request()["Details"] == {"STATUS": "WAITING FOR APPROVAL / CHECKOUT"}
    vault.failed("GET", PASSWORD, NOT_CHECKED_OUT, token=pat)
    controlled.approve()
    vault.failed("GET", PASSWORD, NOT_CHECKED_OUT, token=pat)
    assert controlled.status() == "*****"
    assert controlled.checkout()["Details"] == {"STATUS": "***** [checkIn]"}
    assert controlled.status() == "[In Use]"
    assert vault.ok("GET", PASSWORD, token=pat)["Details"]["PASSWORD"] == "Web-R00t-pw!"
    assert controlled.decide("checkin")["result"]["status"] == "Success"
    assert controlled.status() == "*****"
    vault.failed("GET", PASSWORD, NOT_CHECKED_OUT, token=pat)


def test_administrators_retrieve_without_the_workflow(controlled):
    assert controlled.vault.ok("GET", PASSWORD)["Details"]["PASSWORD"] == "Web-R00t-pw!"


def test_request_list_for_the_administrator_and_the_requester(controlled):
    vault = controlled.vault
    controlled.request(reason="release 4.2")
    expected_item = {
        "ACCOUNT ID": "1",
        "ACCOUNT NAME": "root",
        "RESOURCE ID": "1",
        "RESOURCE NAME": "web01",
        "PASSWD ID": "1",
        "STATUS": "WAITING FOR APPROVAL",
        "REASON": "release 4.2",
    }
    for token in (vault.token, controlled.pat):
        details = vault.ok("GET", REQUESTS, token=token)["Details"]
        assert (details["REQUESTER USERID"], details["REQUESTED BY"], details["REQUESTED BY FULLNAME"]) == (
            controlled.pat_id,
            "pat",
            "pat",
        )
        (item,) = details["PASSWORDREQUESTLIST"]
        assert {key: item[key] for key in expected_item} == expected_item
        assert item["REQUESTED TIME"].endswith(("AM", "PM"))
    controlled.approve()
    assert vault.ok("GET", REQUESTS)["Details"]["PASSWORDREQUESTLIST"][0]["STATUS"] == "APPROVED"
    controlled.checkout()
    assert vault.ok("GET", REQUESTS)["Details"]["PASSWORDREQUESTLIST"][0]["STATUS"] == "CHECKED OUT"
    controlled.decide("checkin")
    details = vault.ok("GET", REQUESTS)["Details"]
    assert details["PASSWORDREQUESTLIST"] == [] and details["REQUESTED BY"] == "admin"


def test_the_administrator_lists_one_requester_at_a_time(controlled):
    vault = controlled.vault
    ops = vault.create_api_user("ops2", role="Administrator")
    ops2_id = controlled.user_id("ops2")
    controlled.request(token=ops)
    controlled.request()
    # The requester whose open request came first, unless REQUESTEDID names another.
    assert vault.ok("GET", REQUESTS)["Details"]["REQUESTED BY"] == "ops2"
    details = vault.ok("GET", REQUESTS, details={"REQUESTEDID": controlled.pat_id})["Details"]
    assert details["REQUESTED BY"] == "pat" and len(details["PASSWORDREQUESTLIST"]) == 1
    assert controlled.decide("reject", ops2_id)["result"]["status"] == "Success"
    assert vault.ok("GET", REQUESTS)["Details"]["REQUESTED BY"] == "pat"
    vault.failed(
        "GET",
        REQUESTS,
        "You are not authorized to view the password requests of other users",
        token=controlled.pat,
        details={"REQUESTEDID": ops2_id},
    )


def test_only_one_user_holds_a_password_checked_out(controlled):
    vault = controlled.vault
    ops = vault.create_api_user("ops", role="Administrator")
    controlled.request()
    controlled.request(token=ops)
    controlled.approve()
    controlled.approve(controlled.user_id("ops"))
    controlled.checkout()
    vault.failed("POST", "/accounts/1/checkout", "The password of web01/root is in use by pat", token=ops)
    controlled.decide("checkin")
    assert controlled.checkout(token=ops)["Details"]["STATUS"] == "***** [checkIn]"


REQUESTED, APPROVED = ["requestpassword"], ["requestpassword", "approve"]
CHECKED_OUT = APPROVED + ["checkout"]
OF_WEB01 = "the password of web01/root"


@pytest.mark.parametrize(
    "steps, action, message",
    [
        ([], "approve", f"User pat has no open request for {OF_WEB01}"),
        ([], "checkout", f"You have not requested {OF_WEB01}"),
        (REQUESTED, "requestpassword", f"You have already requested {OF_WEB01}: the request is waiting for approval"),
        (REQUESTED, "checkout", f"Your request for {OF_WEB01} is waiting for approval"),
        (REQUESTED, "checkin", "The password of web01/root is not checked out by pat"),
        (APPROVED, "approve", f"The request of pat for {OF_WEB01} is already approved"),
        (APPROVED, "requestpassword", f"Your request for {OF_WEB01} is already approved: check it out"),
        (APPROVED, "checkin", "The password of web01/root is not checked out by pat"),
        (REQUESTED + ["reject"], "checkout", f"Your request for {OF_WEB01} was rejected"),
        (REQUESTED + ["reject"], "reject", f"User pat has no open request for {OF_WEB01}"),
        (CHECKED_OUT, "checkout", f"You have already checked out {OF_WEB01}"),
        (CHECKED_OUT, "requestpassword", f"You have already checked out {OF_WEB01}"),
        (
            CHECKED_OUT,
            "reject",
            "The password of web01/root is checked out by pat: check it in instead of rejecting the request",
        ),
        (CHECKED_OUT + ["checkin"], "checkout", f"Your checkout of {OF_WEB01} has ended: request it again"),
    ],
)
def test_illegal_transitions_fail_clearly(controlled, steps, action, message):
    for step in steps:
        assert controlled.act(step)["result"]["status"] == "Success", step
    assert failed_message(controlled.act(action)) == message


def test_a_rejected_request_can_be_followed_by_a_new_one(controlled):
    controlled.request()
    controlled.decide("reject")
    controlled.request()
    controlled.approve()
    assert controlled.checkout()["result"]["status"] == "Success"


def test_only_administrators_decide(controlled):
    vault = controlled.vault
    controlled.request()
    padmin = vault.create_api_user("padmin", role="Password Administrator")
    vault.failed(
        "POST",
        f"/accounts/1/requester/{controlled.pat_id}/approve",
        "Only an administrator can approve password requests",
        token=controlled.pat,
    )
    vault.failed(
        "POST",
        f"/accounts/1/requester/{controlled.pat_id}/reject",
        "Only an administrator can reject password requests",
        token=padmin,
        details={"PASSWDID": "1", "REQUESTEDID": controlled.pat_id},
    )


def test_an_administrator_cannot_approve_their_own_request(controlled):
    vault = controlled.vault
    controlled.request(token=vault.token)
    vault.failed(
        "POST",
        f"/accounts/1/requester/{controlled.user_id('admin')}/approve",
        "You cannot approve your own password request",
    )


@pytest.mark.parametrize(
    "details, message",
    [
        ({}, "PASSWDID is required"),
        ({"PASSWDID": "1"}, "REQUESTEDID is required"),
        ({"PASSWDID": "7", "REQUESTEDID": "2"}, "PASSWDID 7 does not match the account 1 of the path"),
        ({"PASSWDID": "1", "REQUESTEDID": "1"}, "REQUESTEDID 1 does not match the requester 2 of the path"),
    ],
)
def test_reject_and_checkin_need_matching_identifiers(controlled, details, message):
    controlled.request()
    for action in ("reject", "checkin"):
        controlled.vault.failed("POST", f"/accounts/1/requester/2/{action}", message, details=details)


def test_unknown_accounts_and_requesters(controlled):
    vault = controlled.vault
    vault.failed("POST", "/accounts/9/requestpassword", "Account with ID 9 does not exist", token=controlled.pat)
    vault.failed("POST", "/accounts/1/requester/9/approve", "User with ID 9 does not exist")
    vault.failed(
        "POST",
        "/accounts/1/requestpassword",
        "PASSWDID 3 does not match the account 1 of the path",
        token=controlled.pat,
        details={"PASSWDID": "3"},
    )


def test_a_user_without_access_to_the_resource_cannot_request(controlled):
    vault = controlled.vault
    vault.create_resource("admin-box", password="Adm1n-box-pw!")
    outsider = vault.create_api_user("outsider")
    vault.failed(
        "POST",
        "/accounts/2/requestpassword",
        "You are not authorized to request the password of admin-box/root",
        token=outsider,
    )
    vault.failed(
        "POST",
        "/accounts/2/checkout",
        "You are not authorized to check out the password of admin-box/root",
        token=outsider,
    )


def test_forced_reason_for_request_and_checkout(make_vault):
    workflow = Workflow(make_vault(access_control=True, require_reason=True))
    vault = workflow.vault
    vault.failed(
        "POST", "/accounts/1/requestpassword", "A reason is required to request this password", token=workflow.pat
    )
    workflow.request()
    workflow.approve()
    vault.failed("POST", "/accounts/1/checkout", "A reason is required to check out this password", token=workflow.pat)
    assert workflow.checkout()["result"]["status"] == "Success"
    vault.failed("GET", PASSWORD, "A reason is required to retrieve this password", token=workflow.pat)
    assert vault.ok("GET", PASSWORD, token=workflow.pat, details={"REASON": "deploy"})["Details"]["PASSWORD"]


def test_without_access_control_the_workflow_runs_but_gates_nothing(uncontrolled):
    vault = uncontrolled.vault
    assert vault.ok("GET", PASSWORD, token=uncontrolled.pat)["Details"]["PASSWORD"] == "Web-R00t-pw!"
    uncontrolled.request()
    uncontrolled.approve()
    assert uncontrolled.checkout()["Details"] == {"STATUS": "***** [checkIn]"}
    # "[In Use] only when password access control is on and the password is in use"
    assert uncontrolled.status() == "*****"
    assert uncontrolled.decide("checkin")["result"]["status"] == "Success"
    assert vault.ok("GET", PASSWORD, token=uncontrolled.pat)["Details"]["PASSWORD"] == "Web-R00t-pw!"


def test_requests_of_a_deleted_account_leave_the_list(controlled):
    vault = controlled.vault
    controlled.request()
    vault.ok("DELETE", "/resources/1")
    assert vault.ok("GET", REQUESTS)["Details"]["PASSWORDREQUESTLIST"] == []


def test_workflow_operations_are_audited_with_resource_and_requester(controlled):
    controlled.request()
    controlled.approve()
    records = {r["operation"]: r for r in controlled.vault.store.all("audit")}
    assert (records["REQUEST_PASSWORD"]["resource"], records["REQUEST_PASSWORD"]["account"]) == ("web01", "root")
    assert records["REQUEST_PASSWORD"]["reason"] == "deploy"
    assert records["ADMIN_REQUEST_APPROVE"]["username"] == "pat"
