"""What a handler gets to work with."""

from dataclasses import dataclass, field

from vault_simulator.core.config import SimulatorConfig
from vault_simulator.core.randomness import Randomness
from vault_simulator.core.store import Store


@dataclass(frozen=True)
class RequestContext:
    """``details`` is the INPUT_DATA Details object, ``query`` the query
    parameters, ``files`` the multipart file parts, ``user`` the caller,
    ``rng`` the simulator's one source of randomness, ``org`` the
    organization the header ``orgName`` selected, ``headers`` the request
    headers, ``remote_addr`` the caller's address.

    ``audit`` is what the handler wants its audit record to say (``resource``,
    ``account``, ``username``, ``operation``: see ``areas.audit.trail``); the
    record itself is written for every operation.
    """

    config: SimulatorConfig
    store: Store
    user: dict
    details: dict
    query: dict
    files: dict
    rng: Randomness
    org: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    remote_addr: str = "127.0.0.1"
    audit: dict = field(default_factory=dict)

    def supports(self, builds):
        return self.config.supports(builds)
