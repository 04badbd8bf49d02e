# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The sharing rows of the gateway: each per-target row names its grantee's key (``USERID`` or ``USERGROUPID``) and
its path; the rows some builds lack are refused before sending."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api import sharing as sharing_api
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultUnsupportedError
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient


@pytest.mark.parametrize(
    "function, ids, path, grantee",
    [
        (sharing_api.share_resource_with_user, ("1",), {"resource_id": "1"}, "USERID"),
        (sharing_api.share_resource_with_group, ("1",), {"resource_id": "1"}, "USERGROUPID"),
        (sharing_api.share_account_with_user, ("1", "11"), {"resource_id": "1", "account_id": "11"}, "USERID"),
        (sharing_api.share_account_with_group, ("1", "11"), {"resource_id": "1", "account_id": "11"}, "USERGROUPID"),
    ],
)
def test_a_per_target_share_sends_its_path_the_access_type_and_its_grantees_key(function, ids, path, grantee):
    key = function.endpoint.key
    client = ScriptedClient({key: None})
    function(client, *ids, "7", "view")
    assert client.calls == [(key, path, {"ACCESSTYPE": "view", grantee: "7"}, None)]


@pytest.mark.parametrize(
    "function, edition, build",
    [
        (sharing_api.share_resource_with_group, "A", 11000),
        (sharing_api.share_resource_groups, "A", 12430),
        (sharing_api.share_accounts, "B", 6300),
    ],
)
def test_a_share_the_configured_build_lacks_is_refused_before_sending(function, edition, build):
    client = ScriptedClient({function.endpoint.key: None}, edition=edition, build=build)
    arguments = ("1", "7", "view") if function is sharing_api.share_resource_with_group else ({"accessType": "view"},)
    with pytest.raises(VaultUnsupportedError, match="needs"):
        function(client, *arguments)
    assert client.calls == []
