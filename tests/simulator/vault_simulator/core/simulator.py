"""One running vault: its settings, state, router, request log, randomness, faults and traffic counters."""

from dataclasses import dataclass

from flask import current_app

from vault_simulator.core.config import SimulatorConfig
from vault_simulator.core.faults import Faults
from vault_simulator.core.randomness import Randomness
from vault_simulator.core.registry import Router
from vault_simulator.core.request_log import RequestLog
from vault_simulator.core.store import Store
from vault_simulator.core.traffic import Traffic

_EXTENSION = "vault_simulator"


@dataclass
class Simulator:
    config: SimulatorConfig
    store: Store
    admin_token: str
    router: Router
    request_log: RequestLog
    rng: Randomness
    faults: Faults
    traffic: Traffic

    def attach(self, app):
        app.extensions[_EXTENSION] = self


def simulator_of(app) -> Simulator:
    return app.extensions[_EXTENSION]


def current_simulator() -> Simulator:
    return simulator_of(current_app)
