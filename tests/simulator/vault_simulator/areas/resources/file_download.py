"""Downloading the file of a File Store or License Store resource, or of an additional field."""

import base64
import mimetypes

from vault_simulator.areas.resources.custom_field_files import field_file
from vault_simulator.areas.resources.resource_types import FILE_TYPES
from vault_simulator.core.access import VIEW, require_account_access
from vault_simulator.core.finders import account_by_id, resource_by_id
from vault_simulator.core.inputs import flag, required_text
from vault_simulator.core.reason_and_ticket import require_reason, require_ticket
from vault_simulator.core.records import ACCOUNT
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, FileReply
from vault_simulator.core.timefmt import now_iso

REASON_REQUIRED = "A reason is required to download this file"
FIELD_LEVELS = ("ACCOUNT", "RESOURCE")


@endpoint("GET", "/resources/<resource_id>/accounts/<account_id>/downloadfile", op="DOWNLOAD FILE", builds=ANY_BUILD)
def download_file(ctx, resource_id, account_id):
    """The file itself as the body (Content-Disposition attachment with its name);
    a failure answers JSON in the usual shape (the spec names no operation: the
    simulator calls it ``DOWNLOAD FILE``).

    Without ISCUSTOMFIELD it is the file uploaded with the File Store or License
    Store resource. With ISCUSTOMFIELD ``true`` it is the file of the additional
    field CUSTOMFIELDLABEL of the account or the resource (CUSTOMFIELDTYPE
    ``ACCOUNT`` or ``RESOURCE``); see ``custom_field_files`` for how a field gets a
    file. REASON is needed when the vault forces a reason, TICKETID when ticketing
    is enabled. The download counts as an access to the account. Password access
    control does not apply to files.
    """
    resource = resource_by_id(ctx.store, resource_id)
    account = account_by_id(ctx.store, resource, account_id)
    require_account_access(
        ctx.store, ctx.user, resource, account, VIEW, f"download the file of {resource['name']}/{account['name']}"
    )
    require_reason(ctx, REASON_REQUIRED)
    require_ticket(ctx)
    if flag(ctx.details, "ISCUSTOMFIELD"):
        name, content = _field_file(ctx, resource, account)
    else:
        name, content = _resource_file(resource)
    account["last_accessed"] = now_iso()
    ctx.store.put(ACCOUNT, account["id"], account)
    return FileReply(name, content, mimetypes.guess_type(name)[0] or "application/octet-stream")


def _resource_file(resource):
    if resource["type"] not in FILE_TYPES:
        raise Failure(
            f"Resource {resource['name']} is of type {resource['type']}: only {' and '.join(FILE_TYPES)} "
            "resources hold a file"
        )
    held = resource.get("file")
    if not held:
        raise Failure(f"Resource {resource['name']} holds no file")
    return held["name"], base64.b64decode(held["content_base64"])


def _field_file(ctx, resource, account):
    level = required_text(ctx.details, "CUSTOMFIELDTYPE")
    if level not in FIELD_LEVELS:
        raise Failure(f"CUSTOMFIELDTYPE must be {' or '.join(FIELD_LEVELS)}")
    label = required_text(ctx.details, "CUSTOMFIELDLABEL")
    if level == "ACCOUNT":
        record, owner = account, f"account {account['name']}"
    else:
        record, owner = resource, f"resource {resource['name']}"
    found = field_file(record, label)
    if found is None:
        raise Failure(f"The {owner} has no additional field {label}")
    if found[0] is None:
        raise Failure(f"The additional field {label} of {owner} holds no file")
    return found
