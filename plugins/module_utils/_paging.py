# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Reading a whole list the vault gives out a page at a time (GET_USER(S), GET_USERGROUP(S)).

The input is ``limit``, ``startIndex``, ``searchValue``, ``searchColumn`` and
``searchOperator``; the answer is a page of items and ``totalRows``. "Default
list size when limit is omitted: 100".
"""

from __future__ import annotations

from ._api._declare import require
from ._errors import VaultUnsupportedError

# "searchOperator is one of contains, doesNotContain, equals, notEquals, startsWith, endsWith."
SEARCH_OPERATORS = ("contains", "doesNotContain", "equals", "notEquals", "startsWith", "endsWith")
PAGE_SIZE = 100


def search_input(value, column, operator):
    """The search part of the input, or ``{}`` when no ``value`` is given."""
    if value is None:
        return {}
    return {"searchValue": value, "searchColumn": column, "searchOperator": operator}


def read_all_pages(client, read_page, search=None, page_size=PAGE_SIZE):
    """Every item of a paged list (its object items only), reading page after page with ``read_page``: the gateway
    function of the paged row, called with the client and a page's Details (the ``search``, ``limit`` and
    ``startIndex``), which answers the page's ``VaultResponse`` (Details items and ``totalRows``).

    The next page is read while the last one was full, or while ``totalRows``
    says more items exist (a vault that caps a page below ``limit``). Reading
    stops at an empty page, or at a page that brings no item not seen before (a
    vault that ignores ``startIndex``): a ``totalRows`` that is missing, too low
    or too high neither loops forever nor cuts the list short of what the pages
    hold. An item seen twice (a list that moved between two pages) is kept once.
    """
    items = []
    seen = set()
    start = 0
    while True:
        details = dict(search or {}, limit=page_size, startIndex=start)
        response = read_page(client, details)
        page = response.details_list()
        new = 0
        for item in page:
            marker = repr(sorted(item.items()))
            if marker not in seen:
                seen.add(marker)
                items.append(item)
                new += 1
        start += len(page)
        more = len(page) >= page_size or (response.total_rows is not None and start < response.total_rows)
        if not new or not more:
            return items


def read_all_pages_if_served(client, read_page, search=None, page_size=PAGE_SIZE):
    """``(items, None)``: every page of the list ``read_page`` reads (``read_all_pages``), or ``(None, why)`` when
    the vault lacks it (GET_USER(S) and GET_USERGROUP(S) came with B 6320): refused by the configured edition and
    build before sending, or answered HTTP 404 by a vault without a configured build - which ``read_page`` says
    by ``VaultUnsupportedError`` when its row is declared ``unserved=UNSUPPORTED``, as a paged row read here must
    be."""
    try:
        require(client, read_page)
        return read_all_pages(client, read_page, search, page_size), None
    except VaultUnsupportedError as exc:
        return None, str(exc)
