"""The table of vault endpoints and the router built from it.

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
"""
from dataclasses import dataclass
from typing import Callable, Optional

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule

from vault_simulator.styles import REST, Style

# The spec's Build column "-": served by every build of both editions.
ANY_BUILD = {"A": 0, "B": 0}

ENDPOINTS = []


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
        return request_path[len(self.style.root):]


def endpoint(method, path, op, builds, style=REST):
    """Register the decorated function as the handler of ``method`` ``path``."""
    def register(handler):
        ENDPOINTS.append(Endpoint(method, path, op, dict(builds), style, handler))
        return handler
    return register


class Router:
    """Matches a request against the endpoints one edition and build serve."""

    def __init__(self, config):
        served = [e for e in ENDPOINTS if config.supports(e.builds)]
        self._endpoints = served
        self._map = Map(
            [Rule(e.full_path, methods=[e.method], endpoint=i) for i, e in enumerate(served)],
            merge_slashes=False,
        )

    def match(self, environ) -> Optional[tuple]:
        """Return ``(endpoint, path_arguments)``, or ``None`` when not served."""
        try:
            index, arguments = self._map.bind_to_environ(environ).match()
        except HTTPException:
            return None
        return self._endpoints[index], arguments
