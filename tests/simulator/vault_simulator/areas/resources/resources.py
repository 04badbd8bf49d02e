"""Resources: list, create, edit, delete and the name-to-id lookups."""

import base64

from vault_simulator.areas.resources.account_fields import apply_account_fields
from vault_simulator.areas.resources.custom_fields import RESOURCE_LEVEL, merge_custom_fields, read_custom_fields
from vault_simulator.areas.resources.records import new_account
from vault_simulator.areas.resources.resource_types import FILE_TYPES, FIXED_TYPES, RESOURCE_TYPE_NAMES
from vault_simulator.areas.resources.views import resource_list_item
from vault_simulator.core.access import FULL_ACCESS, OWNER_NAMING_ROLES, VIEW, Reach, require_access
from vault_simulator.core.finders import (
    account_by_name,
    existing_resource_by_name,
    existing_user_by_name,
    require_policy,
    resource_by_id,
    resource_by_name,
)
from vault_simulator.core.groups import join_static_group
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.password_policies import DEFAULT_POLICY
from vault_simulator.core.records import ACCOUNT, RESOURCE
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.removals import remove
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.tenancy import in_organization

# The create-resource input fields that describe its first account.
_FIRST_ACCOUNT_FIELDS = ("ACCOUNTPASSWORDPOLICY", "NOTES", "ACCOUNTCUSTOMFIELD")
# Edit-resource input fields copied as they are.
_PLAIN_EDIT_FIELDS = {
    "LOCATION": "location",
    "RESOURCEURL": "url",
    "DEPARTMENT": "department",
    "RESOURCEDESCRIPTION": "description",
}


@endpoint("GET", "/resources", op="GET RESOURCES", builds=ANY_BUILD)
def list_resources(ctx):
    """The resources of the selected organization the caller can see; ``DNS NAME`` in edition B only."""
    reach = Reach(ctx.store, ctx.user)
    visible = [r for r in ctx.store.all(RESOURCE) if in_organization(r, ctx.org) and reach.can_access(r, VIEW)]
    items = [resource_list_item(ctx.store, r, ctx.config.edition) for r in visible]
    return success("Resources fetched successfully", items, totalRows=len(items))


@endpoint("POST", "/resources", op="CREATE RESOURCE", builds=ANY_BUILD)
def create_resource(ctx):
    """A resource with its first account.

    The spec does not name the description field of create; RESOURCEDESCRIPTION
    (its edit-resource name) is accepted. DNS NAME is the resource name. NOTES
    becomes the first account's notes. A multipart part ``file`` is kept for the
    File Store and License Store types.
    """
    details = ctx.details
    name = required_text(details, "RESOURCENAME")
    account_name = required_text(details, "ACCOUNTNAME")
    resource_type = required_text(details, "RESOURCETYPE")
    password = text(details, "PASSWORD")
    if not password:
        raise Failure("PASSWORD is required")
    if resource_type not in RESOURCE_TYPE_NAMES:
        raise Failure(f"Resource type {resource_type} does not exist")
    if resource_by_name(ctx.store, name, ctx.org) is not None:
        raise Failure(f"Resource {name} already exists")
    owner = _owner(ctx)
    policy = text(details, "RESOURCEPASSWORDPOLICY")
    resource = {
        "id": ctx.store.next_id(RESOURCE),
        "org_id": ctx.org["id"],
        "name": name,
        "description": text(details, "RESOURCEDESCRIPTION"),
        "type": resource_type,
        "dns_name": name,
        "url": text(details, "RESOURCEURL"),
        "policy": require_policy(policy) if policy else DEFAULT_POLICY,
        "department": "",
        "location": "",
        "owner_id": owner["id"],
        "custom_fields": merge_custom_fields(
            ctx.store, RESOURCE_LEVEL, [], read_custom_fields(details, "RESOURCECUSTOMFIELD")
        ),
        "file": _uploaded_file(ctx, resource_type),
    }
    ctx.store.put(RESOURCE, resource["id"], resource)
    account = new_account(ctx.store, resource, account_name, password)
    apply_account_fields(ctx, account, {k: details[k] for k in _FIRST_ACCOUNT_FIELDS if k in details})
    ctx.store.put(ACCOUNT, account["id"], account)
    group_name = text(details, "RESOURCEGROUPNAME").strip()
    if group_name:
        join_static_group(ctx.store, resource, group_name, ctx.user)
    return success(f"Resource {name} has been added successfully")


