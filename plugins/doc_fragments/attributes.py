# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """Attribute pieces: every module extends DOCUMENTATION (the action group) and the pieces that describe it.

    A module that converges the vault adds ``.check_mode``, ``.diff_mode`` and ``.idempotent``; a module that only
    reads adds ``.read_only``, and an _info module ``.read_only`` and ``.info_module``. The pieces are literals because
    ansible-test reads fragments as YAML text.
    """

    DOCUMENTATION = r"""
options: {}
attributes:
  action_group:
    description: Use C(group/credvault.vault.vault) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - credvault.vault.vault
"""

    CHECK_MODE = r"""
options: {}
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying the vault.
    support: full
"""

    DIFF_MODE = r"""
options: {}
attributes:
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode); secrets masked.
    support: full
"""

    IDEMPOTENT = r"""
options: {}
attributes:
  idempotent:
    description: A second run with the same options reports no change and sends only reads.
    support: full
"""

    READ_ONLY = r"""
options: {}
attributes:
  check_mode:
    description: Can run in check mode; the module only reads, so it does the same in check mode.
    support: full
  diff_mode:
    description: The module changes nothing, so there is no difference to show.
    support: none
  idempotent:
    description: The module only reads, so it never reports a change.
    support: full
"""

    # The one rule of every _info module, which also extends ``.read_only``.
    INFO_MODULE = r"""
options: {}
notes:
  - Every info module of this collection follows one rule. A name the vault does not know, whether of the object
    asked for or of the object it belongs to (the resource of an account, the requester of password requests), is
    not an error - the module returns an empty answer (C(exists) V(false), an empty list or mapping) and does
    not fail. The task fails for names it refuses before sending (empty, or with leading or trailing spaces), when
    the vault refuses the request (an endpoint the vault lacks, missing rights), and on connection errors; parts a
    module documents as optional are returned empty with the reason instead.
"""
