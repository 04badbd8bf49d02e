# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The actions of the modules that write secrets: after the module, the run cache forgets what they wrote.

The modules may run on any host, where the run's cache cannot be reached; their actions run in the controller's
worker process, which can. ``WRITES`` says, per module, which cached secrets its arguments name: a password of one
account, of a list of accounts, or of every account of a resource (a reset of resources, a resource deleted). A
run that changed something, or failed (a write may have happened before the failure), drops them; a run without a
run cache costs one refused connection. An argument missing here (given by ``module_defaults``, which Ansible adds
only when it builds the module) is None, which matches any: more is dropped, never less.
"""

from __future__ import annotations

from ansible.plugins.action.normal import ActionModule as NormalAction

from ansible_collections.credvault.vault.plugins.plugin_utils._compat import add_warnings
from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache import (
    PASSWORD,
    SSH_KEY,
    RunCacheUnavailable,
    drop_written,
)


def _text(value):
    return None if value is None else str(value)


def _account_names(entries):
    """The names of ``vault_accounts``' ``accounts`` (mappings with ``name``); None when one has no name."""
    names = [entry.get("name") if isinstance(entry, dict) else None for entry in entries or []]
    return None if None in names else names


def _accounts_written(args):
    names = _account_names(args.get("accounts"))
    if not names:
        return [(PASSWORD, _text(args.get("resource")), None)]
    return [(PASSWORD, _text(args.get("resource")), _text(name)) for name in names]


WRITES = {
    "vault_account": lambda args: [(PASSWORD, _text(args.get("resource")), _text(args.get("name")))],
    "vault_accounts": _accounts_written,
    "vault_account_password": lambda args: [(PASSWORD, _text(args.get("resource")), _text(args.get("account")))],
    "vault_password_request": lambda args: [(PASSWORD, _text(args.get("resource")), _text(args.get("account")))],
    "vault_remote_password_reset": lambda args: (
        [(PASSWORD, _text(name), None) for name in args.get("resources") or []] or [(PASSWORD, None, None)]
    ),
    "vault_resource": lambda args: [(PASSWORD, _text(args.get("name")), None)],
    "vault_ssh_key": lambda args: [(SSH_KEY, _text(args.get("name")), None)],
}


class DropsWrittenSecrets:
    """Put before the action it extends: ``class ActionModule(DropsWrittenSecrets, NormalAction)``, ``MODULE``
    naming the module (a key of ``WRITES``)."""

    MODULE = None

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        if result.get("changed") or result.get("failed"):
            try:
                drop_written(WRITES[self.MODULE](self._task.args))
            except RunCacheUnavailable as exc:
                add_warnings(
                    result,
                    [
                        "run_cache: this run may still serve what %s wrote, as its cache could not forget it: %s"
                        % (self.MODULE, exc)
                    ],
                )
        return result


class WritingAction(DropsWrittenSecrets, NormalAction):
    """The action of a module that writes secrets and needs nothing else on the controller."""
