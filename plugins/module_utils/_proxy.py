# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The HTTP proxy requests to the vault go through: ``proxy_url``, else the one the environment names for the vault's
URL (``HTTPS_PROXY``, ``ALL_PROXY``, minus ``NO_PROXY``, read as requests reads them, once per client: ``_transport``).
Messages name it without its user information, whose password is a secret."""

from __future__ import annotations

from urllib.parse import urlsplit

from ._errors import VaultConfigError

SCHEMES = ("http", "https")


def proxy_label(proxy_url, used):
    """How messages name the proxy requests to the vault go through: ``proxy_url`` when it is set, else ``used`` (the
    one the session sends them through, from the environment); None when they go straight to the vault.
    ``VaultConfigError`` for a ``proxy_url`` that is no HTTP URL."""
    if proxy_url:
        parts = _parts(proxy_url)
        if parts is None or parts.scheme not in SCHEMES or not parts.hostname:
            raise VaultConfigError(
                "proxy_url must be http://HOST:PORT or https://HOST:PORT, with USER:PASSWORD@ before HOST if the "
                "proxy asks for them"
            )
        return "%s (proxy_url)" % _shown(parts)
    parts = _parts(used) if used else None
    return "%s (from the environment)" % _shown(parts) if parts and parts.hostname else None


def proxy_password(proxy_url):
    """The password in ``proxy_url``'s user information, or None: a secret to mask."""
    parts = _parts(proxy_url) if proxy_url else None
    return parts.password if parts else None


def _parts(url):
    try:
        parts = urlsplit(str(url))
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number)
    except ValueError:
        return None
    return parts


def _shown(parts):
    port = ":%d" % parts.port if parts.port else ""
    return "%s://%s%s" % (parts.scheme, parts.hostname, port)
