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

from ._errors import VaultInputError


def clean_text(value, what):
    """``value`` when it is a non-empty string without surrounding whitespace; else ``VaultInputError``.

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
    return value
