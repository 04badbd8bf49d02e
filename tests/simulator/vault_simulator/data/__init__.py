"""Built-in catalogues the vault ships with (resource types, password policies)."""
