"""The organizations list (edition B) and the admin endpoint that adds an organization;
the records and the ``orgName`` selection are in ``core.tenancy``."""
