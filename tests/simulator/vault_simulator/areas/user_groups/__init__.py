"""User groups: the records (created through the admin endpoint or ``--user-group``),
membership, id look-up, listing and deletion."""
