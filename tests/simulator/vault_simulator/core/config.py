"""The settings a simulator instance runs with."""

from dataclasses import dataclass
from typing import Optional

from vault_simulator.core.dialect import DEFAULT_DIALECT, DIALECTS

EDITIONS = ("A", "B")
DEFAULT_BUILDS = {"A": 12450, "B": 6320}


@dataclass(frozen=True)
class SimulatorConfig:
    """What kind of vault to imitate and how strict to be.

    ``require_reason`` imitates a deployment that forces a REASON for password
    retrieval; ``require_ticket`` one where ticketing is enabled (TICKETID).
    ``state_path`` is an SQLite file kept across restarts; ``None`` keeps the
    state in memory. ``admin_token`` fixes the administrator's AUTHTOKEN;
    ``None`` keeps the one already in the state, or makes a new one.
    ``access_control`` turns on password access control: a Password User
    must request a password, have it approved and check it out before
    retrieving it. ``seed`` makes generated tokens, keys and passwords
    reproducible. ``faults`` are the fault rules the vault starts with
    (see ``faults.FaultRule``). ``dialect`` is how it answers: ``spec``, as the
    specification writes its answers, or ``real``, as recorded real servers do
    (see ``dialect``).
    """

    edition: str = "A"
    build: Optional[int] = None
    admin_token: Optional[str] = None
    require_reason: bool = False
    require_ticket: bool = False
    state_path: Optional[str] = None
    access_control: bool = False
    seed: Optional[int] = None
    faults: tuple = ()
    dialect: str = DEFAULT_DIALECT

    def __post_init__(self):
        if self.edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}")
        if self.dialect not in DIALECTS:
            raise ValueError(f"dialect must be one of {', '.join(DIALECTS)}")
        if self.build is None:
            object.__setattr__(self, "build", DEFAULT_BUILDS[self.edition])

    def supports(self, builds):
        """True when this edition and build have a feature gated by ``builds``.

        ``builds`` maps an edition to its minimum build, as the spec's Build
        column does; an edition missing from it does not have the feature.
        """
        minimum = builds.get(self.edition)
        return minimum is not None and self.build >= minimum
