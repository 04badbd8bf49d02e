"""Additional (custom) fields of resources and accounts.

Input items are ``{CUSTOMLABEL, CUSTOMVALUE}``; output items are
``{CUSTOMFIELDVALUE, CUSTOMFIELDTYPE, CUSTOMFIELDLABEL, CUSTOMFIELDCOLUMNNAME}``.
A label seen for the first time at a level (RESOURCE or ACCOUNT) is defined
as a ``Character`` field stored in the next column ``COLUMN_CHARn``.

The spec has no endpoint that defines a field of another type, which a vault's
administrator does in its web interface; the admin endpoint
``POST /__simulator/custom-fields`` {"level"?, "label", "type"} does it for tests,
before any value uses the label: ``type`` is one of ``FIELD_TYPES`` (``Password``
for a field that holds a secret), ``level`` ``RESOURCE`` (the default) or ``ACCOUNT``.
"""

from flask import jsonify, request

from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.records import CUSTOM_FIELD
from vault_simulator.core.replies import Failure
from vault_simulator.core.simulator import current_simulator

RESOURCE_LEVEL = "RESOURCE"
ACCOUNT_LEVEL = "ACCOUNT"
MAX_PER_LEVEL = 20
# CUSTOMFIELDTYPE to the column family its values are stored in. The spec lists the types and the columns
# observed (COLUMN_LONG1, COLUMN_DATE1, COLUMN_SCHAR1, COLUMN_CHAR1) but not which holds which: this pairing
# is the simulator's own.
FIELD_TYPES = {"Character": "CHAR", "Password": "SCHAR", "Numeric": "LONG", "Date": "DATE"}


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
        define_custom_field(store, level, label)
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


def define_custom_field(store, level, label, field_type="Character"):
    """The definition of ``label`` at ``level``, made a ``field_type`` field stored in the next column of its
    family when it has none yet; an existing definition is returned as it is, whatever its type."""
    key = f"{level}:{label}"
    definition = store.get(CUSTOM_FIELD, key)
    if definition is None:
        family = FIELD_TYPES[field_type]
        column = f"COLUMN_{family}{store.next_id(f'{CUSTOM_FIELD}:{level}:{family}')}"
        definition = {"level": level, "label": label, "type": field_type, "column": column}
        store.put(CUSTOM_FIELD, key, definition)
    return definition


@admin_blueprint.post("/custom-fields")
def add_custom_field():
    """Define an additional field of a type (``Password``...) before any value uses its label."""
    document = request.get_json(silent=True)
    if not isinstance(document, dict):
        return jsonify({"error": "expected a JSON object"}), 400
    level = str(document.get("level") or RESOURCE_LEVEL).strip().upper()
    label = str(document.get("label") or "").strip()
    field_type = str(document.get("type") or "").strip()
    if level not in (RESOURCE_LEVEL, ACCOUNT_LEVEL):
        return jsonify({"error": f"level must be {RESOURCE_LEVEL} or {ACCOUNT_LEVEL}"}), 400
    if not label:
        return jsonify({"error": "missing label"}), 400
    if field_type not in FIELD_TYPES:
        return jsonify({"error": f"type must be one of {', '.join(FIELD_TYPES)}"}), 400
    store = current_simulator().store
    with store.transaction():
        existed = store.get(CUSTOM_FIELD, f"{level}:{label}") is not None
        definition = define_custom_field(store, level, label, field_type)
    if definition["type"] != field_type:
        return jsonify({"error": f"{label} is already a {definition['type']} field at {level} level"}), 409
    return jsonify(definition), 200 if existed else 201
