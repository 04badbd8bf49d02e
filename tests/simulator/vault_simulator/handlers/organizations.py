"""The organizations of the vault (edition B); the header ``orgName`` selects one of them."""
from vault_simulator.organizations import ORGANIZATION
from vault_simulator.registry import endpoint
from vault_simulator.replies import success


@endpoint("GET", "/organizations", op="GET_ORGANIZATIONS", builds={"B": 6320})
def list_organizations(ctx):
    """Every organization as {name, id, displayName} (strings), whatever the caller's role:
    a caller needs the display names to send ``orgName``."""
    items = [{"name": o["name"], "id": o["id"], "displayName": o["displayName"]}
             for o in ctx.store.all(ORGANIZATION)]
    return success("Organizations fetched successfully", items, totalRows=len(items))
