"""Sharing resources, accounts and resource groups with users and user groups;
the share records are in ``core.shares``, what they give in ``core.access``."""
