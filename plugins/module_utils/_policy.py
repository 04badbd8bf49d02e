# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Password policies: list them, validate a password against one, generate a password by one.

The spec shows the answer of a valid password only (``result.message`` ``Valid``,
statusCode 20000) and no failure codes. So a failed validation answered with HTTP
2xx is read as the vault's verdict only once the policy is confirmed to exist
(one more request, on that path alone); otherwise the policy is unknown. Any
other failure (HTTP 401, 404 unsupported, ...) is an error, not a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._errors import VaultAPIError, VaultError, VaultInputError, VaultNotFoundError

VALID_MESSAGE = "Valid"


class InvalidPasswordError(VaultAPIError):
    """The password breaks its policy; the failure a module reports when asked to fail on an invalid password."""

    def to_result(self):
        return dict(super().to_result(), valid=False, message=self.vault_message)


@dataclass(frozen=True)
class Verdict:
    """The vault's answer on one password: ``message`` is ``Valid`` or the vault's explanation."""

    valid: bool
    message: str


def list_policies(client):
    """``(ORGANIZATION, POLICIES)`` of ``GET PASSWORD POLICIES``; the items as the vault gives them."""
    response = client.call("get_password_policies")
    return response.details_dict().get("ORGANIZATION"), response.details_list("POLICIES")


def find_policy(policies, name=None, policy_id=None):
    """The policy called ``name`` (exact ``POLICYNAME``) or with ``POLICYID`` ``policy_id``; None when absent."""
    for policy in policies:
        if name is not None and policy.get("POLICYNAME") == name:
            return policy
        if policy_id is not None and str(policy.get("POLICYID")) == str(policy_id):
            return policy
    return None


def default_policy_name(policies):
    """The ``POLICYNAME`` of the policy whose ``DEFAULTPOLICY`` is ``true``, or None."""
    for policy in policies:
        if str(policy.get("DEFAULTPOLICY", "")).lower() == "true":
            return policy.get("POLICYNAME")
    return None


def policy_label(name=None, policy_id=None):
    """How messages name a policy given by name or by id."""
    return "password policy %s" % name if name is not None else "password policy with id %s" % policy_id


def unknown_policy_error(policies, name=None, policy_id=None):
    """A ``VaultNotFoundError`` naming the policies the vault has."""
    known = ", ".join("%s (id %s)" % (p.get("POLICYNAME"), p.get("POLICYID")) for p in policies) or "none"
    return VaultNotFoundError("%s does not exist; the vault has: %s" % (policy_label(name, policy_id), known))


def validate_password(client, password, name=None, policy_id=None):
    """The vault's ``Verdict`` on ``password`` against the policy ``name`` or ``policy_id`` (exactly one).

    Raises ``VaultInputError`` before any request for bad input, ``VaultNotFoundError``
    for an unknown policy and the client's errors for anything that is not a verdict.
    """
    if (name is None) == (policy_id is None):
        raise VaultInputError("give exactly one of a policy name and a policy id")
    if not password:
        raise VaultInputError("the password to validate is empty")
    details = {"password": password}
    if name is not None:
        details["passwordPolicy"] = name
    else:
        details["passwordPolicyId"] = str(policy_id)
    try:
        answer = client.call("validate_password", details=details)
    except VaultAPIError as exc:
        if not _is_refusal(exc):
            raise
        _require_policy(client, exc, name, policy_id)
        return Verdict(False, exc.vault_message or "")
    return Verdict(True, answer.message or VALID_MESSAGE)


def _is_refusal(exc):
    """A failed ``result.status`` in an HTTP 2xx answer: the vault handled the call and said no."""
    return exc.http_status is not None and 200 <= exc.http_status < 300


def _require_policy(client, refusal, name=None, policy_id=None):
    """After ``refusal``: raise ``VaultNotFoundError`` when the policy does not exist.

    When the policy list cannot be read either, ``refusal`` itself is raised: it is the first error.
    """
    try:
        dummy_organization, policies = list_policies(client)
    except VaultError:
        raise refusal from None
    if find_policy(policies, name, policy_id) is None:
        raise unknown_policy_error(policies, name, policy_id) from None


def require_valid(verdict, name=None, policy_id=None):
    """Raise ``InvalidPasswordError`` unless ``verdict`` is valid."""
    if not verdict.valid:
        raise InvalidPasswordError(
            "the password does not satisfy %s (VALIDATE_PASSWORD): %s"
            % (policy_label(name, policy_id), verdict.message),
            operation="VALIDATE_PASSWORD",
            vault_message=verdict.message,
        )


def generate_password(client, name):
    """A new password generated by the vault for the policy called ``name`` (``GENERATE PASSWORD``).

    A refusal is checked against the policy list, so an unknown policy fails as ``VaultNotFoundError``.
    """
    try:
        details = client.call("generate_password", details={"POLICY": name}).details_dict()
    except VaultAPIError as exc:
        if _is_refusal(exc):
            _require_policy(client, exc, name)
        raise
    password = details.get("PASSWORD")
    if not isinstance(password, str) or not password:
        raise VaultAPIError(
            "GENERATE PASSWORD answered without a password for %s" % policy_label(name), operation="GENERATE PASSWORD"
        )
    return password


def default_policy(client):
    """The name of the vault's default policy (``DEFAULTPOLICY`` ``true``) from the policy list."""
    dummy_organization, policies = list_policies(client)
    name = default_policy_name(policies)
    if name is None:
        raise VaultNotFoundError("the vault names no default password policy (no DEFAULTPOLICY true); name a policy")
    return name
