"""Paging and searching of GET /user and GET /userGroup (edition B).

Input (``details``, lower case): limit, startIndex, searchValue, searchColumn,
searchOperator. Where the spec is silent the simulator chooses:

- limit defaults to 100 (the spec's "Default list size when limit is
  omitted"); startIndex is a 0-based offset, 0 by default;
- without searchValue nothing is filtered; searchColumn defaults to the name
  column (userName, userGroupName), searchOperator to ``contains``;
- values are compared as text, ignoring case (booleans as ``true``/``false``);
- totalRows counts every match, not only the page returned.
"""

from vault_simulator.core.inputs import text
from vault_simulator.core.replies import Failure

DEFAULT_LIMIT = 100
OPERATORS = {
    "contains": lambda value, wanted: wanted in value,
    "doesNotContain": lambda value, wanted: wanted not in value,
    "equals": lambda value, wanted: value == wanted,
    "notEquals": lambda value, wanted: value != wanted,
    "startsWith": lambda value, wanted: value.startswith(wanted),
    "endsWith": lambda value, wanted: value.endswith(wanted),
}


def search_page(details, items, columns, default_column, value_of):
    """``(page, total)``: the ``items`` that match the search, then the page of them asked for.

    ``columns`` are the allowed searchColumn values; ``value_of(item, column)``
    is an item's value in a column.
    """
    limit = _whole_number(details, "limit", DEFAULT_LIMIT, minimum=1)
    start = _whole_number(details, "startIndex", 0, minimum=0)
    wanted = text(details, "searchValue").lower()
    column = text(details, "searchColumn") or default_column
    if column not in columns:
        raise Failure(f"searchColumn must be one of {', '.join(columns)}")
    operator_name = text(details, "searchOperator") or "contains"
    if operator_name not in OPERATORS:
        raise Failure(f"searchOperator must be one of {', '.join(OPERATORS)}")
    matches = OPERATORS[operator_name]
    found = [item for item in items if not wanted or matches(_as_text(value_of(item, column)), wanted)]
    return found[start : start + limit], len(found)


def _as_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).lower()


def _whole_number(details, key, default, minimum):
    raw = text(details, key).strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < minimum:
        raise Failure(f"{key} must be a whole number of at least {minimum}")
    return int(raw)
