# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test helper: one JSON request to a simulator, sent from the controller process.

``lookup('simulator_api', METHOD, PATH, sim=sim, body=...)`` sends ``METHOD`` to ``sim.url`` + ``PATH``
with the simulator's admin token and CA, ``body`` as JSON, and returns the decoded answer (None for
an empty one). The fault matrix sets and clears faults, reads the request log and lists vault objects
this way many times per cell, far faster than a ``uri`` task each. Not part of the collection.
"""

import json
import ssl
import urllib.error
import urllib.request

from ansible.errors import AnsibleError
from ansible.plugins.lookup import LookupBase

TIMEOUT_SECONDS = 30


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        method, path = (str(term) for term in terms)
        sim = kwargs["sim"]
        body = kwargs.get("body")
        data = None if body is None else json.dumps(_plain(body)).encode("utf-8")
        request = urllib.request.Request(
            str(sim["url"]) + path,
            data=data,
            method=method,
            headers={"AUTHTOKEN": str(sim["token"]), "Content-Type": "application/json"},
        )
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
