# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 15, access: vault_password says "refused" when the vault refuses this token the name lookup (a locked
user, no access), never "not found", and ``default`` does not stand for it."""

from __future__ import annotations

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError

LOCKED = "Authentication failed: the user of this AUTHTOKEN is locked"
NOT_AUTHORIZED = "You are not authorized to view resource web"


# One term is resolved with GET_RESOURCEACCOUNTID; two accounts of one resource with GET_RESOURCEID and the list.
@pytest.mark.parametrize(
    ("terms", "key", "operation", "message", "http_status"),
    [
        (["web/root"], "get_resource_account_ids", "GET_RESOURCEACCOUNTID", LOCKED, 401),
        (["web/root"], "get_resource_account_ids", "GET_RESOURCEACCOUNTID", NOT_AUTHORIZED, 200),
        (["web/root", "web/app"], "get_resource_id", "GET_RESOURCEID", LOCKED, 401),
        (["web/root", "web/app"], "get_resource_id", "GET_RESOURCEID", NOT_AUTHORIZED, 200),
    ],
)
def test_a_refused_lookup_of_the_names_says_refused(lookup, vault, terms, key, operation, message, http_status):
    vault.answers[key] = VaultAPIError(
        "%s failed: %s" % (operation, message), operation=operation, http_status=http_status, vault_message=message
    )
    with pytest.raises(AnsibleLookupError) as caught:
        lookup(*terms, default="")
    text = str(caught.value)
    assert "vault_password: the vault refused to look up web/root for this token: %s failed" % operation in text
    assert message in text
    assert "not found" not in text and "does not exist" not in text
    assert not [key for key, *dummy in vault.calls if key in ("get_resources", "get_password")]
