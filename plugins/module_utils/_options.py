# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Connection options, resolved the same way for modules and plugins.

Modules read them from ``module.params`` (the argspec below, with environment
fallbacks); plugins from ``get_option`` (the doc fragment's env/ini/vars
sources). Both hand a getter to ``client_from_options``. The doc fragment
``credvault.vault.connection`` mirrors ``connection_argument_spec`` exactly.

A blank value (``_settings.is_blank``: empty, or only whitespace) counts as not
set, wherever it comes from: ``CREDVAULT_BUILD=`` or ``CREDVAULT_TIMEOUT=`` in the
environment leave the option at its default instead of failing a conversion.

The token comes from ``auth_token`` or, read when the client is made, from the
file ``auth_token_file`` names (``_token_file``); one of them, not both.
"""

from __future__ import annotations

import os

from ansible.module_utils.basic import AnsibleFallbackNotFound

from ._client import VaultClient
from ._errors import VaultConfigError
from ._proxy import proxy_password
from ._settings import DEFAULT_RETRIES, DEFAULT_TIMEOUT, is_blank
from ._token_file import read_token_file

CONNECTION_OPTIONS = (
    "url",
    "auth_token",
    "auth_token_file",
    "org_name",
    "edition",
    "build",
    "validate_certs",
    "ca_path",
    "client_cert",
    "client_key",
    "proxy_url",
    "timeout",
    "retries",
)


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
        "auth_token": {"type": "str", "no_log": True, "fallback": _env("auth_token")},
        "auth_token_file": {"type": "path", "fallback": _env("auth_token_file")},
        "org_name": {"type": "str", "fallback": _env("org_name")},
        "edition": {"type": "str", "choices": ["A", "B"], "fallback": _env("edition")},
        "build": {"type": "int", "fallback": _env("build")},
        "validate_certs": {"type": "bool", "default": True, "fallback": _env("validate_certs")},
        "ca_path": {"type": "path", "fallback": _env("ca_path")},
        "client_cert": {"type": "path", "fallback": _env("client_cert")},
        # A file's path, not the key: sanity's no_log check asks any option named like a key to say so.
        "client_key": {"type": "path", "no_log": False, "fallback": _env("client_key")},
        # Its password, when it holds one, is masked (connection_secrets), not the whole URL.
        "proxy_url": {"type": "str", "fallback": _env("proxy_url")},
        "timeout": {"type": "float", "default": DEFAULT_TIMEOUT, "fallback": _env("timeout")},
        "retries": {"type": "int", "default": DEFAULT_RETRIES, "fallback": _env("retries")},
    }


def auth_token_from_options(get_option):
    """The token: ``auth_token``, or the content of the file ``auth_token_file`` (read now); ``VaultConfigError``
    when neither is set, when the file cannot serve (``_token_file``), or when both are set at the same level. Set at
    different levels, the one set as an option (the task, ``module_defaults``, a plugin's keywords, variables or
    ini) wins over the one that comes from the environment (``CREDVAULT_AUTH_TOKEN``, ``CREDVAULT_AUTH_TOKEN_FILE``),
    as for every other option: a play's own token is used although a credential injected the variable."""
    token, path = (None if is_blank(value) else value for value in map(get_option, ("auth_token", "auth_token_file")))
    if token and path:
        token_is_option, path_is_option = _is_option("auth_token", token), _is_option("auth_token_file", path)
        if token_is_option == path_is_option:
            raise VaultConfigError(
                "auth_token and auth_token_file are both set %s: set one of them"
                % ("as options" if token_is_option else "(CREDVAULT_AUTH_TOKEN and CREDVAULT_AUTH_TOKEN_FILE)")
            )
        token, path = (token, None) if token_is_option else (None, path)
    if path:
        return read_token_file(path)
    if not token:
        raise VaultConfigError(
            "auth_token or auth_token_file is required (or set CREDVAULT_AUTH_TOKEN or CREDVAULT_AUTH_TOKEN_FILE)"
        )
    return token


def _is_option(name, value):
    """Whether ``value`` of ``name`` was set as an option rather than taken from its environment variable (a value
    equal to the variable's, as a ``path`` option expands it, counts as the variable's)."""
    variable = os.environ.get("CREDVAULT_%s" % name.upper())
    if variable is None or is_blank(variable):
        return True
    return value not in (variable, os.path.expanduser(os.path.expandvars(variable)))


def with_auth_token(get_option):
    """``get_option`` whose ``auth_token`` is the token ``auth_token_from_options`` gives, read once, here (and
    whose ``auth_token_file`` is then unset, so that the getter can be passed on)."""
    token = auth_token_from_options(get_option)
    resolved = {"auth_token": token, "auth_token_file": None}

    def get_resolved(name):
        return resolved[name] if name in resolved else get_option(name)

    return get_resolved


def connection_secrets(get_option):
    """What of the connection must be masked wherever it could be shown: the token (``with_auth_token``'s getter
    reads it from ``auth_token_file``) and the password in ``proxy_url``."""
    return [value for value in (get_option("auth_token"), proxy_password(get_option("proxy_url"))) if value]


def client_from_options(get_option):
    """A ``VaultClient`` from a getter: ``module.params.get``, a plugin's ``get_option`` or ``with_auth_token``'s.

    An option whose value is blank is passed as None, which the client reads as not set (its default).
    """
    get_option = with_auth_token(get_option)
    options = {name: get_option(name) for name in CONNECTION_OPTIONS if name != "auth_token_file"}
    return VaultClient(**{name: None if is_blank(value) else value for name, value in options.items()})


def authorization_argument_spec(ticket=True):
    """``reason`` (``REASON``) and, with ``ticket``, ``ticket_id`` (``TICKETID``); documented by the doc fragment
    ``credvault.vault.authorization`` (``.reason`` without the ticket)."""
    spec = {"reason": {"type": "str"}}
    if ticket:
        spec["ticket_id"] = {"type": "str"}
    return spec
