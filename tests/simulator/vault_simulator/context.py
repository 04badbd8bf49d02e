"""What a handler gets to work with."""
from dataclasses import dataclass

from vault_simulator.config import SimulatorConfig
from vault_simulator.store import Store


@dataclass(frozen=True)
class RequestContext:
    """``details`` is the INPUT_DATA Details object, ``query`` the query
    parameters, ``files`` the multipart file parts, ``user`` the caller."""

    config: SimulatorConfig
    store: Store
    user: dict
    details: dict
    query: dict
    files: dict

    def supports(self, builds):
        return self.config.supports(builds)
