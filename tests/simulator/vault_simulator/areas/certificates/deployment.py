"""Deploying a certificate to the servers the vault knows."""

from vault_simulator.areas.certificates.records import (
    CERTIFICATE_MANAGEMENT_BUILDS,
    add_installation,
    describe,
    require_manager,
    require_private_key,
    selected_certificate,
)
from vault_simulator.core.inputs import text
from vault_simulator.core.records import CERTIFICATE, SSL_SERVER
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import SUCCESS, Failure, success
from vault_simulator.core.styles import PKI
from vault_simulator.core.timefmt import now_iso

_WHERE_SERVERS_COME_FROM = "the vault's servers are the hosts where SSL discovery found a certificate"


@endpoint("POST", "/deployCertificate", op="DeployCertificate", builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def deploy_certificate(ctx):
    """Deploy to ``serverName``, or without it to every stored server.

    The stored servers are the hosts where sslCertSingleDiscovery or sslCertRangeDiscovery
    found a certificate (at the port where they found it). The certificate goes with its
    private key, so the vault must hold it. Each deployment is recorded on the certificate,
    which from then on is installed at that server too (getCertificateDetails).
    ``deployStatus`` has one {server, message, status} per server; totalRows counts them.
    """
    record = selected_certificate(ctx)
    require_manager(ctx, record, f"deploy certificate {record['common_name']}")
    require_private_key(record, "a certificate is deployed together with its private key")
    servers = ctx.store.all(SSL_SERVER)
    server_name = text(ctx.details, "serverName").strip()
    if server_name:
        servers = [s for s in servers if s["id"] == server_name.lower()]
        if not servers:
            raise Failure(f"Server {server_name} is not known to the vault: {_WHERE_SERVERS_COME_FROM}")
    elif not servers:
        raise Failure(f"The vault knows no server to deploy to: {_WHERE_SERVERS_COME_FROM}")
    statuses = []
    for server in servers:
        message = f"Certificate {describe(record)} deployed to {server['name']} at port {server['port']}"
        record["deployments"][server["name"]] = {"status": SUCCESS, "message": message, "time": now_iso()}
        add_installation(record, {"host": server["name"], "port": server["port"], "ip": server["ip"]})
        statuses.append({"server": server["name"], "message": message, "status": SUCCESS})
    ctx.store.put(CERTIFICATE, record["id"], record)
    return success(
        f"Certificate {describe(record)} deployed to {len(statuses)} servers",
        totalRows=len(statuses),
        deployStatus=statuses,
    )
