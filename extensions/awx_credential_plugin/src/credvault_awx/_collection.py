# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The credvault.vault collection's own client, imported from an installed collection (never a copy).

The collection must be importable as ``ansible_collections.credvault.vault``: its parent directory (the one
holding ``ansible_collections/``) on ``sys.path``, or named in ``CREDVAULT_COLLECTIONS_PATH`` (colon-separated,
like ``ANSIBLE_COLLECTIONS_PATH``). Without that variable, Ansible's default collections paths are tried.
"""

from __future__ import annotations

import importlib
import os
import sys

COLLECTIONS_PATH_ENV = "CREDVAULT_COLLECTIONS_PATH"
DEFAULT_COLLECTIONS_PATHS = ("~/.ansible/collections", "/usr/share/ansible/collections")
MODULE_UTILS = "ansible_collections.credvault.vault.plugins.module_utils"


class CollectionMissingError(ImportError):
    """The credvault.vault collection cannot be imported."""


def _search_paths():
    configured = os.environ.get(COLLECTIONS_PATH_ENV, "")
    paths = [path for path in configured.split(os.pathsep) if path.strip()] or DEFAULT_COLLECTIONS_PATHS
    return [os.path.abspath(os.path.expanduser(path)) for path in paths]


def _add_collection_paths(sys_path):
    for path in _search_paths():
        if os.path.isdir(os.path.join(path, "ansible_collections", "credvault", "vault")) and path not in sys_path:
            sys_path.append(path)


def module_utils(*names):
    """The modules ``names`` of the collection's ``plugins/module_utils``, in order."""
    try:
        return [importlib.import_module("%s.%s" % (MODULE_UTILS, name)) for name in names]
    except ImportError:
        _add_collection_paths(sys.path)
    try:
        return [importlib.import_module("%s.%s" % (MODULE_UTILS, name)) for name in names]
    except ImportError as exc:
        raise CollectionMissingError(
            "the credvault.vault collection is not importable (%s); install it with ansible-galaxy into a "
            "collections path and name that path in %s, or put the directory holding ansible_collections/ "
            "on PYTHONPATH" % (exc, COLLECTIONS_PATH_ENV)
        ) from None
