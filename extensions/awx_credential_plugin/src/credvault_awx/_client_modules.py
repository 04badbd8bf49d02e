# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The collection's client modules the plugin calls: ``account``, ``client``, ``errors`` and ``settings``.

In the wheel they are the copy setup.py writes into ``credvault_awx._vault`` at build time. In this source tree,
which has no such copy (the collection's own tests run the plugin from here), they are the collection's modules
themselves, which the tests put on the path.
"""

from __future__ import annotations

try:
    from ._vault import _account as account
    from ._vault import _client as client
    from ._vault import _errors as errors
    from ._vault import _settings as settings
except ImportError:
    from ansible_collections.credvault.vault.plugins.module_utils import _account as account
    from ansible_collections.credvault.vault.plugins.module_utils import _client as client
    from ansible_collections.credvault.vault.plugins.module_utils import _errors as errors
    from ansible_collections.credvault.vault.plugins.module_utils import _settings as settings

__all__ = ["account", "client", "errors", "settings"]
