"""A local HTTPS simulator of the credential vault REST API (credvault.vault tests)."""
