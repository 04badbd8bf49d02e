"""Users' PGP keys (edition B): made on first fetch, handed out armored."""
