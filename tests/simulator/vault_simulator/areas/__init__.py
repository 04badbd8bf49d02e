"""The vault's areas, one package each: an area holds the endpoints of one part of the
spec and the records only it writes.

Importing this package imports every module of every area, so that each registers
its endpoints (``core.registry``), admin endpoints (``core.admin``), removal rules
(``core.removals``) and observers; a new module registers itself. An area imports
from ``vault_simulator.core`` and from its own package, never from another area
(tests/test_simulator_layout.py holds it to that).
"""

import importlib
import pkgutil

for _module in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    importlib.import_module(_module.name)
