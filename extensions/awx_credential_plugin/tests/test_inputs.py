# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The plugin's ``inputs`` as AWX reads them.

awx-plugins-interfaces 0.0.1a5 has no schema validator: it offers ``ManagedCredentialType`` (the credential type
AWX makes of a plugin, ``kind`` ``external``) and ``secret_fields``, which decides what AWX encrypts and hides.
The field rules are AWX's own (``CredentialTypeInputField`` of awx/main/fields.py), applied here to ``fields`` and
``metadata`` alike: its JSON schema, then its checks that the schema cannot express.
"""

from __future__ import annotations

import credvault_awx
import jsonschema
import pytest
from awx_plugins.interfaces._temporary_private_api import ManagedCredentialType
from awx_plugins.interfaces._temporary_private_inject_api import secret_fields

FIELD_SCHEMA = {
    "type": "object",
    "properties": {
        "type": {"enum": ["string", "boolean"]},
        "format": {"enum": ["ssh_private_key", "url"]},
        "choices": {"type": "array", "minItems": 1, "items": {"type": "string"}, "uniqueItems": True},
        "id": {"type": "string", "pattern": "^[a-zA-Z_]+[a-zA-Z0-9_]*$"},
        "label": {"type": "string"},
        "help_text": {"type": "string"},
        "multiline": {"type": "boolean"},
        "secret": {"type": "boolean"},
        "ask_at_runtime": {"type": "boolean"},
        "default": {},
    },
    "additionalProperties": False,
    "required": ["id", "label"],
}
INPUTS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "required": {"type": "array", "items": {"type": "string"}},
        "fields": {"type": "array", "items": FIELD_SCHEMA},
        "metadata": {"type": "array", "items": FIELD_SCHEMA},
    },
}
STRING_ONLY = ("choices", "multiline", "format", "secret")


def awx_field_errors(inputs):
    """What AWX's ``CredentialTypeInputField.validate`` refuses beyond the JSON schema."""
    errors, ids = [], set()
    for field in inputs.get("fields", []) + inputs.get("metadata", []):
        field_type = field.get("type", "string")
        if field["id"] == "tower" or field["id"] in ids:
            errors.append("%s: reserved or not unique" % field["id"])
        ids.add(field["id"])
        if "default" in field and not isinstance(field["default"], {"string": str, "boolean": bool}[field_type]):
            errors.append("%s: default is not a %s" % (field["id"], field_type))
        if field_type != "string":
            errors.extend(
                "%s: %s not allowed for %s" % (field["id"], key, field_type) for key in STRING_ONLY if key in field
            )
        if "default" in field and "choices" in field and field["default"] not in field["choices"]:
            errors.append("%s: default is not one of the choices" % field["id"])
    errors.extend("required %s is not a field" % name for name in inputs.get("required", []) if name not in ids)
    return errors


def test_inputs_follow_awx_schema():
    jsonschema.validate(credvault_awx.credvault_plugin.inputs, INPUTS_SCHEMA)
    assert awx_field_errors(credvault_awx.credvault_plugin.inputs) == []


@pytest.mark.parametrize(
    "broken",
    [
        {"fields": [{"id": "url", "label": "URL", "type": "integer"}]},
        {"fields": [{"id": "url"}]},
        {"fields": [{"id": "bad-id", "label": "x"}]},
        {"fields": [{"id": "x", "label": "x", "unknown": True}]},
        {"metadata": [{"id": "x", "label": "x", "choices": []}]},
    ],
)
def test_schema_refuses_what_awx_refuses(broken):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, INPUTS_SCHEMA)


@pytest.mark.parametrize(
    "broken",
    [
        {"fields": [{"id": "tower", "label": "x"}]},
        {"fields": [{"id": "a", "label": "a"}], "metadata": [{"id": "a", "label": "a"}]},
        {"fields": [{"id": "a", "label": "a", "type": "boolean", "secret": True}]},
        {"fields": [{"id": "a", "label": "a", "type": "boolean", "default": "yes"}]},
        {"metadata": [{"id": "a", "label": "a", "choices": ["x"], "default": "y"}]},
        {"fields": [{"id": "a", "label": "a"}], "required": ["b"]},
    ],
)
def test_field_rules_refuse_what_awx_refuses(broken):
    assert awx_field_errors(broken) != []


def test_awx_credential_type_of_the_plugin():
    plugin = credvault_awx.credvault_plugin
    credential_type = ManagedCredentialType(
        namespace="credvault_vault", name=plugin.name, kind="external", inputs=plugin.inputs
    )
    # The key, and a proxy URL that may hold a password, are secret too: AWX encrypts and hides them.
    assert secret_fields(credential_type) == ["auth_token", "client_key", "proxy_url"]
    fields = {field["id"]: field for field in plugin.inputs["fields"]}
    assert set(fields) == {
        "url",
        "auth_token",
        "ca_cert",
        "client_cert",
        "client_key",
        "proxy_url",
        "org_name",
        "edition",
        "build",
        "validate_certs",
    }
    assert fields["ca_cert"]["multiline"] is True and not fields["ca_cert"].get("secret")
    assert fields["validate_certs"] == {**fields["validate_certs"], "type": "boolean", "default": True}
    metadata = {field["id"]: field for field in plugin.inputs["metadata"]}
    assert set(metadata) == {"resource", "account", "field", "reason", "ticket_id"}
    assert metadata["field"]["choices"] == ["password", "totp"]
    assert plugin.inputs["required"] == ["url", "auth_token", "resource", "account"]
