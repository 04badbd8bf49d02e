# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: creates a user group on a simulator through its admin endpoint (the spec has no call for it).

``lookup('sim_user_group', NAME, sim=sim, description='...')`` creates the group NAME (description "" when not
given) with POST /__simulator/user-groups and returns its list item {userGroupName, userGroupId, dateCreated,
description}; a group of that name that exists is answered as it is. Not part of the collection.
"""

from ansible.plugins.loader import lookup_loader
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        simulator_api = lookup_loader.get("simulator_api", loader=self._loader, templar=self._templar)
        return [
            simulator_api.run(
                ["POST", "/__simulator/user-groups"],
                variables,
                sim=kwargs["sim"],
                body={"userGroupName": name, "description": kwargs.get("description") or ""},
            )[0]
            for name in terms
        ]
