# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The run cache of the lookups: plugins/plugin_utils/_run_cache.py and _run_cache_broker.py; the threat model is in
    # docs/performance.md.
    DOCUMENTATION = r"""
options:
  run_cache:
    description:
      - Serve a secret that this C(ansible-playbook) run already fetched, in any task, host or play of the run, instead
        of fetching it again. That makes one audited retrieval per secret, reason and ticket per run, also for a lookup
        written in C(group_vars), which runs again in every task on every host.
      - The values are kept in the memory of a process that the first lookup of the run starts and that ends with
        the run (also when the run is killed); never on disk or in an environment. Only processes of the same user
        and the same run may read them. Linux only; elsewhere, or when the cache fails, the lookup fetches from the
        vault, with a warning.
      - A write by the collection's modules in the run (M(credvault.vault.vault_account),
        M(credvault.vault.vault_accounts), M(credvault.vault.vault_account_password),
        M(credvault.vault.vault_password_request), M(credvault.vault.vault_remote_password_reset),
        M(credvault.vault.vault_resource), M(credvault.vault.vault_ssh_key)) drops what it wrote. A change made
        outside the run (by another run, a person, the vault's own rotation) is not seen until the next run.
      - TOTP codes are never cached; neither are errors (a missing or refused secret is asked for again).
    type: bool
    default: false
    version_added: 0.6.0
    env:
      - name: CREDVAULT_RUN_CACHE
    ini:
      - section: credvault_vault
        key: run_cache
    vars:
      - name: credvault_run_cache
"""
