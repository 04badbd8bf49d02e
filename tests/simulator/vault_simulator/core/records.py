"""Every kind of record the store holds, defined once.

A kind names a set of JSON records in ``store.Store``; the area named beside
each one writes them. Other areas read them through the store, ``finders``
or ``removals``, never through the owning area's modules.
"""

# Resources and their accounts (areas.resources); custom field definitions by level and label.
RESOURCE = "resource"
ACCOUNT = "account"
CUSTOM_FIELD = "custom_field"
# Users, their AUTHTOKENs and the built-in admin's token (core.authentication, areas.users).
USER = "user"
TOKEN = "token"
ADMIN_TOKEN = "admin_token"
# Organizations (core.tenancy), user groups (areas.user_groups), resource groups (core.groups).
ORGANIZATION = "organization"
USER_GROUP = "user_group"
RESOURCE_GROUP = "resource_group"
# Shares of resources, accounts and resource groups (core.shares, areas.sharing).
SHARE = "share"
# The password workflow's requests and remote password reset settings (areas.passwords).
PASSWORD_REQUEST = "password_request"
REMOTE_RESET = "remote_reset"
# Remote apps (areas.remote_apps).
REMOTE_APP = "remote_app"
# The audit trail (areas.audit).
AUDIT = "audit"
# Agent keys and the agent install key (areas.agents).
AGENT_KEY = "agent_key"
AGENT_INSTALL_KEY = "agent_install_key"
# SSH keys and their associations with accounts (areas.ssh_keys).
SSH_KEY = "ssh_key"
SSH_KEY_ASSOCIATION = "ssh_key_association"
# Users' PGP keys (areas.pgp_keys).
PGP_KEY = "pgp_key"
# SSL certificates, certificate groups and shares, discovered servers, CSRs, the simulator's CA
# (areas.certificates).
CERTIFICATE = "ssl_certificate"
CERTIFICATE_GROUP = "certificate_group"
CERTIFICATE_SHARE = "certificate_share"
SSL_SERVER = "ssl_server"
CSR = "csr"
CERTIFICATE_AUTHORITY = "certificate_authority"
