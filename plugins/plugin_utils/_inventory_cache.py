# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The inventory cache of ``credvault.vault.vault_resources``: one entry per vault identity, files 0600.

The key of an entry holds ``identity`` (the id cache's sha256 of the URL, the organization and the token), never
the token, so that what one token saw is never what another token gets.

Ansible's file cache plugins (``ansible.builtin.jsonfile`` and the other ``BaseFileCacheModule`` ones) write a
temporary file, rename it over the cache file and make it 0644, whatever the umask. ``keep_private`` has the
plugin itself (under the proxy ansible-core puts around it) write its entries another way: the plugin's own
``_dump`` into a temporary file made 0600, renamed over the cache file, so that no other user may read the file,
not even for a moment. A cache held in the process (``ansible.builtin.memory``) needs nothing; any other cache
(redis, memcached, mongodb...) keeps the inventory where this plugin cannot protect it, and is refused.
"""

from __future__ import annotations

import os
import tempfile

from ansible.plugins.cache import BaseFileCacheModule

from ansible_collections.credvault.vault.plugins.plugin_utils._compat import keeps_data_in_process
from ansible_collections.credvault.vault.plugins.plugin_utils._id_cache import FILE_MODE


class UnprotectedCache(Exception):
    """The configured cache plugin keeps its data where it cannot be made private; the message says which."""


def keep_private(cache, warn):
    """Make the entries ``cache`` (a ``CachePluginAdjudicator``) writes 0600 files, or raise ``UnprotectedCache``.

    ``warn(message)`` reports a file that could not be written, as Ansible's file cache plugins do.
    """
    plugin = cache._plugin
    while hasattr(plugin, "__wrapped__"):  # ansible-core's PluginInterposer, which prefixes keys and encodes values
        plugin = plugin.__wrapped__
    if keeps_data_in_process(plugin):
        return
    if not isinstance(plugin, BaseFileCacheModule):
        raise UnprotectedCache(
            "the inventory cache plugin %s keeps the inventory outside files this plugin can make private (0600); "
            "use a file cache plugin such as ansible.builtin.jsonfile, or ansible.builtin.memory (memory before "
            "ansible-core 2.19), or cache: false" % getattr(plugin, "ansible_name", type(plugin).__name__)
        )

    def set_private(key, value):
        plugin._cache[key] = value
        _write_private(plugin, plugin._get_cache_file_name(key), value, warn)

    plugin.set = set_private


def _write_private(plugin, path, value, warn):
    """``value`` dumped by ``plugin`` into a new file (``mkstemp``: 0600 at most), made 0600 and renamed over
    ``path``."""
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=".vault_resources-", dir=os.path.dirname(path))
    except OSError as exc:
        warn("the inventory cache file %s could not be written (%s)" % (path, exc.strerror or exc))
        return
    os.close(descriptor)
    try:
        plugin._dump(value, temporary)
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except OSError as exc:
        warn("the inventory cache file %s could not be written (%s)" % (path, exc.strerror or exc))
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)
