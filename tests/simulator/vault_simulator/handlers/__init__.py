"""The vault's endpoints, one module per area; importing this package registers them all."""
from vault_simulator.handlers import accounts, passwords, resource_types, resources, totp, users  # noqa: F401