@endpoint("PUT", "/resources/<resource_id>", op="EDIT RESOURCE", builds=ANY_BUILD)
def edit_resource(ctx, resource_id):
    """Change the given fields; RESOURCECUSTOMFIELD is merged by label."""
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, FULL_ACCESS, f"edit resource {resource['name']}")
    details = ctx.details
    if "RESOURCENAME" in details:
        new_name = required_text(details, "RESOURCENAME")
        if new_name != resource["name"] and resource_by_name(ctx.store, new_name, ctx.org) is not None:
            raise Failure(f"Resource {new_name} already exists")
        resource["name"] = new_name
    for key, field in _PLAIN_EDIT_FIELDS.items():
        if key in details:
            resource[field] = text(details, key)
    if text(details, "RESOURCEPASSWORDPOLICY"):
        resource["policy"] = require_policy(text(details, "RESOURCEPASSWORDPOLICY"))
    if "RESOURCECUSTOMFIELD" in details:
        pairs = read_custom_fields(details, "RESOURCECUSTOMFIELD")
        resource["custom_fields"] = merge_custom_fields(ctx.store, RESOURCE_LEVEL, resource["custom_fields"], pairs)
    if text(details, "RESOURCETYPE"):
        resource["type"] = _changed_type(resource["type"], text(details, "RESOURCETYPE"))
    ctx.store.put(RESOURCE, resource["id"], resource)
    return success(f"Resource {resource['name']} has been modified successfully")


@endpoint("DELETE", "/resources/<resource_id>", op="DELETE RESOURCE", builds=ANY_BUILD)
def delete_resource(ctx, resource_id):
    """Delete the resource with everything that goes with it (``core.removals``): its accounts (with
    their shares, password requests and SSH key associations), its shares, its static group
    memberships, its remote password reset settings and its places in remote apps."""
    resource = resource_by_id(ctx.store, resource_id)
    require_access(ctx.store, ctx.user, resource, FULL_ACCESS, f"delete resource {resource['name']}")
    ctx.audit["resource"] = resource["name"]
    remove(ctx.store, RESOURCE, resource)
    return success(f"Resource {resource['name']} has been deleted successfully")


@endpoint("GET", "/resources/resourcename/<path:resource_name>", op="GET_RESOURCEID", builds=ANY_BUILD)
def resource_id_of_name(ctx, resource_name):
    resource = existing_resource_by_name(ctx.store, resource_name, ctx.org)
    return success("Resource ID fetched successfully", {"RESOURCEID": resource["id"]})


@endpoint("GET", "/resources/getResourceIdAccountId", op="GET_RESOURCEACCOUNTID", builds=ANY_BUILD)
def resource_and_account_ids(ctx):
    """RESOURCENAME and ACCOUNTNAME come from the query; any caller may resolve any names."""
    resource_name = required_text(ctx.query, "RESOURCENAME")
    account_name = required_text(ctx.query, "ACCOUNTNAME")
    resource = existing_resource_by_name(ctx.store, resource_name, ctx.org)
    account = account_by_name(ctx.store, resource, account_name)
    if account is None:
        raise Failure(f"Account {account_name} does not exist in resource {resource_name}")
    return success(
        "Resource ID and account ID fetched successfully", {"RESOURCEID": resource["id"], "ACCOUNTID": account["id"]}
    )


def _owner(ctx):
    """OWNERNAME's user; required when an administrator creates the resource."""
    owner_name = text(ctx.details, "OWNERNAME").strip()
    if owner_name:
        return existing_user_by_name(ctx.store, owner_name)
    if ctx.user["role"] in OWNER_NAMING_ROLES:
        raise Failure(
            "OWNERNAME is required when an Administrator, Password Administrator "
            "or Privileged Administrator creates a resource"
        )
    return ctx.user


def _uploaded_file(ctx, resource_type):
    upload = ctx.files.get("file")
    if upload is None:
        return None
    if resource_type not in FILE_TYPES:
        raise Failure(f"A file can only be added to a resource of type {' or '.join(FILE_TYPES)}")
    return {"name": upload.filename, "content_base64": base64.b64encode(upload.read()).decode("ascii")}


def _changed_type(current, requested):
    """The spec: "A type cannot be changed from or to key store, license store, Rackspace or AWS IAM"."""
    if requested not in RESOURCE_TYPE_NAMES:
        raise Failure(f"Resource type {requested} does not exist")
    if requested != current and (current in FIXED_TYPES or requested in FIXED_TYPES):
        raise Failure(
            f"The resource type cannot be changed from or to {', '.join(FIXED_TYPES[:-1])} or {FIXED_TYPES[-1]}"
        )
    return requested
