# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a vault serves (``_gates``): a call that fits no catalogue row is a defect of the caller; a row or an input
field the configured edition and build lack is refused before sending; an unconfigured client's unserved call hints
to set ``edition``."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultCallError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.module_utils._gates import (
    EDITION_HINT,
    catalogue_row,
    catalogued,
    check_gates,
    edition_hint,
    gates_text,
)


@pytest.mark.parametrize("key", ["no_such_row", None, 7])
def test_a_key_without_a_row_is_a_call_error(key):
    with pytest.raises(VaultCallError, match="no endpoint .* in the catalogue"):
        catalogue_row(key)


def test_a_call_that_does_not_fit_its_row_names_the_operation():
    assert catalogued("get_resource_id", {"resource_name": "web"}, None) is CATALOGUE["get_resource_id"]
    with pytest.raises(VaultCallError) as caught:
        catalogued("get_resource_id", {"resource_id": "7"}, None)
    assert str(caught.value).startswith("GET_RESOURCEID: ") and caught.value.operation == "GET_RESOURCEID"


def test_gates_in_words_are_sorted_by_edition():
    assert gates_text({"B": 6000, "A": 12230}) == "edition A from build 12230 or edition B from build 6000"


def test_a_row_the_edition_lacks_is_refused_with_its_gate_and_the_vault():
    row = CATALOGUE["get_users"]
    with pytest.raises(VaultUnsupportedError) as caught:
        check_gates(row, None, "A", 99999)
    assert (
        str(caught.value)
        == "GET_USER(S) (GET /user) needs edition B from build 6320; the vault is edition A build 99999"
    )
    check_gates(row, None, "B", 6320)
    check_gates(row, None, None, None)


def test_a_gated_field_is_refused_only_when_it_is_sent_at_any_depth():
    row = CATALOGUE["add_accounts"]
    sent = {"ACCOUNTLIST": [{"ACCOUNTNAME": "root", "RECORD_RDP_SESSIONS": "true"}]}
    with pytest.raises(VaultUnsupportedError, match="field RECORD_RDP_SESSIONS needs edition A from build 12230"):
        check_gates(row, sent, "A", 12000)
    check_gates(row, {"ACCOUNTLIST": [{"ACCOUNTNAME": "root"}]}, "A", 12000)
    check_gates(row, sent, "A", 12230)


@pytest.mark.parametrize(
    "edition, status, hinted",
    [(None, 404, True), (None, 405, True), ("A", 404, False), (None, 500, False), (None, None, False)],
)
def test_the_edition_hint_is_for_an_unconfigured_client_whose_call_was_not_served(edition, status, hinted):
    error = VaultAPIError("GET_USER(S) failed (HTTP %s): not found" % status, http_status=status)
    assert edition_hint(edition, error) == (". Hint: %s" % EDITION_HINT if hinted else "")
