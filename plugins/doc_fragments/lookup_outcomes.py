# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # What a lookup does with a term whose object is missing or whose secret the vault refuses: settled in one place,
    # plugins/plugin_utils/_lookup.py:VaultLookupBase.settle (OUTCOMES are the choices).
    DOCUMENTATION = r"""
options:
  on_missing:
    description:
      - What a term gives whose object (account or resource, SSH key, password policy) does not exist or is not
        visible to the token, when the lookup's C(default) is not set (C(default), where the lookup has it, is
        returned instead whatever O(on_missing) says).
      - "V(error) fails the lookup with the message C(<lookup>: not found: <what is missing>)."
      - "V(warn) leaves the term out of the result and displays that message as a warning, followed by
        C((on_missing=warn: <term> left out of the result))."
      - V(skip) leaves the term out of the result silently.
      - A term left out makes the list shorter than the terms; C(lookup) of a single term left out gives an empty
        string.
    type: str
    choices: [error, warn, skip]
    default: error
    version_added: 0.6.0
  on_denied:
    description:
      - What a term gives when the vault refuses its secret to this token while it serves it others - HTTP 403,
        C(You are not authorized to ...), C(Permission denied), C(Access denied), or a password under access control
        that the token has not checked out.
      - "V(error) fails the lookup with the message C(<lookup>: the vault refused ...) and the vault's words."
      - "V(warn) leaves the term out of the result and displays that message as a warning, followed by
        C((on_denied=warn: <term> left out of the result))."
      - V(skip) leaves the term out of the result silently.
      - Never applies to a refusal of the token itself (HTTP 401, C(Authentication failed), a locked user, a host the
        token may not be used from), an unreachable vault, a reason or ticket the vault demands, or a TOTP the vault
        or the account does not have; those always fail. C(default) is never returned for a refused term.
    type: str
    choices: [error, warn, skip]
    default: error
    version_added: 0.6.0
"""
