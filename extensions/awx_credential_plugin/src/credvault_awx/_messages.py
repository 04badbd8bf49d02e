# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Messages in the terms of the AWX credential: its fields, not the collection's options.

The collection's client names the options of the collection (``ca_path``, ``timeout``, the environment variables
``CREDVAULT_URL`` and ``CREDVAULT_AUTH_TOKEN``); the AWX user can change only the fields of ``_inputs``. Every
message of the plugin goes through ``in_awx_terms``, and names the field(s) that would change the outcome.
"""

from __future__ import annotations

import re

from ._inputs import FIELDS, METADATA

LABELS = {field["id"]: field["label"] for field in FIELDS + METADATA}
FIELD_IDS = tuple(LABELS)
# The client's options the plugin fills from a field of another name.
RENAMED = {"ca_path": "ca_cert"}
# The client's options the plugin never passes (the client's defaults hold): no field can change them.
FIXED = ("timeout", "retries", "sleep", "pool_size")
_PHRASES = (
    # The collection's environment variables mean nothing to AWX: the field is named already.
    (re.compile(r" \(or set CREDVAULT_[A-Z_]+\)"), ""),
    # Nor do the paths of the files the plugin writes a PEM field into for the run (backend's _pem_file).
    (re.compile(r" \S*credvault-(?:ca|client-cert|client-key)-\S*\.pem"), ""),
    (re.compile(r"point ca_path at the vault's CA certificate"), "put the vault's CA certificate (PEM) in ca_cert"),
    (re.compile(r"\bthe timeout of\b"), "the plugin's fixed timeout of"),
) + tuple((re.compile(r"\b%s\b" % option), field) for option, field in RENAMED.items())


def in_awx_terms(text):
    """``text`` with the collection's words for its options replaced by the AWX fields they come from."""
    for pattern, replacement in _PHRASES:
        text = pattern.sub(replacement, text)
    return text


def with_fields(text, fields):
    """``text`` in AWX terms, ending with the ``fields`` to check (as the form shows them, and their ids) unless
    it names them all already."""
    text = in_awx_terms(text)
    if all(re.search(r"\b%s\b" % field, text) for field in fields):
        return text
    return "%s (check %s)" % (text, ", ".join("%s (%s)" % (LABELS[field], field) for field in fields))
