# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The plugin's ``inputs``: AWX's credential type schema.

``fields`` are the source credential (the vault and how to reach it), ``metadata`` what each credential field
that uses the source asks for (the account and the ``reason``/``ticket_id`` the vault may demand). AWX allows the
types ``string`` and ``boolean``; ``secret``, ``multiline``, ``choices`` and ``format`` only for strings.
"""

from __future__ import annotations

FIELDS = [
    {
        "id": "url",
        "label": "Vault URL",
        "type": "string",
        "format": "url",
        "help_text": "Base URL of the vault, https://<host>:<port>.",
    },
    {
        "id": "auth_token",
        "label": "API token",
        "type": "string",
        "secret": True,
        "help_text": "The vault's API authentication token (AUTHTOKEN).",
    },
    {
        "id": "ca_cert",
        "label": "CA certificate",
        "type": "string",
        "multiline": True,
        "help_text": "PEM CA bundle to verify the vault's certificate with (default: the system's CAs).",
    },
    {
        "id": "client_cert",
        "label": "Client certificate",
        "type": "string",
        "multiline": True,
        "help_text": "PEM TLS client certificate to show a vault (or its gateway) that demands one.",
    },
    {
        "id": "client_key",
        "label": "Client certificate key",
        "type": "string",
        "multiline": True,
        "secret": True,
        "help_text": "PEM private key of the client certificate, unencrypted.",
    },
    {
        "id": "proxy_url",
        "label": "Proxy URL",
        "type": "string",
        "secret": True,
        "help_text": "HTTP proxy to the vault, http://[user:password@]host:port (default: HTTPS_PROXY, NO_PROXY).",
    },
    {
        "id": "validate_certs",
        "label": "Verify the vault's TLS certificate",
        "type": "boolean",
        "default": True,
    },
    {
        "id": "org_name",
        "label": "Organization",
        "type": "string",
        "help_text": "Organization to act in, when the vault has several (orgName).",
    },
    {
        "id": "edition",
        "label": "Vault edition",
        "type": "string",
        "choices": ["A", "B"],
        "help_text": "With the build, calls this vault does not have are refused before anything is sent.",
    },
    {
        "id": "build",
        "label": "Vault build",
        "type": "string",
        "help_text": "Build number of the vault, e.g. 12450.",
    },
]

METADATA = [
    {"id": "resource", "label": "Resource", "type": "string", "help_text": "Name of the resource (managed system)."},
    {"id": "account", "label": "Account", "type": "string", "help_text": "Name of the account in the resource."},
    {
        "id": "field",
        "label": "Field",
        "type": "string",
        "choices": ["password", "totp"],
        "default": "password",
        "help_text": "password (GET PASSWORD) or the current TOTP code (FETCH_CURRENT_TOTP, edition A 12430).",
    },
    {
        "id": "reason",
        "label": "Reason",
        "type": "string",
        "help_text": "REASON for the retrieval, where the vault demands one.",
    },
    {
        "id": "ticket_id",
        "label": "Ticket ID",
        "type": "string",
        "help_text": "TICKETID for the retrieval, where the vault demands one.",
    },
]

INPUTS = {"fields": FIELDS, "metadata": METADATA, "required": ["url", "auth_token", "resource", "account"]}
