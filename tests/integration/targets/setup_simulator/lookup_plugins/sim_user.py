# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: creates vault users on a simulator through the REST API (POST /restapi/json/v1/user).

``lookup('sim_user', NAME, sim=sim)`` creates the Password User API user NAME and returns the vault's answer, whose
``operation.Details.AUTHTOKEN`` is its token; ``details={...}`` adds or overrides fields of the request (``EMAIL``,
or ``ISAPIUSER: 'false'`` with ``FIRSTNAME``, ``LASTNAME`` and ``PASSWORD`` for a person). ``query('sim_user',
*names, sim=sim)`` creates several and returns their answers in order (a refusal, such as a name that exists
already, is an answer too). Not part of the collection.
"""

import json

from ansible.plugins.loader import lookup_loader
from ansible.plugins.lookup import LookupBase

API_USER = {"ROLE": "Password User", "ISAPIUSER": "true"}


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        simulator_api = lookup_loader.get("simulator_api", loader=self._loader, templar=self._templar)
        answers = []
        for name in terms:
            details = {"USERNAME": name, **API_USER, **(kwargs.get("details") or {})}
            details = {str(key): str(value) for key, value in details.items()}
            form = {"INPUT_DATA": json.dumps({"operation": {"Details": details}})}
            answers.extend(
                simulator_api.run(["POST", "/restapi/json/v1/user"], variables, sim=kwargs["sim"], form=form)
            )
        return answers
