"""Additional (custom) fields of resources and accounts.

Input items are ``{CUSTOMLABEL, CUSTOMVALUE}``; output items are
``{CUSTOMFIELDVALUE, CUSTOMFIELDTYPE, CUSTOMFIELDLABEL, CUSTOMFIELDCOLUMNNAME}``.
A label seen for the first time at a level (RESOURCE or ACCOUNT) is defined
as a ``Character`` field stored in the next column ``COLUMN_CHARn``.
"""

from vault_simulator.core.records import CUSTOM_FIELD
from vault_simulator.core.replies import Failure

RESOURCE_LEVEL = "RESOURCE"
ACCOUNT_LEVEL = "ACCOUNT"
MAX_PER_LEVEL = 20


def read_custom_fields(details, key):
    """The ``(label, value)`` pairs given in ``details[key]``."""
    items = details.get(key, [])
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise Failure(f"{key} must be a list of {{CUSTOMLABEL, CUSTOMVALUE}} objects")
    if len(items) > MAX_PER_LEVEL:
        raise Failure(f"{key} has {len(items)} fields: at most {MAX_PER_LEVEL} are allowed")
    pairs = []
    for item in items:
        label = str(item.get("CUSTOMLABEL") or "").strip()
        if not label:
            raise Failure(f"Every item of {key} needs a CUSTOMLABEL")
        value = item.get("CUSTOMVALUE")
        pairs.append((label, "" if value is None else str(value)))
    return pairs


def merge_custom_fields(store, level, current, pairs):
    """``current`` (stored ``{label, value}`` items) updated by label with ``pairs``."""
    merged = [dict(field) for field in current]
    for label, value in pairs:
        _define(store, level, label)
        existing = next((field for field in merged if field["label"] == label), None)
        if existing is None:
            merged.append({"label": label, "value": value})
        else:
            existing["value"] = value
    return merged


def custom_field_output(store, level, fields):
    output = []
    for field in fields:
        definition = store.get(CUSTOM_FIELD, f"{level}:{field['label']}")
        output.append(
            {
                "CUSTOMFIELDVALUE": field["value"],
                "CUSTOMFIELDTYPE": definition["type"],
                "CUSTOMFIELDLABEL": field["label"],
                "CUSTOMFIELDCOLUMNNAME": definition["column"],
            }
        )
    return output


def _define(store, level, label):
    key = f"{level}:{label}"
    if store.get(CUSTOM_FIELD, key) is None:
        column = f"COLUMN_CHAR{store.next_id(f'{CUSTOM_FIELD}:{level}:CHAR')}"
        store.put(CUSTOM_FIELD, key, {"level": level, "label": label, "type": "Character", "column": column})
