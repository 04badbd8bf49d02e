# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every secret a module returns is censored by default: the registry of returned secrets, and the action plugins
that censor them.

``RETURNED_SECRETS`` names, per module, the keys of its result that hold a secret the vault hands out (a generated
password, an API user's token, an agent key, a passphrase). Each of these modules runs through an action plugin of
its name (``CensoringAction``, or ``censor`` called by its own action plugin): a successful result that carries
one of them is flagged ``_ansible_no_log``, so that ansible-core censors it in every callback (output at any
verbosity, ``ANSIBLE_LOG_PATH``, AWX/AAP job events), as for a task with ``no_log``, whatever the task says, while
the registered variable still holds the value. A module cannot flag its own result: ansible-core strips the
``_ansible_*`` keys a module returns. A failed result never carries a secret. tests/unit checks that every
secret-looking value a module documents in RETURN is in the registry.

``SecretToFileAction`` adds a file of the controller: with ``dest`` the secret (``SECRET``) is taken out of the
result before anything can show it and goes to that file - mode 0600, atomically, rewritten only when its bytes
differ - with the collection's one controller writer (``_controller_files.update_file``), and the result says
``dest``, ``checksum``, ``size`` and whether the file changed. No message holds a secret.
"""

from __future__ import annotations

from ansible.plugins.action import ActionBase

from ansible_collections.credvault.vault.plugins.plugin_utils._compat import censor_whole_loop_result, register_secrets
from ansible_collections.credvault.vault.plugins.plugin_utils._controller_files import (
    PRIVATE_MODE,
    destination,
    update_file,
)

COLLECTION = "credvault.vault"
RETURNED_SECRETS = {
    "vault_account_password": ("password",),
    "vault_agent_install_key": ("install_key",),
    "vault_agent_key": ("agent_key",),
    "vault_certificate_export": ("passphrase",),
    "vault_host_credentials": ("login_password", "become_password"),
    "vault_user": ("token",),
}


def censor(result, module, task):
    """``result`` of ``module`` flagged ``_ansible_no_log`` when it carries one of the module's returned secrets,
    and the action's ``task`` marked so that a loop's result holding it is censored too
    (``_compat.censor_whole_loop_result``); the secrets are registered with ansible-core's Secrets API (2.22 and
    later), so that they stay masked wherever the registered variable is printed later. A failed result loses them
    instead (a failure's message must stay readable, and never shows a secret)."""
    carried = [key for key in RETURNED_SECRETS[module] if result.get(key) is not None]
    if not carried:
        return result
    if result.get("failed"):
        for key in carried:
            del result[key]
        return result
    result["_ansible_no_log"] = True
    censor_whole_loop_result(task)
    register_secrets(result[key] for key in carried)
    return result


def hand_over(result, secret, dest, check_mode, diff):
    """``result`` with its key ``secret`` written to ``dest`` (left in the result, for ``censor``, without
    ``dest``).

    ``changed`` is the module's (a generation) or the file's; ``diff`` (when asked) shows the file's state,
    checksum and mode, never the key. A result without the key (a failure, a generation in check mode) leaves
    the file alone. A file that cannot be written fails the task (keeping the module's ``changed``: a generated
    key exists in the vault) with a message that never holds the key."""
    if dest is None:
        return result
    key = result.pop(secret, None)
    result["dest"] = dest
    if key is None or result.get("failed"):
        return result
    try:
        written = update_file(dest, key.encode("utf-8"), PRIVATE_MODE, check_mode)
    except OSError as exc:
        result["failed"] = True
        result["msg"] = "the key could not be written to dest %s: %s%s" % (
            dest,
            exc.strerror or type(exc).__name__,
            ". The vault generated it: a fetch (without generate) may return it" if result.get("generated") else "",
        )
        return result
    result.update(checksum=written["checksum"], size=written["size"])
    result["changed"] = bool(result.get("changed")) or written["changed"]
    if diff:
        result["diff"] = written["diff"]
    return result


class CensoringAction(ActionBase):
    """Runs the module ``MODULE`` (the action plugin's own name) with the task's arguments and censors its result
    (``censor``). Async is refused: ``async_status`` would show the module's result uncensored."""

    _supports_check_mode = True
    _supports_async = False
    MODULE = None

    def hand_over(self, result):
        """The controller's part between the module's result and ``censor``; none here."""
        return result

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        self.before_module()
        try:
            module_result = self._execute_module(
                module_name="%s.%s" % (COLLECTION, self.MODULE), module_args=dict(self._task.args), task_vars=task_vars
            )
        finally:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        result.update(module_result)
        return censor(self.hand_over(result), self.MODULE, self._task)

    def before_module(self):
        """What must be refused before the module runs; nothing here."""


class SecretToFileAction(CensoringAction):
    """Hands the module's ``SECRET`` over to the file its ``DEST_OPTION`` names (``hand_over``), or censors it."""

    SECRET = None
    DEST_OPTION = "dest"

    def before_module(self):
        given = self._task.args.get(self.DEST_OPTION)
        self.dest = None if given is None else destination(given, self.DEST_OPTION)

    def hand_over(self, result):
        return hand_over(result, self.SECRET, self.dest, self._task.check_mode, self._task.diff)
