# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: the names of the resources a simulator holds now (GET /restapi/json/v1/resources as ``sim``).

``lookup('sim_resource_names', sim=sim)`` returns them as a list ([] when the vault lists none). Not part of the
collection.
"""

from ansible.plugins.loader import lookup_loader
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        simulator_api = lookup_loader.get("simulator_api", loader=self._loader, templar=self._templar)
        answer = simulator_api.run(["GET", "/restapi/json/v1/resources"], variables, sim=kwargs["sim"])[0]
        return [[resource["RESOURCE NAME"] for resource in answer["operation"].get("Details") or []]]
