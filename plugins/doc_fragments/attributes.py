# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options: {}
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying the vault.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode); secrets masked.
    support: full
  action_group:
    description: Use C(group/credvault.vault.vault) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - credvault.vault.vault
"""

    # For modules that only read: check mode full, no diff.
    READ_ONLY = r"""
options: {}
attributes:
  check_mode:
    description: Can run in check mode; the module only reads, so it does the same in check mode.
    support: full
  diff_mode:
    description: The module changes nothing, so there is no difference to show.
    support: none
  action_group:
    description: Use C(group/credvault.vault.vault) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - credvault.vault.vault
"""
