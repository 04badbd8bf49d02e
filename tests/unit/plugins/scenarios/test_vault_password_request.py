# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vault_password_request on the access_control simulator (password access control on, a reason required): the
scenarios of tests/integration/targets/vault_password_request that go beyond the module's integration contract,
moved here with their assertions (issue 36).

- workflow.yml: the check-mode run of every step but the first request (approve, check out, check in, reject),
  the reads a second run sends (GET_RESOURCEACCOUNTID, get_USERID, GET_PASSWORDREQUEST), the vault_password
  lookup refused before the checkout and after the check-in, approving a checked-out request, the rejection
  and the checkout it refuses. The integration target keeps one workflow (request in check mode, request, again,
  approve, check out, read the password, check in).
- reject_checked_out.yml: rejecting a checked-out password checks it in (check mode, real run, again).
- missing_account.yml: an account or resource that does not exist; names the vault would trim.
- errors.yml: refused transitions and impossible combinations, except "approve without a requester", which
  stays in integration as the target's bad input; the give-back of a request never checked out rejects it.

Helpers of this file: ``Requester`` makes what the target's requester.yml makes (a Password User API user and a
resource owned by admin whose account is shared with it at view level); ``open_requests`` is open_requests.yml.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest

from ansible_collections.credvault.vault.tests.unit.core_compat import warning_messages
from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_lookup
from ansible_collections.credvault.vault.tests.unit.plugins.scenarios.scenario import run, sim_api, writes

PASSWORD = "Ut-Pwr-R00t-pw-7731!"


def input_data(details):
    return "INPUT_DATA=" + urllib.parse.quote(json.dumps({"operation": {"Details": details}}))


class Requester:
    """requester.yml: the user ``name`` (a Password User API user, its token and id) and the resource ``resource``
    owned by admin, account root (password PASSWORD) shared with the user (view)."""

    def __init__(self, vault, unique):
        self.vault, self.name, self.resource = vault, unique + "-user", unique + "-host"
        details = {"USERNAME": self.name, "ROLE": "Password User", "ISAPIUSER": "true"}
        created = sim_api(vault, "POST", "/restapi/json/v1/user?" + input_data(details))
        assert created["operation"]["result"]["status"] == "Success", created
        self.token = created["operation"]["Details"]["AUTHTOKEN"]
        path = "/restapi/json/v1/user/getUserId?" + urllib.parse.urlencode({"USERNAME": self.name})
        self.id = sim_api(vault, "GET", path)["operation"]["Details"]["USERID"]
        account = {"name": "root", "password": PASSWORD}
        made = run(vault, "vault_resource", name=self.resource, type="Linux", owner="admin", first_account=account)
        assert made["changed"], made
        query = urllib.parse.urlencode({"RESOURCENAME": self.resource, "ACCOUNTNAME": "root"})
        ids = sim_api(vault, "GET", "/restapi/json/v1/resources/getResourceIdAccountId?" + query)
        ids = ids["operation"]["Details"]
        share = "/restapi/json/v1/resources/%s/accounts/%s/share?" % (ids["RESOURCEID"], ids["ACCOUNTID"])
        shared = sim_api(vault, "PUT", share + input_data({"ACCESSTYPE": "view", "USERID": self.id}))
        assert shared["operation"]["result"]["status"] == "Success", shared

    def asks(self, check_mode=False, **args):
        """The requester's run on root of its resource."""
        args = dict({"resource": self.resource, "account": "root"}, **args)
        return run(self.vault, "vault_password_request", check_mode=check_mode, auth_token=self.token, **args)

    def admin(self, state, check_mode=False, **args):
        """The administrator's run on the requester's request for root of its resource."""
        args = dict({"resource": self.resource, "account": "root", "requester": self.name}, **args)
        return run(self.vault, "vault_password_request", check_mode=check_mode, state=state, **args)

    def open_requests(self):
        """open_requests.yml: the requester's open requests for its resource, read by the administrator."""
        path = "/restapi/json/v1/accounts/passwordaccessrequests?" + input_data({"REQUESTEDID": self.id})
        listed = sim_api(self.vault, "GET", path)["operation"]["Details"]["PASSWORDREQUESTLIST"]
        return [item for item in listed if item["RESOURCE NAME"] == self.resource]

    def password(self, reason):
        """The vault_password lookup of root, as the requester."""
        options = dict(
            reason=reason,
            url=self.vault.connection["url"],
            auth_token=self.token,
            ca_path=self.vault.connection["ca_path"],
        )
        return run_lookup("vault_password", [self.resource + "/root"], options)

    def remove(self):
        """cleanup.yml: the resource (its requests go with it), then the user."""
        run(self.vault, "vault_resource", name=self.resource, state="absent")
        path = "/restapi/json/v1/user?" + urllib.parse.urlencode({"USERNAME": self.name})
        sim_api(self.vault, "DELETE", path)


