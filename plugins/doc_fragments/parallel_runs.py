# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # What holds when runs of a creating module meet: plugins/module_utils/_object_lock.py.
    DOCUMENTATION = r"""
options: {}
notes:
  - Parallel runs on one host (the forks of a play whose tasks run on the controller, or playbooks run at once on
    it) that create or change the same object are serialised by a lock held while the object is found, created and
    read back. One run creates it, the others wait, find it and report no change. The lock is an empty file, named
    by a hash of the vault's URL, the object's kind and name, in the directory C(credvault-vault-locks-<uid>) of the
    system's temporary directory, created mode 0700 (a symbolic link, a directory of another user or one others may
    write is refused). A run waits at most 300 seconds for another, then fails saying so. Check mode takes no lock.
  - The lock does not reach across hosts; see the guide "Connecting to the vault". Runs on several controllers at
    once are not serialised. Where the vault refuses a duplicate, the run that loses the race reads the object again
    and converges on it; where it accepts one (certificates created from fields, CSRs), each controller may create
    one.
"""
