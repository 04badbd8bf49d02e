"""SSH keys under the PKI root: create, import, list, get, export, delete, their
associations with accounts, and the key material and files."""
