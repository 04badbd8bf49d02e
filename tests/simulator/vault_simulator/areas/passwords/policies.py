"""Password policies: list them, generate a password, validate a password."""

from vault_simulator.areas.passwords.policy_rules import broken_rules, generate_password, policy_named, policy_with_id
from vault_simulator.core.inputs import text
from vault_simulator.core.password_policies import DEFAULT_POLICY, PASSWORD_POLICIES
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import FAILED, Failure, Reply, success
from vault_simulator.core.styles import REST_TOP_LEVEL

VALID = "Valid"
VALID_CODE = 20000
# The spec gives statusCode 20000 for a valid password and no code for the other
# answers: 40000 is answered for input that cannot be validated, 40001 for a
# password that breaks its policy.
BAD_INPUT_CODE = 40000
INVALID_CODE = 40001


@endpoint("GET", "/passwords/policies", op="GET PASSWORD POLICIES", builds={"A": 11300, "B": 5300})
def list_policies(ctx):
    """Details.ORGANIZATION (the selected organization's display name) and POLICIES."""
    return success(
        "Password policies fetched successfully",
        {"ORGANIZATION": ctx.org["displayName"], "POLICIES": [dict(p) for p in PASSWORD_POLICIES]},
    )


@endpoint("GET", "/passwords/generate", op="GENERATE PASSWORD", builds=ANY_BUILD)
def generate(ctx):
    """Details.PASSWORD: a new password satisfying the policy Details.POLICY names
    (the default policy when POLICY is not given)."""
    name = text(ctx.details, "POLICY").strip() or DEFAULT_POLICY
    policy = policy_named(name)
    if policy is None:
        raise Failure(f"Password policy {name} does not exist")
    return success(
        f"Password generated successfully for policy {name}", {"PASSWORD": generate_password(policy, ctx.rng)}
    )


@endpoint("POST", "/passwords/validate", op="VALIDATE_PASSWORD", builds={"A": 12230, "B": 6000}, style=REST_TOP_LEVEL)
def validate(ctx):
    """``details``: password, and exactly one of passwordPolicy (name) or
    passwordPolicyId. An optional loginName (not in the spec) is checked against
    the login-name rules. REUSE OF OLD PASSWORDS is not checked: the input names no
    account whose passwords could be compared.

    A valid password answers message ``Valid`` with statusCode 20000; an invalid one
    status Failed, statusCode 40001 and a message naming every rule broken; input
    that cannot be validated status Failed with statusCode 40000.
    """
    password = text(ctx.details, "password")
    policy_name = text(ctx.details, "passwordPolicy").strip()
    policy_id = text(ctx.details, "passwordPolicyId").strip()
    if not password:
        return _failed("password is required", BAD_INPUT_CODE)
    if bool(policy_name) == bool(policy_id):
        return _failed("Give exactly one of passwordPolicy and passwordPolicyId", BAD_INPUT_CODE)
    policy = policy_named(policy_name) if policy_name else policy_with_id(policy_id)
    if policy is None:
        missing = policy_name or f"with ID {policy_id}"
        return _failed(f"Password policy {missing} does not exist", BAD_INPUT_CODE)
    broken = broken_rules(policy, password, text(ctx.details, "loginName").strip())
    if broken:
        return _failed(f"Invalid: the password {'; '.join(broken)} (policy {policy['POLICYNAME']})", INVALID_CODE)
    return success(VALID, statusCode=VALID_CODE)


def _failed(message, code):
    return Reply(FAILED, message, None, {"statusCode": code})
