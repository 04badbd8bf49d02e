# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""AWX/AAP credential plugin: a password or the current TOTP code of a vault account.

AWX finds ``credvault_plugin`` through the ``awx_plugins.credentials`` entry point ``credvault_vault`` and calls
``backend(**kwargs)`` with the source credential's inputs and the metadata of the field being filled. The vault
is reached with the credvault.vault collection's own client and account functions, built into the wheel
(``_client_modules``), as its lookup ``credvault.vault.vault_password`` does. No message holds the token, a
password or a TOTP code.
"""

from __future__ import annotations

import os
import tempfile
from collections import namedtuple
from contextlib import contextmanager

from ._ca_cert import CaCertError, check_ca_cert
from ._client_modules import account, errors, settings
from ._client_modules import client as client_module
from ._inputs import INPUTS
from ._messages import with_fields

# The shape AWX's own plugins have (awx_plugins.credentials.plugin.CredentialPlugin: name, inputs, backend), and a
# description of what it fetches for the places that show one.
CredentialPlugin = namedtuple("CredentialPlugin", ["name", "inputs", "backend", "plugin_description"])
PLUGIN_DESCRIPTION = (
    "Fetches an account's password, or its current TOTP code, from the credential vault, with the reason and "
    "ticket the vault may demand."
)

PLUGIN = "credvault_vault"


class CredvaultPluginError(Exception):
    """A secret could not be fetched; the message says why, in the terms of the AWX credential (``_messages``),
    and never holds a secret."""


def _failure(text, *fields):
    """The error for ``text``, naming the AWX ``fields`` to check when it does not name them already."""
    return CredvaultPluginError("%s: %s" % (PLUGIN, with_fields(text, fields)))


def _fields_to_check(exc):
    """The fields that decide the outcome of a failed call ``exc``."""
    if isinstance(exc, errors.VaultConnectionError) and "TLS client certificate" in str(exc):
        return ("client_cert", "client_key")
    if isinstance(exc, errors.VaultConnectionError) and ": the proxy " in str(exc):
        return ("proxy_url",)
    if isinstance(exc, errors.VaultConnectionError) and "TLS verification" in str(exc):
        return ("ca_cert", "url")
    if isinstance(exc, (errors.VaultConnectionError, errors.VaultResponseError)):
        return ("url",)
    if isinstance(exc, errors.VaultUnsupportedError):
        return ("field", "edition", "build")
    if isinstance(exc, errors.VaultAPIError) and errors.is_refusal(exc):
        return ("auth_token",)
    if isinstance(exc, errors.VaultAPIError):
        return ("reason", "ticket_id")
    return ("resource", "account")


def _text(kwargs, name):
    """The input ``name``, None when unset or blank (AWX leaves an unset field out or empty)."""
    value = kwargs.get(name)
    return None if settings.is_blank(value) else value


@contextmanager
def _pem_file(pem, kind):
    """A file of mode 0600 holding ``pem`` (the ``ca_cert``, ``client_cert`` or ``client_key`` input) while the
    request runs, then removed; None for an input left unset."""
    if pem is None:
        yield None
        return
    fd, path = tempfile.mkstemp(prefix="credvault-%s-" % kind, suffix=".pem")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(pem)
        yield path
    finally:
        os.unlink(path)


def _account_ref(client, resource, name):
    """The ids of ``resource``/``name``; a missing name and a refusal of this token fail differently."""
    label = "%s/%s" % (resource, name)
    try:
        return account.require_account(client, resource, name)
    except errors.VaultNotFoundError as exc:
        raise _failure("not found: %s" % exc, "resource", "account") from None
    except errors.VaultError as exc:
        if errors.is_refusal(exc):
            raise _failure("the vault refused to look up %s for this token: %s" % (label, exc), "auth_token") from None
        raise _failure("could not look up %s: %s" % (label, exc), *_fields_to_check(exc)) from None


def _fetch(client, kwargs):
    resource, name = _text(kwargs, "resource"), _text(kwargs, "account")
    if resource is None or name is None:
        raise _failure("resource and account are required")
    field = _text(kwargs, "field") or "password"
    if field not in ("password", "totp"):
        raise _failure("field must be password or totp, not %r" % field)
    ref = _account_ref(client, resource, name)
    label = "%s/%s" % (resource, name)
    try:
        if field == "totp":
            return account.get_totp(client, ref)
        return account.get_password(client, ref, _text(kwargs, "reason"), _text(kwargs, "ticket_id"))
    except errors.VaultNotFoundError as exc:
        raise _failure("not found: %s" % exc, "resource", "account") from None
    except errors.VaultUnsupportedError as exc:
        raise _failure("the %s of %s is not available: %s" % (field, label, exc), "field", "edition", "build") from None
    except account.AccountWithoutTotp as exc:
        raise _failure(str(exc), "account", "field") from None
    except errors.VaultAPIError as exc:
        message = "the vault refused the %s of %s: %s" % (field, label, exc)
        raise _failure(message, *_fields_to_check(exc)) from None
    except errors.VaultError as exc:
        message = "could not read the %s of %s: %s" % (field, label, exc)
        raise _failure(message, *_fields_to_check(exc)) from None


def _checked_ca_cert(kwargs):
    """The ``ca_cert`` input checked before any connection; None when unset (blank: AWX sends a cleared field as
    an empty string), meaning the system's CAs."""
    pem = _text(kwargs, "ca_cert")
    if pem is None:
        return None
    try:
        return check_ca_cert(pem)
    except CaCertError as exc:
        raise _failure(str(exc)) from None


def backend(**kwargs):
    """The secret named by the metadata ``resource``, ``account`` and ``field`` (``password`` or ``totp``)."""
    with (
        _pem_file(_checked_ca_cert(kwargs), "ca") as ca_path,
        _pem_file(_text(kwargs, "client_cert"), "client-cert") as client_cert,
        _pem_file(_text(kwargs, "client_key"), "client-key") as client_key,
    ):
        try:
            client = client_module.VaultClient(
                url=_text(kwargs, "url"),
                auth_token=_text(kwargs, "auth_token"),
                org_name=_text(kwargs, "org_name"),
                edition=_text(kwargs, "edition"),
                build=_text(kwargs, "build"),
                validate_certs=kwargs.get("validate_certs"),
                ca_path=ca_path,
                client_cert=client_cert,
                client_key=client_key,
                proxy_url=_text(kwargs, "proxy_url"),
            )
        except errors.VaultError as exc:
            raise _failure(str(exc)) from None
        try:
            return _fetch(client, kwargs)
        finally:
            client.close()


credvault_plugin = CredentialPlugin(
    "Credvault Vault Secret Lookup", inputs=INPUTS, backend=backend, plugin_description=PLUGIN_DESCRIPTION
)
