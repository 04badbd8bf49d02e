"""GET and PUT .../password: reason, ticket and reset type rules."""

import pytest

from vault_simulator.areas.passwords.account_passwords import REASON_REQUIRED
from vault_simulator.core.reason_and_ticket import TICKET_REQUIRED

PASSWORD = "/resources/1/accounts/1/password"


@pytest.fixture
def strict_vault(make_vault):
    vault = make_vault(require_reason=True, require_ticket=True)
    vault.create_resource("web01", password="first-pw")
    return vault


def test_get_password(vault):
    vault.create_resource("web01", password="first-pw")
    operation = vault.ok("GET", PASSWORD)
    assert operation["name"] == "GET PASSWORD"
    assert operation["Details"] == {"PASSWORD": "first-pw"}


def test_get_password_of_unknown_account(vault):
    vault.create_resource("web01")
    vault.failed("GET", "/resources/1/accounts/9/password", "Account with ID 9 does not exist in resource web01")


def test_forced_reason_and_ticket(strict_vault):
    assert REASON_REQUIRED == "A reason is required to retrieve this password"
    assert TICKET_REQUIRED == "A ticket ID is required: ticketing is enabled"
    strict_vault.failed("GET", PASSWORD, REASON_REQUIRED)
    strict_vault.failed("GET", PASSWORD, REASON_REQUIRED, details={"REASON": "  ", "TICKETID": "T-1"})
    strict_vault.failed("GET", PASSWORD, TICKET_REQUIRED, details={"REASON": "deploy"})
    operation = strict_vault.ok("GET", PASSWORD, details={"REASON": "deploy", "TICKETID": "T-1"})
    assert operation["Details"]["PASSWORD"] == "first-pw"


def test_failed_retrieval_does_not_count_as_access(strict_vault):
    strict_vault.failed("GET", PASSWORD, REASON_REQUIRED)
    assert strict_vault.store.get("account", "1")["last_accessed"] is None


def test_change_password(vault):
    vault.create_resource("web01", password="first-pw")
    account = vault.store.get("account", "1")
    vault.store.put("account", "1", {**account, "last_modified": "2020-01-01T00:00:00.000"})
    operation = vault.ok(
        "PUT", PASSWORD, details={"NEWPASSWORD": "Sec0nd-pw-Rotation!", "RESETTYPE": "LOCAL", "REASON": "rotation"}
    )
    assert operation == {
        "name": "CHANGE PASSWORD",
        "result": {"status": "Success", "message": "Password changed successfully"},
    }
    assert vault.ok("GET", PASSWORD)["Details"]["PASSWORD"] == "Sec0nd-pw-Rotation!"
    assert vault.store.get("account", "1")["last_modified"] > "2020-01-01T00:00:00.000"


@pytest.mark.parametrize(
    "details, message",
    [
        ({"RESETTYPE": "LOCAL"}, "NEWPASSWORD is required"),
        ({"NEWPASSWORD": "x"}, "RESETTYPE must be LOCAL or REMOTE"),
        ({"NEWPASSWORD": "x", "RESETTYPE": "local-ish"}, "RESETTYPE must be LOCAL or REMOTE"),
        ({"NEWPASSWORD": "x", "RESETTYPE": "REMOTE"}, "Remote password reset is not configured for resource web01"),
    ],
)
def test_change_password_failures(vault, details, message):
    vault.create_resource("web01", password="first-pw")
    vault.failed("PUT", PASSWORD, message, details=details)
    assert vault.store.get("account", "1")["password"] == "first-pw"


def test_change_password_needs_a_ticket_when_ticketing_is_enabled(strict_vault):
    new_password = "Ticketed-pw-71!"
    strict_vault.failed("PUT", PASSWORD, TICKET_REQUIRED, details={"NEWPASSWORD": new_password, "RESETTYPE": "LOCAL"})
    strict_vault.ok("PUT", PASSWORD, details={"NEWPASSWORD": new_password, "RESETTYPE": "LOCAL", "TICKETID": "T-2"})
    assert strict_vault.store.get("account", "1")["password"] == new_password
