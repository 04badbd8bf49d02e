# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reading a paged list whole: the pages asked for, and where reading stops, whatever totalRows says."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._api._declare import UNSUPPORTED, Call
from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError
from ansible_collections.credvault.vault.plugins.module_utils._paging import (
    SEARCH_OPERATORS,
    read_all_pages,
    read_all_pages_if_served,
    search_input,
)
from ansible_collections.credvault.vault.plugins.module_utils._response import VaultResponse
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient


def groups(count):
    return [{"userGroupId": number, "userGroupName": "g%d" % number} for number in range(1, count + 1)]


class PagedVault:
    """Serves ``items`` a page at a time as GET_USERGROUP(S) would; ``total`` is the totalRows it claims
    (``len(items)`` unless given, None to leave it out), ``cap`` the most it answers per page, whatever the limit,
    ``ignore_start`` serves the first page for every startIndex. Records each request's details."""

    def __init__(self, items, total="true", cap=None, ignore_start=False):
        self.items = items
        self.total = len(items) if total == "true" else total
        self.cap = cap
        self.ignore_start = ignore_start
        self.sent = []

    def read_page(self, client, details):
        """The paged row's gateway function: answers the page of ``details``."""
        assert client is self
        self.sent.append(details)
        start = 0 if self.ignore_start else details["startIndex"]
        size = min(details["limit"], self.cap or details["limit"])
        page = self.items[start : start + size]
        return VaultResponse("GET_USERGROUP(S)", "Success", "", None, page, self.total, 200, {})

    def starts(self):
        return [details["startIndex"] for details in self.sent]


def test_pages_are_read_until_totalrows_items_came():
    vault = PagedVault(groups(250))
    assert read_all_pages(vault, vault.read_page) == groups(250)
    assert vault.starts() == [0, 100, 200]
    assert all(details["limit"] == 100 for details in vault.sent)


def test_a_short_page_ends_the_list_without_totalrows():
    vault = PagedVault(groups(130), total=None)
    assert read_all_pages(vault, vault.read_page) == groups(130)
    assert vault.starts() == [0, 100]


def test_a_full_last_page_without_totalrows_is_followed_by_an_empty_page():
    vault = PagedVault(groups(200), total=None)
    assert read_all_pages(vault, vault.read_page) == groups(200)
    assert vault.starts() == [0, 100, 200]


def test_an_empty_list_is_one_request():
    vault = PagedVault([], total=0)
    assert read_all_pages(vault, vault.read_page) == []
    assert vault.starts() == [0]


def test_a_totalrows_too_low_does_not_cut_the_list_short():
    vault = PagedVault(groups(250), total=100)
    assert read_all_pages(vault, vault.read_page) == groups(250)
    assert vault.starts() == [0, 100, 200]


def test_a_totalrows_too_high_ends_at_the_empty_page():
    vault = PagedVault(groups(150), total=10000)
    assert read_all_pages(vault, vault.read_page) == groups(150)
    assert vault.starts() == [0, 100, 150]


def test_a_vault_that_caps_its_pages_below_the_limit_is_read_on_while_totalrows_says_more():
    vault = PagedVault(groups(120), cap=50)
    assert read_all_pages(vault, vault.read_page) == groups(120)
    assert vault.starts() == [0, 50, 100]


def test_a_vault_that_ignores_startindex_does_not_loop_forever():
    vault = PagedVault(groups(150), total=None, ignore_start=True)
    assert read_all_pages(vault, vault.read_page) == groups(100)
    assert vault.starts() == [0, 100]


def test_an_item_on_two_pages_is_kept_once():
    items = groups(150)
    vault = PagedVault(items[:100] + items[99:], total=151)
    assert read_all_pages(vault, vault.read_page) == items
    assert vault.starts() == [0, 100]


def test_items_that_are_not_objects_are_left_out():
    vault = PagedVault(["noise", None] + groups(2), total=4)
    assert read_all_pages(vault, vault.read_page) == groups(2)


def test_the_search_goes_with_every_page_and_the_page_size_is_the_callers():
    vault = PagedVault(groups(5))
    search = search_input("g", "userGroupName", "startsWith")
    assert read_all_pages(vault, vault.read_page, search=search, page_size=2) == groups(5)
    assert vault.sent == [
        {
            "searchValue": "g",
            "searchColumn": "userGroupName",
            "searchOperator": "startsWith",
            "limit": 2,
            "startIndex": s,
        }
        for s in (0, 2, 4)
    ]


def user_group_pages():
    """A gateway function of GET_USERGROUP(S) as the gateway declares a paged row (``unserved=UNSUPPORTED``), left
    out of the gateway's registry."""

    def read_page(client, details):
        return Call(client, "get_user_groups", UNSUPPORTED)(details=details)

    read_page.endpoint = CATALOGUE["get_user_groups"]
    return read_page


def test_an_optional_list_is_read_whole():
    client = ScriptedClient(
        {"get_user_groups": lambda path, details, query: groups(250)[details["startIndex"] :][:100]}
    )
    assert read_all_pages_if_served(client, user_group_pages()) == (groups(250), None)
    assert [details["startIndex"] for dummy_key, dummy_path, details, dummy_query in client.calls] == [0, 100, 200]


def test_an_optional_list_the_configured_build_lacks_is_none_and_nothing_is_sent():
    client = ScriptedClient({}, edition="B", build=6300)
    items, why = read_all_pages_if_served(client, user_group_pages())
    assert items is None and "needs edition B from build 6320" in why
    assert client.calls == []


def test_an_optional_list_the_vault_does_not_serve_is_none_with_the_reason():
    unserved = VaultAPIError("GET_USERGROUP(S) failed (HTTP 404): no such path", http_status=404)
    client = ScriptedClient({"get_user_groups": unserved})
    assert read_all_pages_if_served(client, user_group_pages()) == (
        None,
        "the vault does not serve it: GET_USERGROUP(S) failed (HTTP 404): no such path",
    )


def test_another_failure_of_an_optional_list_is_raised():
    client = ScriptedClient({"get_user_groups": VaultAPIError("GET_USERGROUP(S) failed (HTTP 500)", http_status=500)})
    with pytest.raises(VaultAPIError, match="HTTP 500"):
        read_all_pages_if_served(client, user_group_pages())


@pytest.mark.parametrize("value", ["", "x"])
def test_a_search_value_gives_the_three_search_fields(value):
    assert search_input(value, "description", "equals") == {
        "searchValue": value,
        "searchColumn": "description",
        "searchOperator": "equals",
    }


def test_no_search_value_sends_no_search():
    assert search_input(None, "userGroupName", "contains") == {}


def test_the_operators_are_the_specs():
    assert SEARCH_OPERATORS == ("contains", "doesNotContain", "equals", "notEquals", "startsWith", "endsWith")
