"""The resource types the vault knows."""
from vault_simulator.data.resource_types import RESOURCE_TYPES
from vault_simulator.inputs import string_list
from vault_simulator.registry import endpoint
from vault_simulator.replies import success

ORGANIZATION_NAME = "Default Organization"


@endpoint("GET", "/resources/resourcetypes", op="GET RESOURCE TYPES", builds={"A": 11300, "B": 5300})
def list_resource_types(ctx):
    """Details.RESOURCETYPES and ORGANIZATIONNAME. Optional Details.RESOURCETYPE_CONTAINING,
    a list of strings, keeps the types whose name contains any of them (any case)."""
    wanted = [part.lower() for part in string_list(ctx.details, "RESOURCETYPE_CONTAINING")]
    types = [t for t in RESOURCE_TYPES if not wanted or any(part in t["RESOURCETYPE"].lower() for part in wanted)]
    return success("Resource types fetched successfully",
                   {"RESOURCETYPES": types, "ORGANIZATIONNAME": ORGANIZATION_NAME})
