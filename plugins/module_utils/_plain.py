# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Values as plain Python types: ansible-core 2.19 hands plugins tagged ``str``/``dict`` subclasses, and what the
client sends (JSON, a URL, a header) or shows is made of the plain values they stand for."""

from __future__ import annotations

from collections.abc import Mapping


def to_plain(value):
    """Plain Python types for JSON: ansible-core 2.19 hands plugins tagged ``str``/``dict`` subclasses."""
    if isinstance(value, Mapping):
        return {to_plain(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_plain(item) for item in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")
    if value is None:
        return None
    raise TypeError("a %s cannot be sent to the vault" % type(value).__name__)
