# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Custom fields ("additional fields") of resources and accounts.

In output a field is ``{CUSTOMFIELDVALUE, CUSTOMFIELDTYPE, CUSTOMFIELDLABEL,
CUSTOMFIELDCOLUMNNAME}``; in input it is ``{CUSTOMLABEL, CUSTOMVALUE}``. A
field whose ``CUSTOMFIELDTYPE`` is ``Password`` holds a secret: its value never
goes into a module's result or diff. The API has no way to remove a field, so
labels a task does not name are left as they are.
"""

from __future__ import annotations

from ._checks import clean_text
from ._diff import HIDDEN
from ._errors import VaultInputError

# "Custom fields per resource creation: 40 in total, 20 at resource level and 20 at account level"
MAX_CUSTOM_FIELDS = 20


def custom_field_strings(fields, what):
    """``fields`` (label to value, as the task gives them) as the vault stores them: strings.

    Strings are kept and numbers written as YAML wrote them (``8080`` is ``"8080"``);
    ``null``, booleans, lists and mappings are refused, since no string the vault
    could store reads back as them. Labels are refused when empty or space-padded:
    the vault stores a label trimmed.
    """
    if fields is None:
        return None
    strings = {}
    for label, value in fields.items():
        label = clean_text(str(label) if isinstance(label, (int, float)) else label, "%s label" % what)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            kind = "null" if value is None else type(value).__name__
            raise VaultInputError(
                "%s: the value of %s is %s; a custom field value must be a string or a number "
                '(quote it, e.g. "true")' % (what, label, kind)
            )
        strings[label] = value if isinstance(value, str) else str(value)
    return strings


def custom_field_input(fields):
    """``{label: value}`` as the vault's input list of ``{CUSTOMLABEL, CUSTOMVALUE}``."""
    return [{"CUSTOMLABEL": label, "CUSTOMVALUE": value} for label, value in sorted(fields.items())]


def custom_field_values(detail):
    """The ``CUSTOM FIELD`` output list as ``{CUSTOMFIELDLABEL: CUSTOMFIELDVALUE}``."""
    fields = detail.get("CUSTOM FIELD") if isinstance(detail, dict) else None
    return {
        item.get("CUSTOMFIELDLABEL"): item.get("CUSTOMFIELDVALUE")
        for item in fields or []
        if isinstance(item, dict) and item.get("CUSTOMFIELDLABEL")
    }


def mask_secret_fields(detail):
    """A copy of a resource or account detail whose ``Password``-typed custom field values are hidden.

    ``CUSTOMFIELDTYPE`` may be ``Password``; such values never go into a module's result or diff.
    """
    if not isinstance(detail, dict) or not isinstance(detail.get("CUSTOM FIELD"), list):
        return detail
    fields = [
        dict(item, CUSTOMFIELDVALUE=HIDDEN) if is_password_field(item) else item for item in detail["CUSTOM FIELD"]
    ]
    return dict(detail, **{"CUSTOM FIELD": fields})


def track_custom_fields(tracker, current, desired_fields):
    """Record custom fields in ``tracker`` (``Password``-typed values hidden); return those to send, label to value.

    Labels not in ``desired_fields`` are left as they are: the API has no way to remove one.
    """
    values = custom_field_values(current)
    changed = {label: value for label, value in (desired_fields or {}).items() if values.get(label) != value}
    tracker.record(
        "custom_fields",
        _masked_values(current, values),
        _masked_values(current, dict(values, **changed)),
        bool(changed),
    )
    return changed


def _masked_values(detail, values):
    """``values`` ({label: value}) with the labels of ``Password``-typed fields hidden."""
    secret = {
        item.get("CUSTOMFIELDLABEL") for item in (detail or {}).get("CUSTOM FIELD") or [] if is_password_field(item)
    }
    return {label: HIDDEN if label in secret else value for label, value in values.items()}


def is_password_field(item):
    """A custom field item whose ``CUSTOMFIELDTYPE`` is ``Password`` (any case, surrounding spaces ignored)."""
    return isinstance(item, dict) and str(item.get("CUSTOMFIELDTYPE", "")).strip().lower() == "password"


def check_custom_fields(fields, what):
    if fields and len(fields) > MAX_CUSTOM_FIELDS:
        raise VaultInputError(
            "%s: at most %d custom fields are allowed, %d given" % (what, MAX_CUSTOM_FIELDS, len(fields))
        )
