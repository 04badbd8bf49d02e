"""The table of vault endpoints, the router built from it, and the operation observers.

Adding an endpoint is adding one decorated handler::

    @endpoint("GET", "/resources/<resource_id>/accounts",
              op="GET RESOURCE ACCOUNTLIST", builds=ANY_BUILD)
    def list_accounts(ctx, resource_id):
        ...

``builds`` maps an edition to the minimum build that serves the endpoint;
an edition absent from it does not have the endpoint at all. ``style`` fixes
the path root and the response shape (see ``styles``). A handler returns a
``Reply`` or raises ``Failure``. Decorators stack, so one handler can serve
several registrations (for example a method that differs by edition).

An observer registered with ``@after_each_operation`` sees every operation a
handler ran, failed ones too (the audit trail is one).
"""

from dataclasses import dataclass
from typing import Callable, Optional

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule

from vault_simulator.core.styles import REST, Style

# The spec's Build column "-": served by every build of both editions.
ANY_BUILD = {"A": 0, "B": 0}

ENDPOINTS = []
OBSERVERS = []


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    op: str
    builds: dict
    style: Style
    handler: Callable

    @property
    def full_path(self):
        return self.style.root + self.path

    def path_of(self, request_path):
        """The request path without this endpoint's root (``/user/lock``)."""
        return request_path[len(self.style.root) :]


def endpoint(method, path, op, builds, style=REST):
    """Register the decorated function as the handler of ``method`` ``path``."""

    def register(handler):
        ENDPOINTS.append(Endpoint(method, path, op, dict(builds), style, handler))
        return handler

    return register


def after_each_operation(observer):
    """Register ``observer(ctx, op, path, arguments, status)``: called after each operation a handler
    ran, with the path below the endpoint's root and the result status (``Success`` or ``Failed``),
    in a transaction of its own that the operation's failure does not undo."""
    OBSERVERS.append(observer)
    return observer


# werkzeug compiles each rule into Python code, about 0.1 s of CPU for the whole table: every application of the
# process (the tests make one per test) shares the map of the same endpoints, which no request changes.
_MAPS = {}


def _map_of(endpoints):
    """The routing map of ``endpoints`` (rule ``i`` leads to ``endpoints[i]``), made once per process."""
    key = tuple(id(endpoint) for endpoint in endpoints)
    if key not in _MAPS:
        _MAPS[key] = Map(
            [Rule(e.full_path, methods=[e.method], endpoint=i) for i, e in enumerate(endpoints)],
            merge_slashes=False,
        )
    return _MAPS[key]


class Router:
    """Matches a request against every registered endpoint, then keeps the
    match only when this edition and build serve it.

    Matching against all of them first means a path another build serves
    (``PUT /resources/share`` from B 6320) is never taken for a broader
    pattern (``PUT /resources/<resource_id>``) where it is not served.
    """

    def __init__(self, config):
        self._config = config
        self._endpoints = list(ENDPOINTS)
        self._map = _map_of(self._endpoints)

    def match(self, environ) -> Optional[tuple]:
        """Return ``(endpoint, path_arguments)``, or ``None`` when not served."""
        adapter = self._map.bind_to_environ(environ)
        try:
            index, arguments = adapter.match()
        except HTTPException:
            return None
        endpoint = self._endpoints[index]
        if self._config.supports(endpoint.builds):
            return endpoint, arguments
        return self._served_alternative(adapter, endpoint)

    def _served_alternative(self, adapter, unserved):
        """The same path registered again for this edition (``/getSSHKey`` is GET in A, POST in B)."""
        for index, endpoint in enumerate(self._endpoints):
            if (
                endpoint is not unserved
                and endpoint.full_path == unserved.full_path
                and endpoint.method == unserved.method
                and self._config.supports(endpoint.builds)
            ):
                return endpoint, adapter.match()[1]
        return None
