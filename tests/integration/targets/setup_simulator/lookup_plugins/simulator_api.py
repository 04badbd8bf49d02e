# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: one request to a simulator, sent from the controller process.

``lookup('simulator_api', METHOD, PATH, sim=sim, body=..., form=...)`` sends ``METHOD`` to ``sim.url`` + ``PATH``
with ``sim.token`` as AUTHTOKEN (the admin token; ``sim | combine({'token': ...})`` asks as another user) and
``sim.ca_path`` as CA, ``body`` as JSON or ``form`` as form fields, and returns the decoded JSON answer (None for an
empty one). An answer other than 2xx fails the task. Not part of the collection.

A ``uri`` task runs a module: a Python process of its own for every request (about half a second of CPU). The
targets set and clear faults, empty and read the request log, probe what a user may read and list vault objects
this way instead, many times per target, at the cost of a function call. Targets that list setup_simulator as a
dependency or include its tasks have it (Ansible adds a role's lookup_plugins when it loads the role); runme.sh
playbooks set ``ANSIBLE_LOOKUP_PLUGINS`` to this directory.
"""

import json
import ssl
import urllib.error
import urllib.parse
import urllib.request

from ansible.errors import AnsibleError
from ansible.plugins.lookup import LookupBase

TIMEOUT_SECONDS = 30


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        method, path = (str(term) for term in terms)
        sim = kwargs["sim"]
        headers = {"AUTHTOKEN": str(sim["token"])}
        data = None
        if kwargs.get("body") is not None:
            data = json.dumps(_plain(kwargs["body"])).encode("utf-8")
            headers["Content-Type"] = "application/json"
        elif kwargs.get("form") is not None:
            data = urllib.parse.urlencode(_plain(kwargs["form"])).encode("utf-8")
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(str(sim["url"]) + path, data=data, method=method, headers=headers)
        context = ssl.create_default_context(cafile=str(sim["ca_path"]))
        try:
            with urllib.request.urlopen(request, context=context, timeout=TIMEOUT_SECONDS) as answer:
                content = answer.read()
        except urllib.error.HTTPError as error:
            raise AnsibleError(f"simulator_api: {method} {path} answered HTTP {error.code}") from None
        return [json.loads(content) if content else None]


def _plain(value):
    """Plain JSON types (ansible-core hands plugins tagged subclasses)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return value
    return str(value)
