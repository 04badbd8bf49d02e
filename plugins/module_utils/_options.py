# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Connection options, resolved the same way for modules and plugins.

Modules read them from ``module.params`` (the argspec below, with environment
fallbacks); plugins from ``get_option`` (the doc fragment's env/ini/vars
sources). Both hand a getter to ``client_from_options``. The doc fragment
``credvault.vault.connection`` mirrors ``connection_argument_spec`` exactly.

A blank value (empty, or only whitespace) counts as not set, wherever it comes
from: ``CREDVAULT_BUILD=`` or ``CREDVAULT_TIMEOUT=`` in the environment leave
the option at its default instead of failing a conversion.
"""

from __future__ import annotations

import os

from ansible.module_utils.basic import AnsibleFallbackNotFound

from ._client import DEFAULT_RETRIES, DEFAULT_TIMEOUT, VaultClient

CONNECTION_OPTIONS = (
    "url",
    "auth_token",
    "org_name",
    "edition",
    "build",
    "validate_certs",
    "ca_path",
    "timeout",
    "retries",
)


def is_blank(value):
    return isinstance(value, str) and not value.strip()


def non_blank_env_fallback(*names):
    """Like ``env_fallback``, but a variable set to a blank string counts as unset."""
    for name in names:
        value = os.environ.get(name)
        if value is not None and not is_blank(value):
            return value
    raise AnsibleFallbackNotFound


def _env(name):
    return (non_blank_env_fallback, ["CREDVAULT_%s" % name.upper()])


def connection_argument_spec():
    return {
        "url": {"type": "str", "required": True, "fallback": _env("url")},
        "auth_token": {"type": "str", "required": True, "no_log": True, "fallback": _env("auth_token")},
        "org_name": {"type": "str", "fallback": _env("org_name")},
        "edition": {"type": "str", "choices": ["A", "B"], "fallback": _env("edition")},
        "build": {"type": "int", "fallback": _env("build")},
        "validate_certs": {"type": "bool", "default": True, "fallback": _env("validate_certs")},
        "ca_path": {"type": "path", "fallback": _env("ca_path")},
        "timeout": {"type": "float", "default": DEFAULT_TIMEOUT, "fallback": _env("timeout")},
        "retries": {"type": "int", "default": DEFAULT_RETRIES, "fallback": _env("retries")},
    }


def client_from_options(get_option):
    """A ``VaultClient`` from a getter: ``module.params.get`` or a plugin's ``get_option``.

    An option whose value is blank is passed as None, which the client reads as not set (its default).
    """
    options = {name: get_option(name) for name in CONNECTION_OPTIONS}
    return VaultClient(**{name: None if is_blank(value) else value for name, value in options.items()})


def authorization_argument_spec(ticket=True):
    """``reason`` (``REASON``) and, with ``ticket``, ``ticket_id`` (``TICKETID``); documented by the doc fragment
    ``credvault.vault.authorization`` (``.reason`` without the ticket)."""
    spec = {"reason": {"type": "str"}}
    if ticket:
        spec["ticket_id"] = {"type": "str"}
    return spec
