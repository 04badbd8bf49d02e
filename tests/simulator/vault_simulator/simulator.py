"""One running vault: its settings, state, router and request log."""
from dataclasses import dataclass

from flask import current_app

from vault_simulator.config import SimulatorConfig
from vault_simulator.registry import Router
from vault_simulator.request_log import RequestLog
from vault_simulator.store import Store

_EXTENSION = "vault_simulator"


@dataclass
class Simulator:
    config: SimulatorConfig
    store: Store
    admin_token: str
    router: Router
    request_log: RequestLog

    def attach(self, app):
        app.extensions[_EXTENSION] = self


def simulator_of(app) -> Simulator:
    return app.extensions[_EXTENSION]


def current_simulator() -> Simulator:
    return simulator_of(current_app)
