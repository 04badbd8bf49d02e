"""The built-in resource types, in the spec's RESOURCETYPES item shape, and GET RESOURCE TYPES.

The spec does not list the types; these are the ones its samples and the
edit-resource rules name, plus common managed systems.
"""

from vault_simulator.core.inputs import string_list
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import success
from vault_simulator.core.tenancy import DEFAULT_ORGANIZATION

# "A type cannot be changed from or to key store, license store, Rackspace or AWS IAM."
FIXED_TYPES = ("Key Store", "License Store", "Rackspace", "AWS IAM")
# "the resource types used with files are License Store and File Store"
FILE_TYPES = ("File Store", "License Store")

_RESOURCE_ATTRIBUTES = ["Resource Name", "DNS Name", "Description", "Department", "Location", "Resource URL"]
_ACCOUNT_ATTRIBUTES = ["User Account", "Password", "Notes"]


def _resource_type(name, category, sync_type, os_id, syncable=True, certificate=False, command_set=()):
    return {
        "RESOURCETYPE": name,
        "DEFAULTRESOURCETYPE": "true",
        "CUSTOMRESOURCETYPE": "false",
        "ISDEFAULT_SUPPORTED_RESOURCETYPE": "true",
        "ISSYNCSUPPORTED": "true" if syncable else "false",
        "ISCERTIFICATE": "true" if certificate else "false",
        "CATEGORY": category,
        "SYNCTYPE": sync_type,
        "OSID": os_id,
        "COMMAND_SET": list(command_set),
        "RESOURCE_ATTRIBUTES": list(_RESOURCE_ATTRIBUTES),
        "ACCOUNT_ATTRIBUTES": list(_ACCOUNT_ATTRIBUTES),
    }


RESOURCE_TYPES = [
    _resource_type("Windows", "Operating Systems", "Windows", "1"),
    _resource_type("Linux", "Operating Systems", "SSH", "2", command_set=["Linux Password Reset"]),
    _resource_type("WindowsDomain", "Operating Systems", "Windows Domain", "3"),
    _resource_type("MS SQL server", "Databases", "JDBC", "4"),
    _resource_type("Oracle DB server", "Databases", "JDBC", "5"),
    _resource_type("MySQL server", "Databases", "JDBC", "6"),
    _resource_type("Cisco IOS", "Network Devices", "SSH", "7", command_set=["Cisco IOS Password Reset"]),
    _resource_type("File Store", "Others", "NONE", "8", syncable=False),
    _resource_type("License Store", "Others", "NONE", "9", syncable=False),
    _resource_type("Key Store", "Others", "NONE", "10", syncable=False, certificate=True),
    _resource_type("Rackspace", "Cloud", "Rackspace", "11"),
    _resource_type("AWS IAM", "Cloud", "AWS IAM", "12"),
]

RESOURCE_TYPE_NAMES = tuple(t["RESOURCETYPE"] for t in RESOURCE_TYPES)


@endpoint("GET", "/resources/resourcetypes", op="GET RESOURCE TYPES", builds={"A": 11300, "B": 5300})
def list_resource_types(ctx):
    """Details.RESOURCETYPES and ORGANIZATIONNAME. Optional Details.RESOURCETYPE_CONTAINING,
    a list of strings, keeps the types whose name contains any of them (any case)."""
    wanted = [part.lower() for part in string_list(ctx.details, "RESOURCETYPE_CONTAINING")]
    types = [t for t in RESOURCE_TYPES if not wanted or any(part in t["RESOURCETYPE"].lower() for part in wanted)]
    return success(
        "Resource types fetched successfully", {"RESOURCETYPES": types, "ORGANIZATIONNAME": DEFAULT_ORGANIZATION}
    )
