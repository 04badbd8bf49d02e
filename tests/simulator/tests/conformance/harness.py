"""Scenarios: for each spec row, a function that drives the simulator to a
successful call of that row and names the records in the answer.

    @scenario("GET /resources")
    def list_resources(vault):
        vault.create_resource("web01")
        exchange = vault.exchange("GET", "/resources")
        return exchange.expect("Resource (list item, from the resource list)", *exchange.details)

``vault`` is a ``conftest.Vault`` of the edition under test (its default
build, which serves every endpoint of that edition). ``expect(title, *objects)``
asks the checker to hold each object to the spec's record table ``title``.
"""

from dataclasses import dataclass, field
from typing import Any

SCENARIOS = {}


def scenario(row_id):
    """Register the decorated function as the scenario of spec row ``row_id``."""

    def register(function):
        if row_id in SCENARIOS:
            raise ValueError(f"two scenarios for {row_id}")
        SCENARIOS[row_id] = function
        return function

    return register


@dataclass
class Exchange:
    """One request and its answer, plus the records the scenario points at."""

    method: str
    path: str
    http_status: int
    body: Any  # parsed JSON, or None when the answer is not JSON
    content: bytes
    records: dict = field(default_factory=dict)

    @property
    def operation(self):
        return self.body["operation"] if isinstance(self.body, dict) and "operation" in self.body else self.body

    @property
    def details(self):
        """Details (REST) or details (PKI) of the answer."""
        operation = self.operation or {}
        return operation.get("Details", operation.get("details"))

    def expect(self, title, *objects):
        self.records.setdefault(title, []).extend(objects)
        return self
