# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The arguments of the ``vault_audit`` event source, resolved as a module's options are.

A rulebook hands the source a plain dict; the connection options take the modules' argument spec
(``connection_argument_spec``: the ``CREDVAULT_*`` environment variables, a blank value counting as unset) and
the source's own options are checked the same way, by ansible-core's ``ArgumentSpecValidator``. The
source's DOCUMENTATION mirrors ``source_argument_spec`` (a unit test compares them).
"""

from __future__ import annotations

import os

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.credvault.vault.plugins.module_utils._audit import MAX_PAGE_SIZE
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError, VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._options import (
    client_from_options,
    connection_argument_spec,
    with_auth_token,
)
from ansible_collections.credvault.vault.plugins.module_utils._proxy import proxy_password
from ansible_collections.credvault.vault.plugins.plugin_utils._audit_events import (
    START_AT,
    AuditEvents,
    Cursor,
    Filters,
)

__all__ = ["VaultError", "audit_events", "source_argument_spec", "source_settings"]

# ansible-rulebook adds its own arguments (eda_feedback_queue) to the rulebook's.
RULEBOOK_ARGUMENT_PREFIX = "eda_"
TOKEN_VARIABLE = "CREDVAULT_AUTH_TOKEN"


def _patterns():
    return {"type": "list", "elements": "str", "default": []}


def source_argument_spec():
    spec = connection_argument_spec()
    spec.update(
        audit_types={
            "type": "list",
            "elements": "str",
            "choices": ["resource", "user"],
            "default": ["resource", "user"],
        },
        operations=_patterns(),
        exclude_operations=_patterns(),
        resources=_patterns(),
        accounts=_patterns(),
        interval={"type": "float", "default": 30.0},
        max_backoff={"type": "float", "default": 300.0},
        cursor_file={"type": "path"},
        start_at={"type": "str", "choices": list(START_AT), "default": "now"},
        page_size={"type": "int", "default": 100},
    )
    return spec


def source_settings(args):
    """The checked arguments, defaults and environment filled in; ``VaultInputError`` lists every problem
    (never a value of ``auth_token``). A null argument (a rulebook variable left empty) counts as not given."""
    given = {
        key: value
        for key, value in (args or {}).items()
        if value is not None and not str(key).startswith(RULEBOOK_ARGUMENT_PREFIX)
    }
    result = ArgumentSpecValidator(source_argument_spec()).validate(given)
    secrets = [value for value in (given.get("auth_token"), os.environ.get(TOKEN_VARIABLE)) if value] + [
        proxy_password(value) for value in (given.get("proxy_url"), os.environ.get("CREDVAULT_PROXY_URL")) if value
    ]
    problems = [_without(str(message), secrets) for message in result.error_messages]
    settings = result.validated_parameters
    if not problems:
        if settings["interval"] <= 0 or settings["max_backoff"] < settings["interval"]:
            problems.append("interval must be above 0 seconds, and max_backoff at least interval")
        if not 1 <= settings["page_size"] <= MAX_PAGE_SIZE:
            problems.append("page_size must be from 1 to %d" % MAX_PAGE_SIZE)
        if not settings["audit_types"]:
            problems.append("audit_types must name resource, user or both")
        problems += _cursor_file_problems(settings["cursor_file"])
        problems += _token_problems(settings)
    if problems:
        raise VaultInputError("credvault.vault.vault_audit: %s" % "; ".join(problems))
    return settings


def _token_problems(settings):
    """Why no token can be had (none set, both set, an ``auth_token_file`` that cannot serve), checked at start;
    else ``settings`` get the token, read from ``auth_token_file`` once, for the source's whole run."""
    try:
        get_option = with_auth_token(settings.get)
    except VaultError as exc:
        return [str(exc)]
    settings.update(auth_token=get_option("auth_token"), auth_token_file=None)
    return []


def _cursor_file_problems(path):
    """Why the cursor cannot be kept at ``path``, checked at start: it is written (a file beside it, then renamed)
    only after the first event, which would stop the source then."""
    if not path:
        return []
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return ["cursor_file %s is a directory: give the path of a file in it" % path]
    if not os.path.isdir(directory):
        return ["cursor_file %s: its directory %s does not exist" % (path, directory)]
    if not os.access(directory, os.W_OK | os.X_OK):
        return ["cursor_file %s: its directory %s is not writable by this user" % (path, directory)]
    return []


def _without(message, secrets):
    for secret in sorted(map(str, secrets), key=len, reverse=True):
        message = message.replace(secret, "********")
    return message


def audit_events(settings):
    """The source's polls: its client, its cursor (loaded from ``cursor_file``) and its filters."""
    client = client_from_options(settings.get)
    cursor = Cursor.load(client.base_url, settings["cursor_file"])
    filters = Filters(
        settings["operations"], settings["exclude_operations"], settings["resources"], settings["accounts"]
    )
    return AuditEvents(client, cursor, settings["audit_types"], filters, settings["start_at"], settings["page_size"])
