# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Input the vault would normalise or refuse, refused before anything is sent.

The vault trims names, labels and types it stores: a resource created as
``" web"`` is stored as ``web``, a custom field label ``"Env "`` as ``Env``.
A task that sent such a value would never find what it created and would
report a change on every run, so these values are refused with a message that
says why, instead of being sent.
"""

from __future__ import annotations

import unicodedata

from ._errors import VaultInputError

# Control characters (line breaks, tab, NUL, DEL, C1) and the Unicode line and paragraph separators: no name the
# vault stores holds one, and one in a name splits log lines, CSV exports and the vault's own commands (a remote
# reset types the account name into chpasswd).
_CONTROL_CATEGORIES = ("Cc", "Zl", "Zp")

# Free text, where a line break or a tab may belong: descriptions, notes, the reason of a retrieval, the prompts
# a remote reset waits for, an SSH key's comment (checked to be one line by its own module).
FREE_TEXT = frozenset(("description", "notes", "reason", "comment", "user_prompt", "root_prompt"))


def clean_text(value, what):
    """``value`` when it is a non-empty string without surrounding whitespace or any control character; else
    ``VaultInputError``.

    ``what`` names the option in the message (``"name"``, ``"custom_fields label"``...).
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise VaultInputError("%s must be a string" % what)
    if value == "" or not value.strip():
        raise VaultInputError("%s must not be empty" % what)
    if value != value.strip():
        raise VaultInputError(
            "%s %r has leading or trailing spaces; the vault stores it trimmed, so the task "
            "could never find it again: remove the spaces" % (what, value)
        )
    _no_control(value, what)
    return value


def check_control_characters(spec, params, prefix=""):
    """Refuse (``VaultInputError``) a control character in any text option of ``params`` that ``spec`` (an
    argument spec) describes, at any depth (``accounts[].resource``), before anything is sent: every name, id,
    address and choice. Left out: secrets (``no_log``, never echoed), paths, raw values, mappings without
    ``options`` (custom fields), and ``FREE_TEXT``."""
    for option, entry in spec.items():
        value = params.get(option) if isinstance(params, dict) else None
        if value is None or entry.get("no_log") or option in FREE_TEXT:
            continue
        what = prefix + option
        kind = entry.get("type", "str")
        if kind == "list" and entry.get("elements", "str") == "str":
            for item in value if isinstance(value, list) else []:
                _no_control(item, "%s entry" % what)
        elif kind == "list" and entry.get("options"):
            for item in value if isinstance(value, list) else []:
                check_control_characters(entry["options"], item, "%s." % what)
        elif kind == "dict" and entry.get("options"):
            check_control_characters(entry["options"], value, "%s." % what)
        elif kind == "str":
            _no_control(value, what)


def _no_control(value, what):
    if not isinstance(value, str):
        return
    control = [char for char in value if unicodedata.category(char) in _CONTROL_CATEGORIES]
    if control:
        raise VaultInputError(
            "%s %r holds a control character (%s): a line break, tab or other control character cannot be part "
            "of a name" % (what, value, ", ".join(sorted({"U+%04X" % ord(char) for char in control})))
        )