@pytest.fixture
def requester(vaults, unique):
    made = Requester(vaults["access_control"], unique)
    yield made
    made.remove()


def operations(vault):
    return [entry["operation"] for entry in vault.requests]


def test_the_workflow_step_by_step(requester):
    """workflow.yml: each step in check mode, for real, and again (reads only); the lookup before and after."""
    vault = requester.vault
    release = {"reason": "Release 4.2"}

    assert requester.asks(**release)["changed"]
    vault.forget_requests()
    again = requester.asks(**release)
    assert not again["changed"] and again["state"] == "requested"
    assert (again["request"]["account_name"], again["request"]["reason"]) == ("root", "Release 4.2")
    assert operations(vault) == ["GET_RESOURCEACCOUNTID", "GET_PASSWORDREQUEST"]
    assert [item["STATUS"] for item in requester.open_requests()] == ["WAITING FOR APPROVAL"]

    waiting = requester.password("Release 4.2")
    assert waiting.get("failed") and "Password access control is on" in waiting["msg"], waiting

    # Approve: check mode, real, again.
    vault.forget_requests()
    check = requester.admin("approved", check_mode=True)
    assert check["changed"] and check["state"] == "approved"
    assert writes(vault) == []
    assert requester.open_requests()[0]["STATUS"] == "WAITING FOR APPROVAL"
    approve = requester.admin("approved")
    assert approve["changed"]
    assert (approve["diff"]["before"]["state"], approve["diff"]["after"]["state"]) == ("requested", "approved")
    vault.forget_requests()
    assert not requester.admin("approved")["changed"]
    assert operations(vault) == ["GET_RESOURCEACCOUNTID", "get_USERID", "GET_PASSWORDREQUEST"]
    assert requester.open_requests()[0]["STATUS"] == "APPROVED"

    # Check out: check mode, real, again; approving a checked-out request changes nothing.
    vault.forget_requests()
    assert requester.asks(check_mode=True, state="checked_out", **release)["changed"]
    assert writes(vault) == []
    assert requester.open_requests()[0]["STATUS"] == "APPROVED"
    checkout = requester.asks(state="checked_out", **release)
    assert checkout["changed"]
    assert (checkout["diff"]["before"]["state"], checkout["diff"]["after"]["state"]) == ("approved", "checked_out")
    vault.forget_requests()
    again = requester.asks(state="checked_out", **release)
    assert not again["changed"] and again["state"] == "checked_out"
    assert writes(vault) == []
    assert operations(vault) == ["GET_RESOURCEACCOUNTID", "GET_PASSWORDREQUEST"]
    assert not requester.admin("approved")["changed"]
    assert requester.open_requests()[0]["STATUS"] == "CHECKED OUT"
    assert requester.password("Release 4.2") == {"value": [PASSWORD]}

    # Check in: check mode, real, again; the password is closed again.
    vault.forget_requests()
    assert requester.admin("checked_in", check_mode=True)["changed"]
    assert writes(vault) == []
    assert requester.open_requests()[0]["STATUS"] == "CHECKED OUT"
    checkin = requester.admin("checked_in")
    assert checkin["changed"]
    assert (checkin["diff"]["before"]["state"], checkin["diff"]["after"]["state"]) == ("checked_out", "checked_in")
    vault.forget_requests()
    again = requester.admin("checked_in")
    assert not again["changed"] and again["state"] == "none"
    assert writes(vault) == []
    assert operations(vault) == ["GET_RESOURCEACCOUNTID", "get_USERID", "GET_PASSWORDREQUEST"]
    assert requester.open_requests() == []
    closed = requester.password("Release 4.2")
    assert closed.get("failed") and "Password access control is on" in closed["msg"], closed
    assert PASSWORD not in json.dumps(closed)

    # A second request, rejected: check mode, real, again; its checkout is refused.
    assert requester.asks(reason="Release 4.3")["changed"]
    vault.forget_requests()
    assert requester.admin("rejected", check_mode=True)["changed"]
    assert writes(vault) == []
    assert [(item["STATUS"], item["REASON"]) for item in requester.open_requests()] == [
        ("WAITING FOR APPROVAL", "Release 4.3")
    ]
    reject = requester.admin("rejected")
    assert reject["changed"]
    assert (reject["diff"]["before"]["state"], reject["diff"]["after"]["state"]) == ("requested", "rejected")
    assert not requester.admin("rejected")["changed"]
    refused = requester.asks(state="checked_out", reason="Release 4.3")
    assert requester.open_requests() == []
    assert refused["failed"] and refused["operation"] == "REQUEST_CHECKOUT"
    assert "was rejected" in refused["vault_message"]
    assert "cannot check out the password for %s/root (state found: none)" % requester.resource in refused["msg"]


