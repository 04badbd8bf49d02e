# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The password policies of the vault, for ``vault_password_policy_info`` (the policy calls are ``_policy``'s)."""

from __future__ import annotations

from ._policy import default_policy_name, list_policies


def describe(task):
    """Entry point of ``vault_password_policy_info``: ``organization``, ``default_policy`` and ``policies`` (all, or
    the one called ``name``; none for a name the vault does not know) from one ``GET PASSWORD POLICIES``."""
    name = task.desired.get("name")
    organization, policies = list_policies(task.client)
    selected = policies if name is None else [policy for policy in policies if policy.get("POLICYNAME") == name]
    return {"organization": organization, "default_policy": default_policy_name(policies), "policies": selected}
