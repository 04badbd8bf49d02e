"""Certificate groups (kind ``certificate_group``): create, edit, delete.

Fields: group_name (required, unique), group_description, group_mail (an
e-mail address, checked when given), ssl_details (comma-separated ids of
certificates that exist; CertID of GetAllSSLCertificates). Only an
Administrator or Privileged Administrator manages certificate groups. Create
and edit answer details ``[<the group>]`` in the spec's "Certificate group"
shape. Deleting a certificate takes it out of its groups; deleting a group
removes its shares.
"""

import re

from vault_simulator.areas.certificates.records import CERTIFICATE_MANAGEMENT_BUILDS, certificate_group_by_name
from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.records import CERTIFICATE, CERTIFICATE_GROUP, CERTIFICATE_SHARE
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.styles import PKI

_MAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")


@endpoint(
    "POST", "/createCertificateGroup", op="createCertificateGroup", builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI
)
def create_group(ctx):
    _require_group_manager(ctx, "create certificate groups")
    name = required_text(ctx.details, "group_name")
    if certificate_group_by_name(ctx.store, name) is not None:
        raise Failure(f"Certificate group {name} already exists")
    group = {
        "id": ctx.store.next_id(CERTIFICATE_GROUP),
        "name": name,
        "description": text(ctx.details, "group_description"),
        "mail": _mail(ctx),
        "certificate_ids": _certificate_ids(ctx),
    }
    ctx.store.put(CERTIFICATE_GROUP, group["id"], group)
    return success(f"Certificate group {name} created successfully", [_group_item(group)])


@endpoint("POST", "/editCertificateGroup", op="editCertificateGroup", builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def edit_group(ctx):
    """The spec: "same fields as create (group_name carries the new name)". The group to edit is
    named by ``old_group_name`` (the simulator's choice: the spec shows no field for it); without
    it, group_name names the group, which keeps its name. Only the fields given change;
    ssl_details replaces the group's certificates."""
    _require_group_manager(ctx, "edit certificate groups")
    new_name = required_text(ctx.details, "group_name")
    old_name = text(ctx.details, "old_group_name").strip() or new_name
    group = _existing_group(ctx, old_name)
    other = certificate_group_by_name(ctx.store, new_name)
    if other is not None and other["id"] != group["id"]:
        raise Failure(f"Certificate group {new_name} already exists")
    group["name"] = new_name
    if "group_description" in ctx.details:
        group["description"] = text(ctx.details, "group_description")
    if "group_mail" in ctx.details:
        group["mail"] = _mail(ctx)
    if "ssl_details" in ctx.details:
        group["certificate_ids"] = _certificate_ids(ctx)
    ctx.store.put(CERTIFICATE_GROUP, group["id"], group)
    return success(f"Certificate group {new_name} modified successfully", [_group_item(group)])


@endpoint(
    "DELETE", "/deleteCertificateGroup", op="deleteCertificateGroup", builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI
)
def delete_group(ctx):
    """The certificates stay; the group's shares go."""
    _require_group_manager(ctx, "delete certificate groups")
    group = _existing_group(ctx, required_text(ctx.details, "group_name"))
    for share in ctx.store.all(CERTIFICATE_SHARE):
        if (share["target_kind"], share["target_id"]) == (CERTIFICATE_GROUP, group["id"]):
            ctx.store.delete(CERTIFICATE_SHARE, share["id"])
    ctx.store.delete(CERTIFICATE_GROUP, group["id"])
    return success(f"Certificate group {group['name']} deleted successfully")


def _require_group_manager(ctx, action):
    if ctx.user["role"] not in FULL_REACH_ROLES:
        raise Failure(f"You are not authorized to {action}")


def _existing_group(ctx, name):
    group = certificate_group_by_name(ctx.store, name)
    if group is None:
        raise Failure(f"Certificate group {name} does not exist")
    ctx.audit["resource"] = name
    return group


def _mail(ctx):
    mail = text(ctx.details, "group_mail").strip()
    if mail and not _MAIL.fullmatch(mail):
        raise Failure(f"group_mail {mail} is not an e-mail address")
    return mail


def _certificate_ids(ctx):
    """The ids of ssl_details, in order, once each; every one must be a stored certificate."""
    ids = []
    for item in (part.strip() for part in text(ctx.details, "ssl_details").split(",")):
        if not item:
            continue
        if not item.isdigit():
            raise Failure(f"ssl_details must be comma-separated certificate ids, not {item}")
        certificate_id = str(int(item))
        if ctx.store.get(CERTIFICATE, certificate_id) is None:
            raise Failure(f"Certificate with ID {item} does not exist")
        if certificate_id not in ids:
            ids.append(certificate_id)
    return ids


def _group_item(group):
    return {
        "group_name": group["name"],
        "group_description": group["description"],
        "group_mail": group["mail"],
        "ssl_details": ",".join(group["certificate_ids"]),
    }