def test_rejecting_a_checked_out_password_checks_it_in(requester):
    """reject_checked_out.yml: the vault refuses to reject a checked-out request, so the module checks it in."""
    vault = requester.vault
    assert requester.asks(reason="Release 4.5")["changed"]
    assert requester.admin("approved")["changed"]
    assert requester.asks(state="checked_out", reason="Release 4.5")["changed"]

    vault.forget_requests()
    check = requester.admin("rejected", check_mode=True)
    assert check["changed"] and check["state"] == "checked_in"
    assert writes(vault) == []

    reject = requester.admin("rejected")
    assert reject["changed"] and reject["state"] == "checked_in"
    assert (reject["diff"]["before"]["state"], reject["diff"]["after"]["state"]) == ("checked_out", "checked_in")
    assert [operation for method, operation in writes(vault)] == ["ADMIN_REQUEST_CHECKIN"]
    again = requester.admin("rejected")
    assert not again["changed"] and again["state"] == "none"
    assert requester.open_requests() == []
    refused = requester.password("Release 4.5")
    assert refused.get("failed") and PASSWORD not in json.dumps(refused)


def test_accounts_that_do_not_exist_and_names_the_vault_would_trim(requester):
    """missing_account.yml: check mode takes a missing account or resource as created by an earlier task (with a
    warning); rejected and checked_in are reached without it; padded names are refused before any request."""
    vault = requester.vault
    missing_resource = requester.resource + "-later"
    vault.forget_requests()
    later = requester.asks(check_mode=True, account="later", reason="Release 4.6")
    assert later["changed"] and later["state"] == "requested"
    assert warning_messages(later) == [
        "account %s/later does not exist yet: check mode takes it as created by an earlier task, a real run fails"
        " unless it exists by then" % requester.resource
    ]
    later = requester.asks(check_mode=True, resource=missing_resource, state="checked_out", reason="Release 4.6")
    assert later["changed"] and len(warning_messages(later)) == 1
    rejected = requester.admin("rejected", account="later")
    assert not rejected["changed"] and rejected["state"] == "none"
    checked_in = requester.admin("checked_in", resource=missing_resource)
    assert not checked_in["changed"] and checked_in["state"] == "none"
    assert writes(vault) == []

    vault.forget_requests()
    padded = [
        requester.admin("rejected", resource=" " + requester.resource),
        requester.admin("rejected", account="root "),
        requester.admin("rejected", requester=requester.name + " "),
    ]
    for result in padded:
        assert result.get("failed") and "has leading or trailing spaces" in result["msg"], result
    assert vault.requests == []


def test_refused_transitions_and_impossible_input(requester):
    """errors.yml: the vault's refusals (in check mode the reason it would give, writing nothing), combinations
    refused before any request, unknown names; the give-back of a request never checked out rejects it."""
    vault = requester.vault
    vault.forget_requests()
    check = requester.admin("approved", check_mode=True)
    assert check["failed"]
    assert "cannot approve the request of %s for %s/root" % (requester.name, requester.resource) in check["msg"]
    assert "there is no open request" in check["msg"]
    assert writes(vault) == []
    approve = requester.admin("approved")
    assert approve["failed"] and approve["operation"] == "ADMIN_REQUEST_APPROVE"
    assert "ADMIN_REQUEST_APPROVE failed: User %s has no open request" % requester.name in approve["msg"]

    no_reason = requester.asks()
    assert no_reason["failed"] and "A reason is required to request this password" in no_reason["msg"]
    assert requester.asks(reason="Release 4.4")["changed"]
    vault.forget_requests()
    early = requester.asks(check_mode=True, state="checked_out", reason="Release 4.4")
    assert early["failed"] and "the request is waiting for approval; the vault refuses it" in early["msg"]
    assert writes(vault) == []
    early = requester.asks(state="checked_out", reason="Release 4.4")
    assert early["failed"] and "is waiting for approval" in early["vault_message"]

    vault.forget_requests()
    on_reject = requester.admin("rejected", reason="Because")
    assert on_reject["failed"] and "reason is sent only to request or check out a password" in on_reject["msg"]
    on_request = requester.asks(requester=requester.name, reason="Release 4.4")
    assert on_request["failed"] and "requester is only for approved, rejected and checked_in" in on_request["msg"]
    assert vault.requests == []
    unknown = requester.admin("approved", requester=requester.name + "-nobody")
    assert unknown["failed"] and "User %s-nobody does not exist" % requester.name in unknown["msg"]
    unknown = requester.asks(account="nobody", reason="Release 4.4")
    assert unknown["failed"] and "has no account nobody" in unknown["msg"]

    # Issue 36: the give-back (checked_in) of a request never checked out withdraws it.
    closed = requester.admin("checked_in")
    assert closed["changed"] and closed["state"] == "rejected"
    assert closed["diff"]["before"]["state"] == "requested"
