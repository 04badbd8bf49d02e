# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Connection options, resolved the same way for modules and plugins.

Modules read them from ``module.params`` (the argspec below, with environment
fallbacks); plugins from ``get_option`` (the doc fragment's env/ini/vars
sources). Both hand a getter to ``client_from_options``. The doc fragment
``credvault.vault.connection`` mirrors ``connection_argument_spec`` exactly.
"""

from __future__ import annotations

from ansible.module_utils.basic import env_fallback

from ._client import VaultClient

CONNECTION_OPTIONS = (
    "url", "auth_token", "org_name", "edition", "build", "validate_certs", "ca_path", "timeout", "retries",
)


def _env(name):
    return (env_fallback, ["CREDVAULT_%s" % name.upper()])


def connection_argument_spec():
    return {
        "url": {"type": "str", "required": True, "fallback": _env("url")},
        "auth_token": {"type": "str", "required": True, "no_log": True, "fallback": _env("auth_token")},
        "org_name": {"type": "str", "fallback": _env("org_name")},
        "edition": {"type": "str", "choices": ["A", "B"], "fallback": _env("edition")},
        "build": {"type": "int", "fallback": _env("build")},
        "validate_certs": {"type": "bool", "default": True, "fallback": _env("validate_certs")},
        "ca_path": {"type": "path", "fallback": _env("ca_path")},
        "timeout": {"type": "int", "default": 30, "fallback": _env("timeout")},
        "retries": {"type": "int", "default": 3, "fallback": _env("retries")},
    }


def client_from_options(get_option):
    """A ``VaultClient`` from a getter: ``module.params.get`` or a plugin's ``get_option``."""
    return VaultClient(**{name: get_option(name) for name in CONNECTION_OPTIONS})
