"""Users and API users: create, look up, list, delete, lock, unlock, reset MFA."""
