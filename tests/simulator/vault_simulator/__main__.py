"""Allow ``python -m vault_simulator`` as an alias of the ``vault-simulator`` command."""

from vault_simulator.cli import main

raise SystemExit(main())
