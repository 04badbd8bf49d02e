"""SSL certificates under the PKI root: create, add, list, details, delete, files and
keystores, CSRs and the simulator's CA that signs them, SSL discovery, deployment,
certificate groups and sharing."""
