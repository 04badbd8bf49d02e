# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The TLS client certificate the client shows the vault (``client_cert``, ``client_key``), for a vault behind a
gateway that demands one. Checked when the client is made, before any request: files that exist and can be read, a
PEM certificate and the private key that matches it, a key that is not encrypted (requests cannot give a passphrase,
and OpenSSL would ask for one on a terminal that no task has)."""

from __future__ import annotations

import os
import ssl

from ._errors import VaultConfigError


class _Encrypted(Exception):
    """OpenSSL asked for the key's passphrase."""


def _ask_for_passphrase():
    raise _Encrypted()


def client_certificate(cert, key):
    """``cert`` for requests: None, the file ``cert`` (the certificate and its key in one file) or (``cert``,
    ``key``); ``VaultConfigError`` naming the file that cannot serve."""
    if not cert:
        if key:
            raise VaultConfigError("client_key is set without client_cert: set client_cert to the certificate file")
        return None
    for option, path in (("client_cert", cert), ("client_key", key)):
        if path and not os.path.isfile(path):
            raise VaultConfigError("%s %s does not exist or is not a file" % (option, path))
        if path and not os.access(path, os.R_OK):
            raise VaultConfigError("%s %s cannot be read" % (option, path))
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_cert_chain(cert, key or None, password=_ask_for_passphrase)
    except _Encrypted:
        raise VaultConfigError(
            "the private key in %s is encrypted: give client_key an unencrypted key file that only its owner can "
            "read (requests cannot give a passphrase)" % (key or cert)
        ) from None
    except ssl.SSLError as exc:
        what = "do not match" if exc.reason == "KEY_VALUES_MISMATCH" else "are not a PEM certificate and private key"
        raise VaultConfigError(
            "client_cert %s and client_key %s %s" % (cert, key or "(in the same file)", what)
        ) from None
    return (cert, key) if key else cert
