"""Password policies: listing, generating, validating, and enforcing them on CHANGE PASSWORD."""

import pytest

from vault_simulator.areas.passwords.policy_rules import broken_rules, policy_named

POLICY_NAMES = ["Low", "Medium", "Strong", "Offline Password File", "Database Accounts"]
PASSWORD = "/resources/1/accounts/1/password"


def policies(vault, **kwargs):
    return vault.ok("GET", "/passwords/policies", **kwargs)["Details"]


def validate(vault, **details):
    """The top-level VALIDATE_PASSWORD answer (HTTP 200)."""
    status, body = vault.call("POST", "/passwords/validate", details=details, lower_case_details=True)
    assert status == 200 and body["name"] == "VALIDATE_PASSWORD" and "operation" not in body, body
    return body["result"]


def change(vault, new_password, path=PASSWORD):
    return vault.call("PUT", path, details={"NEWPASSWORD": new_password, "RESETTYPE": "LOCAL"})[1]["operation"]


def test_policies_list_the_five_policies_with_strong_as_default(vault):
    details = policies(vault)
    assert details["ORGANIZATION"] == "Default Organization"
    listed = details["POLICIES"]
    assert [p["POLICYNAME"] for p in listed] == POLICY_NAMES
    assert [p["POLICYNAME"] for p in listed if p["DEFAULTPOLICY"] == "true"] == ["Strong"]
    assert all(isinstance(value, str) for policy in listed for value in policy.values())
    assert len({p["POLICYID"] for p in listed}) == len(listed)


def test_policy_values_follow_the_spec(vault):
    by_name = {p["POLICYNAME"]: p for p in policies(vault)["POLICIES"]}
    assert by_name["Low"]["PASSWORD VALIDITY PERIOD"] == "0"
    assert all(p["PASSWORD VALIDITY PERIOD"] != "0" for name, p in by_name.items() if name != "Low")
    assert by_name["Strong"]["REUSE OF OLD PASSWORDS"] == "Don't allow last 4 passwords"
    # "Some keys appear only on some policies."
    assert "CHECK SEQUENCE" not in by_name["Low"] and by_name["Strong"]["CHECK SEQUENCE"] == "true"


def test_policies_name_the_selected_organization(make_vault):
    vault = make_vault(edition="B")
    response = vault.client.post(
        "/__simulator/organizations", json={"displayName": "Branch"}, headers={"AUTHTOKEN": vault.token}
    )
    assert response.status_code == 201
    assert policies(vault, headers={"orgName": "Branch"})["ORGANIZATION"] == "Branch"


@pytest.mark.parametrize("name", POLICY_NAMES)
def test_generated_passwords_satisfy_their_policy(vault, name):
    for _round in range(5):
        password = vault.ok("GET", "/passwords/generate", details={"POLICY": name})["Details"]["PASSWORD"]
        assert validate(vault, password=password, passwordPolicy=name)["message"] == "Valid"


def test_generate_uses_the_default_policy_without_policy_and_refuses_unknown_ones(vault):
    password = vault.ok("GET", "/passwords/generate")["Details"]["PASSWORD"]
    assert broken_rules(policy_named("Strong"), password) == []
    vault.failed("GET", "/passwords/generate", "Password policy Nope does not exist", details={"POLICY": "Nope"})


def test_generated_passwords_are_reproducible_with_a_seed(make_vault):
    first, second = make_vault(seed=7), make_vault(seed=7)
    drawn = [
        v.ok("GET", "/passwords/generate", details={"POLICY": "Strong"})["Details"]["PASSWORD"] for v in (first, second)
    ]
    assert drawn[0] == drawn[1]


def test_validate_accepts_a_valid_password_by_name_or_id(vault):
    expected = {"status": "Success", "message": "Valid", "statusCode": 20000}
    assert validate(vault, password="Kt7#vQ9!mZ2p", passwordPolicy="Strong") == expected
    assert validate(vault, password="Kt7#vQ9!mZ2p", passwordPolicyId="3") == expected


def test_validate_names_every_broken_rule(vault):
    result = validate(vault, password="abc1", passwordPolicy="Strong")
    assert result["status"] == "Failed" and result["statusCode"] == 40001
    for rule in ("at least 10 characters", "at least 1 upper-case letter", "at least 1 special character"):
        assert rule in result["message"]
    assert "policy Strong" in result["message"]


@pytest.mark.parametrize(
    "password, policy, rule",
    [
        ("Kt7#vQ9!mZ2p" * 3, "Strong", "must be at most 32 characters long"),
        ("7Kt#vQ9!mZ2p", "Strong", "must start with a letter"),
        ("Kt7#vQ9!mZ2p1234", "Strong", "must not contain a numeric sequence of 4 characters"),
        ("Kt7#vQ9!mZ2pWXYZ", "Strong", "must not contain an alphabet sequence of 4 characters"),
        ("Kt7#vQ9!mZ2pasdf", "Strong", "must not contain a keyboard sequence of 4 characters"),
        ("Kt7#vQ9!mZ2p____", "Strong", "must not repeat a character 4 times in a row"),
        ("Kt7#vQ9!Kt7#", "Strong", "must not repeat a substring of 3 or more characters"),
        ("KT7#VX9!mZ2PQEWK", "Database Accounts", "must contain at least 2 lower-case letters"),
        ("Kt7#vx!bmZhpQewk", "Database Accounts", "must contain at least 2 numerals"),
        ("Kt7#vx9bmZ2pQewk", "Database Accounts", "must contain at least 2 special characters"),
        ("kt7vq9mz", "Medium", "must contain at least 1 upper-case letter"),
        ("abc", "Low", "must be at least 4 characters long"),
    ],
)
def test_validate_checks_each_rule(vault, password, policy, rule):
    result = validate(vault, password=password, passwordPolicy=policy)
    assert result["status"] == "Failed" and rule in result["message"], result


