# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What ``vault_csr_info`` returns: the CSR list (``GetCSRList``, read as ``_csr`` reads it)."""

from __future__ import annotations

from ._checks import clean_text
from ._csr import list_csrs


def describe(task):
    """Entry point of ``vault_csr_info``: ``{"csrs"}``, the CSR list, for ``common_name`` when it is given."""
    common_name = clean_text(task.desired.get("common_name"), "common_name")
    return {"csrs": list_csrs(task.client, common_name)}
