# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of every lookup: connection options from keywords and ``credvault_*`` variables, and one client."""

from __future__ import annotations

from ansible.errors import AnsibleLookupError
from ansible.plugins.lookup import LookupBase

from ansible_collections.credvault.vault.plugins.module_utils._client import HAS_REQUESTS
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError
from ansible_collections.credvault.vault.plugins.module_utils._options import CONNECTION_OPTIONS, client_from_options


class VaultLookupBase(LookupBase):
    """``PLUGIN`` names the lookup in its error messages."""

    PLUGIN = "vault"

    def load_options(self, variables, kwargs):
        """Resolve options from the keywords, then the templated ``credvault_*`` variables, env and ini."""
        self.set_options(var_options=self._connection_vars(variables), direct=kwargs)
        if not HAS_REQUESTS:
            raise AnsibleLookupError("%s: the Python library 'requests' is required on the controller" % self.PLUGIN)

    def open_client(self):
        """A client for the resolved connection options; the caller closes it."""
        try:
            return client_from_options(self.get_option)
        except VaultError as exc:
            raise AnsibleLookupError("%s: %s" % (self.PLUGIN, exc)) from None

    def _connection_vars(self, variables):
        """The ``credvault_*`` variables, templated: the config manager reads ``vars:`` sources as written."""
        wanted = {"credvault_%s" % option for option in CONNECTION_OPTIONS}
        return {name: self._templar.template(value) for name, value in (variables or {}).items() if name in wanted}
