# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The authorization inputs the vault demands for password retrieval, check-out, request, change and file
    # download. Mirrors plugins/module_utils/_options.py:authorization_argument_spec() exactly.
    DOCUMENTATION = r"""
options:
  reason:
    description:
      - Reason sent with the access to the password or file (C(REASON)). The vault requires one where it forces a
        reason for password retrieval, check-out, request or file download.
    type: str
  ticket_id:
    description:
      - Ticket id sent with the access (C(TICKETID)). The vault requires one where ticketing is enabled (password
        retrieval and change, file download).
    type: str
"""

    # Only the reason, for calls that take no ticket (request and check-out).
    REASON = r"""
options:
  reason:
    description:
      - Reason sent with the access to the password (C(REASON)). The vault requires one where it forces a reason for
        password retrieval, check-out, request or file download.
    type: str
"""
