# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one place where the controller code meets the differences between the ansible-core versions it supports
(2.16 to 2.22); everything else uses what every one of them offers.

- A missing required option: from 2.18, the config manager raises ``ansible.errors.AnsibleRequiredOptionError``
  (an ``AnsibleOptionsError``); 2.16 and 2.17 have no such class and raise a plain ``AnsibleError`` whose message
  starts "No setting was provided for required configuration". ``is_missing_required_option`` recognises both.
- An option's value of the wrong type: from 2.19, the message of the ``AnsibleOptionsError`` names the option and
  keeps the cause (which may quote the value) apart; 2.16 to 2.18 append the cause, value and all, to the message
  ("Invalid type for configuration option ... (from Direct): Invalid type provided for "string": [...]").
  ``option_error_message`` never quotes the value, which may be a token.
- A cache plugin that keeps its data in the process only (``ansible.builtin.memory``): from 2.19 it says so with
  ``_persistent = False``; before, no cache plugin has that attribute, and the memory plugin is known by its class.
  ``keeps_data_in_process`` recognises it on every version.
- A loop whose items hold a secret: from 2.19, ansible-core flags a loop's result ``_ansible_no_log`` as soon as
  one item's result is flagged, and then hides each flagged item from the callbacks. 2.16 to 2.18 censor a loop's
  result only when the task has ``no_log``, so the callbacks' ``v2_runner_on_ok`` (a JSON callback, AWX/AAP job
  events) would get every item's secret in ``results``. ``censor_whole_loop_result`` closes that gap there.
- The Secrets API: from 2.22, ``ansible.module_utils.secrets.register_secrets`` registers values that ansible-core
  then masks as ``$REDACTED$`` in everything it displays or logs, ``no_log`` or not; a value registered in a
  worker process reaches the main process with the task's result. Before 2.22 there is no such API and
  ``register_secrets`` does nothing: the collection's own censoring is all there is there. The plugins register
  their ``auth_token`` themselves rather than marking it ``secret: true`` in their documentation (which the config
  manager of 2.22 registers on its own): the validate-modules sanity test of ansible-test 2.16 to 2.18 refuses
  that key ("extra keys not allowed").
- A warning of an action plugin: from 2.19, the callbacks read a task's warnings as ``WarningSummary`` objects,
  and a plain string an action puts in its result's ``warnings`` stops them ("Callback dispatch 'v2_runner_on_ok'
  failed for plugin 'default': 'str' object has no attribute 'event'": the ok line and the warning are lost). There
  ``Display.warning``, called in the worker while the task runs, is the way: the task's deferred-warning context
  attaches it to the task's result (each item's in a loop). 2.16 to 2.18 have no such context (``Display.warning``
  would print at once, apart from the task) and print the strings of ``warnings``. ``add_warnings`` does each.
"""

from __future__ import annotations

import re

from ansible.errors import AnsibleError
from ansible.plugins.cache.memory import CacheModule as MemoryCache
from ansible.release import __version__ as ANSIBLE_CORE_VERSION
from ansible.utils.display import Display

from ansible_collections.credvault.vault.plugins.module_utils._settings import is_blank

try:
    from ansible.module_utils.secrets import register_secrets as _register_secrets  # ansible-core 2.22 and later
except ImportError:  # 2.16 to 2.21
    _register_secrets = None

try:
    from ansible.errors import AnsibleRequiredOptionError  # ansible-core 2.18 and later
except ImportError:  # 2.16, 2.17
    AnsibleRequiredOptionError = None

CORE = tuple(int(part) for part in ANSIBLE_CORE_VERSION.split(".")[:2])
# From this version, the warnings of a task are Display's objects, attached by the worker's deferred-warning context.
DEFERRED_WARNINGS = (2, 19)
display = Display()
# The message of a missing required option before AnsibleRequiredOptionError (ansible/config/manager.py).
REQUIRED_OPTION_MESSAGE = "No setting was provided for required configuration"
# Before 2.19: the message of an option's value of the wrong type, up to the cause that quotes the value.
INVALID_TYPE_MESSAGE = re.compile(r"(Invalid type for configuration option .*? \(from .*?\)): ", re.DOTALL)


def is_missing_required_option(exc):
    """Whether ``exc``, raised while a plugin's options resolve, says that a required option has no value."""
    if AnsibleRequiredOptionError is not None:
        return isinstance(exc, AnsibleRequiredOptionError)
    # Exactly AnsibleError, as 2.16 and 2.17 raise it for a missing option: a subclass is another failure.
    return type(exc) is AnsibleError and str(exc.args[0]).startswith(REQUIRED_OPTION_MESSAGE)  # pylint: disable=unidiomatic-typecheck


def option_error_message(exc):
    """The message of ``exc``, an ``AnsibleOptionsError`` raised while a plugin's options resolve, without the
    value of the option it names (the first argument only: the causes Ansible 2.19+ appends may quote it)."""
    message = str(exc.args[0])
    if CORE >= (2, 19):
        return message
    invalid_type = INVALID_TYPE_MESSAGE.match(message)
    return invalid_type.group(1) if invalid_type else message


def keeps_data_in_process(plugin):
    """Whether the cache plugin ``plugin`` (unwrapped) keeps its data in this process only."""
    return not getattr(plugin, "_persistent", True) or isinstance(plugin, MemoryCache)


def censor_whole_loop_result(task):
    """Have ansible-core censor the whole result of a loop of ``task`` (the action plugin's task) when this item's
    result is censored: needed before 2.19 only.

    There, the task executor runs each item with a copy of the task and gives the loop's task the ``no_log`` of
    any item's copy, which is the task an action plugin holds; callbacks then get the loop's result as
    ``censored``, while each item without a secret is still shown on its own and ``register`` keeps the values.
    """
    if CORE < (2, 19):
        task.no_log = True


def register_secrets(values):
    """Register the non-blank strings among ``values`` with ansible-core's Secrets API (2.22 and later), so that
    ansible-core masks them wherever it prints them; nothing before 2.22. Returns nothing, never fails on a value
    that is not a string (it is skipped)."""
    if _register_secrets is None:
        return
    _register_secrets([value for value in values if isinstance(value, str) and not is_blank(value)])


def add_warnings(result, messages):
    """Give the user ``messages``, the warnings of the action whose result is ``result``, on every version."""
    if CORE >= DEFERRED_WARNINGS:
        for message in messages:
            display.warning(message)
    elif messages:
        result.setdefault("warnings", []).extend(messages)
