"""Files held by additional (custom) fields, for downloadfile with ISCUSTOMFIELD ``true``.

The spec shows no way to put a file into an additional field, so the
simulator offers one outside the vault's paths, for tests: the admin endpoint
``POST /__simulator/custom-field-files`` (``admin.py``). The field is stored like any additional
field (its CUSTOMFIELDVALUE is the file name, a later CUSTOMVALUE edit keeps
the file) with the file beside its value.
"""
import base64

from vault_simulator.custom_fields import merge_custom_fields


def field_file(record, label):
    """``(file name, content bytes)`` of ``record``'s additional field ``label``:
    ``None`` when there is no such field, ``(None, None)`` when it holds no file."""
    field = next((f for f in record["custom_fields"] if f["label"] == label), None)
    if field is None:
        return None
    held = field.get("file")
    return (held["name"], base64.b64decode(held["content_base64"])) if held else (None, None)


def attach_file(store, level, record, label, upload):
    """Make ``record``'s additional field ``label`` hold the file ``upload``, a
    ``(file name, content bytes)`` pair (``record`` not stored yet)."""
    file_name, content = upload
    record["custom_fields"] = merge_custom_fields(store, level, record["custom_fields"], [(label, file_name)])
    field = next(f for f in record["custom_fields"] if f["label"] == label)
    field["file"] = {"name": file_name, "content_base64": base64.b64encode(content).decode("ascii")}
