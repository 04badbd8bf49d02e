# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The one rule every _info module follows for names the vault does not know.
    DOCUMENTATION = r"""
options: {}
notes:
  - Every info module of this collection follows one rule. A name the vault does not know, whether of the object
    asked for or of the object it belongs to (the resource of an account, the requester of password requests), is
    not an error - the module returns an empty answer (C(exists) V(false), an empty list or mapping) and does
    not fail. The task fails for names it refuses before sending (empty, or with leading or trailing spaces), when
    the vault refuses the request (an endpoint the vault lacks, missing rights), and on connection errors; parts a
    module documents as optional are returned empty with the reason instead.
"""
