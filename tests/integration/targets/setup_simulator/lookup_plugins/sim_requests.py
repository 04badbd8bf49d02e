# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: a simulator's request log (its GET /__simulator/requests), read or cleared from the controller.

``lookup('sim_requests', sim=sim)`` returns every vault request ``sim`` served since its log was last cleared;
``lookup('sim_requests', sim=sim, reset=true)`` clears the log and returns it empty. A target reads it in one task:

    - name: Read the request log
      ansible.builtin.set_fact:
        sim_requests: "{{ lookup('sim_requests', sim=sim) }}"

and setup_simulator's defaults derive ``sim_writes`` (the requests that are not GET) from that fact. Not part of
the collection; see simulator_api, which sends the requests.
"""

from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.loader import lookup_loader
from ansible.plugins.lookup import LookupBase

REQUEST_LOG = "/__simulator/requests"


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        simulator_api = lookup_loader.get("simulator_api", loader=self._loader, templar=self._templar)
        if boolean(kwargs.get("reset", False)):
            simulator_api.run(["DELETE", REQUEST_LOG], variables, sim=kwargs["sim"])
            return [[]]
        return simulator_api.run(["GET", REQUEST_LOG], variables, sim=kwargs["sim"])
