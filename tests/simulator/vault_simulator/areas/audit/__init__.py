"""The audit trail: one record per vault operation (an observer of every operation),
read back through GET /audit."""