def test_low_policy_accepts_simple_passwords(vault):
    assert validate(vault, password="abcd", passwordPolicy="Low")["message"] == "Valid"


def test_validate_checks_login_name_rules_when_a_login_name_is_given(vault):
    assert validate(vault, password="Xk7#oracleQ9", passwordPolicy="Strong")["message"] == "Valid"
    result = validate(vault, password="Xk7#oracleQ9", passwordPolicy="Strong", loginName="Oracle")
    assert "must not contain the login name" in result["message"]
    result = validate(vault, password="Kt7#vQ9!mZ2p", passwordPolicy="Strong", loginName="pZ2mQ9!vt7#K")
    assert "must not be an anagram of the login name" in result["message"]
    # Medium lets a password contain the login name.
    assert validate(vault, password="Oracle12x", passwordPolicy="Medium", loginName="oracle")["message"] == "Valid"


@pytest.mark.parametrize(
    "details, message",
    [
        ({"passwordPolicy": "Strong"}, "password is required"),
        ({"password": "Kt7#vQ9!mZ2p"}, "Give exactly one of passwordPolicy and passwordPolicyId"),
        (
            {"password": "Kt7#vQ9!mZ2p", "passwordPolicy": "Strong", "passwordPolicyId": "3"},
            "Give exactly one of passwordPolicy and passwordPolicyId",
        ),
        ({"password": "Kt7#vQ9!mZ2p", "passwordPolicy": "Nope"}, "Password policy Nope does not exist"),
        ({"password": "Kt7#vQ9!mZ2p", "passwordPolicyId": "99"}, "Password policy with ID 99 does not exist"),
    ],
)
def test_validate_refuses_input_it_cannot_check(vault, details, message):
    assert validate(vault, **details) == {"status": "Failed", "message": message, "statusCode": 40000}


@pytest.mark.parametrize(
    "edition, build, served", [("A", 12230, True), ("A", 12229, False), ("B", 6000, True), ("B", 5999, False)]
)
def test_validate_exists_from_a_12230_and_b_6000(make_vault, edition, build, served):
    vault = make_vault(edition=edition, build=build)
    status, _body = vault.call(
        "POST", "/passwords/validate", details={"password": "x", "passwordPolicy": "Low"}, lower_case_details=True
    )
    assert (status == 200) is served


def test_change_password_enforces_a_named_policy(vault):
    vault.create_resource("db01", password="s3cret", ACCOUNTPASSWORDPOLICY="Medium")
    operation = change(vault, "short")
    assert operation["result"]["status"] == "Failed"
    assert operation["result"]["message"] == (
        "The new password does not conform to the password policy Medium: it must be at least 8 characters long; "
        "must contain at least 1 upper-case letter; must contain at least 1 numeral"
    )
    assert vault.store.get("account", "1")["password"] == "s3cret"


def test_change_password_applies_login_name_rules_to_the_account_name(vault):
    vault.create_resource("db01", account="oracle", ACCOUNTPASSWORDPOLICY="Database Accounts")
    operation = change(vault, "Oracle#Kt7!vQ9mZ2pX")
    assert "must not contain the login name" in operation["result"]["message"]


def test_change_password_refuses_the_last_n_passwords(vault):
    vault.create_resource("db01", password="Start-pw-11", ACCOUNTPASSWORDPOLICY="Medium")
    # Medium: "Don't allow last 2 passwords" (the current one included).
    assert "must not be one of the last 2 passwords" in change(vault, "Start-pw-11")["result"]["message"]
    vault.ok("PUT", PASSWORD, details={"NEWPASSWORD": "Second-pw-22", "RESETTYPE": "LOCAL"})
    assert "must not be one of the last 2 passwords" in change(vault, "Start-pw-11")["result"]["message"]
    vault.ok("PUT", PASSWORD, details={"NEWPASSWORD": "Third-pw-33", "RESETTYPE": "LOCAL"})
    vault.ok("PUT", PASSWORD, details={"NEWPASSWORD": "Start-pw-11", "RESETTYPE": "LOCAL"})
    assert vault.ok("GET", PASSWORD)["Details"]["PASSWORD"] == "Start-pw-11"


def test_default_policy_is_enforced_in_full_on_change(vault):
    vault.create_resource("web01", password="Fir5t-pw-Start!")
    message = change(vault, "x")["result"]["message"]
    assert message.startswith("The new password does not conform to the password policy Strong")
    assert "at least 10 characters" in message
    vault.ok("PUT", PASSWORD, details={"NEWPASSWORD": "Sec0nd-pw-Start!", "RESETTYPE": "LOCAL"})
    for password in ("Fir5t-pw-Start!", "Sec0nd-pw-Start!"):
        assert "must not be one of the last 4 passwords" in change(vault, password)["result"]["message"]


def test_a_generated_password_is_accepted_by_change_password(vault):
    vault.create_resource("db01", ACCOUNTPASSWORDPOLICY="Database Accounts")
    generated = vault.ok("GET", "/passwords/generate", details={"POLICY": "Database Accounts"})["Details"]["PASSWORD"]
    vault.ok("PUT", PASSWORD, details={"NEWPASSWORD": generated, "RESETTYPE": "LOCAL"})
    assert vault.ok("GET", PASSWORD)["Details"]["PASSWORD"] == generated
