# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""How the gateway declares its functions: one function per catalogue row, and only these call the client.

A gateway module (``resources``, ``accounts``, ...) writes each row as a function named after it::

    @declares("get_associated_groups", unserved=UNSUPPORTED)
    def get_associated_groups(call, resource_id):
        \"\"\"GET ASSOCIATED GROUPS: the groups of a resource (Details ``ASSOCIATED GROUPS``).\"\"\"
        return call(path={"resource_id": resource_id}).details_list("ASSOCIATED GROUPS")

and domain code calls ``resources_api.get_associated_groups(client, resource_id)``: the declaration names the row
once, its parameters are the function's, its body says which keys it sends and reads (``_answers`` renames every
known spelling of a key to the spec's before the body reads it). ``unserved`` says, once per row, what an unserved
call means:

- ``FAILS`` (the default): the client's error is raised as it is;
- ``UNSUPPORTED``: a row some vaults lack. A call the configured edition and build refuse, or that an unconfigured
  vault answers HTTP 404 (the spec shows no other sign of a missing endpoint), raises ``VaultUnsupportedError``,
  which says why; domain code that can do without the answer catches that one error.

``require(client, *functions, details=None)`` refuses, before anything is sent, a task whose later call the
configured edition and build would refuse.
"""

from __future__ import annotations

import functools

from .._catalogue import CATALOGUE
from .._errors import VaultAPIError, VaultResponseError, VaultUnsupportedError
from .._gates import UNSERVED

FAILS = "fails"
UNSUPPORTED = "unsupported"

# Catalogue key -> its declared function, filled as the gateway modules are imported.
DECLARED = {}


class Call:
    """A declared function's access to its one catalogue row: ``call(path=..., details=..., query=..., files=...)``
    sends it and returns the ``VaultResponse``."""

    def __init__(self, client, key, unserved):
        self.client = client
        self.key = key
        self.unserved = unserved

    def __call__(self, path=None, details=None, query=None, files=None):
        try:
            return self.client.call(self.key, path=path, details=details, query=query, files=files)
        except (VaultAPIError, VaultResponseError) as exc:
            if self.unserved == UNSUPPORTED and exc.http_status == UNSERVED:
                raise exc.reworded("the vault does not serve it: %s" % exc, VaultUnsupportedError) from None
            raise


def declares(key, unserved=FAILS):
    """Declare the decorated function as the gateway function of catalogue row ``key``. The function takes a
    ``Call`` of the row where its callers pass the client; ``function.endpoint`` is the row."""
    row = CATALOGUE.get(key)
    if row is None:
        raise ValueError("no catalogue row %s" % key)
    if unserved not in (FAILS, UNSUPPORTED):
        raise ValueError("unserved must be FAILS or UNSUPPORTED, not %r" % (unserved,))

    def declare(function):
        if key in DECLARED:
            raise ValueError("catalogue row %s is declared twice" % key)

        @functools.wraps(function)
        def gateway_function(client, *args, **kwargs):
            return function(Call(client, key, unserved), *args, **kwargs)

        gateway_function.endpoint = row
        gateway_function.unserved = unserved
        DECLARED[key] = gateway_function
        return gateway_function

    return declare


def require(client, *functions, details=None):
    """Refuse (``VaultUnsupportedError``), before anything is sent, the rows of ``functions`` (and the gated fields
    of ``details``) that the configured edition and build lack; without edition and build, refuse nothing. Domain
    code calls it before a task's first write when a later call would be refused."""
    for function in functions:
        client.check_supported(function.endpoint.key, details)


def unsupported_reason(client, function):
    """Why the configured edition and build lack ``function``'s row, or None when they have it (or are not set)."""
    try:
        require(client, function)
    except VaultUnsupportedError as exc:
        return str(exc)
    return None
