# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One object state machine: every managed object supplies hooks, none runs a converge of its own."""

from __future__ import annotations

import importlib
import pkgutil

from ansible_collections.credvault.vault.plugins import module_utils
from ansible_collections.credvault.vault.plugins.module_utils._converge import VaultObject

# The base's own steps: find, create, delete, lost races, the lock, plan and apply only outside check mode.
BASE_STEPS = (
    "ensure",
    "converge",
    "_ensure_present",
    "_ensure_absent",
    "delete_found",
    "create_missing",
    "update_existing",
    "created_in_missing_parent",
    "deleted_meanwhile",
    "created_meanwhile",
)


def managed_objects():
    for info in pkgutil.iter_modules(module_utils.__path__):
        if info.name.startswith("_") and not info.ispkg:
            importlib.import_module("%s.%s" % (module_utils.__name__, info.name))
    found, pending = [], list(VaultObject.__subclasses__())
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return found


def test_every_managed_object_runs_on_the_base_state_machine():
    kinds = managed_objects()
    names = sorted(kind.__name__ for kind in kinds)
    assert {"Account", "Certificate", "Resource", "ResourceGroup", "SSHKey", "User"} <= set(names)
    overrides = sorted("%s.%s" % (kind.__name__, step) for kind in kinds for step in BASE_STEPS if step in vars(kind))
    assert overrides == []


def test_the_base_has_no_converge_hook_left():
    assert not hasattr(VaultObject, "converge")
    assert not hasattr(VaultObject, "changes")
