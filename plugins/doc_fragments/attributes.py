# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

# The pieces the fragments below are built from.
_ACTION_GROUP = r"""
  action_group:
    description: Use C(group/credvault.vault.vault) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - credvault.vault.vault
"""
_CHECK_MODE = r"""
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying the vault.
    support: full
"""
_DIFF_MODE = r"""
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode); secrets masked.
    support: full
"""
_IDEMPOTENT = r"""
  idempotent:
    description: A second run with the same options reports no change and sends only reads.
    support: full
"""
_READ_CHECK_MODE = r"""
  check_mode:
    description: Can run in check mode; the module only reads, so it does the same in check mode.
    support: full
"""
_NO_DIFF_MODE = r"""
  diff_mode:
    description: The module changes nothing, so there is no difference to show.
    support: none
"""
_READ_IDEMPOTENT = r"""
  idempotent:
    description: The module only reads, so it never reports a change.
    support: full
"""
# The one rule every _info module follows for names the vault does not know.
_INFO_NOTES = r"""
notes:
  - Every info module of this collection follows one rule. A name the vault does not know, whether of the object
    asked for or of the object it belongs to (the resource of an account, the requester of password requests), is
    not an error - the module returns an empty answer (C(exists) V(false), an empty list or mapping) and does
    not fail. The task fails for names it refuses before sending (empty, or with leading or trailing spaces), when
    the vault refuses the request (an endpoint the vault lacks, missing rights), and on connection errors; parts a
    module documents as optional are returned empty with the reason instead.
"""


def _fragment(*attributes, notes=""):
    return "options: {}\nattributes:" + "".join(attributes) + notes


class ModuleDocFragment:
    # For modules that converge the vault to a desired state.
    DOCUMENTATION = _fragment(_CHECK_MODE, _DIFF_MODE, _IDEMPOTENT, _ACTION_GROUP)

    # For modules that only read.
    READ_ONLY = _fragment(_READ_CHECK_MODE, _NO_DIFF_MODE, _READ_IDEMPOTENT, _ACTION_GROUP)

    # For the _info modules: read only, and one rule for names the vault does not know.
    INFO = _fragment(_READ_CHECK_MODE, _NO_DIFF_MODE, _READ_IDEMPOTENT, _ACTION_GROUP, notes=_INFO_NOTES)
