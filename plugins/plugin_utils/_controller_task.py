# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one place an action plugin runs its domain entry point on the controller, as ``VaultModule.run`` does for a
module: the task's arguments checked as a module's are, a ``Task`` (``module_utils._task``) on a client of the
controller, and the entry point's values, changes and warnings made the task's result."""

from __future__ import annotations

from ansible.errors import AnsibleActionFail
from ansible.utils.display import Display

from ansible_collections.credvault.vault.plugins.module_utils._checks import check_control_characters
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError
from ansible_collections.credvault.vault.plugins.module_utils._options import (
    client_from_options,
    connection_argument_spec,
    connection_secrets,
    with_auth_token,
)
from ansible_collections.credvault.vault.plugins.module_utils._settings import INSECURE_WARNING
from ansible_collections.credvault.vault.plugins.module_utils._task import Task
from ansible_collections.credvault.vault.plugins.plugin_utils._compat import add_warnings, register_secrets

display = Display()


def task_arguments(action, own_spec):
    """The arguments of ``action``'s task, validated against the connection options and ``own_spec``; a bad one
    fails the task (``AnsibleActionFail``) before anything runs, in the words of a module, which names the module as
    the task does (ansible-core names the action's Python module: ``ansible_collections....plugins.action.x``)."""
    try:
        return action.validate_argument_spec(argument_spec=dict(connection_argument_spec(), **own_spec))[1]
    except AnsibleActionFail as exc:
        message = str(exc.message)
        loaded_as = getattr(action, "_load_name", None)  # set by the plugin loader (2.16 has no default)
        if loaded_as:
            message = message.replace("(%s)" % loaded_as, "(%s)" % action._task.action)
        raise AnsibleActionFail(message) from None


def run_entry(entry, own_spec, desired, check_mode):
    """The result of the entry point ``entry(task)`` (``converge`` or ``describe``) on a ``Task`` of ``desired``.

    Once no text option of ``own_spec`` holds a control character, the client is made (warning when it does not
    check certificates) and closed whatever happens. The result holds the values returned, ``changed`` and, when
    anything was compared, ``diff`` (``Task.result``), and the task's warnings; a ``VaultError`` becomes the
    failure, its message as a module's (``VaultClient.failure_message``) with the error's fields."""
    client = task = None
    try:
        check_control_characters(own_spec, desired)
        get_option = with_auth_token(desired.get)
        register_secrets(connection_secrets(get_option))  # read from auth_token_file, it was no option value
        client = client_from_options(get_option)
        if client.insecure:
            display.warning(INSECURE_WARNING)
        task = Task(client, desired, check_mode)
        result = task.result(entry(task))
    except VaultError as exc:
        message = client.failure_message(exc) if client is not None else str(exc)
        result = dict(failed=True, msg=message, **exc.to_result())
    finally:
        if client is not None:
            client.close()
    if task is not None:
        add_warnings(result, task.warnings)
    return result
