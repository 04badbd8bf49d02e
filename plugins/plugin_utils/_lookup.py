# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of every lookup: terms, keywords, connection options and one client.

Options come, in this order, from the lookup's keywords, the ``credvault_*``
variables, the ``CREDVAULT_*`` environment variables and ``ansible.cfg``;
lookups never see ``module_defaults``. A blank connection setting counts as
unset in every source. No error message holds an option's value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from ansible import constants as C
from ansible.errors import AnsibleError, AnsibleLookupError, AnsibleOptionsError
from ansible.plugins.lookup import LookupBase
from ansible.utils.display import Display

from ansible_collections.credvault.vault.plugins.module_utils._client import HAS_REQUESTS
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError
from ansible_collections.credvault.vault.plugins.module_utils._options import (
    CONNECTION_OPTIONS,
    client_from_options,
    connection_secrets,
    with_auth_token,
)
from ansible_collections.credvault.vault.plugins.module_utils._settings import is_blank
from ansible_collections.credvault.vault.plugins.plugin_utils._compat import (
    is_missing_required_option,
    option_error_message,
    register_secrets,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache import serve_cached

display = Display()
# How ansible-core's option errors name the option: "Invalid value 'x' for config 'on_missing' for '...' lookup plugin".
CONFIG_NAMED = re.compile(r"for config '([a-z_]+)'")
# What on_missing and on_denied may say (doc fragment credvault.vault.lookup_outcomes).
OUTCOMES = ("error", "warn", "skip")


class MissingSecret(AnsibleLookupError):
    """A term's object does not exist, or the token cannot see it: settled by ``default`` and ``on_missing``."""

    option = "on_missing"


class DeniedSecret(AnsibleLookupError):
    """The vault refused a term's secret to this token (``_errors.is_denial``): settled by ``on_denied``."""

    option = "on_denied"


def kind_of(value):
    """How messages name a value's type, without showing the value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, Mapping):
        return "a mapping"
    return "a value of type %s" % type(value).__name__


@contextmanager
def blank_env_unset(names):
    """Hide the blank ones of the environment variables ``names`` while options resolve.

    Ansible's config manager reads ``os.environ`` itself and would turn ``""`` into
    ``false`` (validate_certs), the working directory (ca_path) or a refused choice (edition).
    """
    hidden = {name: os.environ.pop(name) for name in names if is_blank(os.environ.get(name))}
    try:
        yield
    finally:
        os.environ.update(hidden)


@contextmanager
def worker_pool(workers):
    """``run_all(functions)``: the functions' results in their order, up to ``workers`` of them running at once
    (threads of this process); with one worker they run one after another in this thread."""
    if workers <= 1:
        yield lambda functions: [function() for function in functions]
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="credvault-lookup") as executor:
        yield lambda functions: list(executor.map(lambda function: function(), functions))


class VaultLookupBase(LookupBase):
    """``PLUGIN`` names the lookup in its error messages."""

    PLUGIN = "vault"

    def load_options(self, variables, kwargs):
        """Resolve options from the keywords, then the templated ``credvault_*`` variables, env and ini."""
        self._refuse_unknown_keywords(kwargs)
        direct = {name: value for name, value in kwargs.items() if not (name in CONNECTION_OPTIONS and is_blank(value))}
        var_options = self._connection_vars(variables)
        with blank_env_unset(self._env_names()):
            try:
                self.set_options(var_options=var_options, direct=direct)
            except AnsibleError as exc:
                if is_missing_required_option(exc):
                    raise AnsibleLookupError(self._not_set_message(var_options, direct)) from None
                if not isinstance(exc, AnsibleOptionsError):
                    raise
                raise AnsibleLookupError("%s: %s" % (self.PLUGIN, self._option_error(exc))) from None
            if all(self.get_option(name) is None for name in ("auth_token", "auth_token_file")):
                raise AnsibleLookupError(self._not_set_message(var_options, direct))
        try:
            self.connection_option = with_auth_token(self.get_option)  # reads auth_token_file, once per lookup
        except VaultError as exc:
            raise AnsibleLookupError("%s: %s" % (self.PLUGIN, exc)) from None
        register_secrets(connection_secrets(self.connection_option))  # not `secret: true` in its docs: see _compat
        if not HAS_REQUESTS:
            raise AnsibleLookupError("%s: the Python library 'requests' is required on the controller" % self.PLUGIN)
        if not self.get_option("validate_certs"):
            display.warning(
                "%s: validate_certs is false, so the vault's TLS certificate is not verified; use ca_path "
                "to trust a private CA instead" % self.PLUGIN
            )

    def open_client(self, pool_size=None):
        """A client for the resolved connection options, keeping up to ``pool_size`` connections open for the
        threads that share it (``VaultClient.size_pool``); the caller closes it."""
        try:
            client = client_from_options(self.connection_option)
        except VaultError as exc:
            raise AnsibleLookupError("%s: %s" % (self.PLUGIN, exc)) from None
        if pool_size is not None:
            client.size_pool(pool_size)
        return client

    def run_cached(self, items, key_parts, fetch):
        """``fetch(items) -> {item: outcome}``, through the run cache when ``run_cache`` is on
        (``_run_cache.serve_cached``; ``key_parts(cache, item)`` is an item's key)."""
        if not self.get_option("run_cache"):
            return fetch(items)
        return serve_cached(self.warn, items, key_parts, fetch)

    def warn(self, message):
        display.warning("%s: %s" % (self.PLUGIN, message))

    def secrets(self, values):
        """``values``, the secrets the lookup returns, registered with ansible-core's Secrets API (2.22 and later,
        ``_compat.register_secrets``), so that they are masked wherever they would be printed, ``no_log`` or not.

        A value that is the lookup's ``default`` is not registered: it is the user's own, written in the play, and
        a short one (``-``, ``none``) would be masked wherever it appears in the run's output."""
        default = self._default()
        register_secrets(value for value in values if value != default)
        return values

    def settle(self, terms, outcomes):
        """The values of ``terms`` (labels, in order) from ``outcomes`` (a value or an ``AnsibleLookupError`` each).

        A ``MissingSecret`` gives ``default`` when the lookup has one set; else it and a ``DeniedSecret`` go by their
        option (``on_missing``, ``on_denied``): ``error`` raises it, ``warn`` leaves the term out with a warning,
        ``skip`` leaves it out. Any other error raises, the first in term order, after the warnings of the terms
        before it."""
        values = []
        for term, outcome in zip(terms, outcomes):
            if self.fails(outcome):
                raise outcome
            if isinstance(outcome, MissingSecret) and self._default() is not None:
                values.append(self._default())
            elif isinstance(outcome, (MissingSecret, DeniedSecret)):
                if self.get_option(outcome.option) == "warn":
                    display.warning("%s (%s=warn: %s left out of the result)" % (outcome, outcome.option, term))
            else:
                values.append(outcome)
        return values

    def fails(self, outcome):
        """Whether ``settle`` raises ``outcome``: an error that neither ``default`` nor its option settles."""
        if isinstance(outcome, MissingSecret) and self._default() is not None:
            return False
        if isinstance(outcome, (MissingSecret, DeniedSecret)):
            return self.get_option(outcome.option) == "error"
        return isinstance(outcome, AnsibleLookupError)

    def _default(self):
        return self.get_option("default") if "default" in self.option_definitions else None

    def flatten_terms(self, terms):
        """The terms with lists flattened at any depth, as ``flatten`` does; each one must be a string."""
        flat = []
        for term in terms or []:
            if isinstance(term, (list, tuple)):
                flat.extend(self.flatten_terms(term))
            elif isinstance(term, str):
                flat.append(term)
            else:
                raise AnsibleLookupError(
                    "%s: a term must be a string or a list of strings, not %s" % (self.PLUGIN, kind_of(term))
                )
        return flat

    def _option_error(self, exc):
        """What is wrong with an option, without its value: for an option with choices, the choices (ansible-core
        names the plugin by its Python path and quotes the value)."""
        named = CONFIG_NAMED.search(str(exc.args[0]))
        choices = named and (self.option_definitions.get(named.group(1)) or {}).get("choices")
        if choices:
            return "%s must be one of %s" % (named.group(1), ", ".join(map(str, choices)))
        return option_error_message(exc)

    def _keywords(self):
        return sorted(name for name in self.option_definitions if name != "_terms")

    def _refuse_unknown_keywords(self, kwargs):
        unknown = sorted(name for name in kwargs if name not in self._keywords())
        if unknown:
            raise AnsibleLookupError(
                "%s: unknown keyword%s %s; the keywords are %s"
                % (
                    self.PLUGIN,
                    "s" if len(unknown) > 1 else "",
                    ", ".join("%s=" % name for name in unknown),
                    ", ".join(self._keywords()),
                )
            )

    def _env_names(self):
        return [
            entry["name"] for definition in self.option_definitions.values() for entry in definition.get("env") or []
        ]

    def _connection_vars(self, variables):
        """The ``credvault_*`` variables, templated (the config manager reads ``vars:`` sources as written)."""
        wanted = {
            entry["name"] for definition in self.option_definitions.values() for entry in definition.get("vars") or []
        }
        values = {name: self._templar.template(value) for name, value in (variables or {}).items() if name in wanted}
        return {name: value for name, value in values.items() if not is_blank(value)}

    def _not_set_message(self, var_options, direct):
        missing = [
            name
            for name in CONNECTION_OPTIONS
            if self.option_definitions[name].get("required") and not self._resolves(name, var_options, direct)
        ]
        ways = ["set %s with %s" % (name, self._sources(name)) for name in missing]
        if not any(self._resolves(name, var_options, direct) for name in ("auth_token", "auth_token_file")):
            missing.append("auth_token")
            ways.append(
                "set auth_token with %s; or auth_token_file with %s"
                % (self._sources("auth_token"), self._sources("auth_token_file"))
            )
        return "%s: %s not set (lookups do not read module_defaults); %s" % (
            self.PLUGIN,
            " and ".join(missing) + (" are" if len(missing) > 1 else " is"),
            "; ".join(ways),
        )

    def _resolves(self, name, var_options, direct):
        """Whether option ``name`` has a value (a blank one counts as none)."""
        try:
            value = C.config.get_config_value(
                name, plugin_type=self.plugin_type, plugin_name=self._load_name, variables=var_options, direct=direct
            )
        except AnsibleError as exc:
            if is_missing_required_option(exc):
                return False
            if not isinstance(exc, AnsibleOptionsError):
                raise
            return True  # set, perhaps invalid: reported once the missing ones are set
        return value is not None and not is_blank(value)

    def _sources(self, name):
        """The ways to set option ``name``, from its definition: keyword, variables, environment, ini."""
        definition = self.option_definitions[name]
        ways = ["the %s= keyword" % name]
        ways.extend("the %s variable" % entry["name"] for entry in definition.get("vars") or [])
        ways.extend("the %s environment variable" % entry["name"] for entry in definition.get("env") or [])
        ways.extend(
            "%s in section [%s] of ansible.cfg" % (entry["key"], entry["section"])
            for entry in definition.get("ini") or []
        )
        return ", ".join(ways[:-1]) + " or " + ways[-1]
